# --part rootmotion: root motion on the armature object (docs/blender.md, "Root motion").
# The pure checks of io/root_motion.py (test_root_motion.py), then
# samples/metroid_character/Character.pak converted with `--root-motion extract` (a
# `root_motion` joint above the skeleton's root, the clips' extras naming it) and imported
# with the operator: no bone for root_motion; at frames 0, 15 and 30 of Walk (which travels)
# the armature object's world location is the joint's model position of `animkit sample
# --space model` turned by the import's up-axis turn (and scaled), within 1e-4, and every
# bone's world head is the glb's; Automatic keeps this Z-up glb Z up (the travel on Blender's
# ground plane, the character standing). The same turned Y up -> Z up, at scale 0.5, and for
# a +Y-up glb (the character retargeted onto the EDF soldier: Automatic turns it Y up). Read back for export (the glb
# the add-on hands animkit: the object's motion as the joint's keys), every joint's model
# position at every frame of `animkit sample` is the original's.

import importlib
import json
import math
import os
import tempfile

import bpy
from mathutils import Matrix, Vector

from addon_common import ARGS, _AddonModule, action_api, actions_in_order, animkit, check, import_file, reset

TOL = 1e-4
FRAMES = (0, 15, 30)
JOINT = "root_motion"


def _model_positions(path, clip):
    """{joint name: [model-space translation per frame]} of `animkit sample --space model`."""
    doc = json.loads(animkit("sample", path, "--space", "model", "--clip", clip))
    c = doc["clips"][0]
    return {name: [Vector(row[k]["t"]) for row in c["frames"]] for k, name in enumerate(c["joints"])}


def _up(up_axis):
    return {"Y_UP": Matrix.Rotation(math.pi / 2, 4, "X"), "Y_DOWN": Matrix.Rotation(-math.pi / 2, 4, "X")}.get(
        up_axis, Matrix.Identity(4))


def _check_import(glb, label, scale=1.0, up_axis="AUTO", meshes=True, want_axis=None):
    reset()
    arm = import_file(glb, scale=scale, up_axis=up_axis, import_meshes=meshes)
    check(JOINT not in arm.data.bones, "%s: a %s bone was made" % (label, JOINT))
    check(arm.rotation_mode == "QUATERNION", "%s: the armature object rotates by %s" % (label, arm.rotation_mode))
    walk = next((a for a in actions_in_order(arm) if a.name.startswith("Walk")), None)
    check(walk is not None, "%s: no Walk action" % label)
    paths = {fc.data_path for fc in action_api.fcurves(walk)}
    check("location" in paths, "%s: Walk keys no object location (%s)" % (
        label, sorted(p for p in paths if not p.startswith("pose."))))
    action_api.assign(arm.animation_data, walk)
    model = _model_positions(glb, "Walk")
    axis_id = arm["animkit_up_axis"]
    check(want_axis is None or axis_id == want_axis, "%s: up axis %s, not %s" % (label, axis_id, want_axis))
    # The armature's space is the clips' model space (the glTF root's own rest is not in the
    # poses: docs/blender.md, "What you get"); the object's matrix holds the up-axis turn.
    turn = _up(axis_id)
    bones = [b.name for b in arm.data.bones]
    worst = 0.0
    scene = bpy.context.scene
    for f in FRAMES:
        scene.frame_set(f)
        want = scale * (turn @ model[JOINT][f])
        got = arm.matrix_world.translation
        worst = max(worst, (got - want).length)
        check((got - want).length <= TOL, "%s frame %d: armature at %s, root_motion at %s" % (
            label, f, tuple(got), tuple(want)))
        for name in bones:
            if name not in model:
                continue
            want = scale * (turn @ model[name][f])
            got = arm.matrix_world @ arm.pose.bones[name].head
            worst = max(worst, (got - want).length)
            check((got - want).length <= TOL, "%s frame %d: bone %s head at %s, the glb's at %s" % (
                label, f, name, tuple(got), tuple(want)))
    if label.startswith("Character.pak"):  # the rest pose in the clips' space too (no glTF root turn)
        for name, z in (("hips", 0.5), ("chest", 1.0), ("head", 1.45)):
            rest = arm.data.bones[name].head_local
            check((rest - Vector((0.0, 0.0, z))).length <= TOL, "%s: bone %s rests at %s, not (0, 0, %g)" % (
                label, name, tuple(rest), z))
    moved = (model[JOINT][FRAMES[-1]] - model[JOINT][0]).length
    check(moved > 0.1, "%s: Walk's root_motion does not travel (%g)" % (label, moved))
    if up_axis == "AUTO":  # the axes right: travel on Blender's ground plane, standing up
        heights = []
        for f in FRAMES:
            scene.frame_set(f)
            heights.append(arm.matrix_world.translation.z)
        check(max(heights) - min(heights) <= TOL, "%s: the travel leaves the ground plane (z %s)" % (label, heights))
        scene.frame_set(0)
        zs = [(arm.matrix_world @ pb.head).z for pb in arm.pose.bones]
        check(max(zs) - min(zs) > 0.5 * moved, "%s: the character does not stand (bone heights %s)" % (label, zs))
    print("rootmotion %-28s up %-6s scale %-4g %d bones, travel %.3f, worst %.2e" % (
        label, axis_id, scale, len(bones), moved, worst))
    return arm


