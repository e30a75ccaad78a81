#!/usr/bin/env python3
"""Checks one release package of animkit (docs/install.md), as a user would unpack it:

  animkit-VERSION-linux-x64.tar.gz / animkit-VERSION-windows-x64.zip

usage: check_package.py PACKAGE [--build-dir DIR]

Checked: the name's version is the project's (CMakeLists.txt's project() and the Blender
manifest, which must agree); every path is relative, forward-slashed and under the one
folder animkit-VERSION-PLATFORM/; the files are exactly the executable, README.md,
LICENSE and licences/ with one text per component inside that platform's executable
(tools/dist/licences.py), each non-empty and the text this machine's Debian package holds,
and the common licences those texts name; the executable is the platform's (ELF x86-64
needing only glibc, or a PE32+ x86-64 program). Prints what it checked; exit 1 on the
first failure, with what was wrong."""

import argparse
import io
import os
import re
import stat
import struct
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import licences  # noqa: E402

EXECUTABLE = {"linux-x64": "animkit", "windows-x64": "animkit.exe"}
ARCHIVE = {"linux-x64": ".tar.gz", "windows-x64": ".zip"}
# The shared libraries a self-contained Linux CLI may still need: glibc's own.
GLIBC_LIBRARIES = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "ld-linux-x86-64.so.2"}


class PackageError(Exception):
    pass


def project_version():
    """CMakeLists.txt's project version; the Blender manifest must say the same."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        cmake = re.search(r"project\(\s*animkit\s+VERSION\s+([0-9.]+)", f.read())
    with open(os.path.join(ROOT, "blender", "animkit_io", "blender_manifest.toml"), encoding="utf-8") as f:
        manifest = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    if cmake is None or manifest is None:
        raise PackageError("no version in CMakeLists.txt's project() or in blender_manifest.toml")
    if cmake.group(1) != manifest.group(1):
        raise PackageError("CMakeLists.txt says version %s, blender_manifest.toml %s: make them the same"
                           % (cmake.group(1), manifest.group(1)))
    return cmake.group(1)


def package_name(version, platform):
    return "animkit-%s-%s" % (version, platform)


def elf_needed(data):
    """The DT_NEEDED names of a 64-bit little-endian ELF (the dynamic section read directly)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise PackageError("not a 64-bit little-endian ELF file")
    (machine,) = struct.unpack_from("<H", data, 18)
    if machine != 62:
        raise PackageError("an ELF file for machine %d, not x86-64 (62)" % machine)
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + k * shentsize) for k in range(shnum)]
    needed = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link]
        for k in range(0, size, entsize or 16):
            tag, value = struct.unpack_from("<qQ", data, offset + k)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                start = strtab[4] + value
                needed.append(data[start:data.index(b"\0", start)].decode())
    return needed


def glibc_needed(data):
    """The highest GLIBC_x.y symbol version the ELF asks for, as a string ("" when none)."""
    versions = {tuple(int(n) for n in m.split(b".")) for m in re.findall(rb"GLIBC_([0-9]+\.[0-9]+(?:\.[0-9]+)?)\0", data)}
    return ".".join(str(n) for n in max(versions)) if versions else ""


def check_linux_executable(data, mode):
    if not mode & stat.S_IXUSR:
        raise PackageError("animkit is not executable (mode %o)" % mode)
    extra = sorted(set(elf_needed(data)) - GLIBC_LIBRARIES)
    if extra:
        raise PackageError("animkit needs shared libraries besides glibc: %s (not self-contained)" % ", ".join(extra))
    return "ELF x86-64, needs only glibc >= %s" % glibc_needed(data)


def check_windows_executable(data):
    if data[:2] != b"MZ" or len(data) < 64:
        raise PackageError("animkit.exe is not a Windows program (no MZ header)")
    (pe,) = struct.unpack_from("<I", data, 60)
    if data[pe:pe + 4] != b"PE\0\0":
        raise PackageError("animkit.exe has no PE header")
    machine, = struct.unpack_from("<H", data, pe + 4)
    magic, = struct.unpack_from("<H", data, pe + 24)
    if machine != 0x8664 or magic != 0x20B:
        raise PackageError("animkit.exe is not a PE32+ x86-64 program (machine 0x%x, magic 0x%x)" % (machine, magic))
    return "PE32+ x86-64"


