# Retargeting onto the active armature (docs/blender.md, "Retargeting"): the armature's rig as a
# glb (io/retarget.py), the map animkit suggests as one row per target bone on the armature
# (Object.animkit_retarget), then `animkit retarget` with the rows as its map and the result's
# clips as actions on this armature, on NLA tracks as the import makes them (build.py).

import os
import tempfile

import bpy

from ..io import cli, import_data
from ..io import retarget as rt
from . import build, export


class RetargetResult:
    def __init__(self):
        self.messages = []  # (level, text) for the operator to report
        self.actions = []


def _source(settings):
    if not settings.source_path:
        raise cli.AnimkitError("choose a source file to retarget from")
    path = os.path.abspath(bpy.path.abspath(settings.source_path))
    if not os.path.isfile(path):
        raise cli.AnimkitError("%s: no such file" % path)
    skeleton = os.path.abspath(bpy.path.abspath(settings.skeleton_path)) if settings.skeleton_path else ""
    return path, skeleton


def _rig(arm_obj):
    rig, _mapping, _extra = export.rig_of(arm_obj)
    return rig


def suggest(arm_obj, exe):
    """Fills the armature's rows with the map animkit suggests (`--map auto`)."""
    if arm_obj is None or arm_obj.type != "ARMATURE":
        raise cli.AnimkitError("select an armature to retarget onto")
    settings = arm_obj.animkit_retarget
    source, skeleton = _source(settings)
    result = RetargetResult()
    rig = _rig(arm_obj)
    bones = rt.joint_names(rig)
    with tempfile.TemporaryDirectory(prefix="animkit_retarget_") as tmp:
        glb = os.path.join(tmp, "target.glb")
        rt.write_target(glb, rig)
        axes = rt.target_axes(arm_obj.get("animkit_format", ""))
        rows, warnings = rt.suggest_map(exe, source, glb, tmp, skeleton, axes)
    names = rt.source_joints(exe, source, skeleton, rows)
    settings.source_joints.clear()
    for name in names:
        settings.source_joints.add().name = name
    settings.rows.clear()
    for target, src in rows:
        row = settings.rows.add()
        row.target, row.bone, row.source = target, bones.get(target, ""), src
    settings.suggested_from = source
    mapped = sum(1 for _t, s in rows if s)
    result.messages += [("WARNING", w) for w in warnings]
    result.messages.append(("INFO", "%s: %d of %d bones mapped (edit the rows, then Retarget)" % (
        os.path.basename(source), mapped, len(rows))))
    return result


def bake(context, arm_obj, exe, options=()):
    """Retargets the source's clips onto `arm_obj` with its rows as the map (suggesting them
    first when there are none) and adds them as actions; returns a RetargetResult."""
    if arm_obj is None or arm_obj.type != "ARMATURE":
        raise cli.AnimkitError("select an armature to retarget onto")
    settings = arm_obj.animkit_retarget
    source, skeleton = _source(settings)
    result = RetargetResult()
    if not settings.rows or settings.suggested_from != source:
        result.messages += suggest(arm_obj, exe).messages
    rows = [(r.target, r.source.strip()) for r in settings.rows]
    rig = _rig(arm_obj)
    with tempfile.TemporaryDirectory(prefix="animkit_retarget_") as tmp:
        glb = os.path.join(tmp, "target.glb")
        out = os.path.join(tmp, "retargeted.glb")
        map_json = os.path.join(tmp, "map.json")
        rt.write_target(glb, rig)
        rt.write_map(map_json, rows)
        axes = rt.target_axes(arm_obj.get("animkit_format", ""))
        warnings = rt.retarget(exe, source, glb, out, map_json, skeleton, axes, options)
        data_path = os.path.join(tmp, "retargeted.akd")
        warnings += cli.import_data(exe, out, data_path, "auto")
        data = import_data.read(data_path)
    rt.renumber_channels(data.clips, rt.nodes_by_name(data.scene.nodes, rig))
    result.actions = build.clips_onto(context, arm_obj, rig, data.clips)
    result.messages += [("WARNING", w) for w in warnings]
    unmapped = [t for t, s in rows if not s]
    result.messages.append(("INFO", "%s onto %s: %d clip(s) as actions, %d of %d bones mapped%s" % (
        os.path.basename(source), arm_obj.name, len(result.actions), len(rows) - len(unmapped), len(rows),
        " (at rest: %s)" % ", ".join(unmapped[:10]) if unmapped else "")))
    return result
