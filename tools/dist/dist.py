#!/usr/bin/env python3
"""Writes animkit's release (`make dist`, docs/install.md) into OUT_DIR:

  animkit-VERSION-windows-x64.zip     animkit.exe, README.md, LICENSE, licences/
  animkit-VERSION-linux-x64.tar.gz    the self-contained Linux CLI (animkit), the same extras
  animkit_io-VERSION-<platform>.zip   the Blender extensions `make blender-addon` made
  animkit_io-VERSION-legacy.zip       its add-on for Blender 3.4 to 4.1 (animkit_io.zip)
  animkit-VERSION-sha256sums.txt      the SHA-256 of each of those in OUT_DIR after the run,
                                      in sha256sum's format (`sha256sum -c` checks them)

usage: dist.py OUT_DIR [--build-dir DIR] [--linux-cli PATH] [--windows-exe PATH]
               [--only linux-x64|windows-x64] [--not-built PLATFORM] [--fresh-after FILE]
               [--require-all]

Each package is put together in a temporary folder of OUT_DIR, checked as a user would
unpack it (tools/dist/check_package.py), then renamed into place. A platform whose
executable is missing (the Windows one before `make windows`) or is not self-contained is
left out with the reason, and its package from an earlier run is removed; --require-all
makes that an error (exit 1). An extension older than --fresh-after (a file touched
before `make blender-addon` ran) is a leftover and is not copied."""

import argparse
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import check_package  # noqa: E402
import licences  # noqa: E402

PLATFORMS = ("windows-x64", "linux-x64")
# The Blender extension of each platform (Blender's platform names: docs/blender.md).
EXTENSION_PLATFORM = {"windows-x64": "windows_x64", "linux-x64": "linux_x64"}
# The add-on for Blender 3.4 to 4.1, as tools/blender-addon.py names it.
PACKAGE_LEGACY = "animkit_io.zip"


class DistError(Exception):
    pass


