# How long the add-on's export takes: each file is imported with the add-on (not timed),
# then exported unchanged with the dialog's defaults (the source as template) to OUT_DIR.
# Prints the operator's whole call, the part spent in animkit runs (the encoder), the
# glTF handed to animkit, and whether the written file equals the source byte for byte.
# Runs inside Blender (docs/blender.md, "Measured"):
#
#   blender -b --factory-startup --python bench/blender_export.py -- \
#       --cli build/release/tools/animkit/animkit [--addon blender] [--out OUT_DIR] [--thin N] FILE[:SKELETON] ...
#
# --addon: the folder holding animkit_io (another checkout's add-on, to compare).
# --edit-one: before exporting, one key of one stored curve of one clip moves by 0.1 (the
#   modder's one edited clip; a control rig writes it back with curves-replace).
# --thin N: before exporting, every F-curve is remade with a Bezier key every N frames
#   (and the last; Blender's automatic handles, at the thirds), as sparse as stored keys:
#   the export's keys path at its real density. The poses change, so every clip is
#   encoded anew (no byte-identical result expected).

import os
import subprocess
import sys
import tempfile
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_bench  # noqa: E402

RUNS = []
action_api = None  # the add-on's (blender_bench.enable_addon)
_real_run = subprocess.run


def _timed_run(argv, *args, **kwargs):
    """subprocess.run, timing animkit runs."""
    t0 = time.perf_counter()
    proc = _real_run(argv, *args, **kwargs)
    if isinstance(argv, (list, tuple)) and argv and os.path.basename(str(argv[0])) == "animkit":
        RUNS.append((str(argv[1]), time.perf_counter() - t0))
    return proc


def _same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def thin_curves(step):
    """Remakes every action's F-curves with a Bezier key every `step` frames."""
    kept = 0
    for action in bpy.data.actions:
        for fc in action_api.fcurves(action):
            n = len(fc.keyframe_points)
            co = [0.0] * (2 * n)
            fc.keyframe_points.foreach_get("co", co)
            path, index, group = fc.data_path, fc.array_index, fc.group.name if fc.group else ""
            picks = sorted(set(list(range(0, n, step)) + [n - 1]))
            action_api.remove_fcurve(action, fc)
            new = action_api.new_fcurve(action, path, index, group)
            new.keyframe_points.add(len(picks))
            new.keyframe_points.foreach_set("co", [x for k in picks for x in (co[2 * k], co[2 * k + 1])])
            new.update()
            kept += len(picks)
    return kept


def edit_one():
    """Moves the middle key of the first stored curve of the first action holding curves;
    returns what it edited (or "" when no action holds the file's curves)."""
    import json
    for action in bpy.data.actions:
        stored = json.loads(action.get("animkit_curves", "{}") or "{}").get("curves", [])
        arm = bpy.context.view_layer.objects.active
        rig = json.loads(arm["animkit_rig"])
        wanted = {('pose.bones["%s"].%s' % (rig["nodes"][n]["control"], p), k) for n, p, k in stored}
        for fc in action_api.fcurves(action):
            if (fc.data_path, fc.array_index) in wanted and len(fc.keyframe_points) >= 3:
                key = fc.keyframe_points[len(fc.keyframe_points) // 2]
                key.co[1] += 0.1
                key.handle_left[1] += 0.1
                key.handle_right[1] += 0.1
                fc.update()
                return "%s %s[%d]" % (action.name, fc.data_path, fc.array_index)
    return ""


def _interpolations(glb):
    """{glTF interpolation: samplers} of the glb export handed to animkit ({} without one:
    a control rig's curves go back without glTF)."""
    import json
    import struct
    if not os.path.isfile(glb):
        return {}
    with open(glb, "rb") as f:
        data = f.read()
    doc = json.loads(data[20:20 + struct.unpack_from("<I", data, 12)[0]])
    out = {}
    for anim in doc.get("animations", []):
        for sampler in anim["samplers"]:
            out[sampler["interpolation"]] = out.get(sampler["interpolation"], 0) + 1
    return out


def main():
    global action_api
    argv, options, files = blender_bench.arguments(("--cli", "--addon", "--out", "--thin"))
    out_dir = options.get("--out") or tempfile.mkdtemp(prefix="animkit_bench_")
    thin = int(options.get("--thin", 0))
    edit = "--edit-one" in argv
    action_api = blender_bench.enable_addon(options.get("--addon"), options["--cli"])
    os.makedirs(out_dir, exist_ok=True)
    keep = os.path.join(out_dir, "clips.glb")
    os.environ["ANIMKIT_BLENDER_KEEP_GLTF"] = keep
    subprocess.run = _timed_run
    for spec in files:
        path, _, skeleton = spec.partition(":")
        t0 = time.perf_counter()
        bpy.ops.import_scene.animkit(filepath=os.path.abspath(path),
                                     skeleton_path=os.path.abspath(skeleton) if skeleton else "")
        imported = time.perf_counter() - t0
        arm = bpy.context.view_layer.objects.active
        if thin:
            thin_curves(thin)
        edited = edit_one() if edit else ""
        keys = sum(len(fc.keyframe_points) for a in bpy.data.actions for fc in action_api.fcurves(a))
        out = os.path.join(out_dir, os.path.basename(path))
        RUNS.clear()
        t0 = time.perf_counter()
        result = bpy.ops.export_scene.animkit(filepath=out)
        seconds = time.perf_counter() - t0
        encoder = sum(r[1] for r in RUNS)
        print("%-28s %s export %6.2f s (animkit %s %.2f s, the add-on %.2f s)  glb %d B %s  %s  "
              "[import %.1f s, %d actions, %d keyframes%s]" % (
                  os.path.basename(path), sorted(result)[0], seconds, "+".join(r[0] for r in RUNS), encoder,
                  seconds - encoder, os.path.getsize(keep) if os.path.isfile(keep) else 0, _interpolations(keep),
                  "same bytes" if os.path.isfile(out) and _same_bytes(out, path) else "bytes differ",
                  imported, len(arm.animation_data.nla_tracks) if arm.animation_data else 0, keys,
                  ", thinned to a key every %d frames" % thin if thin else "") +
              ("  edited: " + edited if edited else ""))
        sys.stdout.flush()
        for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras):
            for item in list(coll):
                coll.remove(item)


main()
