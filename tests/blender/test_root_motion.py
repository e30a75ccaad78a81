# Checks of io/root_motion.py (no bpy): which node is the armature object's motion, the
# joint's keys as the object's (location = s U t, rotation = U q: docs/blender.md, "Root
# motion") and back. The expected values are worked out here from the turn's definition.
#
#   python3 tests/blender/test_root_motion.py
#
# Blender.rootmotion runs the same checks inside Blender.

import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import rig, root_motion  # noqa: E402
import unit_run  # noqa: E402

H = math.sqrt(0.5)


def _node(name, parent, kind=rig.KIND_JOINT):
    return {"name": name, "parent": parent, "t": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0], "s": [1.0, 1.0, 1.0],
            "kind": kind, "camera": None, "mesh": None, "bone": ""}


def _rig(nodes):
    return {"version": rig.RIG_VERSION, "nodes": nodes, "joints": list(range(len(nodes) - 1))}


EXTRACTED = {"root_motion": {"joint": "root_motion", "up": [0.0, 0.0, 1.0]}}


class _Channel:
    def __init__(self, path, rows):
        self.path, self.interpolation, self.times, self.rows = path, "LINEAR", [0.0, 1.0], rows
        self.width = len(rows[0])

    def key_values(self):
        return self.rows, None, None


class RootMotionNode(unittest.TestCase):
    def test_the_extracted_joint_above_the_root(self):
        r = _rig([_node("root_motion", 2), _node("root", 0), _node("animkit_root", -1, rig.KIND_ROOT)])
        self.assertEqual(root_motion.find_node(r, [{}, EXTRACTED]), 0)
        r["nodes"][0][root_motion.FLAG] = True
        self.assertFalse(rig.is_bone(r["nodes"][0]))  # no bone; its child is a root
        self.assertEqual(rig.bone_parent(r, 1), -1)
        self.assertEqual(root_motion.node_of(r), 0)

    def test_not_when_no_clip_names_it_or_it_is_not_a_root(self):
        r = _rig([_node("root_motion", 2), _node("root", 0), _node("animkit_root", -1, rig.KIND_ROOT)])
        self.assertIsNone(root_motion.find_node(r, [{}, {"root_motion": {"joint": "#3", "up": [0, 0, 1]}}]))
        below = _rig([_node("root", 2), _node("root_motion", 0), _node("animkit_root", -1, rig.KIND_ROOT)])
        self.assertIsNone(root_motion.find_node(below, [EXTRACTED]))
        self.assertIsNone(root_motion.node_of(below))


class ObjectKeys(unittest.TestCase):
    def test_y_up_turn_and_scale(self):
        # Y_UP is +90 degrees about X: (x, y, z) -> (x, -z, y); a turn of 90 degrees about the
        # source's up (+Y) becomes one about Blender's +Z.
        t = _Channel("translation", [(1.0, 2.0, 3.0), (4.0, 0.0, -2.0)])
        c = root_motion.object_curves(t, 30.0, "Y_UP", 0.5)
        got = [[round(v, 9) for v in c.co[k]] for k in range(3)]
        self.assertEqual(got, [[0.0, 0.5, 30.0, 2.0], [0.0, -1.5, 30.0, 1.0], [0.0, 1.0, 30.0, 0.0]])
        q = _Channel("rotation", [(0.0, 0.0, 0.0, 1.0), (0.0, H, 0.0, H)])
        c = root_motion.object_curves(q, 30.0, "Y_UP", 0.5)
        last = [round(c.co[k][-1], 9) for k in range(4)]  # w x y z: U (Ry 90) = (Rz 90) U
        self.assertEqual(last, [0.5, 0.5, 0.5, 0.5])

    def test_back_to_the_joint(self):
        for axis in ("Y_UP", "Y_DOWN", "KEEP"):
            t, q = (0.3, -1.0, 2.5), (0.1, 0.2, 0.3, math.sqrt(1 - 0.14))
            rest = {"t": list(t), "r": list(q)}
            loc, rot = root_motion.rest_object(rest, axis, 2.0)
            t2, q2 = root_motion.joint_values(loc, rot, axis, 2.0)
            for a, b in zip(t + q, t2 + q2):
                self.assertAlmostEqual(a, b, places=12, msg=axis)


def run():
    return unit_run.run(sys.modules[__name__])


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__])
