# Finding and running the animkit command line. Pure Python (no bpy).
#
# Every call runs animkit without a shell, with arguments as a list. A non-zero exit
# becomes an AnimkitError carrying animkit's one-line message (it names the file, the
# byte offset and what was expected), so an operator can show it as is.

import json
import os
import platform
import shutil
import subprocess
import sys

ENV_VAR = "ANIMKIT_CLI"
EXE_NAME = "animkit"
# The executable each platform's extension carries, relative to the add-on's folder, by
# Blender's platform name (blender_manifest.toml's `platforms`; tools/blender-addon.py
# puts it there). The legacy zip and the source folder carry none.
BUNDLED = {"linux-x64": "bin/animkit", "windows-x64": "bin/animkit.exe"}
BUNDLED_DIR = "bin"
ADDON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFERENCES = "Edit > Preferences > Add-ons > animkit"
CUSTOM = "Use a custom animkit"
# Windows: animkit is a console program; without this every run flashes a console window.
_CREATION_FLAGS = getattr(subprocess, "CREATE_NO_WINDOW", 0) if sys.platform == "win32" else 0


class AnimkitError(Exception):
    """animkit failed; str() is its one-line message."""


def blender_platform(sys_platform, machine):
    """Blender's name of a platform (windows-x64, linux-x64, macos-arm64, ...), as its
    extension manifests spell it, from `sys.platform` and `platform.machine()`."""
    system = "linux" if sys_platform.startswith("linux") else \
        {"win32": "windows", "cygwin": "windows", "darwin": "macos"}.get(sys_platform, sys_platform)
    machine = machine.lower()
    arch = {"x86_64": "x64", "amd64": "x64", "x64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return "%s-%s" % (system, arch)


def bundled_name(sys_platform, machine):
    """The path, relative to the add-on's folder, of the executable the extension for this
    platform carries; None when no extension is made for it (macOS, ARM)."""
    return BUNDLED.get(blender_platform(sys_platform, machine))


def _runnable(path):
    """Whether `path` can be run, giving it back its executable bit when it lost it: Blender's
    Install from Disk extracts the extension's files without their modes."""
    if not os.path.isfile(path):
        return False
    if os.access(path, os.X_OK):
        return True
    try:
        os.chmod(path, os.stat(path).st_mode | 0o111)
    except OSError:
        return False
    return os.access(path, os.X_OK)


def _custom(path):
    if not path:
        raise AnimkitError("'%s' is ticked but no path is set: set the animkit executable (%s)" % (CUSTOM, PREFERENCES))
    full = os.path.abspath(os.path.expanduser(path))
    if _runnable(full):
        return full
    raise AnimkitError("the animkit executable set in the add-on's preferences (%s) does not exist "
                       "or cannot be run" % path)


def _developer_fallback():
    """$ANIMKIT_CLI, else `animkit` on PATH: only for an add-on that carries no executable
    (the legacy zip, the checkout's blender/ folder)."""
    env = os.environ.get(ENV_VAR, "")
    if env and _runnable(env):
        return os.path.abspath(env)
    return shutil.which(EXE_NAME)


def find_executable(custom_path="", use_custom=False, addon_dir=ADDON_DIR, sys_platform=None, machine=None):
    """The animkit executable: `custom_path` when `use_custom` (the preferences' checkbox),
    else the one this platform's extension carries in `addon_dir`; for an add-on that
    carries none (no bin/ folder), $ANIMKIT_CLI, else `animkit` on PATH. Raises
    AnimkitError, saying what to do, when none is usable."""
    if use_custom:
        return _custom(custom_path)
    sys_platform = sys.platform if sys_platform is None else sys_platform
    machine = platform.machine() if machine is None else machine
    name = bundled_name(sys_platform, machine)
    here = blender_platform(sys_platform, machine)
    if name is not None:
        path = os.path.join(addon_dir, *name.split("/"))
        if _runnable(path):
            return path
    carries = os.path.isdir(os.path.join(addon_dir, BUNDLED_DIR))
    if not carries:
        found = _developer_fallback()
        if found:
            return found
    if name is None:
        raise AnimkitError("no animkit executable is made for %s (only for %s): build animkit from source "
                           "(docs/install.md), then tick '%s' and set its path (%s)"
                           % (here, ", ".join(sorted(BUNDLED)), CUSTOM, PREFERENCES))
    if carries:
        raise AnimkitError("this extension carries no animkit for %s (%s is missing): install the extension "
                           "made for %s (animkit_io-VERSION-%s.zip), or tick '%s' and set its path (%s)"
                           % (here, name, here, here.replace("-", "_"), CUSTOM, PREFERENCES))
    raise AnimkitError("this copy of the add-on carries no animkit executable: install the extension made for "
                       "%s (animkit_io-VERSION-%s.zip, Blender 4.2 and later), or tick '%s' and set the path of "
                       "an animkit executable (%s)" % (here, here.replace("-", "_"), CUSTOM, PREFERENCES))


def _message(stderr, code):
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if not lines:
        return "animkit exited with code %d and no message" % code
    # animkit prints one line (after any warnings); skip sanitizer banners ("==...").
    plain = [line for line in lines if not line.startswith("==")]
    return (plain or lines)[-1]


WARNING_MARK = "warning: "


def report_text(line):
    """A stderr line of animkit as a report shows it: animkit writes `FILE: warning: TEXT`,
    and the report's level already says "Warning", so the word goes (`FILE: TEXT`)."""
    line = line.strip()
    if line.startswith(WARNING_MARK):
        return line[len(WARNING_MARK):]
    head, mark, rest = line.partition(": " + WARNING_MARK)
    return head + ": " + rest if mark else line


class Result:
    def __init__(self, stdout, stderr):
        self.stdout = stdout
        self.stderr = stderr

    @property
    def warnings(self):
        return [report_text(line) for line in self.stderr.splitlines() if line.strip()]


def run(exe, args, timeout=600):
    """Runs `exe args...`; returns a Result; raises AnimkitError on failure."""
    argv = [exe] + [str(a) for a in args]
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, check=False, creationflags=_CREATION_FLAGS)
    except FileNotFoundError:
        raise AnimkitError("cannot run animkit: %s does not exist" % exe)
    except PermissionError:
        raise AnimkitError("cannot run animkit: %s is not executable" % exe)
    except subprocess.TimeoutExpired:
        raise AnimkitError("animkit did not finish within %d s: %s" % (timeout, " ".join(argv[1:3])))
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        raise AnimkitError(_message(stderr, proc.returncode))
    return Result(stdout, stderr)


