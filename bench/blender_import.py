# How long the add-on's import takes and what it makes: seconds (wall, and the CPU time of
# Blender and of animkit, steadier on a shared machine), animkit runs, bytes
# animkit wrote for the add-on to read (stdout and output files), actions, F-curves,
# keyframes, the largest custom property and the size of the saved .blend. Runs inside
# Blender (docs/blender.md, "Measured"):
#
#   blender -b --factory-startup --python bench/blender_import.py -- \
#       --cli build/release/tools/animkit/animkit [--addon blender] [--clips PATTERNS] \
#       [--save DIR] FILE[:SKELETON] ...
#
# --addon: the folder holding animkit_io (another checkout's add-on, to compare).
# --clips: the import dialog's clip filter ("*A0*", "000_A000, 001_A001").
# --save: each import saved as DIR/NAME.blend (uncompressed, as Blender saves by default).

import os
import resource
import subprocess
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_bench  # noqa: E402

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


def _largest_property(ids):
    """(bytes, owner and key) of the largest string custom property on the given IDs."""
    best = (0, "")
    for owner in ids:
        for key in owner.keys():
            value = owner[key]
            if isinstance(value, str) and len(value.encode()) > best[0]:
                best = (len(value.encode()), "%s[%r]" % (owner.name, key))
    return best


def main():
    _argv, options, files = blender_bench.arguments(("--cli", "--addon", "--clips", "--save"))
    clips, save = options.get("--clips", ""), options.get("--save", "")
    action_api = blender_bench.enable_addon(options.get("--addon"), options["--cli"])
    subprocess.run = _counting_run
    for spec in files:
        path, _, skeleton = spec.partition(":")
        RUNS.clear()
        t0 = time.perf_counter()
        cpu0, child0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        chosen = {"clip_filter": clips} if clips else {}  # an add-on without the filter still runs
        result = bpy.ops.import_scene.animkit(filepath=os.path.abspath(path), **chosen,
                                              skeleton_path=os.path.abspath(skeleton) if skeleton else "")
        seconds = time.perf_counter() - t0
        child1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - cpu0
        child = (child1.ru_utime + child1.ru_stime) - (child0.ru_utime + child0.ru_stime)
        arm = bpy.context.view_layer.objects.active
        curves = sum(len(action_api.fcurves(a)) for a in bpy.data.actions)
        keys = sum(len(fc.keyframe_points) for a in bpy.data.actions for fc in action_api.fcurves(a))
        prop = _largest_property([arm] + list(bpy.data.actions))
        saved = ""
        if save:
            os.makedirs(save, exist_ok=True)
            blend = os.path.join(os.path.abspath(save), os.path.splitext(os.path.basename(path))[0] + ".blend")
            bpy.ops.wm.save_as_mainfile(filepath=blend, compress=False, copy=True)
            saved = "  .blend %.1f MB" % (os.path.getsize(blend) / 1e6)
        print("Blender %s  %-24s %s %6.2f s (CPU: Blender %.2f s, animkit %.2f s)  %d animkit runs (%s)  %d bytes  "
              "%d actions  %d F-curves  %d keyframes  largest property %d B %s%s" % (
                  bpy.app.version_string, os.path.basename(path), sorted(result)[0], seconds, cpu, child, len(RUNS),
                  ", ".join(r[0] for r in RUNS),
                  sum(r[1] for r in RUNS), len(bpy.data.actions), curves, keys, prop[0], prop[1], saved))
        sys.stdout.flush()
        for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras):
            for item in list(coll):
                coll.remove(item)


main()
