#!/usr/bin/env python3
"""Every output every verb makes from every sample and fixture, as SHA-256 digests.

A refactoring keeps behaviour: the CLI's outputs (info --json, sample, convert to glb and
back with and without --template, validate, preview pages and folder runs) must stay byte
for byte what they were. `--update` records them into tests/tools/output_digests.json;
without it the recorded digests are compared with today's and every difference is listed.
Fixture entries are skipped (with a message) when ../shared/fixtures is absent. An
intended change of output re-records the file, and its commit says why.

  output_digests.py --cli build/release/tools/animkit/animkit [--update]

`--part samples/kh2_bar` makes and compares one folder's outputs only; `--parts` lists the
folders (those on disk and those recorded), so that ctest runs one test a folder
(Outputs.samples.kh2_bar, ...) and two cores share the work.

The same outputs of every real file (../shared/real) compare two builds, before and after a
change, without committing digests of third-party files:

  output_digests.py --cli OLD --real --record /tmp/real.json --update
  output_digests.py --cli NEW --real --record /tmp/real.json

`--cli` is a command prefix, so the same outputs check another build of the CLI, e.g. the
Windows one under Wine (tests/tools/wine_contract.py): `--cli "wine animkit.exe" -j 2`.
`--outputs DIR` also keeps every output's bytes (DIR/<digest>), to show what differs.
"""

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
RECORD = os.path.join(HERE, "output_digests.json")
SKIP = {".md", ".json", ".txt", ".dds"}  # .dds: textures the EDF models name, not inputs
# Formats whose files the encoders write (the glb goes back into these).
ENCODABLE = {".anm", ".anc", ".anim", ".anb", ".mset", ".motion", ".canm"}


KEEP = None  # --outputs: the folder every digested output is also written to
VERBS = None  # --verbs: the outputs to make (None: all)
RUNS = {}  # digest name -> (exit status, the start of stderr): what a differing output says


def digest(data: bytes) -> str:
    d = hashlib.sha256(data).hexdigest()[:32]
    if KEEP:
        with open(os.path.join(KEEP, d), "wb") as f:
            f.write(data)
    return d


def command_prefix(text):
    """The CLI as a command prefix: 'build/animkit' or 'wine build/animkit.exe' (files made absolute)."""
    return [os.path.abspath(w) if os.path.isfile(w) else w for w in shlex.split(text)]


TIMEOUT = 600  # --timeout: seconds a run may take before it counts as hung (an output: "timeout")


