# Export of a control rig (clips imported with their own curves, docs/blender.md "The
# control rig") into its source: every control F-curve of a joint the clip moves by its
# curves read back as exactly that curve (keys, slopes from the handles, cycles) and
# handed to `animkit curves-replace`, which writes them into the template and keeps the
# rest of the file. Other exports of a control rig go through glTF (export.py), read
# from the control bones.

import array
import json
import os
import tempfile

from ..io import cli, curves as curvesmod, export_run, rig as rigmod
from ..io.export_run import ExportError
from . import action_api


def control_rig(rig):
    """Whether the rig has control bones (clips imported with their own curves)."""
    return any(n.get("control") for n in rig["nodes"])


def control_mapping(rig, arm_obj):
    """{node index: control bone name} of the bones the armature still has."""
    bones = arm_obj.data.bones
    return {i: n["control"] for i, n in enumerate(rig["nodes"]) if n.get("control") and n["control"] in bones}


def _channel_of(node, prop, index, fc):
    """A control F-curve as the file's curve (curves.Channel): keys, slopes from the
    handles, pre / post from its Cycles and zero (Generator) modifiers."""
    points = fc.keyframe_points
    n = len(points)
    co = array.array("f", bytes(8 * n))
    left = array.array("f", bytes(8 * n))
    right = array.array("f", bytes(8 * n))
    points.foreach_get("co", co)
    points.foreach_get("handle_left", left)
    points.foreach_get("handle_right", right)
    pairs = lambda a: list(zip(a[0::2], a[1::2]))  # noqa: E731
    pre = post = "clamp"  # the constant extrapolation
    for mod in fc.modifiers:
        if mod.mute:
            continue
        if (mod.type == "CYCLES" and not mod.use_restricted_range and mod.cycles_before == 0 and
                mod.cycles_after == 0 and mod.mode_before in curvesmod.FROM_CYCLE_MODE and
                mod.mode_after in curvesmod.FROM_CYCLE_MODE):
            before, after = curvesmod.FROM_CYCLE_MODE[mod.mode_before], curvesmod.FROM_CYCLE_MODE[mod.mode_after]
            pre, post = before if before != "clamp" else pre, after if after != "clamp" else post
        elif (mod.type == "GENERATOR" and mod.use_restricted_range and n and not mod.use_additive and
              not any(mod.coefficients) and mod.frame_end < co[0]):
            pre = "zero"
        elif (mod.type == "GENERATOR" and mod.use_restricted_range and n and not mod.use_additive and
              not any(mod.coefficients) and mod.frame_start > co[2 * n - 2]):
            post = "zero"
        else:
            raise ExportError("%s[%d]: a %s modifier the file's curves cannot hold (they hold Cycles: repeat or repeat "
                              "with offset, no count or range; and zero ends)" % (fc.data_path, fc.array_index,
                                                                                    mod.type))
    if fc.extrapolation != "CONSTANT":
        raise ExportError("%s: linear extrapolation, which the file's curves cannot hold" % fc.data_path)
    return curvesmod.channel_from_keyframes(node, prop, index, pairs(co), pairs(left), pairs(right),
                                            [p.interpolation for p in points], pre, post)


def control_curves(arm_obj, action, rig):
    """An action's curves in the import file's schema (curves.to_json): one channel per
    control F-curve of a joint the clip moves by curves (not its driven joints)."""
    stored = rigmod.loads(action.get("animkit_curves", ""), {}) or {}
    driven = set(stored.get("driven", []))
    joints = {int(n): int(j) for n, j in stored.get("joints", [])}
    # Only the file's own curves go back: constants, and the keys of properties no curve
    # keys, are the file's other data (curves-replace refuses a curve the file lacks).
    own = {(int(n), p, int(k)) for n, p, k in stored.get("curves", [])} if "curves" in stored else None
    by_control = {n["control"]: i for i, n in enumerate(rig["nodes"]) if n.get("control")}
    fcs_of = action_api.curves_by_bone(arm_obj, action)
    channels = []
    for control, fcs in fcs_of.items():
        i = by_control.get(control)
        if i is None or i in driven:
            continue
        for (prop, index), fc in sorted(fcs.items()):
            if prop not in curvesmod.PROPERTIES:
                raise ExportError("%s: %s is not a property of the file's curves (location, rotation_euler, "
                                  "scale)" % (control, prop))
            if own is not None and (i, prop, index) not in own:
                continue
            if len(fc.keyframe_points):
                channels.append(_channel_of(i, prop, index, fc))
    channels.sort(key=lambda c: c.key())
    rotation_mode = stored.get("rotation_mode", "XYZ")
    for control in fcs_of:
        pb = arm_obj.pose.bones.get(control)
        if control in by_control and pb is not None and pb.rotation_mode != rotation_mode:
            raise ExportError("%s rotates in %s; the file's curves are %s" % (control, pb.rotation_mode, rotation_mode))
    return curvesmod.to_json(rotation_mode, driven, channels, joints)


def write_curves(arm_obj, actions, rig, plan, filepath, exe, result, options=()):
    """Writes the clips' curves into the source (the template) with animkit's
    curves-replace; False when this animkit has no such verb (then glTF's way)."""
    if not cli.has_verb(exe, cli.CURVES_REPLACE):
        result.messages.append(("WARNING", "this animkit has no %s: the control curves go through glTF (sampled)" %
                                cli.CURVES_REPLACE))
        return False
    edits = {"clips": []}
    for action in actions:
        record = rigmod.loads(action.get("animkit_clip", ""), {}) or {}
        name = rigmod.export_clip_name(action.name, record.get("name", ""))
        # a linked slot (KH2 link entry) stays a link to this clip in the template
        edits["clips"].append({"name": name, "curves": control_curves(arm_obj, action, rig)})
    with tempfile.TemporaryDirectory(prefix="animkit_export_") as tmp:
        path = os.path.join(tmp, "curves.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(edits, f)
        export_run.keep_copy(path, ".curves.json")
        template = export_run.readable_template(plan.template, filepath, tmp)
        result.command = [cli.CURVES_REPLACE, template, path, "-o", filepath] + list(options)
        warnings, summary = cli.curves_replace(exe, template, path, filepath, options)
    result.clips = [c["name"] for c in edits["clips"]]
    for w in warnings:
        result.messages.append(("WARNING", w))
    # animkit says which clips' curves changed and which were kept as they were
    said = summary[len(filepath) + 2:] if summary.startswith(filepath + ": ") else summary
    result.messages.append(("INFO", "%s: %s" % (os.path.basename(filepath), said or "written")))
    return True


def limit_flags(args):
    """The limit flags (--max-*) of animkit arguments, with their values."""
    out = []
    for k, a in enumerate(args):
        if a.startswith("--max-"):
            out += [a] + ([args[k + 1]] if k + 1 < len(args) and not args[k + 1].startswith("--") else [])
    return out
