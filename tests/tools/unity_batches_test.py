#!/usr/bin/env python3
"""tools/check_unity_batches.py: a file-local name met twice in one batch fails; the same
name in two named namespaces, or in two batches, does not."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "check_unity_batches.py")


def run(sources, batches):
    with tempfile.TemporaryDirectory() as root:
        paths = {}
        for name, text in sources.items():
            paths[name] = os.path.join(root, name)
            with open(paths[name], "w") as f:
                f.write(text)
        unity = os.path.join(root, "build", "CMakeFiles", "lib.dir", "Unity")
        os.makedirs(unity)
        for i, members in enumerate(batches):
            with open(os.path.join(unity, f"unity_{i}_cxx.cxx"), "w") as f:
                f.write("".join(f'#include "{paths[m]}"\n' for m in members))
        done = subprocess.run([sys.executable, CHECK, os.path.join(root, "build")], capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr


A = """namespace animkit {
namespace {
// Lower(char) here, Lower(std::string) there: overloads in one batch.
char Lower(char c) { return c; }
struct Row { int a; };
constexpr int kLimit = 4;
}  // namespace
int UseA() { return Lower('a') + kLimit; }
}  // namespace animkit
"""
B = """#include <string>
namespace animkit {
namespace {
std::string Lower(std::string s) { return s; }
static_assert(sizeof(int) == 4, "an assertion names nothing");
}  // namespace
static int Helper(int x) { if (x) { return 1; } return 0; }
}  // namespace animkit
"""
C = """namespace animkit::other {
namespace {
char Lower(char c) { return c; }
struct Row { int b; };
constexpr int kLimit = 5;
const char* kText = "namespace { char Lower(char c) { return c; } }";
}  // namespace
}  // namespace animkit::other
"""

failures = []
code, out = run({"a.cpp": A, "b.cpp": B}, [["a.cpp", "b.cpp"]])
if code != 1 or "file-local 'animkit::Lower' is defined in 2 files" not in out:
    failures.append("an overload pair in one batch was not reported: " + out)
if "Helper" in out or "static_assert" in out:
    failures.append("a name only one file defines was reported: " + out)
code, out = run({"a.cpp": A, "c.cpp": C}, [["a.cpp", "c.cpp"]])
if code != 0:
    failures.append("names in two named namespaces were reported as a clash: " + out)
code, out = run({"a.cpp": A, "b.cpp": B}, [["a.cpp"], ["b.cpp"]])
if code != 0:
    failures.append("names in two batches were reported as a clash: " + out)
code, out = run({"a.cpp": A, "a2.cpp": A.replace("UseA", "UseB")}, [["a.cpp", "a2.cpp"]])
if code != 1 or not all(f"'animkit::{n}'" in out for n in ("Lower", "Row", "kLimit")):
    failures.append("a function, a type and a constant met twice were not all reported: " + out)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