def _check_export(arm, glb, out):
    """The imported character read back for export (the add-on's read_clip, then the glb it
    hands `animkit convert`): root_motion's and the bones' model positions at every frame of
    Walk are the original's, the object's motion being the joint's keys again."""
    export = _AddonModule("export")
    gltf_write = importlib.import_module("animkit_io.io.gltf_write")
    rig, mapping, _ = export.rig_of(arm)
    walk = next(a for a in actions_in_order(arm) if a.name.startswith("Walk"))
    clip = export.read_clip(arm, walk, rig, mapping, 30.0)
    node = next(i for i, n in enumerate(rig["nodes"]) if n["name"] == JOINT)
    check(any(c["node"] == node and c["path"] == "translation" for c in clip["channels"]),
          "export: Walk writes no %s translation" % JOINT)
    check(clip["extras"].get("root_motion", {}).get("joint") == JOINT, "export: Walk's extras lost root_motion")
    gltf_write.write_glb(out, rig, [clip])
    want, got = _model_positions(glb, "Walk"), _model_positions(out, "Walk")
    worst = 0.0
    for name, rows in want.items():
        check(name in got, "export: joint %s missing (%s)" % (name, sorted(got)))
        for f, (a, b) in enumerate(zip(rows, got[name])):
            worst = max(worst, (a - b).length)
            check((a - b).length <= TOL, "export frame %d: joint %s at %s, was %s" % (f, name, tuple(b), tuple(a)))
    print("rootmotion read back for export: %d joints x %d frames, worst %.2e" % (len(want), len(want[JOINT]), worst))


def part_rootmotion():
    import test_root_motion
    check(test_root_motion.run(), "root_motion's checks failed (test_root_motion.py)")
    src = os.path.join(ARGS["samples"], "metroid_character", "Character.pak")
    check(os.path.isfile(src), "missing sample %s" % src)
    tmp = ARGS["out"] or tempfile.mkdtemp(prefix="animkit_rootmotion_")
    glb = os.path.join(tmp, "Character_root_motion.glb")
    animkit("convert", src, glb, "--root-motion", "extract")
    # Automatic keeps a Z-up source's glb (its root's quarter turn: docs/gltf.md) Z up
    _check_import(glb, "Character.pak extract", want_axis="KEEP")
    _check_import(glb, "Character.pak extract, Y up", up_axis="Y_UP")
    arm = _check_import(glb, "Character.pak extract, no meshes", scale=0.5, up_axis="Y_UP", meshes=False)
    _check_export(arm, glb, os.path.join(tmp, "Character_export.glb"))
    # A +Y-up glb: the character's clips retargeted onto the EDF soldier (its up), extracted.
    soldier = os.path.join(ARGS["samples"], "edf_canm", "soldier.mdb")
    y_glb = os.path.join(tmp, "soldier_root_motion.glb")
    animkit("retarget", src, "--to", soldier, "-o", y_glb, "--root-motion", "extract")
    arm = _check_import(y_glb, "onto soldier.mdb, extract", want_axis="Y_UP")
    _check_export(arm, y_glb, os.path.join(tmp, "soldier_export.glb"))
    return 7