def skeleton_args(skeleton):
    return ["--skeleton", skeleton] if skeleton else []


def import_data(exe, path, out_path, skeleton="auto", options=()):
    """Runs animkit import-data: one decode of `path` against `skeleton` (a path, or
    "auto": the library's companion rule, docs/cli.md) into the import file `out_path`
    (import_data.py reads it). Returns animkit's warnings (stderr lines)."""
    return run(exe, ["import-data", path, "-o", out_path] + skeleton_args(skeleton) + list(options)).warnings


def export_plan(exe, out_path="", source="", source_format="", requested="", use_template=True, model=False):
    """Runs animkit export-plan --json: what an export of a rig read from `source` (a
    `source_format` file) to `out_path` ("" = the default file) writes, `requested` the
    format chosen explicitly; `model`: the export writes meshes (any format convert writes,
    models too). Returns the JSON document (output, format, to, template, family, notes);
    AnimkitError with animkit's message when the format must be chosen."""
    args = ["export-plan"] + ([out_path] if out_path else []) + ["--json"] + (["--model"] if model else [])
    if source:
        args += ["--source", source]
    if source_format:
        args += ["--source-format", source_format]
    if requested:
        args += ["--format", requested]
    if not use_template:
        args.append("--no-template")
    return json.loads(run(exe, args).stdout)


def merge_options(stored, extra):
    """stored import options + the export's, the export's winning for the same flag."""
    def parse(args):
        out = []
        k = 0
        while k < len(args):
            flag = args[k]
            if k + 1 < len(args) and not args[k + 1].startswith("--"):
                out.append((flag, [args[k + 1]]))
                k += 2
            else:
                out.append((flag, []))
                k += 1
        return out
    given = parse(list(extra))
    flags = {f for f, _ in given}
    merged = [(f, v) for f, v in parse(list(stored)) if f not in flags] + given
    return [x for f, v in merged for x in [f] + v]


def convert(exe, src, dst, skeleton="", options=(), template="", to=""):
    """Runs animkit convert; returns animkit's warnings (stderr lines)."""
    args = ["convert", src, dst] + skeleton_args(skeleton)
    if template:
        args += ["--template", template]
    if to:
        args += ["--to", to]
    return run(exe, args + list(options)).warnings


# The verb that writes a file's own curves back into it (a template of the same format):
#   animkit curves-replace TEMPLATE EDITS.json -o OUT
# EDITS.json: {"clips": [{"name": clip, "curves": curves.to_json(...)}]} (docs/blender.md,
# "The control rig"). The one place that names it.
CURVES_REPLACE = "curves-replace"


def has_verb(exe, verb):
    """Whether this animkit has the subcommand `verb`."""
    try:
        run(exe, [verb, "--help"], timeout=60)
        return True
    except AnimkitError:
        return False


def curves_replace(exe, template, edits_json, out_path, options=()):
    """Writes `template` with the clips' curves of `edits_json` to `out_path` (options: the
    limit flags); returns (animkit's warnings, its summary: `OUT: 1 clip's curves written
    (jump); 43 kept as they were; ...`, what changed and what was kept)."""
    result = run(exe, [CURVES_REPLACE, template, edits_json, "-o", out_path] + list(options))
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    return result.warnings, (lines[-1] if lines else "")
