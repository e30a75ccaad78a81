# Export of root motion: the armature object's location / rotation_quaternion F-curves in
# a clip's action, back as the root_motion joint's keys (io/root_motion.py; docs/blender.md,
# "Root motion"). One linear key per frame, as `--root-motion extract` writes them.

from ..io import root_motion as rootmod
from . import action_api


def _object_curves(action):
    """{(property, index): fcurve} of the action's unmuted object-level transform curves."""
    return {(fc.data_path, fc.array_index): fc for fc in action_api.fcurves(action)
            if not fc.mute and fc.data_path in ("location", "rotation_quaternion")}


def channels(arm_obj, action, rig, f0, n):
    """The root_motion joint's translation and rotation channels from the object's curves
    over frames f0 .. f0 + n - 1 (a property without curves holds the joint's rest); [] when
    the rig has no such joint or the action does not move the object."""
    node = rootmod.node_of(rig)
    fcs = _object_curves(action)
    if node is None or not fcs:
        return []
    axis_id = arm_obj.get("animkit_up_axis", "KEEP")
    scale = float(arm_obj.get("animkit_scale", 1.0))
    rest_t, rest_q = rootmod.rest_object(rig["nodes"][node], axis_id, scale)
    ts, qs = [], []
    prev = None
    for k in range(n):
        f = f0 + k
        loc = [fcs[("location", c)].evaluate(f) if ("location", c) in fcs else rest_t[c] for c in range(3)]
        rot = [fcs[("rotation_quaternion", c)].evaluate(f) if ("rotation_quaternion", c) in fcs else rest_q[c]
               for c in range(4)]
        t, q = rootmod.joint_values(loc, rot, axis_id, scale)
        if prev is not None and sum(a * b for a, b in zip(prev, q)) < 0.0:
            q = tuple(-x for x in q)  # continuity: glTF slerps between neighbours
        prev = q
        ts.append(tuple(t))
        qs.append(tuple(q))
    return [{"node": node, "path": "translation", "interpolation": "LINEAR", "values": ts},
            {"node": node, "path": "rotation", "interpolation": "LINEAR", "values": qs}]