def run(cli, args, cwd):
    try:
        p = subprocess.run([*cli, *args], cwd=cwd, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        print(f"timed out after {TIMEOUT} s: {shlex.join(args)} in {cwd}", file=sys.stderr)
        return "timeout", b"", b""
    return p.returncode, p.stdout, p.stderr


def scrub(stderr, folder):
    """The scratch folder's path, as the CLI may print it (POSIX, or Wine's Z: drive), made <in>."""
    for form in (folder, "Z:" + folder.replace("/", "\\")):
        stderr = stderr.replace(form.encode(), b"<in>")
    return stderr


def inputs(roots):
    for label, root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if os.path.splitext(name)[1].lower() in SKIP:
                    continue
                path = os.path.join(folder, name)
                yield label + "/" + os.path.relpath(path, root), path


def file_outputs(cli, key, path, scratch, out):
    """Outputs of the single-file verbs, run in a copy of the file's folder under its bare name."""
    work = os.path.join(scratch, "in")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.dirname(path), work)
    name = os.path.basename(path)
    stem, ext = os.path.splitext(name)

    def record(what, args, files=()):
        if VERBS is not None and what not in VERBS:
            return None
        code, stdout, stderr = run(cli, args, work)
        parts = [str(code).encode(), stdout, scrub(stderr, work)]
        for f in files:
            fp = os.path.join(work, f)
            parts.append(open(fp, "rb").read() if os.path.exists(fp) else b"<none>")
        out[key + " " + what] = digest(b"\0".join(parts))
        RUNS[key + " " + what] = (code, scrub(stderr, work)[:300])
        return code

    # The companion rule is every verb's default (--skeleton auto); "none" asks for no skeleton file.
    record("info", ["info", name, "--json"])
    record("info-none", ["info", name, "--json", "--skeleton", "none"])
    record("info-text", ["info", name])
    record("info-full", ["info", name, "--json", "--full"])  # the document info --json gave before summaries
    record("sample", ["sample", name])
    record("sample-30", ["sample", name, "--rate", "30"])
    record("validate", ["validate", name])
    glb = "out-" + stem + ".glb"
    ok = record("glb", ["convert", name, glb, "-v"], [glb]) == 0
    record("gltf", ["convert", name, "out-" + stem + ".gltf"], ["out-" + stem + ".gltf"])
    record("preview", ["preview", name, "-o", "page-" + stem + ".html"], ["page-" + stem + ".html"])
    if ok and ext.lower() in ENCODABLE:
        back = "back-" + stem + ext
        record("back-template", ["convert", glb, back, "--template", name, "-v"], [back])
        extras = "extras-" + stem + ext
        record("back-extras", ["convert", glb, extras, "-v"], [extras])
    # Archives (EDF RAB) and stored curves (KH2); every other file's error is an output too.
    record("archive-list", ["archive", "list", name, "--json"])
    if record("archive-extract", ["archive", "extract", name, "-o", "members"]) == 0:
        out[key + " archive-members"] = tree_digest(os.path.join(work, "members"))
    record("curves-text", ["curves", name])
    if record("curves", ["curves", name, "--json", "-o", "curves.json"], ["curves.json"]) == 0:
        replaced = "replaced-" + name
        record("curves-replace", ["curves-replace", name, "curves.json", "-o", replaced], [replaced])


def tree_digest(target, code=None):
    """Every file under target, by relative path and bytes."""
    parts = [] if code is None else [str(code).encode()]
    for d, dirs, files in os.walk(target):
        dirs.sort()
        for f in sorted(files):
            if f.startswith(".animkit-run-"):
                continue
            fp = os.path.join(d, f)
            parts += [os.path.relpath(fp, target).replace(os.sep, "/").encode(), open(fp, "rb").read()]
    return digest(b"\0".join(parts))


def folder_outputs(cli, key, folder, scratch, out):
    """`convert DIR` and `preview DIR` over a copy of a folder: every file written, by name."""
    source = os.path.join(scratch, "IN")  # the same name wherever the checkout is (pages show it)
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(folder, source)
    for verb, args in (("convert", ["convert", "IN", "OUT", "--to", "glb", "-j", "1"]),
                       ("preview", ["preview", "IN", "-o", "OUT"])):
        if VERBS is not None and verb + "-folder" not in VERBS:
            continue
        target = os.path.join(scratch, "OUT")
        shutil.rmtree(target, ignore_errors=True)
        code, stdout, stderr = run(cli, args, scratch)
        out[key + " " + verb + "-folder"] = tree_digest(target, code)


def part_of(key):
    """The folder a digest's input lies in: 'samples/kh2_bar' of 'samples/kh2_bar/ex00.mdlx info'."""
    return "/".join(key.split(" ")[0].split("/")[:2])


