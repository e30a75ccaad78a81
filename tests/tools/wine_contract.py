#!/usr/bin/env python3
"""The Windows CLI under Wine keeps the CLI contract byte for byte.

Runs animkit.exe under Debian's Wine and compares what it writes with the Linux build:

1. every output of every verb over the samples and ../shared/fixtures (output_digests.py,
   against the committed digests the Linux build is tested against),
2. the same over ../shared/real (digests the Linux CLI records first in the build folder),
3. Windows paths: backslashes, drive letters (Wine's Z: for / and C: for the prefix's
   drive_c), spaces and non-ASCII names in inputs and outputs, and the atomic replace of an
   existing output (no temporary file left).

One Wine prefix in the build folder, made once (wineboot -i), and one persistent
wineserver for the whole run, stopped at the end. Exit 77 (ctest's skip) when Wine or the
exe is absent.

  wine_contract.py --exe build/windows/tools/animkit/animkit.exe \\
      --linux-cli build/release/tools/animkit/animkit --work build/release/tests/wine [-j 2]

`--exe` may be left empty (then $ANIMKIT_WINDOWS_CLI). `--runner linux` runs phase 3 with the
Linux CLI in place of Wine (to test this script where no exe is).
"""

import argparse
import hashlib
import json
import re
import os
import shlex
import shutil
import subprocess
import sys
import time

from output_digests import part_of

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
DIGESTS = os.path.join(HERE, "output_digests.py")
SAMPLES = os.path.join(SOURCE, "samples")
SKIP = 77


# The contract's verbs (info, sample, convert to glb and back with --template, validate,
# archive, curves), as output_digests.py names their outputs.
REAL_VERBS = "info,sample,validate,glb,back-template,archive-list,archive-extract,curves-text,curves,curves-replace"


