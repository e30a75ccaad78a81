# How long the add-on's import takes and what it exchanges with animkit: seconds, animkit
# runs, bytes animkit wrote for the add-on to read (stdout and output files). Runs inside
# Blender (docs/blender.md, "Measured"):
#
#   blender -b --factory-startup --python bench/blender_import.py -- \
#       --cli build/release/tools/animkit/animkit [--addon blender] FILE[:SKELETON] ...
#
# --addon: the folder holding animkit_io (another checkout's add-on, to compare).

import os
import subprocess
import sys
import time

import addon_utils
import bpy

RUNS = []
_real_run = subprocess.run


def _counting_run(argv, *args, **kwargs):
    """subprocess.run, counting animkit runs and the bytes they hand over."""
    proc = _real_run(argv, *args, **kwargs)
    if isinstance(argv, (list, tuple)) and argv and os.path.basename(str(argv[0])) == "animkit":
        argv = [str(a) for a in argv]
        written = 0
        outputs = []
        if "-o" in argv:
            outputs.append(argv[argv.index("-o") + 1])
        elif argv[1] == "convert":
            outputs.append(argv[3])
        for path in outputs:
            if os.path.isfile(path):
                written += os.path.getsize(path)
        RUNS.append((argv[1], len(proc.stdout or b"") + written))
    return proc


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    cli = argv[argv.index("--cli") + 1]
    addon = argv[argv.index("--addon") + 1] if "--addon" in argv else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "blender")
    files = [a for k, a in enumerate(argv) if not a.startswith("--") and argv[k - 1] not in ("--cli", "--addon")]
    sys.path.insert(0, os.path.abspath(addon))
    addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    bpy.context.preferences.addons["animkit_io"].preferences.animkit_path = os.path.abspath(cli)
    subprocess.run = _counting_run
    for spec in files:
        path, _, skeleton = spec.partition(":")
        RUNS.clear()
        t0 = time.perf_counter()
        result = bpy.ops.import_scene.animkit(filepath=os.path.abspath(path),
                                              skeleton_path=os.path.abspath(skeleton) if skeleton else "")
        seconds = time.perf_counter() - t0
        arm = bpy.context.view_layer.objects.active
        print("%-40s %s %6.2f s  %d animkit runs (%s)  %d bytes  %d actions" % (
            os.path.basename(path), sorted(result)[0], seconds, len(RUNS), ", ".join(r[0] for r in RUNS),
            sum(r[1] for r in RUNS), len(arm.animation_data.nla_tracks) if arm.animation_data else 0))
        sys.stdout.flush()
        for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras):
            for item in list(coll):
                coll.remove(item)


main()
