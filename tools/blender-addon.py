#!/usr/bin/env python3
"""Builds the Blender add-on's packages from blender/animkit_io (docs/blender.md):

  OUT/animkit_io.zip                          the legacy add-on (animkit_io/ at the top,
                                              read through bl_info), without an animkit
                                              executable: Blender 3.4 to 4.1,
                                              Preferences > Add-ons > Install
  OUT/animkit_io-VERSION-linux_x64.zip        the extensions, one per platform, each with
  OUT/animkit_io-VERSION-windows_x64.zip      that platform's animkit in bin/ and the
                                              licence texts (tools/dist/licences.py), made
                                              by `blender --command extension build
                                              --split-platforms`: Blender 4.2 and later,
                                              Get Extensions > Install from Disk

usage: blender-addon.py OUT [--only legacy|extension] [--linux-cli EXE] [--windows-cli EXE]
                          [--self-contained]

--linux-cli: the Linux animkit (default build/release/tools/animkit/animkit), --windows-cli:
the Windows one (default build/windows/tools/animkit/animkit.exe, `make windows`); a
platform whose executable is missing (or given as "") is left out with a message. A Linux
animkit that needs shared libraries besides glibc's is built in with a warning, or, with
--self-contained (a release), refused. The extensions need a
Blender >= 4.2: $ANIMKIT_BLENDER, else `blender` on PATH when it is one, else the one in the
root tools/run-blender.sh runs (ANIMKIT_BLENDER_ROOT picks the root). Without one, or
without any executable, the extensions are left out with a message (exit 0), or, with
--only extension, the run is skipped (exit 77)."""

import argparse
import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCE = os.path.join(ROOT, "blender", "animkit_io")
PACKAGE = "animkit_io"
MANIFEST = "blender_manifest.toml"
SKIP = 77
LICENCES = os.path.join(ROOT, "tools", "dist", "licences.py")
# Each platform's executable as this checkout builds it (make build, make windows).
DEFAULT_EXECUTABLES = {
    "linux-x64": os.path.join(ROOT, "build", "release", "tools", "animkit", "animkit"),
    "windows-x64": os.path.join(ROOT, "build", "windows", "tools", "animkit", "animkit.exe"),
}


def bundled_names():
    """{Blender's platform name: the executable's name in its extension}: the add-on's own
    table (io/cli.py, BUNDLED; bpy-free), so the build puts it where the add-on looks."""
    spec = importlib.util.spec_from_file_location("animkit_io_cli", os.path.join(SOURCE, "io", "cli.py"))
    module = importlib.util.module_from_spec(spec)
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # nothing written into the sources
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes
    return dict(module.BUNDLED)


BUNDLED = bundled_names()
# In both packages: the add-on's entry, its table and its two packages (docs/blender.md, "Layout").
PACKAGE_FILES = ("__init__.py", "operators.py", "formats.json", "io/__init__.py", "blender/__init__.py")
# Left out of both packages: what Python and editors leave beside the sources.
EXCLUDED_DIRS = {"__pycache__"}


class BuildError(Exception):
    pass