def real_record_key(linux_cli):
    """What the Linux CLI's record of the real files depends on: the CLI, the digest script, the files."""
    h = hashlib.sha256(REAL_VERBS.encode())
    for f in (linux_cli, DIGESTS):
        h.update(open(f, "rb").read())
    real = os.path.join(SOURCE, "..", "shared", "real")
    for folder, dirs, files in os.walk(real):
        dirs.sort()
        for name in sorted(files):
            st = os.stat(os.path.join(folder, name))
            h.update(f"{os.path.relpath(os.path.join(folder, name), real)} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


class Report:
    def __init__(self):
        self.passed, self.failed = 0, []

    def check(self, what, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
            print(f"FAILED {what}" + (f"\n  {detail}" if detail else ""))


class Runner:
    """A CLI to run (a command prefix) and how it spells a POSIX path in each Windows form."""

    def __init__(self, prefix, env, wine, drive_c):
        self.prefix, self.env, self.wine, self.drive_c = prefix, env, wine, drive_c

    def run(self, args, cwd=None):
        p = subprocess.run([*self.prefix, *args], cwd=cwd, env=self.env, capture_output=True, timeout=300,
                           stdin=subprocess.DEVNULL)  # an inherited stdin can hang a Wine process
        return p.returncode, p.stdout, p.stderr

    def spell(self, path, form):
        """path (absolute, POSIX) as the argument of this form: 'z' Z:\\..., 'zslash' Z:/..., 'c' C:\\...
        (path must lie in the prefix's drive_c), 'auto' C: there and Z: elsewhere, 'posix' as it is."""
        if not self.wine or form == "posix":
            return path
        if form == "z":
            return "Z:" + path.replace("/", "\\")
        if form == "zslash":
            return "Z:" + path
        if form == "c":
            return "C:\\" + os.path.relpath(path, self.drive_c).replace("/", "\\")
        if form == "auto":  # C: inside the prefix's drive_c, Z: elsewhere
            return self.spell(path, "c" if path.startswith(self.drive_c + "/") else "z")
        raise ValueError(form)


def spelled(data, pairs):
    """Linux output with each POSIX path replaced by its spelling in the Windows run (raw and
    JSON-escaped): what the Windows CLI prints, as paths echo the argument as given."""
    table = {}
    for posix, windows in pairs:
        # A path that opens a JSON string is the JSON value (its backslashes escaped); elsewhere text.
        table[b'"' + posix.encode()] = json.dumps(windows, ensure_ascii=False)[:-1].encode()
        table.setdefault(posix.encode(), windows.encode())
    if not table:
        return data
    # One pass, the longest first: a Windows spelling may hold its POSIX path (Z:/work/...).
    pattern = re.compile(b"|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)))
    return pattern.sub(lambda m: table[m.group(0)], data)


def first_difference(a, b):
    n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return f"at byte {n}: {a[max(0, n - 60):n + 60]!r} vs {b[max(0, n - 60):n + 60]!r}"


def path_cases(win, linux, work, report):
    """Windows path forms in inputs and outputs, each compared with the Linux CLI's output."""
    root = os.path.join(work, "paths")
    shutil.rmtree(root, ignore_errors=True)
    folder = os.path.join(root, "dossier é Ω ソラ")  # spaces and non-ASCII in every part
    shutil.copytree(os.path.join(SAMPLES, "kh2_bar"), folder)
    anb = os.path.join(folder, "marche é ソラ.anb")
    os.rename(os.path.join(folder, "walk.anb"), anb)
    rab = os.path.join(folder, "soldat Ω.rab")
    shutil.copy(os.path.join(SAMPLES, "edf_rab", "soldier.rab"), rab)
    drive_c_folder = os.path.join(win.drive_c, "animkit ソラ")  # C: is the prefix's drive_c
    shutil.rmtree(drive_c_folder, ignore_errors=True)
    shutil.copytree(folder, drive_c_folder)
    c_anb = os.path.join(drive_c_folder, os.path.basename(anb))

    def compare(what, args, form, outputs=(), mapped=True, cwd=None):
        """Run args (POSIX paths; outputs among them) on both; Windows's spelling of each path."""
        paths = [x for x in args if x.startswith("/")]
        pairs = [(p, win.spell(p, form)) for p in paths] + [(os.path.dirname(p), win.spell(os.path.dirname(p), form))
                                                           for p in paths]
        # A path the CLI makes (a companion beside the input) is the argument's folder joined to
        # the name, written with '/' on every platform (io/path.hpp: TextOf).
        pairs += [(d + "/", w.replace("\\", "/") + "/") for d, w in pairs[len(paths):]]
        w_args = [dict(pairs).get(x, x) for x in args]
        results = {}
        for name, runner, run_args in (("linux", linux, args), ("windows", win, w_args)):
            for o in outputs:
                if os.path.exists(o):
                    os.remove(o)
            code, out, err = runner.run(run_args, cwd=cwd)
            files = [open(o, "rb").read() if os.path.exists(o) else None for o in outputs]
            if mapped and name == "linux":  # a JSON output holds paths as stdout does
                files = [spelled(f, pairs) if f is not None and o.endswith(".json") else f
                         for o, f in zip(outputs, files)]
            results[name] = (code, out, err, files)
        lc, lo, le, lf = results["linux"]
        wc, wo, we, wf = results["windows"]
        if mapped:
            lo, le = spelled(lo, pairs), spelled(le, pairs)
        report.check(f"{what}: exit status", lc == wc, f"linux {lc}, windows {wc}: {we[:300]!r}")
        report.check(f"{what}: stdout", lo == wo, first_difference(lo, wo))
        report.check(f"{what}: stderr", le == we, first_difference(le, we))
        for o, a, b in zip(outputs, lf, wf):
            report.check(f"{what}: {os.path.basename(o)}", a == b and a is not None,
                         "missing" if a is None or b is None else first_difference(a, b))
        return w_args

    # The sample JSON, from each path form: stdout equal byte for byte, no path mapped.
    for form in ("z", "zslash", "posix"):  # posix: /work/..., a path from the current drive's root
        compare(f"sample ({form})", ["sample", anb], form)
    compare("sample (C: drive)", ["sample", c_anb], "c")
    rel = os.path.relpath(anb, root)
    sep = "\\" if win.wine else "/"
    code_l, out_l, _ = linux.run(["sample", rel], cwd=root)
    code_w, out_w, _ = win.run(["sample", rel.replace("/", sep)], cwd=root)
    out_l = spelled(out_l, [(rel, rel.replace("/", sep))])  # the companion beside it is joined with '/' on both
    report.check("sample (relative, backslashes): stdout", code_l == code_w == 0 and out_l == out_w,
                 first_difference(out_l, out_w))
    compare("info --json (Z:)", ["info", anb, "--json"], "z")
    compare("info --json (C:)", ["info", c_anb, "--json"], "c")
    compare("validate (Z: and C:)", ["validate", anb, c_anb, rab], "auto")

    # Outputs into a folder with spaces and non-ASCII names, to glb and back with --template.
    out_dir = os.path.join(root, "sortie Ω ソラ")
    os.makedirs(out_dir)
    glb = os.path.join(out_dir, "résultat ソラ.glb")
    back = os.path.join(out_dir, "retour é.anb")
    compare("convert to glb (Z:)", ["convert", anb, glb], "z", [glb])
    linux.run(["convert", anb, glb])
    compare("convert back with --template (Z:)", ["convert", glb, back, "--template", anb], "z", [back])
    c_glb = os.path.join(drive_c_folder, "résultat ソラ.glb")
    compare("convert to glb (C:)", ["convert", c_anb, c_glb, "-v"], "c", [c_glb])
    curves = os.path.join(out_dir, "courbes é.json")
    compare("curves --json -o (Z:)", ["curves", anb, "--json", "-o", curves], "z", [curves])
    compare("sample -o (Z:)", ["sample", anb, "-o", curves], "z", [curves])

    # Archive members into a non-ASCII folder.
    members = os.path.join(out_dir, "membres Ω")
    for name, runner, target in (("linux", linux, members + "-linux"), ("windows", win, members)):
        shutil.rmtree(target, ignore_errors=True)
        code, _, err = runner.run(["archive", "extract", win.spell(rab, "z") if runner is win else rab,
                                   "-o", win.spell(target, "z") if runner is win else target])
        report.check(f"archive extract ({name}): exit status", code == 0, err[:300])
    listing = lambda d: sorted((os.path.relpath(os.path.join(p, f), d), open(os.path.join(p, f), "rb").read())
                               for p, _, fs in os.walk(d) for f in fs)
    report.check("archive extract (Z:): members", listing(members) == listing(members + "-linux")
                 and len(listing(members)) == 2)

    # An error names the file as given.
    compare("a missing non-ASCII file", ["info", os.path.join(folder, "absent ソラ.anb")], "z")

    # Atomic replace: a second convert to the same name replaces the first; no temporary file is
    # left; a reader holding the old file keeps reading the old bytes.
    same = os.path.join(out_dir, "même ソラ.glb")
    expected = {}
    for clip, source in (("raw.anb", os.path.join(folder, "raw.anb")), ("walk.anb", anb)):
        target = os.path.join(root, "expected-" + clip + ".glb")
        linux.run(["convert", source, target])
        expected[clip] = open(target, "rb").read()
        os.remove(target)
    code1, _, err1 = win.run(["convert", win.spell(os.path.join(folder, "raw.anb"), "z"), win.spell(same, "z")])
    first = open(same, "rb").read() if os.path.exists(same) else None
    reader = open(same, "rb")
    code2, _, err2 = win.run(["convert", win.spell(anb, "z"), win.spell(same, "z")])
    report.check("convert twice to one name: both succeed", code1 == code2 == 0, (err1 + err2)[:300])
    report.check("convert twice to one name: the first output", first == expected["raw.anb"])
    report.check("convert twice to one name: the second replaces it",
                 open(same, "rb").read() == expected["walk.anb"])
    report.check("convert twice to one name: the old file's reader reads the old bytes",
                 reader.read() == expected["raw.anb"])
    reader.close()
    wanted = {"résultat ソラ.glb", "retour é.anb", "courbes é.json", "membres Ω", "membres Ω-linux", "même ソラ.glb"}
    left = sorted(set(os.listdir(out_dir)) - wanted)
    report.check("no temporary file left", not left, f"left: {left}")


def wine_env(work):
    env = dict(os.environ)
    env.update(WINEPREFIX=os.path.join(work, "prefix"), WINEDEBUG="-all", WINEARCH="win64",
               WINEDLLOVERRIDES="mscoree,mshtml=")  # no Mono or Gecko to offer (and nothing to fetch)
    return env


def start_wine(env):
    """One persistent wineserver; the prefix made once (kept in the build folder)."""
    prefix = env["WINEPREFIX"]
    ready = os.path.join(prefix, ".animkit-ready")
    if not os.path.exists(ready):
        shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(prefix, exist_ok=True)  # the server runs in it
    # The server and the services the first Wine process starts outlive it: started here with
    # no pipe of ours open, or a later run's captured stdout never reaches its end.
    quiet = dict(env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["wineserver", "-p"], **quiet)  # status 2: one runs already, which serves as well
    t = time.monotonic()
    subprocess.run(["wineboot", "-i" if not os.path.exists(ready) else "-r"], check=True, **quiet)
    if not os.path.exists(ready):
        open(ready, "w").close()
        print(f"Wine prefix made in {time.monotonic() - t:.1f} s: {prefix}")
    return os.path.join(prefix, "drive_c")


def digests(cli, args, jobs, report, what):
    t = time.monotonic()
    run = lambda *more: subprocess.run([sys.executable, DIGESTS, "--cli", cli, "-j", str(jobs), "--timeout", "300",
                                        *args, *more], capture_output=True, text=True)
    p = run()
    lines = p.stdout.strip().splitlines()
    for line in lines[:-1]:
        print("  " + line)
    print(f"{what}: {lines[-1] if lines else p.stderr.strip()} ({time.monotonic() - t:.1f} s)")
    ok = p.returncode == 0
    # An output that differs is made once more, alone: one that then agrees is named (a
    # Wine process that failed to start, as seen once in a thousand), and only one that
    # differs again fails the test.
    differing = [line.split(": differs")[0] for line in lines if ": differs" in line]
    if not ok and differing and len(differing) == len(lines) - 1 and "--update" not in args:
        again = []
        for key in differing:
            name, verb = key.rsplit(" ", 1)
            q = run("--part", part_of(key), "--verbs", verb)
            agrees = q.returncode == 0 or f"{key}: differs" not in q.stdout
            print(f"  made again: {key}: {'agrees: the first run was a fault of the run' if agrees else 'differs again'}")
            if not agrees:
                again.append(key)
        ok = not again
    report.check(what, ok, p.stderr.strip()[-500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", default="", help="animkit.exe (default: $ANIMKIT_WINDOWS_CLI)")
    ap.add_argument("--linux-cli", required=True)
    ap.add_argument("--work", required=True, help="a folder of the build: the Wine prefix and scratch files")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--runner", choices=("wine", "linux"), default="wine",
                    help="linux: the path cases with the Linux CLI standing in for Wine")
    ap.add_argument("--only", choices=("digests", "real", "paths"), action="append",
                    help="run these phases only (default: all)")
    a = ap.parse_args()
    phases = a.only or ["digests", "real", "paths"]
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    linux_cli = os.path.abspath(a.linux_cli)
    linux = Runner([linux_cli], dict(os.environ), False, os.path.join(work, "drive_c"))
    report = Report()
    started = time.monotonic()

    if a.runner == "linux":
        os.makedirs(linux.drive_c, exist_ok=True)
        path_cases(linux, linux, work, report)
        print(f"{report.passed} passed, {len(report.failed)} failed")
        return 1 if report.failed else 0

    exe = a.exe or os.environ.get("ANIMKIT_WINDOWS_CLI", "")
    if not shutil.which("wine") or not shutil.which("wineserver"):
        print("skipped: wine not found (Debian's wine package runs the Windows CLI)")
        return SKIP
    if not exe or not os.path.isfile(exe):
        print(f"skipped: no Windows CLI ({exe or 'ANIMKIT_WINDOWS_CLI is empty'}): `make windows` builds it")
        return SKIP
    exe = os.path.abspath(exe)
    env = wine_env(work)
    try:
        drive_c = start_wine(env)
        win_cli = shlex.join(["wine", exe])
        os.environ.update({k: env[k] for k in ("WINEPREFIX", "WINEDEBUG", "WINEARCH", "WINEDLLOVERRIDES")})
        if "digests" in phases:
            digests(win_cli, ["--outputs", os.path.join(work, "outputs")], a.jobs, report,
                    "outputs of the samples and fixtures = the Linux build's (tests/tools/output_digests.json)")
        if "real" in phases:
            # The contract's verbs only (previews, other variants and folder runs are the
            # samples' part): the real files are large, and the Linux CLI records them first.
            # That record is kept while the Linux CLI, this script and the files are the same.
            verbs = ["--real", "--verbs", REAL_VERBS]
            record = os.path.join(work, f"real-linux-{real_record_key(linux_cli)}.json")
            if os.path.exists(record):
                print(f"outputs of ../shared/real by the Linux CLI: recorded before ({record})")
            else:
                digests(shlex.join([linux_cli]), [*verbs, "--record", record + ".part", "--update"], a.jobs, report,
                        "outputs of ../shared/real by the Linux CLI")
                if os.path.exists(record + ".part"):
                    os.replace(record + ".part", record)
            if os.path.exists(record):
                digests(win_cli, [*verbs, "--record", record], a.jobs, report,
                        "outputs of ../shared/real = the Linux CLI's")
        if "paths" in phases:
            t = time.monotonic()
            before = report.passed + len(report.failed)
            path_cases(Runner(["wine", exe], env, True, drive_c), linux, work, report)
            print(f"Windows path cases: {report.passed + len(report.failed) - before} checks "
                  f"({time.monotonic() - t:.1f} s)")
    finally:
        subprocess.run(["wineserver", "-k"], env=env)
    print(f"Wine run: {time.monotonic() - started:.1f} s")
    print(f"{report.passed} passed, {len(report.failed)} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
