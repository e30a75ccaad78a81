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
# --stored: before exporting, every action is remade as the import's contract makes it from
#   the glTF's keys (`animkit convert FILE --skeleton S x.glb`: KH2 curves as CUBICSPLINE):
#   Bezier keys with FREE handles at the thirds, LINEAR, CONSTANT, in the bones' basis; no
#   F-curve where the glTF has no channel. Unedited, the file should come back the same.
# --thin N: before exporting, every F-curve is remade with a Bezier key every N frames
#   (and the last; Blender's automatic handles, at the thirds), as sparse as stored keys:
#   the export's keys path at its real density. The poses change, so every clip is
#   encoded anew (no byte-identical result expected).

import os
import subprocess
import sys
import tempfile
import time

import addon_utils
import bpy

RUNS = []
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
        for fc in list(action.fcurves):
            n = len(fc.keyframe_points)
            co = [0.0] * (2 * n)
            fc.keyframe_points.foreach_get("co", co)
            path, index, group = fc.data_path, fc.array_index, fc.group.name if fc.group else ""
            picks = sorted(set(list(range(0, n, step)) + [n - 1]))
            action.fcurves.remove(fc)
            new = action.fcurves.new(path, index=index, action_group=group)
            new.keyframe_points.add(len(picks))
            new.keyframe_points.foreach_set("co", [x for k in picks for x in (co[2 * k], co[2 * k + 1])])
            new.update()
            kept += len(picks)
    return kept


def _read_glb(path):
    import json
    import struct
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    binary = data[20 + n + 8:]

    def accessor(i):
        a = doc["accessors"][i]
        view = doc["bufferViews"][a["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
        start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        flat = struct.unpack_from("<%df" % (a["count"] * width), binary, start)
        return [flat[k:k + width] for k in range(0, len(flat), width)]
    return doc, accessor


def _stored_curves(action, base, group, width, frames, rows, kind, to_basis):
    """F-curves of one glTF channel in the contract's form (rows: values, or in/value/out)."""
    n = len(frames)
    if kind == "CUBICSPLINE":
        ins = [to_basis(r, False) for r in rows[0::3]]
        vals = [to_basis(r, True) for r in rows[1::3]]
        outs = [to_basis(r, False) for r in rows[2::3]]
    else:
        vals, ins, outs = [to_basis(r, True) for r in rows], None, None
    interp = {"CUBICSPLINE": 2, "LINEAR": 1, "STEP": 0}[kind]
    for k in range(width):
        fc = action.fcurves.new(base, index=k, action_group=group)
        fc.keyframe_points.add(n)
        fc.keyframe_points.foreach_set("co", [x for i in range(n) for x in (frames[i], vals[i][k])])
        fc.keyframe_points.foreach_set("interpolation", [interp] * n)
        if ins is not None:
            left, right = [], []
            for i in range(n):
                back = (frames[i] - frames[i - 1]) / 3.0 if i else 1.0
                ahead = (frames[i + 1] - frames[i]) / 3.0 if i + 1 < n else 1.0
                left += [frames[i] - back, vals[i][k] - ins[i][k] * back / rate_of(action)]
                right += [frames[i] + ahead, vals[i][k] + outs[i][k] * ahead / rate_of(action)]
            fc.keyframe_points.foreach_set("handle_left", left)
            fc.keyframe_points.foreach_set("handle_right", right)
    return n * width


def rate_of(action):
    import json
    return float(json.loads(action.get("animkit_clip", "{}")).get("frame_rate") or 30.0)


def stored_curves(arm, cli, path, skeleton, out_dir):
    """Remakes every action from the glTF's keys (the import contract's form)."""
    from mathutils import Quaternion, Vector
    from animkit_io import export
    glb = os.path.join(out_dir, "stored.glb")
    _real_run([cli, "convert", path, glb] + (["--skeleton", skeleton] if skeleton else []), check=True,
              stdout=subprocess.DEVNULL)
    doc, accessor = _read_glb(glb)
    rig, mapping, _extra = export.rig_of(arm)
    bone_of = {rig["nodes"][i]["name"]: b for i, b in mapping.items()}
    offsets = {}
    for b in arm.data.bones:
        m = b.matrix_local if b.parent is None else b.parent.matrix_local.inverted() @ b.matrix_local
        offsets[b.name] = export._rigid(m)
    keys = 0
    for anim in doc.get("animations", []):
        action = bpy.data.actions.get(anim["name"])
        if action is None:
            continue
        for fc in list(action.fcurves):
            action.fcurves.remove(fc)
        rate = rate_of(action)
        for ch in anim["channels"]:
            bone = bone_of.get(doc["nodes"][ch["target"]["node"]].get("name"))
            if bone is None:
                continue
            lt, lq = offsets[bone]
            inv = lq.inverted()
            sampler = anim["samplers"][ch["sampler"]]
            frames = [t[0] * rate for t in accessor(sampler["input"])]
            rows = accessor(sampler["output"])
            prop = {"translation": "location", "rotation": "rotation_quaternion", "scale": "scale"}[
                ch["target"]["path"]]
            if prop == "location":
                conv = lambda r, value: tuple(inv @ (Vector(r) - lt if value else Vector(r)))  # noqa: E731
            elif prop == "rotation_quaternion":
                conv = lambda r, value: tuple(inv @ Quaternion((r[3], r[0], r[1], r[2])))  # noqa: E731
            else:
                conv = lambda r, value: tuple(r)  # noqa: E731
            base = 'pose.bones["%s"].%s' % (bpy.utils.escape_identifier(bone), prop)
            keys += _stored_curves(action, base, bone, 4 if prop == "rotation_quaternion" else 3, frames, rows,
                                   sampler["interpolation"], conv)
    return keys


def _interpolations(glb):
    """{glTF interpolation: samplers} of the glb export handed to animkit."""
    import json
    import struct
    with open(glb, "rb") as f:
        data = f.read()
    doc = json.loads(data[20:20 + struct.unpack_from("<I", data, 12)[0]])
    out = {}
    for anim in doc.get("animations", []):
        for sampler in anim["samplers"]:
            out[sampler["interpolation"]] = out.get(sampler["interpolation"], 0) + 1
    return out


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    cli = argv[argv.index("--cli") + 1]
    addon = argv[argv.index("--addon") + 1] if "--addon" in argv else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "blender")
    out_dir = argv[argv.index("--out") + 1] if "--out" in argv else tempfile.mkdtemp(prefix="animkit_bench_")
    thin = int(argv[argv.index("--thin") + 1]) if "--thin" in argv else 0
    stored = "--stored" in argv
    valued = ("--cli", "--addon", "--out", "--thin")
    files = [a for k, a in enumerate(argv) if not a.startswith("--") and argv[k - 1] not in valued]
    sys.path.insert(0, os.path.abspath(addon))
    addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    bpy.context.preferences.addons["animkit_io"].preferences.animkit_path = os.path.abspath(cli)
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
        if stored:
            stored_curves(arm, os.path.abspath(cli), os.path.abspath(path), os.path.abspath(skeleton) if skeleton
                          else arm.get("animkit_skeleton", ""), out_dir)
        if thin:
            thin_curves(thin)
        keys = sum(len(fc.keyframe_points) for a in bpy.data.actions for fc in a.fcurves)
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
                  ", thinned to a key every %d frames" % thin if thin else ", the glTF's keys" if stored else ""))
        sys.stdout.flush()
        for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras):
            for item in list(coll):
                coll.remove(item)


main()
