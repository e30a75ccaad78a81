#!/usr/bin/env python3
"""Writes the licence texts a package of animkit ships (docs/install.md, "Licences"):

  OUT_DIR/LICENSE                  the project's licence (GPL-3.0-or-later)
  OUT_DIR/licences/<library>.txt   one per third-party component built into that
                                   platform's animkit executable
  OUT_DIR/licences/common-licenses/<NAME>
                                   the common licences those texts name by their Debian
                                   path (/usr/share/common-licenses/NAME)

usage: licences.py OUT_DIR --platform linux-x64|windows-x64 [--build-dir DIR]

Each text is the Debian package's copyright file on this machine
(/usr/share/doc/<package>/copyright), so nothing third-party lives in the repository. The
Windows build compiles libsquish, libimagequant and lzo2 from Debian's source packages: their
binary package's copyright file is the same text and is preferred; else the unpacked
source's debian/copyright under BUILD_DIR/windows-deps/src/ is used. A component whose
text cannot be found fails the run (exit 1) with the package to install."""

import argparse
import glob
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Debian's package documentation ($ANIMKIT_DEBIAN_DOC: another folder, for the tests).
DOC = os.environ.get("ANIMKIT_DEBIAN_DOC", "/usr/share/doc")
# Debian's copyright files name the common licences by path (GPL-2, LGPL-2.1, Apache-2.0,
# ...); the package carries those texts too, for machines without that folder (Windows).
COMMON_LICENCES = "/usr/share/common-licenses"
COMMON_LICENCE_REF = re.compile(re.escape(COMMON_LICENCES) + r"/([A-Za-z0-9][A-Za-z0-9.+_-]*[A-Za-z0-9+])")
PLATFORMS = ("linux-x64", "windows-x64")

# Every component inside animkit's executable, per platform: the file name under
# licences/, what it is, and the Debian packages whose copyright file holds its text (the
# first installed one is taken; a "*" matches any GCC version). "source" names the Debian
# source package the Windows build compiles itself (its debian/copyright is the fallback).
COMPONENTS = [
    {"name": "zlib", "what": "zlib compression (the preview page's gzipped glb)",
     "packages": {"linux-x64": ["zlib1g-dev", "zlib1g"], "windows-x64": ["libz-mingw-w64-dev"]}},
    {"name": "libsquish", "what": "libsquish, BC1-BC3 texture blocks",
     "packages": {"linux-x64": ["libsquish-dev", "libsquish0"], "windows-x64": ["libsquish-dev", "libsquish0"]},
     "source": {"windows-x64": "libsquish"}},
    {"name": "libimagequant", "what": "libimagequant, palettes of written textures (GPL-3.0-or-later)",
     "packages": {"linux-x64": ["libimagequant-dev", "libimagequant0"],
                  "windows-x64": ["libimagequant-dev", "libimagequant0"]},
     "source": {"windows-x64": "libimagequant"}},
    {"name": "lzo2", "what": "LZO1X, the compression of Metroid Prime 2's PAK entries (GPL-2.0-or-later)",
     "packages": {p: ["liblzo2-dev", "liblzo2-2"] for p in PLATFORMS},
     "source": {"windows-x64": "lzo2"}},
    {"name": "libgomp", "what": "libgomp, GCC's OpenMP runtime libimagequant and libsquish use (GCC Runtime Library Exception)",
     "packages": {"linux-x64": ["libgomp1", "libgcc-*-dev", "gcc-*-base"],
                  "windows-x64": ["gcc-mingw-w64-base", "gcc-mingw-w64-x86-64-posix-runtime"]}},
    {"name": "nlohmann-json", "what": "nlohmann/json, JSON reading and writing",
     "packages": {p: ["nlohmann-json3-dev"] for p in PLATFORMS}},
    {"name": "tinygltf", "what": "TinyGLTF, glTF 2.0 reading and writing",
     "packages": {p: ["libtinygltf-dev"] for p in PLATFORMS}},
    {"name": "stb", "what": "stb_image and stb_image_write, PNG textures",
     "packages": {p: ["libstb-dev"] for p in PLATFORMS}},
    {"name": "CLI11", "what": "CLI11, the command line's parser",
     "packages": {p: ["libcli11-dev"] for p in PLATFORMS}},
    {"name": "three.js", "what": "three.js r111, embedded in the preview pages the CLI writes",
     "packages": {p: ["libjs-three"] for p in PLATFORMS}},
    {"name": "gcc-runtime", "what": "libstdc++ and libgcc, linked statically (GCC Runtime Library Exception)",
     "packages": {"linux-x64": ["libstdc++-*-dev", "libgcc-*-dev", "gcc-*-base"],
                  "windows-x64": ["gcc-mingw-w64-base", "gcc-mingw-w64-x86-64-posix-runtime"]}},
    {"name": "mingw-w64-runtime", "what": "the MinGW-w64 C runtime and headers",
     "packages": {"windows-x64": ["mingw-w64-x86-64-dev", "mingw-w64-common"]}},
    {"name": "winpthreads", "what": "MinGW-w64's winpthreads, the threads under std::thread",
     "packages": {"windows-x64": ["mingw-w64-x86-64-dev", "mingw-w64-common"]}},
]


