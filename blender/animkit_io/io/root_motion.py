# Root motion on the armature object (docs/blender.md, "Root motion"). Pure Python (no bpy).
#
# `animkit convert X out.glb --root-motion extract` puts a joint named `root_motion` above
# the skeleton's root and names it in each clip's extras.animkit ("root_motion": {"joint":
# "root_motion", "up": [...]}; docs/conventions.md, "Root motion"). The import makes no bone
# for that joint: its keys become the armature object's location / rotation_quaternion in
# the clip's own action, composed with the object's import transform (up-axis turn U,
# uniform scale s): location = s U t, rotation = U q. Export reads them back as the joint's
# keys: t = U^-1 location / s, q = U^-1 rotation.

import math

from . import keys as keymod, rig as rigmod

JOINT_NAME = "root_motion"  # the name ExtractRootMotion gives the joint (the library's)
FLAG = "root_motion"  # the rig node's mark: its motion is the armature object's

_H = math.sqrt(0.5)
# The up-axis turn the import puts on the armature object (build.up_axis_matrix), w x y z.
AXIS_TURNS = {"Y_UP": (_H, _H, 0.0, 0.0), "Y_DOWN": (_H, -_H, 0.0, 0.0), "KEEP": (1.0, 0.0, 0.0, 0.0)}


def clip_joint(clip_extras):
    """The root-motion joint's name a clip's extras.animkit names, or None."""
    rm = (clip_extras or {}).get("root_motion")
    return rm.get("joint") if isinstance(rm, dict) else None


def find_node(rig, clip_extras_list):
    """The rig node whose motion goes on the object: named `root_motion`, a skeleton joint
    with no bone above it, and the root-motion joint of some clip; else None."""
    if JOINT_NAME not in {clip_joint(e) for e in clip_extras_list}:
        return None
    for i, n in enumerate(rig["nodes"]):
        if n["name"] == JOINT_NAME and n["kind"] == rigmod.KIND_JOINT and rigmod.bone_parent(rig, i) < 0:
            return i
    return None


def node_of(rig):
    """The node marked as the object's motion at import, or None."""
    return next((i for i, n in enumerate(rig["nodes"]) if n.get(FLAG)), None)


def axis_turn(axis_id):
    return AXIS_TURNS.get(axis_id, AXIS_TURNS["KEEP"])


def _conjugate(q):
    return (q[0], -q[1], -q[2], -q[3])


def object_curves(channel, rate, axis_id, scale):
    """A root-motion channel's keys as the object's F-curve keys (keys.Curves)."""
    curves = keymod.channel_curves(channel, rate, keymod.BasisMap((0.0, 0.0, 0.0), axis_turn(axis_id)))
    if channel.path == "translation" and scale != 1.0:
        for c in range(curves.width):
            curves.co[c][1::2] = [v * scale for v in curves.co[c][1::2]]
            for handles in (curves.left, curves.right):
                if handles is not None:
                    handles[c][1::2] = [v * scale for v in handles[c][1::2]]
    return curves


def rest_object(node, axis_id, scale):
    """The object's location and rotation (w x y z) for the joint's rest."""
    turn = axis_turn(axis_id)
    t = keymod.rotate(turn, node["t"])
    r = node["r"]
    return tuple(v * scale for v in t), keymod.quat_mul(turn, (r[3], r[0], r[1], r[2]))


def joint_values(location, rotation, axis_id, scale):
    """The joint's translation and rotation (x y z w) for the object's location and rotation (w x y z)."""
    inv = _conjugate(axis_turn(axis_id))
    s = scale if scale else 1.0
    t = keymod.rotate(inv, tuple(v / s for v in location))
    q = keymod.quat_mul(inv, tuple(rotation))
    n = math.sqrt(sum(x * x for x in q)) or 1.0
    return t, (q[1] / n, q[2] / n, q[3] / n, q[0] / n)
