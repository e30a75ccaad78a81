# --part additive: additive clips (docs/conventions.md, "Additive clips"). A glTF written
# here: hips (rest turned Rz90, one unit up) -> arm (one unit along x, rest turned Rx30);
# "walk" turns the hips; "wave_add" (rotation only) turns the arm by Rz45 then Rz90 and also
# keys a translation and a scale, which must not add; "push_add" moves the hips by a delta.
# Imported with the operator: each additive clip's action is on an NLA strip that blends by
# Combine (quaternions multiply: base @ delta; locations add), keys no scale (nor location
# when rotation-only), and played alone over the rest-pose strip, or over walk's strip, gives
# at every frame the model-space pose of `animkit sample --space model` (with `--base walk`).

import base64
import json
import math
import os
import struct
import tempfile

import bpy

from addon_common import ARGS, _AddonModule, action_api, actions_in_order, animkit, check, import_file, reset, trs, up_matrix

TOL = 1e-5


def _quat(axis, degrees):
    s, c = math.sin(math.radians(degrees) / 2), math.cos(math.radians(degrees) / 2)
    return [axis[0] * s, axis[1] * s, axis[2] * s, c]


def write_gltf(path):
    """The test's file, by hand: two nodes, three animations with animkit extras."""
    data = bytearray()
    accessors, views = [], []

    def add(values, kind):
        flat = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]
        views.append({"buffer": 0, "byteOffset": len(data), "byteLength": 4 * len(flat)})
        data.extend(struct.pack("<%df" % len(flat), *flat))
        acc = {"bufferView": len(views) - 1, "componentType": 5126, "count": len(values), "type": kind}
        if kind == "SCALAR":
            acc["min"], acc["max"] = [min(values)], [max(values)]
        accessors.append(acc)
        return len(accessors) - 1

    times = add([0.0, 1.0], "SCALAR")

    def animation(name, channels, additive=None):
        extras = {"frame_rate": 1, "frame_count": 2, "duration": 1, "loop": False, "space": "local"}
        if additive is not None:
            extras["additive"] = additive
        samplers, out = [], []
        for node, path_, values in channels:
            samplers.append({"input": times, "output": add(values, "VEC4" if path_ == "rotation" else "VEC3"),
                             "interpolation": "LINEAR"})
            out.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path_}})
        return {"name": name, "channels": out, "samplers": samplers, "extras": {"animkit": extras}}

    animations = [
        animation("walk", [(0, "rotation", [_quat((0, 0, 1), 90), _quat((0, 0, 1), 120)])]),
        animation("wave_add", [(1, "rotation", [_quat((0, 0, 1), 45), _quat((0, 0, 1), 90)]),
                               (1, "translation", [(0, 5, 0), (0, 5, 0)]), (1, "scale", [(3, 3, 3), (3, 3, 3)])],
                  {"reference": "rest", "rotation_only": True, "fade_in": 0.1, "fade_out": 0.2}),
        animation("push_add", [(0, "translation", [(0.5, 0, 0), (1, 0, 0)]),
                               (1, "rotation", [_quat((1, 0, 0), 0), _quat((1, 0, 0), 40)])],
                  {"reference": "rest", "rotation_only": False, "fade_in": 0, "fade_out": 0}),
    ]
    doc = {
        "asset": {"version": "2.0", "extras": {"animkit": {"version": 1}}},
        "scene": 0, "scenes": [{"nodes": [2]}],
        "nodes": [{"name": "hips", "translation": [0, 0, 1], "rotation": _quat((0, 0, 1), 90), "children": [1]},
                  {"name": "arm", "translation": [1, 0, 0], "rotation": _quat((1, 0, 0), 30)},
                  {"name": "animkit_root", "children": [0]}],
        "skins": [{"joints": [0, 1], "skeleton": 2}],
        "animations": animations, "accessors": accessors, "bufferViews": views,
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(data)).decode()}],
    }
    with open(path, "w") as f:
        json.dump(doc, f)


def _solo(arm, tracks_on):
    """Only the rest-pose track and the named clips' tracks play (no active action)."""
    ad = arm.animation_data
    ad.action = None
    for track in ad.nla_tracks:
        strip = track.strips[0]
        track.mute = not (strip.action.get("animkit_rest_pose", False) or strip.action.name in tracks_on)