class LicenceError(Exception):
    pass


def components(platform):
    """The components inside PLATFORM's executable, in the table's order."""
    return [c for c in COMPONENTS if platform in c["packages"]]


def _version_key(path):
    """Sorts gcc-12-base before gcc-13-base: digits compared as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def copyright_file(component, platform, build_dir):
    """The path of COMPONENT's text on this machine, or LicenceError naming what to install."""
    for package in component["packages"][platform]:
        matches = sorted(glob.glob(os.path.join(DOC, package, "copyright")), key=_version_key, reverse=True)
        for path in matches:
            if os.path.getsize(path) > 0:
                return path
    source = component.get("source", {}).get(platform)
    if source:
        matches = sorted(glob.glob(os.path.join(build_dir, "windows-deps", "src", source + "-*", "debian", "copyright")),
                         key=_version_key, reverse=True)
        for path in matches:
            if os.path.getsize(path) > 0:
                return path
    wanted = " or ".join(component["packages"][platform])
    where = " (or the unpacked source %s/windows-deps/src/%s-VERSION/debian/copyright)" % (build_dir, source) if source else ""
    raise LicenceError("no licence text for %s, %s: %s/<package>/copyright is missing for %s%s; "
                       "install the package (apt-get install %s)"
                       % (component["name"], component["what"], DOC, wanted, where,
                          component["packages"][platform][0].replace("*", "12")))


def project_licence():
    path = os.path.join(ROOT, "LICENSE")
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        raise LicenceError("the project's licence %s is missing" % path)
    return path


def common_licences(paths):
    """The common licences the texts at PATHS name: [(source, name)], sorted."""
    names = set()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            names.update(COMMON_LICENCE_REF.findall(f.read()))
    found = []
    for name in sorted(names):
        src = os.path.join(COMMON_LICENCES, name)
        if not os.path.isfile(src):
            raise LicenceError("a licence text names %s, which is missing (Debian's base-files has it)" % src)
        found.append((src, name))
    return found


def write_atomic(dest, fill):
    """FILL(path) writes dest's content into a temporary beside it, which then gets mode 0644
    and is renamed to dest: dest is whole or absent."""
    folder = os.path.dirname(dest)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(dest) + "-", dir=folder)
    os.close(fd)
    try:
        fill(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def copy_atomic(src, dest):
    """src copied to dest through a temporary beside it (write_atomic)."""
    write_atomic(dest, lambda tmp: shutil.copyfile(src, tmp))


def write(out_dir, platform, build_dir):
    """Every source is found before anything is written: a missing text leaves OUT_DIR as it was."""
    plan = [(project_licence(), os.path.join(out_dir, "LICENSE"))]
    for component in components(platform):
        plan.append((copyright_file(component, platform, build_dir),
                     os.path.join(out_dir, "licences", component["name"] + ".txt")))
    for src, name in common_licences([src for src, _ in plan[1:]]):
        plan.append((src, os.path.join(out_dir, "licences", "common-licenses", name)))
    for folder in sorted({os.path.dirname(dest) for _, dest in plan}):
        os.makedirs(folder, exist_ok=True)
    for src, dest in plan:
        copy_atomic(src, dest)
    return plan


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", help="folder LICENSE and licences/ are written to")
    parser.add_argument("--platform", required=True, choices=PLATFORMS)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                        help="the build folder (windows-deps/src/ holds the Windows build's unpacked sources)")
    parser.add_argument("--list", action="store_true", help="print the components' names, one a line, and exit")
    args = parser.parse_args()
    if args.list:
        for component in components(args.platform):
            print(component["name"])
        return 0
    try:
        plan = write(args.out_dir, args.platform, args.build_dir)
    except LicenceError as e:
        print("licences: %s" % e, file=sys.stderr)
        return 1
    for src, dest in plan:
        print("%s <- %s" % (os.path.relpath(dest, args.out_dir), src))
    return 0


if __name__ == "__main__":
    sys.exit(main())
