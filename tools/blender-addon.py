#!/usr/bin/env python3
"""Builds the Blender add-on's two packages from blender/animkit_io (docs/blender.md):

  OUT/animkit_io.zip            the legacy add-on (animkit_io/ at the top, read through
                                bl_info): Blender 3.4 to 4.1, Preferences > Add-ons > Install
  OUT/animkit_io-VERSION.zip    the extension (blender_manifest.toml at the top), made by
                                `blender --command extension build`: Blender 4.2 and later,
                                Get Extensions > Install from Disk

usage: blender-addon.py OUT [--only legacy|extension]

The extension needs a Blender >= 4.2: $ANIMKIT_BLENDER, else `blender` on PATH when it is
one, else the one in the root tools/run-blender.sh runs (ANIMKIT_BLENDER_ROOT picks
the root). Without one the extension is left out with a message (exit 0), or, with
--only extension, the run is skipped (exit 77)."""

import argparse
import ast
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


def build_extension(out, version):
    """Runs Blender's own build on the add-on's folder; returns the zip, or None (with
    the reason printed) when no Blender >= 4.2 could run."""
    target = os.path.join(out, "%s-%s.zip" % (PACKAGE, version))
    work = tempfile.mkdtemp(prefix=".animkit_io-extension-", dir=out)
    try:
        argv, where = extension_command(SOURCE, work)
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=300, check=False)
        text = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode == SKIP:
            print("no Blender >= 4.2 to build the extension with (%s)" % (text.splitlines() or ["?"])[-1])
            return None
        made = os.path.join(work, "%s-%s.zip" % (PACKAGE, version))
        if proc.returncode != 0 or not os.path.isfile(made):
            raise BuildError("the extension build with %s failed (exit %d):\n%s" % (where, proc.returncode, text))
        os.replace(made, target)
        print("built the extension with %s" % where)
        return target
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_zip(path, prefix, manifest):
    """What a user's Blender reads: the add-on's files under `prefix`, formats.json and its
    two packages (io/, blender/) among them, the manifest at the top (extension) or none
    (legacy), nothing compiled."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
    expected = {prefix + name for _, name in source_files() if manifest or name != MANIFEST}
    if names != expected:
        raise BuildError("%s holds %s, expected %s" % (path, sorted(names ^ expected), "the add-on's files"))
    for needed in PACKAGE_FILES + ((MANIFEST,) if manifest else ()):
        if prefix + needed not in names:
            raise BuildError("%s lacks %s" % (path, prefix + needed))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder the zips are written to")
    parser.add_argument("--only", choices=("legacy", "extension"), help="build one package")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    try:
        version = addon_version()
        check_formats_table()
        if args.only != "extension":
            legacy = build_legacy(out)
            check_zip(legacy, PACKAGE + "/", manifest=False)
            print("wrote %s (the add-on for Blender 3.4 to 4.1)" % legacy)
        if args.only != "legacy":
            extension = build_extension(out, version)
            if extension is None:
                stale = os.path.join(out, "%s-%s.zip" % (PACKAGE, version))
                if os.path.exists(stale):
                    os.remove(stale)
                if args.only == "extension":
                    return SKIP
                print("built only the legacy add-on: Blender 4.2 and later install it too, as a legacy add-on")
            else:
                check_zip(extension, "", manifest=True)
                print("wrote %s (the extension for Blender 4.2 and later)" % extension)
    except BuildError as e:
        print("blender-addon: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
