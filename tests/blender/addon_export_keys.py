# Export of F-curve keys as they are (blender/animkit_io/io/export_keys.py):
# - curves made here on bones of an imported clip: Bezier keys with FREE handles at the
#   thirds (component curves keyed at different frames), a sparse linear bone and a
#   constant one. Their glTF channels must be CUBICSPLINE / LINEAR / STEP over the union of
#   key times, and `animkit sample` of that glTF must equal, at every frame, the glTF the
#   per-frame path writes (every bone sampled with fcurve.evaluate) within 1e-5;
# - a handle moved off the thirds: that bone falls back to one key per frame;
# - a moveset exported unedited with its source as template comes back byte for byte, and
#   one key value changed in one action changes that slot alone.

import os

import bpy

from addon_common import CLI, action_api, check, import_file, quat_angle, reset, sample_json
from moveset_source import read_slots

# Keyframe interpolation as foreach_set takes it (RNA enum values).
_CONSTANT, _LINEAR, _BEZIER = 0, 1, 2


def _bone_path(bone, prop):
    return 'pose.bones["%s"].%s' % (bpy.utils.escape_identifier(bone), prop)


def _replace_curve(action, bone, prop, index, keys, interpolation):
    """Replaces the F-curve by keys [(frame, value, slope per frame)]; Bezier keys get FREE
    handles at the thirds of their neighbouring intervals with the given slopes."""
    for fc in action_api.fcurves(action):
        if fc.data_path == _bone_path(bone, prop) and fc.array_index == index:
            action_api.remove_fcurve(action, fc)
    fc = action_api.new_fcurve(action, _bone_path(bone, prop), index, bone)
    n = len(keys)
    fc.keyframe_points.add(n)
    pts = fc.keyframe_points
    pts.foreach_set("interpolation", [interpolation] * n)
    for p in pts:  # (foreach_set leaves handle types as they are)
        p.handle_left_type = p.handle_right_type = "FREE"
    co, left, right = [], [], []
    for k, (f, v, m) in enumerate(keys):
        back = (f - keys[k - 1][0]) / 3.0 if k > 0 else 1.0
        ahead = (keys[k + 1][0] - f) / 3.0 if k + 1 < n else 1.0
        co += [f, v]
        left += [f - back, v - m * back]
        right += [f + ahead, v + m * ahead]
    pts.foreach_set("co", co)
    pts.foreach_set("handle_left", left)
    pts.foreach_set("handle_right", right)
    fc.update()
    return fc


def _make_curves(action, bones, last):
    """Bezier bone: location x/y/z keyed at different frames, rotation (quaternion) Bezier;
    linear bone: sparse linear location; constant bone: stepped scale. Returns the Bezier
    bone's location x curve."""
    bezier, linear, constant = bones
    mid, quarter = last // 2, max(1, last // 4)
    lx = _replace_curve(action, bezier, "location", 0,
                        [(0.0, 0.0, 0.05), (float(quarter), 0.3, -0.02), (float(last), -0.1, 0.0)], _BEZIER)
    _replace_curve(action, bezier, "location", 1, [(0.0, 0.1, 0.0), (float(mid), -0.2, 0.04)], _BEZIER)
    _replace_curve(action, bezier, "location", 2, [(1.0, 0.0, 0.0), (float(mid + 1), 0.15, -0.01),
                                                  (float(last - 1), 0.05, 0.02)], _BEZIER)
    for k, amp in enumerate((0.0, 0.25, -0.15, 0.1)):
        w = 1.0 if k == 0 else 0.0
        _replace_curve(action, bezier, "rotation_quaternion", k,
                       [(0.0, w, 0.0), (float(mid), w + amp, amp / last), (float(last), w - amp / 2, 0.0)], _BEZIER)
    for k in range(3):
        _replace_curve(action, linear, "location", k, [(0.0, 0.0, 0.0), (float(quarter), 0.2 * (k + 1), 0.0),
                                                       (float(last), -0.1, 0.0)], _LINEAR)
    for k in range(3):
        _replace_curve(action, constant, "scale", k, [(0.0, 1.0, 0.0), (float(mid), 1.5, 0.0)], _CONSTANT)
    return lx


