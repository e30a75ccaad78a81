#!/usr/bin/env python3
"""The Windows CLI under Wine against the Linux CLI, on Sora's moveset and model.

Paired runs: each round runs the Linux command and the Wine one back to back (their order
alternating), so that the machine's load falls on both alike; the figures are the median of
the rounds' wall times and the median of the rounds' ratios (Wine / Linux). One persistent
wineserver in a prefix of the build folder, a warm-up run of each command first (Wine's
first start loads its DLLs from disk). Every Wine output is checked equal to Linux's.

  python3 bench/wine_speed.py --linux build/release/tools/animkit/animkit \\
      --exe build/windows/tools/animkit/animkit.exe [--rounds 7] [--markdown]

The files: Sora's moveset ../shared/real/kh2/P_EX100.mset (`sample`, 102 clips, ~100 MB of
JSON) and his model ../shared/fixtures/kh2/P_EX100.mdlx (`convert` to glb, and back with
`--template`). `--version` alone shows the cost of starting a process under Wine, and a program that does
nothing (`true` on Linux, a 15 KB C program the bench compiles with MinGW-w64 for Wine) the
floor no program goes under: each command's "work" ratio has that floor taken off both sides.

Both CLIs and the wineserver run on one processor (`--cpu`, default 0; `--cpu -1`: any). On
this 2-core machine a Wine process whose server answers from the other core waits on every
request for that core to wake, about 30 ms a process (docs/performance.md).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
SHARED = os.path.abspath(os.path.join(SOURCE, "..", "shared"))


def timed(cmd, cwd, env, stdout_file=None):
    with open(stdout_file, "wb") if stdout_file else open(os.devnull, "wb") as out:
        t = time.perf_counter()
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def nothing_program(work):
    """A Windows program that does nothing, compiled here (None without MinGW-w64's gcc)."""
    gcc = shutil.which("x86_64-w64-mingw32-gcc")
    if not gcc:
        return None
    source, exe = os.path.join(work, "nothing.c"), os.path.join(work, "nothing.exe")
    with open(source, "w") as f:
        f.write("int main(void) { return 0; }\n")
    subprocess.run([gcc, "-O2", "-s", "-static", source, "-o", exe], check=True)
    return exe


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--linux", required=True, help="the Linux CLI")
    ap.add_argument("--exe", default=os.environ.get("ANIMKIT_WINDOWS_CLI", ""), help="animkit.exe")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--work", default=os.path.join(SOURCE, "build", "release", "bench-wine"),
                    help="scratch folder and Wine prefix (default build/release/bench-wine)")
    ap.add_argument("--moveset", default=os.path.join(SHARED, "real", "kh2", "P_EX100.mset"))
    ap.add_argument("--model", default=os.path.join(SHARED, "fixtures", "kh2", "P_EX100.mdlx"))
    ap.add_argument("--cpu", type=int, default=0, help="the processor both sides run on (-1: any)")
    ap.add_argument("--markdown", action="store_true", help="print the table as docs/performance.md has it")
    a = ap.parse_args()
    for f in (a.moveset, a.model):
        if not os.path.isfile(f):
            print(f"skipped: {f} is absent")
            return 0
    if not a.exe or not os.path.isfile(a.exe) or not shutil.which("wine"):
        print("skipped: needs wine and --exe (or ANIMKIT_WINDOWS_CLI): `make windows` builds animkit.exe")
        return 0
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    for f in (a.moveset, a.model):
        shutil.copy(f, work)  # both CLIs read the same local copy, by bare name
    moveset, model = os.path.basename(a.moveset), os.path.basename(a.model)
    env = dict(os.environ, WINEPREFIX=os.path.join(work, "prefix"), WINEDEBUG="-all", WINEARCH="win64",
               WINEDLLOVERRIDES="mscoree,mshtml=")
    pin = ["taskset", "-c", str(a.cpu)] if a.cpu >= 0 else []
    linux, wine = pin + [os.path.abspath(a.linux)], pin + ["wine", os.path.abspath(a.exe)]
    floor = nothing_program(work)
    cases = [  # name, args, the output file it writes (None: stdout to a file)
        ("a program that does nothing", None, None),
        ("start (--version)", ["--version"], None),
        ("sample moveset > file", ["sample", moveset], None),
        ("convert model to glb", ["convert", model, "{side}-model.glb", "-q"], "{side}-model.glb"),
        ("convert glb to mdlx --template", ["convert", "linux-model.glb", "{side}-back.mdlx", "--template", model, "-q"],
         "{side}-back.mdlx"),
    ]
    os.makedirs(env["WINEPREFIX"], exist_ok=True)  # the server runs in it
    # The server and Wine's services outlive the process that starts them: no pipe of ours open.
    quiet = dict(env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["wineserver", "-k"], **quiet)  # a server started elsewhere may run on any processor
    subprocess.run(pin + ["wineserver", "-p"], **quiet)
    try:
        made = os.path.exists(os.path.join(env["WINEPREFIX"], "system.reg"))
        t = time.perf_counter()
        subprocess.run(pin + ["wineboot", "-r" if made else "-i"], check=True, **quiet)
        if not made:
            print(f"Wine prefix made in {time.perf_counter() - t:.1f} s")
        rows = []
        for name, args, output in cases:
            if args is None and floor is None:
                continue
            runs = {"linux": [], "wine": []}

            def once(side, keep=False):
                if args is None:  # the floor: a program that does nothing
                    cmd = pin + (["true"] if side == "linux" else ["wine", floor])
                else:
                    cmd = (linux if side == "linux" else wine) + [x.format(side=side) for x in args]
                stdout_file = os.path.join(work, side + ".out") if output is None else None
                return timed(cmd, work, env, stdout_file)

            once("linux"), once("wine")  # warm-up: file cache, Wine's DLLs
            def output_of(side):
                with open(os.path.join(work, (output or "{side}.out").format(side=side)), "rb") as f:
                    return f.read()

            same = args is None or output_of("wine") == output_of("linux")
            for r in range(a.rounds):
                for side in (("linux", "wine") if r % 2 == 0 else ("wine", "linux")):
                    runs[side].append(once(side))
            lm, wm = statistics.median(runs["linux"]), statistics.median(runs["wine"])
            ratio = statistics.median(w / l for w, l in zip(runs["wine"], runs["linux"]))
            rows.append((name, lm, wm, ratio, same))
            print(f"{name}: Linux {lm:.3f} s, Wine {wm:.3f} s, ratio {ratio:.2f}"
                  f"{'' if same else ' (OUTPUTS DIFFER)'}", flush=True)
    finally:
        subprocess.run(["wineserver", "-k"], env=env)
    base = rows[0] if floor is not None else None  # the do-nothing program's times
    if a.markdown:
        print(f"\n| command ({a.rounds} paired rounds, median) | Linux | Wine | Wine / Linux | work: Wine / Linux | same bytes |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            name, lm, wm, ratio, same = row
            work_ratio = "" if base is None or row is base else f"{(wm - base[2]) / max(lm - base[1], 1e-6):.2f}"
            print(f"| {name} | {lm:.3f} s | {wm:.3f} s | {ratio:.2f} | {work_ratio} | {'yes' if same else 'no'} |")
    return 0 if all(r[4] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