def _check_pose(label, arm, model_json, up_inv):
    """Every joint the clip keys at every frame against `animkit sample --space model`."""
    clip = model_json
    for f, frame in enumerate(clip["frames"]):
        bpy.context.scene.frame_set(f)
        for j, name in enumerate(clip["joints"]):
            want = trs(frame[j]["t"], frame[j]["r"], frame[j]["s"])
            have = up_inv @ (arm.matrix_world @ arm.pose.bones[name].matrix)
            off = max(abs(a - b) for ra, rb in zip(have, want) for a, b in zip(ra, rb))
            check(off < TOL, "%s frame %d joint %s: off by %.3g from animkit's pose" % (label, f, name, off))
    return len(clip["frames"])


def _check_export(arm, actions):
    """Read back for export unedited (the add-on's read_clip, what it writes to the glTF it
    has animkit encode), the additive clips are the same deltas, still marked additive."""
    export = _AddonModule("export")
    rig, mapping, _ = export.rig_of(arm)
    node = {n["name"]: i for i, n in enumerate(rig["nodes"])}
    want = {("wave_add", "arm", "rotation"): [_quat((0, 0, 1), 45), _quat((0, 0, 1), 90)],
            ("push_add", "hips", "translation"): [(0.5, 0, 0), (1, 0, 0)],
            ("push_add", "arm", "rotation"): [_quat((1, 0, 0), 0), _quat((1, 0, 0), 40)]}
    count = 0
    for name in ("wave_add", "push_add"):
        clip = export.read_clip(arm, actions[name], rig, mapping, 1.0)
        check(clip["extras"].get("additive", {}).get("rotation_only") == (name == "wave_add"),
              "%s read back: additive %s" % (name, clip["extras"].get("additive")))
        paths = {(c["node"], c["path"]): c for c in clip["channels"]}
        wave_paths = {(rig["nodes"][i]["name"], p) for i, p in paths}
        check(name != "wave_add" or wave_paths == {("arm", "rotation")}, "wave_add writes %s" % sorted(wave_paths))
        for (clip_name, joint, path_), values in want.items():
            if clip_name != name:
                continue
            ch = paths.get((node[joint], path_))
            check(ch is not None, "%s: no %s %s channel read back" % (name, joint, path_))
            for f, value in enumerate(values):
                got = [col[f] for col in ch["columns"]]
                off = min(max(abs(a - b) for a, b in zip(got, value)), max(abs(a + b) for a, b in zip(got, value)))
                check(off < TOL, "%s %s %s frame %d read back %s, not %s" % (name, joint, path_, f, got, value))
                count += 1
    return count


def part_additive():
    reset()
    tmp = tempfile.mkdtemp(prefix="animkit_additive_")
    path = os.path.join(ARGS["out"] or tmp, "additive.gltf")
    write_gltf(path)
    arm = import_file(path)
    actions = {a.name: a for a in actions_in_order(arm)}
    check(set(actions) == {"walk", "wave_add", "push_add"}, "actions: %s" % sorted(actions))
    strips = {t.strips[0].action.name: t.strips[0] for t in arm.animation_data.nla_tracks}
    check(strips["walk"].blend_type == "REPLACE", "walk: blend %s" % strips["walk"].blend_type)
    checks = 1
    for name in ("wave_add", "push_add"):
        check(strips[name].blend_type == "COMBINE", "%s: blend %s, expected COMBINE" % (name, strips[name].blend_type))
        paths = {fc.data_path for fc in action_api.fcurves(actions[name])}
        check(not any(p.endswith(".scale") for p in paths), "%s keys scale: %s" % (name, sorted(paths)))
        checks += 1
    wave_paths = {fc.data_path for fc in action_api.fcurves(actions["wave_add"])}
    check(wave_paths == {'pose.bones["arm"].rotation_quaternion'}, "wave_add keys %s" % sorted(wave_paths))
    check(json.loads(actions["wave_add"]["animkit_clip"])["additive"]["rotation_only"] is True, "the clip's record")
    up_inv = up_matrix("AUTO", "gltf").inverted()
    model = {c["name"]: c for c in json.loads(animkit("sample", path, "--space", "model"))["clips"]}
    over_walk = {c["name"]: c for c in json.loads(animkit("sample", path, "--space", "model", "--base", "walk"))["clips"]}
    for name in ("wave_add", "push_add"):
        _solo(arm, {name})
        checks += _check_pose(name + " over the rest", arm, model[name], up_inv)
        _solo(arm, {"walk", name})
        checks += _check_pose(name + " over walk", arm, over_walk[name], up_inv)
    # The first clip is no additive one here: the active action replaces.
    check(arm.animation_data.action_blend_type == "REPLACE", "the active action's blend")
    checks += _check_export(arm, actions)
    print("additive: %d checks (Combine strips, deltas only, poses as animkit composes them)" % checks)
    return checks
