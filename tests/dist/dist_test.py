#!/usr/bin/env python3
"""The release packages (tools/dist/, docs/install.md):

  dist_test.py layout                 both platforms' packages from stand-in executables,
                                      checked; the checker fails each kind of broken package
                                      (the Windows part skipped without the MinGW-w64 packages)
  dist_test.py linux --cli PATH       the package of the real Linux CLI, unpacked and run
  dist_test.py windows [--exe PATH]   the package of the real animkit.exe (default
                                      $ANIMKIT_WINDOWS_CLI)

Exit 0 passed, 1 failed, 77 skipped (with the reason)."""

import argparse
import io
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIST = os.path.join(ROOT, "tools", "dist")
sys.path.insert(0, DIST)
import check_package  # noqa: E402
import licences  # noqa: E402

SKIP = 77
VERSION = check_package.project_version()


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run_dist(out, *args, env=None):
    return subprocess.run([sys.executable, os.path.join(DIST, "dist.py"), out, "--build-dir", out] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def pack(work, platform, exe):
    done = run_dist(work, "--only", platform, "--require-all", "--%s" % ("linux-cli" if platform == "linux-x64"
                                                                        else "windows-exe"), exe)
    print(done.stdout.strip())
    if done.returncode != 0:
        fail("dist.py --only %s exited %d" % (platform, done.returncode))
    path = os.path.join(work, "animkit-%s-%s%s" % (VERSION, platform, check_package.ARCHIVE[platform]))
    if not os.path.isfile(path):
        fail("dist.py wrote no %s" % path)
    leftovers = [n for n in os.listdir(work) if n.startswith(".")]
    if leftovers:
        fail("dist.py left temporary files: %s" % leftovers)
    return path


def expect_sums(folder, packages):
    """FOLDER's sums file names exactly PACKAGES, and coreutils' sha256sum agrees with it."""
    sums = os.path.join(folder, "animkit-%s-sha256sums.txt" % VERSION)
    if not os.path.isfile(sums):
        fail("dist.py wrote no %s" % sums)
    with open(sums, newline="") as f:
        lines = f.read().split("\n")
    if lines[-1] != "" or any(len(l) < 67 or l[64:66] != "  " for l in lines[:-1]):
        fail("%s is not in sha256sum's format: %r" % (sums, lines))
    named = sorted(l[66:] for l in lines[:-1])
    if named != sorted(os.path.basename(p) for p in packages):
        fail("%s names %s, expected %s" % (sums, named, sorted(os.path.basename(p) for p in packages)))
    tool = shutil.which("sha256sum")
    if not tool:
        print("no sha256sum: the digests in %s are not checked" % sums)
        return
    good = subprocess.run([tool, "-c", "--strict", os.path.basename(sums)], cwd=folder,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if good.returncode != 0:
        fail("sha256sum -c %s: %s" % (sums, good.stdout))
    with open(packages[0], "r+b") as f:  # one changed byte must be caught
        first = f.read(1)
        f.seek(0)
        f.write(bytes([first[0] ^ 1]))
    bad = subprocess.run([tool, "-c", os.path.basename(sums)], cwd=folder, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    with open(packages[0], "r+b") as f:
        f.write(first)
    if bad.returncode == 0:
        fail("sha256sum -c passed %s with a byte of %s changed" % (sums, packages[0]))
    print("%s: %d digests, checked by sha256sum" % (os.path.basename(sums), len(packages)))


def names_of(path):
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            return [i.filename for i in z.infolist() if not i.is_dir()]
    with tarfile.open(path) as t:
        return [i.name for i in t.getmembers() if i.isfile()]


def expect_rejected(path, what):
    try:
        check_package.check(path, os.path.dirname(path))
    except (check_package.PackageError, licences.LicenceError) as e:
        print("rejected (%s): %s" % (what, e))
        return
    fail("the checker accepted a package with %s" % what)


def rewrite_zip(src, dest, change):
    """Copies the zip SRC to DEST with change(name, data) -> [(name, data)] per member."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dest, "w") as out:
        for info in z.infolist():
            for name, data in change(info.filename, z.read(info)):
                out.writestr(name, data)


def stand_in_pe():
    """Just the headers of an x86-64 PE32+ program: what the checker reads."""
    data = bytearray(512)
    data[0:2] = b"MZ"
    struct.pack_into("<I", data, 60, 128)
    data[128:132] = b"PE\0\0"
    struct.pack_into("<H", data, 132, 0x8664)
    struct.pack_into("<H", data, 152, 0x20B)
    return bytes(data)


def windows_texts_missing():
    """Why the Windows package's licence texts are not on this machine (no MinGW-w64
    packages), or ""."""
    try:
        for component in licences.components("windows-x64"):
            licences.copyright_file(component, "windows-x64", ROOT)
    except licences.LicenceError as e:
        return str(e)
    return ""


def layout():
    with tempfile.TemporaryDirectory() as work:
        # /bin/true: a real ELF that needs only glibc, as the self-contained CLI does.
        linux = pack(work, "linux-x64", "/bin/true")
        expect_sums(work, [linux])
        ltop = "animkit-%s-linux-x64/" % VERSION
        lnames = set(names_of(linux))
        if ltop + "animkit" not in lnames or ltop + "licences/winpthreads.txt" in lnames:
            fail("%s: the Linux CLI without the MinGW texts expected, got %s" % (linux, sorted(lnames)))
        with tarfile.open(linux) as t:
            mode = t.getmember(ltop + "animkit").mode
            if mode & 0o111 != 0o111:
                fail("the Linux CLI is packed with mode %o" % mode)

        # A CLI that is not self-contained is left out, with the libraries named.
        needy = run_dist(os.path.join(work, "needy"), "--only", "linux-x64", "--require-all",
                         "--linux-cli", os.path.realpath(sys.executable))
        print(needy.stdout.strip())
        if needy.returncode != 1 or "besides glibc" not in needy.stdout:
            fail("a Linux CLI needing %s was packed" % ", ".join(check_package.elf_needed(
                open(os.path.realpath(sys.executable), "rb").read())))
        missing = run_dist(os.path.join(work, "missing"), "--only", "windows-x64",
                           "--windows-exe", os.path.join(work, "nowhere.exe"))
        if missing.returncode != 0 or "nowhere.exe is missing" not in missing.stdout:
            fail("without animkit.exe dist.py should say so and go on: %s" % missing.stdout)

        # A missing Debian package fails the licences with the package's name.
        empty = os.path.join(work, "doc")
        os.makedirs(empty)
        done = subprocess.run([sys.executable, os.path.join(DIST, "licences.py"), os.path.join(work, "lic"),
                               "--platform", "linux-x64", "--build-dir", work],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, ANIMKIT_DEBIAN_DOC=empty))
        print(done.stdout.strip())
        if done.returncode != 1 or "zlib1g-dev" not in done.stdout or os.path.exists(os.path.join(work, "lic")):
            fail("licences.py without Debian's texts should fail naming zlib1g-dev and write nothing")

        why = windows_texts_missing()
        if why:
            print("the Linux package passed; the Windows one is skipped: %s" % why)
            return SKIP
        exe = os.path.join(work, "stand-in.exe")
        with open(exe, "wb") as f:
            f.write(stand_in_pe())
        win = pack(work, "windows-x64", exe)
        expect_sums(work, [linux, win])  # the package of the earlier run is still listed
        top = "animkit-%s-windows-x64/" % VERSION
        names = set(names_of(win))
        for needed in ("animkit.exe", "README.md", "LICENSE", "licences/zlib.txt", "licences/libsquish.txt",
                       "licences/libimagequant.txt", "licences/lzo2.txt", "licences/libgomp.txt", "licences/nlohmann-json.txt",
                       "licences/tinygltf.txt", "licences/stb.txt", "licences/CLI11.txt", "licences/three.js.txt",
                       "licences/gcc-runtime.txt", "licences/mingw-w64-runtime.txt", "licences/winpthreads.txt",
                       "licences/common-licenses/GPL-3"):
            if top + needed not in names:
                fail("%s lacks %s" % (win, top + needed))
        with zipfile.ZipFile(win) as z:
            if z.read(top + "licences/zlib.txt") != open("/usr/share/doc/libz-mingw-w64-dev/copyright", "rb").read():
                fail("the Windows zlib text is not the MinGW zlib package's")
        print("checked the names, modes and per-platform texts of both packages")

        # Each kind of broken package is refused.
        broken = os.path.join(work, "broken")
        os.makedirs(broken)
        bad = os.path.join(broken, os.path.basename(win))
        rewrite_zip(win, bad, lambda n, d: [(n.replace("/", "\\") if n.endswith("LICENSE") else n, d)])
        expect_rejected(bad, "a backslash path")
        rewrite_zip(win, bad, lambda n, d: [("/" + n if n.endswith("README.md") else n, d)])
        expect_rejected(bad, "an absolute path")
        rewrite_zip(win, bad, lambda n, d: [] if n.endswith("winpthreads.txt") else [(n, d)])
        expect_rejected(bad, "a licence text missing")
        rewrite_zip(win, bad, lambda n, d: [(n, b"" if n.endswith("stb.txt") else d)])
        expect_rejected(bad, "an empty licence text")
        linux_zlib = open("/usr/share/doc/zlib1g-dev/copyright", "rb").read()
        rewrite_zip(win, bad, lambda n, d: [(n, linux_zlib if n.endswith("zlib.txt") else d)])
        expect_rejected(bad, "the Linux zlib package's text in the Windows package")
        rewrite_zip(win, bad, lambda n, d: [(n, d)] + ([(top + "licences/extra.txt", b"x")] if n.endswith("LICENSE")
                                                       else []))
        expect_rejected(bad, "a file nobody named")
        rewrite_zip(win, bad, lambda n, d: [(n, b"#!/bin/sh\n" if n.endswith(".exe") else d)])
        expect_rejected(bad, "a Linux script as animkit.exe")
        other = os.path.join(broken, "animkit-0.0.9-windows-x64.zip")
        rewrite_zip(win, other, lambda n, d: [(n.replace(VERSION, "0.0.9", 1), d)])
        expect_rejected(other, "another version in its name")
    print("PASS")
    return 0


def linux(cli):
    with open(cli, "rb") as f:
        data = f.read()
    try:
        check_package.check_linux_executable(data, os.stat(cli).st_mode)
    except check_package.PackageError as e:
        print("the Linux CLI cannot ship (%s): skipped until the release build links it statically" % e)
        return SKIP
    with tempfile.TemporaryDirectory() as work:
        path = pack(work, "linux-x64", cli)
        with tarfile.open(path) as t:
            t.extractall(os.path.join(work, "unpacked"))
        exe = os.path.join(work, "unpacked", "animkit-%s-linux-x64" % VERSION, "animkit")
        sample = os.path.join(ROOT, "samples", "psx_anm", "dance.anm")
        done = subprocess.run([exe, "info", sample],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ""})
        print(done.stdout[:400])
        if done.returncode != 0 or "psx-anm" not in done.stdout:
            fail("the unpacked CLI exited %d without naming the format" % done.returncode)
    print("PASS")
    return 0


def windows(exe):
    if not exe or not os.path.isfile(exe):
        print("no animkit.exe (%s; make windows builds it): skipped" % (exe or "ANIMKIT_WINDOWS_CLI is empty"))
        return SKIP
    with tempfile.TemporaryDirectory() as work:
        pack(work, "windows-x64", exe)
    print("PASS")
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("part", choices=("layout", "linux", "windows"))
    parser.add_argument("--cli", default="")
    parser.add_argument("--exe", default=os.environ.get("ANIMKIT_WINDOWS_CLI", ""))
    args = parser.parse_args()
    if args.part == "layout":
        return layout()
    if args.part == "linux":
        return linux(args.cli)
    return windows(args.exe)


if __name__ == "__main__":
    sys.exit(main())