def main():
    global KEEP, TIMEOUT, VERBS
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--real", action="store_true", help="the real files of ../shared/real instead of the samples")
    ap.add_argument("--record", default=RECORD, help="the digests file (default: the committed one)")
    ap.add_argument("--part", help="one folder's outputs only, e.g. samples/kh2_bar")
    ap.add_argument("--parts", action="store_true", help="list the folders, one per line, and stop")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="inputs run at once (each in its own folder)")
    ap.add_argument("--outputs", help="keep every output's bytes in this folder, named by digest")
    ap.add_argument("--verbs", help="only these outputs, comma-separated: info,sample,glb,back-template,"
                    "convert-folder,... (the last word of a digest's name; a derived one needs its source's)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds one run may take (then: 'timeout')")
    a = ap.parse_args()
    TIMEOUT = a.timeout
    if a.verbs:
        VERBS = set(a.verbs.split(","))
        if "archive-extract" in VERBS:
            VERBS.add("archive-members")  # the extracted files, digested apart
    cli = command_prefix(a.cli)
    if a.outputs:
        KEEP = os.path.abspath(a.outputs)
        os.makedirs(KEEP, exist_ok=True)
    fixtures = os.path.abspath(os.path.join(SOURCE, "..", "shared", "fixtures"))
    roots = [("samples", os.path.join(SOURCE, "samples"))]
    have_fixtures = os.path.isdir(fixtures)
    if a.real:
        real = os.path.abspath(os.path.join(SOURCE, "..", "shared", "real"))
        if not os.path.isdir(real):
            print(f"skipped: {real} is absent")
            return 0
        roots, have_fixtures = [("real", real)], False
    elif have_fixtures:
        roots.append(("fixtures", fixtures))
    if a.parts:
        on_disk = {label + "/" + sub for label, root in roots for sub in os.listdir(root)
                   if os.path.isdir(os.path.join(root, sub))}
        recorded = {part_of(k) for k in json.load(open(a.record))} if os.path.exists(a.record) else set()
        print("\n".join(sorted(on_disk | {p for p in recorded if not p.startswith("fixtures/")})))
        return 0
    if a.part and a.update:
        print("--update records every part at once; leave out --part", file=sys.stderr)
        return 2
    out = {}
    tasks = [(file_outputs, key, path) for key, path in inputs(roots) if not a.part or part_of(key) == a.part]
    tasks += [(folder_outputs, label + "/" + sub, os.path.join(root, sub))
              for label, root in roots for sub in sorted(os.listdir(root))
              if os.path.isdir(os.path.join(root, sub)) and (not a.part or a.part == label + "/" + sub)]
    if a.jobs > 1:  # the largest inputs first, so that no core waits alone on one at the end
        tasks.sort(key=lambda t: -sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(t[2]) for f in fs)
                   if os.path.isdir(t[2]) else -os.path.getsize(t[2]))
    with tempfile.TemporaryDirectory() as scratch:
        def task(index):
            make, key, path = tasks[index]
            own = os.path.join(scratch, str(index))  # a folder each, so that tasks run side by side
            os.mkdir(own)
            make(cli, key, path, own, out)
            shutil.rmtree(own, ignore_errors=True)
        with ThreadPoolExecutor(max(1, a.jobs)) as pool:
            list(pool.map(task, range(len(tasks))))
    if a.update:
        with open(a.record, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {len(out)} digests in {a.record}")
        return 0
    recorded = json.load(open(a.record))
    if VERBS is not None:
        recorded = {k: v for k, v in recorded.items() if k.split(" ")[-1] in VERBS}
    if a.part:
        recorded = {k: v for k, v in recorded.items() if part_of(k) == a.part}
    failed, compared, skipped = [], 0, 0
    for k, v in sorted(recorded.items()):
        if k not in out:
            if k.startswith("fixtures/") and not have_fixtures:
                skipped += 1
                continue
            failed.append(f"{k}: not produced any more")
            continue
        compared += 1
        if out[k] != v:
            code, stderr = RUNS.get(k, ("?", b""))
            failed.append(f"{k}: differs (exit status {code}, stderr {stderr!r})")
    failed += [f"{k}: new output, not recorded (run with --update)" for k in sorted(set(out) - set(recorded))]
    if skipped:
        print(f"skipped {skipped} fixture outputs: {fixtures} is absent")
    for f in failed:
        print(f)
    print(f"{compared - len([f for f in failed if ': differs' in f])} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
