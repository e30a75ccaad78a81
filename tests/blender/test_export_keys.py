# Checks of export_keys.py (no bpy): which curves glTF carries as keys, and that a Bezier
# curve restricted to another curve's key times is the same cubic (the glTF CUBICSPLINE it
# becomes, evaluated here with glTF's Hermite formula, equals Blender's Bezier segment
# evaluated from its control points).
#
#   python3 tests/blender/test_export_keys.py
#
# test_addon.py --part export runs the same checks inside Blender.

import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import export_keys as ek  # noqa: E402
import unit_run  # noqa: E402


def bezier_curve(keys, interp=ek.BEZIER):
    """A Curve from [(frame, value, out slope, in slope)] with handles at the thirds."""
    frames = [k[0] for k in keys]
    hl_x, hl_y, hr_x, hr_y = [], [], [], []
    for i, (f, v, out, inn) in enumerate(keys):
        back = (f - frames[i - 1]) / 3.0 if i else 1.0
        ahead = (frames[i + 1] - f) / 3.0 if i + 1 < len(keys) else 1.0
        hl_x.append(f - back)
        hl_y.append(v - inn * back)
        hr_x.append(f + ahead)
        hr_y.append(v + out * ahead)
    return ek.Curve(frames, [k[1] for k in keys], [interp] * len(keys), (hl_x, hl_y, hr_x, hr_y))


def bezier_at(c, f):
    """Blender's Bezier segment at frame f from its control points (x linear in u)."""
    k = max(i for i in range(len(c.frames) - 1) if c.frames[i] <= f)
    u = (f - c.frames[k]) / (c.frames[k + 1] - c.frames[k])
    p = (c.values[k], c.hr_y[k], c.hl_y[k + 1], c.values[k + 1])
    return (1 - u) ** 3 * p[0] + 3 * (1 - u) ** 2 * u * p[1] + 3 * (1 - u) * u * u * p[2] + u ** 3 * p[3]


def hermite_at(frames, values, ins, outs, f):
    """glTF CUBICSPLINE at f (slopes per frame)."""
    k = max(i for i in range(len(frames) - 1) if frames[i] <= f)
    d = frames[k + 1] - frames[k]
    s = (f - frames[k]) / d
    h00, h10 = 2 * s ** 3 - 3 * s * s + 1, s ** 3 - 2 * s * s + s
    h01, h11 = -2 * s ** 3 + 3 * s * s, s ** 3 - s * s
    return h00 * values[k] + h10 * d * outs[k] + h01 * values[k + 1] + h11 * d * ins[k + 1]


class Kinds(unittest.TestCase):
    def test_kinds(self):
        c = bezier_curve([(0.0, 0.0, 1.0, 0.0), (6.0, 2.0, -0.5, 0.3), (9.0, 1.0, 0.0, 0.0)])
        self.assertEqual(ek.curve_kind(c), "CUBIC")
        c.hr_x[1] += 0.2  # a handle moved in x: not a cubic in the frame
        self.assertIsNone(ek.curve_kind(c))
        lin = ek.Curve([0.0, 4.0], [1.0, 2.0], [ek.LINEAR] * 2)
        step = ek.Curve([0.0, 4.0], [1.0, 2.0], [ek.CONSTANT] * 2)
        one = ek.Curve([3.0], [1.0], [ek.BEZIER])
        self.assertEqual(ek.property_kind([ek.curve_kind(x) for x in (lin, one)]), "LINEAR")
        self.assertEqual(ek.property_kind(["CUBIC", "LINEAR"]), "CUBIC")
        self.assertEqual(ek.property_kind([ek.curve_kind(step), ek.curve_kind(one)]), "STEP")
        self.assertIsNone(ek.property_kind(["STEP", "LINEAR"]))
        mixed = ek.Curve([0.0, 1.0, 2.0], [0.0, 1.0, 0.0], [ek.LINEAR, ek.CONSTANT, ek.LINEAR])
        self.assertIsNone(ek.curve_kind(mixed))


class Split(unittest.TestCase):
    def test_union_split_is_the_same_cubic(self):
        a = bezier_curve([(0.0, 0.0, 1.0, 0.0), (6.0, 2.0, -0.5, 0.3), (9.0, 1.0, 0.0, 0.0)])
        b = bezier_curve([(1.0, 5.0, 0.0, 0.0), (4.5, 4.0, 0.2, -0.7), (8.0, 3.0, 0.0, 0.0)])
        ch = ek.combine([a, b, None], (0.0, 0.0, 7.0))
        self.assertEqual(ch.kind, "CUBIC")
        self.assertEqual(ch.frames, [0.0, 1.0, 4.5, 6.0, 8.0, 9.0])
        self.assertEqual(ch.values[2], [7.0] * 6)
        for step in range(91):
            f = step * 0.1
            for curve, k in ((a, 0), (b, 1)):
                lo, hi = curve.frames[0], curve.frames[-1]
                want = curve.values[0] if f <= lo else curve.values[-1] if f >= hi else bezier_at(curve, f)
                got = hermite_at(ch.frames, ch.values[k], ch.ins[k], ch.outs[k], f)
                self.assertAlmostEqual(got, want, places=9, msg="curve %d at frame %.1f" % (k, f))

    def test_linear_union_and_to_parent(self):
        a = ek.Curve([0.0, 10.0], [0.0, 10.0], [ek.LINEAR] * 2)
        b = ek.Curve([0.0, 5.0, 10.0], [1.0, 2.0, 1.0], [ek.LINEAR] * 3)
        ch = ek.combine([a, b, None], (0.0, 0.0, 0.0))
        self.assertEqual((ch.kind, ch.frames, ch.values[0]), ("LINEAR", [0.0, 5.0, 10.0], [0.0, 5.0, 10.0]))
        # A quarter turn about z and an offset: x' = -y + 1, y' = x + 2, z' = z + 3.
        rows = [(0.0, -1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]
        lq = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
        gl = ek.gltf_channel(0, "translation", ch, (1.0, 2.0, 3.0), rows, lq, 0.0, 10.0, {})
        self.assertEqual(gl["times"], [0.0, 0.5, 1.0])
        self.assertEqual(gl["columns"], [[0.0, -1.0, 0.0], [2.0, 7.0, 12.0], [3.0, 3.0, 3.0]])
        one = ek.combine([None, None, None, None], (1.0, 0.0, 0.0, 0.0))
        rot = ek.gltf_channel(0, "rotation", one, (0.0, 0.0, 0.0), rows, lq, 0.0, 10.0, {})
        self.assertEqual(rot["interpolation"], "STEP")  # one key
        self.assertTrue(ek.at_rest(rot, (0.0, 0.0, lq[3], lq[0]), 1e-12))

    def test_tangents_per_second(self):
        c = bezier_curve([(0.0, 0.0, 2.0, 0.0), (3.0, 1.0, 0.0, -1.0)])
        ch = ek.combine([c], (0.0,))
        gl = ek.gltf_channel(0, "scale", ek.Channel(ch.frames, ch.kind, ch.values * 3, ch.ins * 3, ch.outs * 3),
                             (0, 0, 0), None, None, 0.0, 30.0, {})
        self.assertEqual(gl["interpolation"], "CUBICSPLINE")
        self.assertEqual(gl["times"], [0.0, 0.1])
        col = gl["columns"][0]  # in, value, out per key; slopes per frame x 30 frames per second
        self.assertEqual([round(x, 9) for x in col], [0.0, 0.0, 60.0, -30.0, 1.0, 0.0])


def run():
    return unit_run.run(sys.modules[__name__])


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__])
