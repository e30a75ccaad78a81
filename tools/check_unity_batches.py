#!/usr/bin/env python3
"""Fails when two sources of one unity batch define a file-local name alike.

A unity batch (CMake's unity_N_cxx.cxx) includes several .cpp files into one translation
unit, so their anonymous namespaces and `static` functions meet. Two functions of one
name there are overloads of each other, or a redefinition: the first compiles to the
wrong call without a word, the second breaks a batch far from the file that changed.
Run over a build folder (`check_unity_batches.py BUILD_DIR`), it lists every file-local
function, type, alias and constant named in more than one file of a batch.
"""
import collections
import os
import re
import sys

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "catch", "decltype", "alignof", "static_assert",
            "operator", "requires", "noexcept", "alignas", "defined"}
TYPE_HEAD = re.compile(r"\b(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*(?:final\s*)?(?::[^{]*)?$")
FUNCTION_HEAD = re.compile(r"((?:\w+::)*~?\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:->[^{]*)?$")


def strip_code(text):
    """Comments, strings, character literals and preprocessor lines blanked out."""
    text = re.sub(r'R"(\w*)\((?:.|\n)*?\)\1"', '""', text)
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "\n".join("" if line.lstrip().startswith("#") else line for line in "".join(out).split("\n"))


def local_names(path):
    """The names a source defines at file scope that only it sees."""
    code = strip_code(open(path, encoding="utf-8", errors="replace").read())
    names = set()
    scopes = []  # 'anon', 'named', 'other'
    spaces = []  # the names of the enclosing named namespaces
    statement = ""

    def qualified(name):
        return "::".join(spaces + [name])

    def file_local():
        return bool(scopes) and all(s in ("anon", "named") for s in scopes) and "anon" in scopes

    def at_namespace():
        return all(s in ("anon", "named") for s in scopes)

    for c in code:
        if c == "{":
            head = " ".join(statement.split())
            statement = ""
            if re.search(r"\bnamespace\s*$", head):
                scopes.append("anon")
                continue
            m = re.search(r"\bnamespace\s+([\w:]+)\s*$", head)
            if m:
                scopes.append("named")
                spaces.append(m.group(1))
                continue
            if at_namespace() and not head.startswith("extern"):
                local = file_local() or re.match(r"(?:\[\[[^\]]*\]\]\s*)?(?:inline\s+)?static\b", head)
                t = TYPE_HEAD.search(head)
                f = FUNCTION_HEAD.search(head)
                if local and t:
                    names.add(("type", qualified(t.group(1))))
                elif local and f and f.group(1) not in KEYWORDS and "=" not in head.split("(")[0]:
                    names.add(("function", qualified(f.group(1))))
                elif local and "=" in head:
                    m = re.search(r"(\w+)\s*(?:\[[^\]]*\])?\s*=", head)
                    if m:
                        names.add(("constant", qualified(m.group(1))))
            scopes.append("other")
        elif c == "}":
            if scopes and scopes.pop() == "named":
                spaces.pop()
            statement = ""
        elif c == ";":
            head = " ".join(statement.split())
            statement = ""
            if at_namespace() and (file_local() or head.startswith("static ")):
                m = re.match(r"using\s+(\w+)\s*=", head)
                if m:
                    names.add(("alias", qualified(m.group(1))))
                elif "=" in head and not head.startswith(("using", "template", "friend", "namespace")):
                    m = re.search(r"(\w+)\s*(?:\[[^\]]*\])?\s*=", head)
                    if m:
                        names.add(("constant", qualified(m.group(1))))
        else:
            statement += c
    return names


def batches(build_dir):
    """Every batch CMake wrote under build_dir. The walk follows no symbolic link: a test's
    Wine prefix in the build folder links its Z: drive to /."""
    found = []
    for folder, dirs, files in os.walk(build_dir):
        if os.path.basename(folder) == "Unity":
            found += [os.path.join(folder, f) for f in files if re.fullmatch(r"unity_\d+_cxx\.cxx", f)]
    for unity in sorted(found):
        sources = re.findall(r'#include\s+"([^"]+)"', open(unity, encoding="utf-8").read())
        yield unity, sources


def main(argv):
    if len(argv) != 2:
        print("usage: check_unity_batches.py BUILD_DIR", file=sys.stderr)
        return 2
    clashes = 0
    seen_batches = 0
    for unity, sources in batches(argv[1]):
        seen_batches += 1
        where = collections.defaultdict(list)
        for source in sources:
            if not os.path.exists(source):
                continue  # generated at build time (the preview's assets): no file-local code of ours
            for kind, name in sorted(local_names(source)):
                where[name].append((kind, source))
        for name, places in sorted(where.items()):
            files = sorted({p for _, p in places})
            if len(files) > 1:
                clashes += 1
                print(f"{os.path.relpath(unity, argv[1])}: file-local '{name}' is defined in {len(files)} files of one "
                      f"unity batch: " + ", ".join(f"{os.path.relpath(f)} ({k})" for k, f in places))
    if clashes:
        print(f"{clashes} file-local name(s) meet in a unity batch: rename them, or move the shared one into a header "
              "of the layer both files use", file=sys.stderr)
        return 1
    print(f"unity batches: {seen_batches} checked, no file-local name defined twice in one batch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
