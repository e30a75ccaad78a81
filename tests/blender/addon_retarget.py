# --part retarget: retargeting onto an imported armature (docs/blender.md, "Retargeting").
# The EDF soldier's armature (soldier.rab) imported, soldier5.cas retargeted onto it through
# the operators (the suggested map, then the bake): every joint at several frames against
# `animkit sample --space model` of the source (the same skeleton: the same poses); then one
# row unmapped and baked again: that bone stays at its rest, the others still follow.

import json
import os

import bpy

from addon_common import ARGS, action_api, animkit, check, import_file, reset, trs, up_matrix

TOL = 1e-4  # model units (the soldier is about 2 units tall) and matrix entries


def _select(arm):
    for o in bpy.context.view_layer.objects:
        o.select_set(o == arm)
    bpy.context.view_layer.objects.active = arm


def _bake(arm):
    before = set(bpy.data.actions)
    result = bpy.ops.animkit.retarget()
    check(result == {"FINISHED"}, "retarget returned %s" % result)
    made = {json.loads(a["animkit_clip"])["name"]: a for a in bpy.data.actions
            if a not in before and not a.get("animkit_rest_pose", False)}
    check(made, "retarget made no action")
    return made


def _play(arm, action):
    ad = arm.animation_data
    for track in ad.nla_tracks:
        strip = track.strips[0]
        track.mute = not strip.action.get("animkit_rest_pose", False)
    ad.action = action
    ad.action_blend_type = "REPLACE"


def _model_pose(arm, name, up_inv):
    return up_inv @ (arm.matrix_world @ arm.pose.bones[name].matrix)


def _off(a, b):
    return max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def _check_follows(label, arm, action, clip, up_inv, skip=()):
    """Every joint of the sample but `skip` at every 7th frame (and the last) against its pose."""
    frames = clip["frames"]
    picked = sorted(set(range(0, len(frames), 7)) | {len(frames) - 1})
    count = 0
    for f in picked:
        bpy.context.scene.frame_set(f)
        for j, name in enumerate(clip["joints"]):
            if name in skip or name not in arm.pose.bones or frames[f][j] is None:
                continue
            want = trs(frames[f][j]["t"], frames[f][j]["r"], frames[f][j]["s"])
            off = _off(_model_pose(arm, name, up_inv), want)
            check(off < TOL, "%s (%s) frame %d joint %s: off by %.3g from the source's pose" % (
                label, action.name, f, name, off))
            count += 1
    return count


def _check_at_rest(arm, bone, rig_node, frames, up_inv):
    pb = arm.pose.bones[bone]
    want = trs(rig_node["t"], rig_node["r"], rig_node["s"])
    for f in frames:
        bpy.context.scene.frame_set(f)
        have = _model_pose(arm, bone, up_inv)
        if pb.parent is not None:
            have = _model_pose(arm, pb.parent.name, up_inv).inverted() @ have
        off = _off(have, want)
        check(off < TOL, "unmapped %s at frame %d: off by %.3g from its rest" % (bone, f, off))
    return len(frames)


def part_retarget():
    reset()
    samples = ARGS["samples"]
    rab = os.path.join(samples, "edf_cas", "soldier.rab")
    cas = os.path.join(samples, "edf_cas", "soldier5.cas")
    arm = import_file(rab)
    _select(arm)
    settings = arm.animkit_retarget
    settings.source_path = cas
    result = bpy.ops.animkit.retarget_suggest()
    check(result == {"FINISHED"}, "suggest returned %s" % result)
    bones = {b.name for b in arm.data.bones}
    check(settings.rows and all(r.bone in bones for r in settings.rows),
          "rows %s, not the armature's bones" % [(r.target, r.bone) for r in settings.rows][:5])
    check(all(r.source == r.target for r in settings.rows), "the soldier onto itself: every bone by its own name")
    offered = {j.name for j in settings.source_joints}
    check({r.source for r in settings.rows} <= offered, "the rows' search offers %s" % sorted(offered))
    check(hasattr(bpy.types, "VIEW3D_PT_animkit_retarget"), "the Retarget panel is not registered")
    checks = 4

    up_inv = up_matrix("AUTO", arm["animkit_format"]).inverted()
    sampled = json.loads(animkit("sample", cas, "--space", "model"))["clips"]
    made = _bake(arm)
    check(sorted(made) == sorted(c["name"] for c in sampled), "actions %s for clips %s" % (
        sorted(made), [c["name"] for c in sampled]))
    for clip in sampled:
        action = made[clip["name"]]
        _play(arm, action)
        checks += _check_follows("retargeted", arm, action, clip, up_inv)

    # one row unmapped: that bone keeps its rest, the others still follow the source
    rig = json.loads(arm["animkit_rig"])
    node_of = {n["bone"]: n for n in rig["nodes"] if n.get("bone")}
    row = next(r for r in settings.rows if any(b.parent is not None and b.name == r.bone and b.children
                                               for b in arm.data.bones))
    row.source = ""
    made = _bake(arm)
    clip = sampled[0]
    action = made[clip["name"]]
    _play(arm, action)
    # the bone's own channels are gone; the joints outside it follow the source (those below
    # it keep their rest offsets from it, so only their rotations would)
    paths = {fc.data_path for fc in action_api.fcurves(action)}
    check(not any('"%s"' % row.bone in p for p in paths), "the unmapped %s is keyed: %s" % (row.bone, sorted(paths)))
    checks += _check_at_rest(arm, row.bone, node_of[row.bone], (0, len(clip["frames"]) // 2), up_inv)
    below = {b.name for b in arm.data.bones[row.bone].children_recursive} | {row.bone}
    checks += _check_follows("one bone unmapped", arm, action, clip, up_inv, skip=below)
    return checks + 1