def members(path):
    """{name: (bytes, mode)} of the package's regular files, and its folders' names."""
    files, folders = {}, set()
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                if info.is_dir():
                    folders.add(info.filename.rstrip("/"))
                else:
                    files[info.filename] = (z.read(info), (info.external_attr >> 16) & 0o7777)
    else:
        with tarfile.open(path, "r:gz") as t:
            for info in t.getmembers():
                if info.isdir():
                    folders.add(info.name.rstrip("/"))
                elif info.isfile():
                    files[info.name] = (t.extractfile(info).read(), info.mode)
                else:
                    raise PackageError("%s: %s is neither a file nor a folder" % (path, info.name))
    return files, folders


def check_path(name, top):
    if "\\" in name:
        raise PackageError("%s has a backslash" % name)
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise PackageError("%s is absolute" % name)
    if any(part in ("", ".", "..") for part in name.split("/")):
        raise PackageError("%s has an empty, . or .. part" % name)
    if name.split("/")[0] != top:
        raise PackageError("%s is not under %s/" % (name, top))


def check(path, build_dir):
    """The lines of what was checked; PackageError on the first failure."""
    base = os.path.basename(path)
    match = re.fullmatch(r"animkit-([0-9][0-9.]*)-(linux-x64|windows-x64)(\.tar\.gz|\.zip)", base)
    if match is None:
        raise PackageError("%s is not named animkit-VERSION-linux-x64.tar.gz or animkit-VERSION-windows-x64.zip" % base)
    version, platform, ext = match.groups()
    project = project_version()
    if version != project:
        raise PackageError("%s names version %s, the project is %s" % (base, version, project))
    if ext != ARCHIVE[platform]:
        raise PackageError("%s: the %s package is a %s" % (base, platform, ARCHIVE[platform]))
    top = package_name(version, platform)
    files, folders = members(path)
    for name in list(files) + list(folders):
        check_path(name, top)
    components = licences.components(platform)
    expected = {top + "/" + n for n in (EXECUTABLE[platform], "README.md", "LICENSE")}
    expected |= {"%s/licences/%s.txt" % (top, c["name"]) for c in components}
    common = {n for n in files if n.startswith(top + "/licences/common-licenses/")}
    if set(files) - common != expected:
        raise PackageError("%s: missing %s, unexpected %s" % (base, sorted(expected - set(files)) or "nothing",
                                                               sorted(set(files) - common - expected) or "nothing"))
    lines = ["%s: version %s, %d files under %s/" % (base, version, len(files), top)]
    for name, (data, _) in sorted(files.items()):
        if not data:
            raise PackageError("%s is empty" % name)
    with open(licences.project_licence(), "rb") as f:
        if files[top + "/LICENSE"][0] != f.read():
            raise PackageError("LICENSE is not the project's")
    with open(os.path.join(ROOT, "README.md"), "rb") as f:
        if files[top + "/README.md"][0] != f.read():
            raise PackageError("README.md is not the project's")
    texts = []
    for component in components:
        name = "%s/licences/%s.txt" % (top, component["name"])
        source = licences.copyright_file(component, platform, build_dir)
        with open(source, "rb") as f:
            if files[name][0] != f.read():
                raise PackageError("%s is not %s" % (name, source))
        texts.append(source)
    named = {"%s/licences/common-licenses/%s" % (top, n) for _, n in licences.common_licences(texts)}
    if common != named:
        raise PackageError("licences/common-licenses/ holds %s, the texts name %s" % (sorted(common), sorted(named)))
    lines.append("licences: %s, common: %s" % (", ".join(c["name"] for c in components),
                                               ", ".join(sorted(os.path.basename(n) for n in named))))
    data, mode = files[top + "/" + EXECUTABLE[platform]]
    if platform == "linux-x64":
        lines.append("animkit: " + check_linux_executable(data, mode))
    else:
        lines.append("animkit.exe: " + check_windows_executable(data))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    try:
        for line in check(args.package, args.build_dir):
            print(line)
    except (PackageError, licences.LicenceError, OSError, zipfile.BadZipFile, tarfile.TarError) as e:
        print("check_package: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