def _channels_of(clip, node):
    return {c["path"]: c for c in clip["channels"] if c["node"] == node}


def _write(path, rig, clip):
    from animkit_io.io import gltf_write
    gltf_write.write_glb(path, rig, [clip])
    return path


def _compare(a, b, label, size):
    """Worst (rotation rad, translation / size, scale) between two `animkit sample` docs."""
    worst = [0.0, 0.0, 0.0]
    for ca, cb in zip(a["clips"], b["clips"]):
        check(ca["joints"] == cb["joints"] and len(ca["frames"]) == len(cb["frames"]), "%s: other joints" % label)
        for f, (ra, rb) in enumerate(zip(ca["frames"], cb["frames"])):
            for j, (va, vb) in enumerate(zip(ra, rb)):
                er = quat_angle(va["r"], vb["r"])
                et = max(abs(x - y) for x, y in zip(va["t"], vb["t"])) / size
                es = max(abs(x - y) for x, y in zip(va["s"], vb["s"]))
                check(er <= 1e-5 and et <= 1e-5 and es <= 1e-5, "%s: joint %s frame %d differs: r %.3g rad, "
                      "t %.3g x size, s %.3g" % (label, ca["joints"][j], f, er, et, es))
                worst = [max(worst[0], er), max(worst[1], et), max(worst[2], es)]
    return worst