def addon_version():
    """bl_info's version (the legacy add-on's) and the manifest's, as "X.Y.Z"; they must agree."""
    with open(os.path.join(SOURCE, "__init__.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    bl_info = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "bl_info" for t in node.targets))
    legacy = ".".join(str(n) for n in bl_info["version"])
    with open(os.path.join(SOURCE, MANIFEST), encoding="utf-8") as f:
        match = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    if match is None:
        raise BuildError("%s has no version" % MANIFEST)
    if match.group(1) != legacy:
        raise BuildError("%s says version %s, bl_info in __init__.py says %s: make them the same"
                         % (MANIFEST, match.group(1), legacy))
    return legacy


def check_formats_table():
    path = os.path.join(SOURCE, "formats.json")
    try:
        with open(path, encoding="utf-8") as f:
            if not json.load(f).get("formats"):
                raise BuildError("%s lists no format" % path)
    except (OSError, ValueError) as e:
        raise BuildError("%s is missing or unreadable (make blender-formats writes it): %s" % (path, e))


def source_files():
    """(path, name relative to the add-on's folder) of every file a package holds."""
    for folder, dirs, files in os.walk(SOURCE):
        dirs[:] = sorted(d for d in dirs if d not in EXCLUDED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith((".pyc", ".zip")):
                continue
            path = os.path.join(folder, name)
            yield path, os.path.relpath(path, SOURCE).replace(os.sep, "/")


def build_legacy(out):
    """animkit_io/ at the zip's top, as Blender 3.4's Install... expects; no manifest (a
    Blender >= 4.2 given this zip installs it as a legacy add-on, bl_info and all)."""
    target = os.path.join(out, PACKAGE + ".zip")
    fd, tmp = tempfile.mkstemp(prefix=".animkit_io-", suffix=".zip", dir=out)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 otherwise
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
            for path, name in source_files():
                if name != MANIFEST:
                    z.write(path, PACKAGE + "/" + name)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


def blender_version(exe):
    try:
        out = subprocess.run([exe, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=120, check=False).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"^Blender (\d+)\.(\d+)", out, re.M)
    return (int(match.group(1)), int(match.group(2))) if match else None


def extension_command(src, dest):
    """The argv that runs Blender's extension build, and a description; None when no
    Blender >= 4.2 is at hand."""
    build = ["--command", "extension", "build", "--source-dir", src, "--output-dir", dest]
    candidates = [os.environ.get("ANIMKIT_BLENDER", ""), shutil.which("blender") or ""]
    for exe in (c for c in candidates if c):
        version = blender_version(exe)
        if version is not None and version >= (4, 2):
            return [exe] + build, "%s (Blender %d.%d)" % (exe, *version)
    runner = os.path.join(HERE, "run-blender.sh")
    root = os.environ.get("ANIMKIT_BLENDER_ROOT", "trixie")
    return (["bash", runner, "--root", root, "--ro", src, "--rw", dest, "--", "blender"] + build,
            "the Blender in the %s root (tools/run-blender.sh)" % root)


def extension_name(version, platform):
    """Blender's name of a platform's build (`extension build --split-platforms`)."""
    return "%s-%s-%s.zip" % (PACKAGE, version, platform.replace("-", "_"))


def platform_manifest(platform):
    """The manifest with `platforms = [platform]` among its top-level keys (before its first
    table): Blender installs the extension only there."""
    with open(os.path.join(SOURCE, MANIFEST), encoding="utf-8") as f:
        text = f.read()
    if re.search(r"^platforms\s*=", text, re.M):
        raise BuildError("%s declares platforms: the build sets them per extension" % MANIFEST)
    line = "\n# Set by tools/blender-addon.py: this extension carries the %s animkit.\nplatforms = [\"%s\"]\n" \
        % (platform, platform)
    table = re.search(r"^\[", text, re.M)
    at = table.start() if table else len(text)
    return text[:at].rstrip("\n") + "\n" + line + "\n" + text[at:]


def write_licences(folder, platform, made=""):
    """The project's licence and those of the libraries inside the platform's executable
    (tools/dist/licences.py, or the folder `made` it wrote earlier: a Blender root has not
    the Debian packages whose texts it copies); their names relative to `folder`."""
    if made:
        shutil.copytree(made, folder, dirs_exist_ok=True)
    elif not os.path.isfile(LICENCES):
        print("no %s: the %s extension carries no licence texts" % (os.path.relpath(LICENCES, ROOT), platform))
        return []
    else:
        proc = subprocess.run([sys.executable, LICENCES, folder, "--platform", platform], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300, check=False)
        if proc.returncode != 0:
            raise BuildError("%s --platform %s failed (exit %d):\n%s"
                             % (LICENCES, platform, proc.returncode, proc.stdout.decode("utf-8", "replace").strip()))
    names = []
    for top, dirs, files in os.walk(folder):
        names += [os.path.relpath(os.path.join(top, f), folder).replace(os.sep, "/") for f in files]
    return sorted(names)


def stage(work, platform, exe, licences_made=""):
    """The folder Blender builds a platform's extension from: the add-on's files, the
    manifest with its platform, bin/ with the executable (mode 0755) and the licence texts.
    Returns (folder, the names of what was added to the add-on's files)."""
    folder = os.path.join(work, "source-" + platform)
    licences = write_licences(folder, platform, licences_made)
    for path, name in source_files():
        target = os.path.join(folder, *name.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if name == MANIFEST:
            with open(target, "w", encoding="utf-8") as f:
                f.write(platform_manifest(platform))
        else:
            shutil.copyfile(path, target)
    bundled = BUNDLED[platform]
    target = os.path.join(folder, *bundled.split("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(exe, target)
    os.chmod(target, 0o755)
    return folder, set(licences) | {bundled}


def build_extension(out, version, platform, exe, licences_made=""):
    """Runs Blender's own build on the platform's staged folder; returns the zip, or None
    (with the reason printed) when no Blender >= 4.2 could run."""
    target = os.path.join(out, extension_name(version, platform))
    work = tempfile.mkdtemp(prefix=".animkit_io-extension-", dir=out)
    try:
        src, extra = stage(work, platform, exe, licences_made)
        dest = os.path.join(work, "out")
        os.makedirs(dest)
        argv, where = extension_command(src, dest)
        argv.append("--split-platforms")
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=300, check=False)
        text = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode == SKIP:
            print("no Blender >= 4.2 to build the extensions with (%s)" % (text.splitlines() or ["?"])[-1])
            return None, extra
        made = os.path.join(dest, extension_name(version, platform))
        if proc.returncode != 0 or not os.path.isfile(made):
            raise BuildError("the %s extension's build with %s failed (exit %d):\n%s"
                             % (platform, where, proc.returncode, text))
        os.replace(made, target)
        print("built the %s extension with %s" % (platform, where))
        return target, extra
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_zip(path, prefix, manifest, extra=(), platform=None):
    """What a user's Blender reads: the add-on's files under `prefix`, formats.json and its
    two packages (io/, blender/) among them, the manifest at the top (extension) or none
    (legacy), nothing compiled; an extension also `extra` (its executable, mode 0755, and
    the licence texts) and a manifest that names its platform alone."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        expected = {prefix + name for _, name in source_files() if manifest or name != MANIFEST} | set(extra)
        if names != expected:
            raise BuildError("%s holds %s, expected %s" % (path, sorted(names ^ expected), "the add-on's files"))
        for needed in PACKAGE_FILES + ((MANIFEST,) if manifest else ()):
            if prefix + needed not in names:
                raise BuildError("%s lacks %s" % (path, prefix + needed))
        if platform is None:
            return
        bundled = BUNDLED[platform]
        mode = z.getinfo(bundled).external_attr >> 16
        if mode & 0o777 != 0o755:
            raise BuildError("%s: %s has mode %o, not 755" % (path, bundled, mode & 0o777))
        text = z.read(MANIFEST).decode("utf-8")
    declared = [re.findall(r'"([^"]+)"', m) for m in re.findall(r"^platforms\s*=\s*\[([^\]]*)\]", text, re.M)]
    if not declared or any(p != [platform] for p in declared):
        raise BuildError("%s: the manifest's platforms are %s, not [%s]" % (path, declared, platform))


# What every Linux the extension is for has: glibc's libraries. Anything else a user may lack.
GLIBC = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "ld-linux-x86-64.so.2"}


def shared_libraries_beyond_glibc(exe):
    """The shared libraries a Linux executable needs besides glibc's (readelf -d's NEEDED);
    None when readelf is not at hand."""
    try:
        text = subprocess.run(["readelf", "-d", exe], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=60, check=True).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted(set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", text)) - GLIBC)


def check_self_contained(exe, required):
    """The Linux extension's animkit runs on a user's Linux only when it needs no shared
    library but glibc's: said (a warning), or, with --self-contained, an error."""
    extra = shared_libraries_beyond_glibc(exe)
    if not extra:
        return
    message = ("%s needs %s besides glibc: a user's Linux may lack them (a self-contained build links "
               "them statically)" % (exe, ", ".join(extra)))
    if required:
        raise BuildError(message)
    print("warning: " + message)


def remove(path):
    if os.path.exists(path):
        os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder the zips are written to")
    parser.add_argument("--only", choices=("legacy", "extension"), help="build the legacy zip or the extensions")
    parser.add_argument("--linux-cli", default=DEFAULT_EXECUTABLES["linux-x64"], help="the Linux animkit executable")
    parser.add_argument("--windows-cli", default=DEFAULT_EXECUTABLES["windows-x64"], help="the Windows animkit.exe")
    parser.add_argument("--linux-licences", default="",
                        help="a folder tools/dist/licences.py --platform linux-x64 wrote, used as it is")
    parser.add_argument("--self-contained", action="store_true",
                        help="fail when the Linux animkit needs shared libraries besides glibc's (a release)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    executables = {"linux-x64": args.linux_cli, "windows-x64": args.windows_cli}
    try:
        version = addon_version()
        check_formats_table()
        if args.only != "extension":
            legacy = build_legacy(out)
            check_zip(legacy, PACKAGE + "/", manifest=False)
            print("wrote %s (the add-on for Blender 3.4 to 4.1; no animkit inside)" % legacy)
        if args.only == "legacy":
            return 0
        remove(os.path.join(out, "%s-%s.zip" % (PACKAGE, version)))  # the extension without executable, once made
        built = 0
        for platform, exe in executables.items():
            stale = os.path.join(out, extension_name(version, platform))
            remove(stale)
            if not exe:
                print("no %s animkit given: the %s extension is left out" % (platform, platform))
                continue
            if not os.path.isfile(exe):
                print("no %s animkit at %s (%s): the %s extension is left out"
                      % (platform, exe, "make windows" if platform.startswith("windows") else "make build", platform))
                continue
            if platform.startswith("linux-"):
                check_self_contained(exe, args.self_contained)
            made = args.linux_licences if platform == "linux-x64" else ""
            extension, extra = build_extension(out, version, platform, exe, made)
            if extension is None:
                break
            check_zip(extension, "", manifest=True, extra=extra, platform=platform)
            print("wrote %s (the extension for Blender 4.2 and later on %s)" % (extension, platform))
            built += 1
        if built == 0:
            if args.only == "extension":
                return SKIP
            print("built only the legacy add-on: Blender 4.2 and later install it too, as a legacy add-on")
    except BuildError as e:
        print("blender-addon: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