def source_time():
    """The archives' timestamp: $SOURCE_DATE_EPOCH, else the checkout's last commit, else now."""
    if os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%ct"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout.strip()
        return int(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return int(time.time())


def staged_files(stage):
    """(path, name relative to STAGE with forward slashes) of every file under STAGE, sorted."""
    found = []
    for folder, dirs, files in os.walk(stage):
        dirs.sort()
        for name in files:
            path = os.path.join(folder, name)
            found.append((path, os.path.relpath(path, stage).replace(os.sep, "/")))
    return sorted(found, key=lambda item: item[1])


def write_zip(stage, target, stamp):
    date = time.gmtime(max(stamp, 315532800))[:6]  # zip dates start at 1980
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for path, name in staged_files(stage):
            info = zipfile.ZipInfo(name, date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100000 | (os.stat(path).st_mode & 0o777)) << 16
            with open(path, "rb") as f:
                z.writestr(info, f.read())


def write_tar(stage, target, stamp):
    def normalised(info):
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mtime = stamp
        return info

    with tarfile.open(target, "w:gz", format=tarfile.PAX_FORMAT) as t:
        folders = set()
        for path, name in staged_files(stage):
            parts = name.split("/")
            for depth in range(1, len(parts)):
                folder = "/".join(parts[:depth])
                if folder not in folders:
                    folders.add(folder)
                    t.add(os.path.join(stage, *parts[:depth]), folder, recursive=False, filter=normalised)
            t.add(path, name, filter=normalised)


def build_package(out, platform, exe, build_dir, version, stamp):
    """Writes OUT/animkit-VERSION-PLATFORM.{zip,tar.gz}; returns its path and the checker's lines."""
    top = check_package.package_name(version, platform)
    target = os.path.join(out, top + check_package.ARCHIVE[platform])
    work = tempfile.mkdtemp(prefix=".dist-%s-" % platform, dir=out)
    try:
        stage = os.path.join(work, "stage")
        folder = os.path.join(stage, top)
        os.makedirs(folder)
        shutil.copyfile(exe, os.path.join(folder, check_package.EXECUTABLE[platform]))
        os.chmod(os.path.join(folder, check_package.EXECUTABLE[platform]), 0o755)
        shutil.copyfile(os.path.join(ROOT, "README.md"), os.path.join(folder, "README.md"))
        os.chmod(os.path.join(folder, "README.md"), 0o644)
        licences.write(folder, platform, build_dir)
        made = os.path.join(work, os.path.basename(target))
        (write_zip if made.endswith(".zip") else write_tar)(stage, made, stamp)
        os.chmod(made, 0o644)
        lines = check_package.check(made, build_dir)
        os.replace(made, target)
        return target, lines
    finally:
        shutil.rmtree(work, ignore_errors=True)


def executable_problem(platform, exe):
    """Why EXE cannot ship for PLATFORM, or None."""
    if not os.path.isfile(exe):
        how = "make windows builds it" if platform == "windows-x64" else "make dist builds it"
        return "%s is missing (%s)" % (exe, how)
    with open(exe, "rb") as f:
        data = f.read()
    try:
        if platform == "linux-x64":
            check_package.check_linux_executable(data, os.stat(exe).st_mode)
        else:
            check_package.check_windows_executable(data)
    except check_package.PackageError as e:
        return "%s: %s" % (exe, e)
    return None


def extension_name(version, platform=None):
    """An extension's name in the release: PLATFORM's (Blender's name for it, or "legacy"),
    or with None the one extension of a build without platforms."""
    return "animkit_io-%s-%s.zip" % (version, platform) if platform else "animkit_io-%s.zip" % version


def copy_extensions(out, build_dir, version, fresh_after, not_built=()):
    """Copies what `make blender-addon` wrote: the extension of each platform (or the one
    extension of a build without platforms) and the legacy add-on for Blender 3.4 to 4.1,
    as animkit_io-VERSION-legacy.zip; not the extension of a platform in NOT_BUILT (its
    executable would be an old one). Returns (the copies, what was left out and why)."""
    per_platform = {extension_name(version, p): "the %s extension" % p for p in EXTENSION_PLATFORM.values()}
    unbuilt = {extension_name(version, EXTENSION_PLATFORM[p]) for p in not_built}
    single = extension_name(version)
    legacy = extension_name(version, "legacy")
    wanted = dict(per_platform)
    if not any(os.path.isfile(os.path.join(build_dir, n)) for n in per_platform) and \
            os.path.isfile(os.path.join(build_dir, single)):
        wanted = {single: "the extension"}
    wanted[PACKAGE_LEGACY] = "the legacy add-on"
    copied, skipped = [], []
    for name, what in wanted.items():
        src = os.path.join(build_dir, name)
        dest = os.path.join(out, legacy if name == PACKAGE_LEGACY else name)
        if name in unbuilt:
            skipped.append("%s: its CLI did not build" % what)
            continue
        if not os.path.isfile(src):
            skipped.append("%s: no %s (make blender-addon writes it)" % (what, src))
            continue
        if fresh_after and os.path.getmtime(src) < os.path.getmtime(fresh_after):
            skipped.append("%s: %s is from an earlier `make blender-addon` (it did not write it this time)"
                           % (what, src))
            continue
        licences.copy_atomic(src, dest)
        copied.append(dest)
    for name in list(per_platform) + [single, legacy]:
        stale = os.path.join(out, name)
        if stale not in copied and os.path.exists(stale):
            os.remove(stale)
    return copied, skipped


def release_files(out, version):
    """The release's files in OUT, by name: those this script writes, as they are now."""
    names = [check_package.package_name(version, p) + check_package.ARCHIVE[p] for p in PLATFORMS]
    names += [extension_name(version, p) for p in list(EXTENSION_PLATFORM.values()) + [None, "legacy"]]
    return [os.path.join(out, n) for n in sorted(names) if os.path.isfile(os.path.join(out, n))]


def write_sums(out, version):
    """OUT/animkit-VERSION-sha256sums.txt: a line `DIGEST  NAME` for each of the release's
    files in OUT, written atomically. Returns its path and how many files it names."""
    lines = []
    files = release_files(out, version)
    for path in files:
        with open(path, "rb") as f:
            lines.append("%s  %s\n" % (hashlib.file_digest(f, "sha256").hexdigest(), os.path.basename(path)))

    def fill(tmp):
        with open(tmp, "w", newline="\n") as f:
            f.write("".join(lines))

    target = os.path.join(out, "animkit-%s-sha256sums.txt" % version)
    licences.write_atomic(target, fill)
    return target, len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the release folder (build/dist)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--linux-cli", help="default BUILD_DIR/release/tools/animkit/animkit")
    parser.add_argument("--windows-exe", help="default BUILD_DIR/windows/tools/animkit/animkit.exe")
    parser.add_argument("--only", choices=PLATFORMS, help="one platform's CLI package, no extensions")
    parser.add_argument("--not-built", action="append", default=[], choices=PLATFORMS,
                        help="a platform whose CLI failed to build this run (its old one is not shipped)")
    parser.add_argument("--fresh-after", help="extensions older than this file are not copied")
    parser.add_argument("--require-all", action="store_true", help="fail when anything is left out")
    args = parser.parse_args()
    build_dir = os.path.abspath(args.build_dir)
    exes = {"linux-x64": args.linux_cli or os.path.join(build_dir, "release", "tools", "animkit", "animkit"),
            "windows-x64": args.windows_exe or os.path.join(build_dir, "windows", "tools", "animkit", "animkit.exe")}
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    left_out = []
    try:
        version = check_package.project_version()
        stamp = source_time()
        for platform in PLATFORMS:
            if args.only and platform != args.only:
                continue
            problem = ("its CLI did not build" if platform in args.not_built
                       else executable_problem(platform, exes[platform]))
            if problem:
                left_out.append("the %s package: %s" % (platform, problem))
                stale = os.path.join(out, check_package.package_name(version, platform) + check_package.ARCHIVE[platform])
                if os.path.exists(stale):
                    os.remove(stale)
                continue
            target, lines = build_package(out, platform, exes[platform], build_dir, version, stamp)
            print("wrote %s (%d bytes)" % (target, os.path.getsize(target)))
            for line in lines:
                print("  " + line)
        if not args.only:
            copied, skipped = copy_extensions(out, build_dir, version, args.fresh_after, args.not_built)
            for path in copied:
                print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))
            left_out += skipped
        sums, count = write_sums(out, version)
        print("wrote %s (%d files)" % (sums, count))
    except (DistError, check_package.PackageError, licences.LicenceError, OSError) as e:
        print("dist: %s" % e, file=sys.stderr)
        return 1
    for reason in left_out:
        print("dist: left out %s" % reason, file=sys.stderr)
    return 1 if left_out and args.require_all else 0


if __name__ == "__main__":
    sys.exit(main())