def check_keys_as_curves(samples, out_dir):
    """The Bezier / linear / constant curves written as keys equal the per-frame path (on a
    rig without control bones: KH2 clips import with their own curves, written back as such)."""
    from animkit_io.blender import export
    reset()
    arm = import_file(os.path.join(samples, "metroid_anim/run.anim"))
    action = arm.animation_data.action
    rig, mapping, _extra = export.rig_of(arm)
    node_of = {b: i for i, b in mapping.items()}
    names = sorted(node_of, key=node_of.get)
    check(len(names) >= 4, "run.anim: %d bones" % len(names))
    bones = names[1], names[2], names[3]
    f0, f1 = export._frame_range(action)
    check(f0 == 0 and f1 >= 8, "run.anim: frames %d..%d" % (f0, f1))
    lx = _make_curves(action, bones, float(f1))
    keys = export.read_clip(arm, action, rig, mapping, 30.0)
    rate = keys["extras"]["frame_rate"]
    real = export.key_channels
    export.key_channels = lambda *a: None
    try:
        sampled = export.read_clip(arm, action, rig, mapping, 30.0)
    finally:
        export.key_channels = real
    # The channels: CUBICSPLINE over the union of key times, tangents with each key.
    cub = _channels_of(keys, node_of[bones[0]])
    union = sorted({0.0, float(f1 // 4), float(f1), float(f1 // 2), 1.0, float(f1 // 2 + 1), float(f1 - 1)})
    check(cub["translation"]["interpolation"] == "CUBICSPLINE" and
          cub["translation"]["times"] == [f / rate for f in union] and
          len(cub["translation"]["columns"][0]) == 3 * len(union),
          "Bezier location: %s at %s" % (cub["translation"]["interpolation"], cub["translation"]["times"]))
    check(cub["rotation"]["interpolation"] == "CUBICSPLINE", "Bezier rotation: %s" % cub["rotation"]["interpolation"])
    lin = _channels_of(keys, node_of[bones[1]])["translation"]
    check(lin["interpolation"] == "LINEAR" and len(lin["times"]) == 3, "linear location: %s, %d keys" % (
        lin["interpolation"], len(lin["times"])))
    step = _channels_of(keys, node_of[bones[2]])["scale"]
    check(step["interpolation"] == "STEP" and len(step["times"]) == 2, "constant scale: %s, %d keys" % (
        step["interpolation"], len(step["times"])))
    check(all(c["interpolation"] == "LINEAR" and len(c["values"]) == f1 + 1
              for c in sampled["channels"] if c["node"] == node_of[bones[0]]), "the per-frame path did not sample")
    a = sample_json(_write(os.path.join(out_dir, "keys.glb"), rig, keys))
    b = sample_json(_write(os.path.join(out_dir, "per_frame.glb"), rig, sampled))
    size = max(1.0, max(abs(v) for n in rig["nodes"] for v in n["t"]))
    worst = _compare(a, b, "keys vs per frame", size)

    # A handle moved off the thirds: that bone is sampled, the others keep their keys.
    pt = lx.keyframe_points[1]
    pt.handle_right = (pt.handle_right[0] + 0.5, pt.handle_right[1] + 0.05)
    lx.update()
    moved = export.read_clip(arm, action, rig, mapping, 30.0)
    mc = _channels_of(moved, node_of[bones[0]])
    check(all(c["interpolation"] == "LINEAR" and len(c["values"]) == f1 + 1 for c in mc.values()),
          "a moved handle: %s" % {p: c["interpolation"] for p, c in mc.items()})
    other = _channels_of(moved, node_of[bones[1]])["translation"]
    check("times" in other and len(other["times"]) == 3, "the other bones lost their keys")
    print("export keys: Bezier -> CUBICSPLINE (%d keys over the union of 3 curves), linear -> LINEAR, constant "
          "-> STEP; against the per-frame path at %d frames: worst r %.2e rad, t %.2e x size, s %.2e; a moved "
          "handle samples its bone" % (len(union), f1 + 1, worst[0], worst[1], worst[2]))
    return 3


def check_moveset_unedited(path, skeleton, out_dir):
    """Unedited: the same bytes. One linear key moved in one action: that slot alone."""
    reset()
    arm = import_file(path, skeleton_path=skeleton)
    out = os.path.join(out_dir, "unedited.mset")
    check(bpy.ops.export_scene.animkit(filepath=out) == {"FINISHED"}, "export failed")
    with open(path, "rb") as fa, open(out, "rb") as fb:
        check(fa.read() == fb.read(), "the unedited moveset did not come back byte for byte")
    action = bpy.data.actions["002_clip"]
    # Keys as stored: this moveset keys rotations only (one linear key per frame).
    fc = next(fc for fc in action_api.fcurves(action) if len(fc.keyframe_points) > 2)
    kinds = {p.interpolation for p in fc.keyframe_points}
    key = len(fc.keyframe_points) // 2
    fc.keyframe_points[key].co[1] += 0.25
    fc.update()
    out = os.path.join(out_dir, "key_edited.mset")
    check(bpy.ops.export_scene.animkit(filepath=out) == {"FINISHED"}, "export failed")
    slots_a, data_a = read_slots(path)
    slots_b, data_b = read_slots(out)
    changed = [i for i, (a, b) in enumerate(zip(slots_a, slots_b))
               if data_a[a[3]:a[3] + a[4]] != data_b[b[3]:b[3] + b[4]]]
    check(changed == [2], "one key of 002_clip moved: slots changed %s" % changed)
    # What the export reports: the clip written and how many were kept as they were.
    import importlib
    export = importlib.import_module("animkit_io.blender.export")
    again = os.path.join(out_dir, "key_edited_again.mset")
    result = export.export_file(bpy.context, arm, again, CLI)
    said = [m for level, m in result.messages if level == "INFO" and "written" in m]
    check(said and said[-1].startswith("key_edited_again.mset: 1 clip's curves written (002_clip); ") and
          " kept as they were; 1 curves replaced" in said[-1], "the export's report: %s" % said)
    check(not any(m.lower().startswith("warning") for _, m in result.messages), "a doubled 'warning': %s" %
          result.messages)
    print("export keys: the unedited moveset comes back byte for byte; one %s key of 002_clip moved (%s[%d], "
          "key %d of %d): slot 2 alone changes" % ("/".join(sorted(kinds)), fc.data_path, fc.array_index, key,
                                                   len(fc.keyframe_points)))
    return 2
