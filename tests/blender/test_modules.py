# Checks of the add-on's pure modules (no bpy): the glTF writer and reader, the stored
# records (events from markers, hidden ranges, clip names).
#
#   python3 tests/blender/test_modules.py [--samples samples]
#
# test_addon.py runs the same checks inside Blender (Blender's Python).

import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io import cli, gltf_read, gltf_write, rig  # noqa: E402

SAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "samples"))


def _rig():
    return {
        "version": rig.RIG_VERSION,
        "nodes": [
            {"name": "hips", "parent": 2, "t": [0.0, 1.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0], "s": [1.0, 1.0, 1.0],
             "kind": rig.KIND_JOINT, "camera": None, "mesh": None, "bone": "hips"},
            {"name": "leg", "parent": 0, "t": [0.0, -0.5, 0.0], "r": [0.0, 0.0, math.sin(0.25), math.cos(0.25)],
             "s": [1.0, 2.0, 1.0], "kind": rig.KIND_JOINT, "camera": None, "mesh": None, "bone": "leg"},
            {"name": "animkit_root", "parent": -1, "t": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0],
             "s": [1.0, 1.0, 1.0], "kind": rig.KIND_ROOT, "camera": None, "mesh": None, "bone": ""},
        ],
        "joints": [0, 1],
        "skin": True,
        "cameras": [],
        "asset_extras": {"version": 1},
    }


class GltfRoundTrip(unittest.TestCase):
    def test_write_then_read(self):
        r = _rig()
        times = [0.0, 1 / 30, 2 / 30]
        clip = {"name": "walk", "extras": {"frame_rate": 30.0, "frame_count": 3, "loop": True,
                                           "events": [{"time": 1 / 30, "name": "step"}]},
                "times": times,
                "channels": [
                    {"node": 1, "path": "rotation", "interpolation": "LINEAR",
                     "values": [(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, math.sin(0.1), math.cos(0.1)),
                                (0.0, 0.0, math.sin(0.2), math.cos(0.2))]},
                    {"node": 1, "path": "scale", "interpolation": "STEP",
                     "values": [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)]},
                ]}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.glb")
            gltf_write.write_glb(path, r, [clip])
            scene = gltf_read.read(path)
        self.assertEqual([n.name for n in scene.nodes], ["hips", "leg", "animkit_root"])
        self.assertEqual(scene.root, 2)
        self.assertEqual(scene.joints, [0, 1])
        self.assertEqual(scene.nodes[1].parent, 0)
        self.assertEqual(scene.nodes[0].parent, 2)
        self.assertAlmostEqual(scene.nodes[1].scale[1], 2.0)
        anim = scene.animations[0]
        self.assertEqual(anim.name, "walk")
        self.assertEqual(anim.extras["events"][0]["name"], "step")
        rot = anim.channels[0]
        self.assertAlmostEqual(rot.sample(1 / 30)[2], math.sin(0.1), places=6)
        half = rot.sample(0.5 / 30)  # slerp halfway: 0.05 rad about Z
        self.assertAlmostEqual(half[2], math.sin(0.05), places=5)
        self.assertEqual(anim.channels[1].sample(1 / 30), (0.0, 0.0, 0.0))  # STEP on a float32 key time
        self.assertEqual(anim.channels[1].sample(1.5 / 30), (0.0, 0.0, 0.0))

    def test_rig_order_and_parents(self):
        r = _rig()
        self.assertEqual(rig.bone_order(r), [0, 1])
        self.assertEqual(rig.bone_parent(r, 0), -1)
        self.assertEqual(rig.bone_parent(r, 1), 0)

    def test_matrix_decompose(self):
        c, s = math.cos(0.3), math.sin(0.3)
        m = [c * 2, s * 2, 0, 0, -s, c, 0, 0, 0, 0, 3, 0, 1, 2, 3, 1]  # column-major: T R S(2, 1, 3), about Z
        t, q, sc = gltf_read.decompose_column_major(m)
        self.assertEqual(t, (1, 2, 3))
        for a, b in zip(sc, (2, 1, 3)):
            self.assertAlmostEqual(a, b)
        self.assertAlmostEqual(q[2], math.sin(0.15))
        self.assertAlmostEqual(q[3], math.cos(0.15))


class Records(unittest.TestCase):
    def test_events_from_markers(self):
        stored = [{"time": 0.1, "name": "hit", "params": [1, 2], "end_time": 0.5},
                  {"time": 0.0, "name": "state", "params": [0]},
                  {"time": 0.2, "name": "hit", "params": [3]}]
        # unchanged: 0.1 s at 30 fps is frame 3; "hit" at 6 is the second hit; a new marker
        out = rig.events_from_markers([("hit", 3), ("state", 0), ("hit", 6), ("new", 9)], stored, 30.0)
        self.assertEqual([e["name"] for e in out], ["state", "hit", "hit", "new"])
        self.assertEqual(out[1]["time"], 0.1)  # kept exactly
        self.assertEqual(out[1]["params"], [1, 2])
        self.assertEqual(out[1]["end_time"], 0.5)
        self.assertEqual(out[2]["params"], [3])
        self.assertNotIn("params", out[3])
        # a moved marker: frame / rate, end time moved with it
        moved = rig.events_from_markers([("hit", 6)], stored[:1], 30.0)
        self.assertAlmostEqual(moved[0]["time"], 0.2)
        self.assertAlmostEqual(moved[0]["end_time"], 0.6)

    def test_hidden_ranges(self):
        self.assertEqual(rig.hidden_ranges([False, True, True, False, True]), [[1, 2], [4, 4]])
        self.assertEqual(rig.hidden_ranges([]), [])

    def test_clip_name(self):
        self.assertEqual(rig.export_clip_name("walk.001", "walk"), "walk")
        self.assertEqual(rig.export_clip_name("walk", "walk"), "walk")
        self.assertEqual(rig.export_clip_name("run", "walk"), "run")
        self.assertEqual(rig.export_clip_name("Arm/raise", ""), "Arm/raise")


def run(samples=None):
    global SAMPLES
    if samples:
        SAMPLES = samples
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    return unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite).wasSuccessful()


if __name__ == "__main__":
    if "--samples" in sys.argv:
        SAMPLES = sys.argv[sys.argv.index("--samples") + 1]
    sys.exit(0 if run() else 1)
