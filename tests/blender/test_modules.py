# Checks of the add-on's pure modules (no bpy; the layout of the add-on is test_layout.py): the glTF writer (read back by animkit), the
# stored records (events from markers, hidden ranges, clip names), the format table and the
# import file (against `animkit sample`, `info` and the glTF of `convert`); the checks that
# run animkit need one (--cli or $ANIMKIT_CLI).
#
#   python3 tests/blender/test_modules.py [--samples samples] [--cli animkit]
#
# test_addon.py runs the same checks inside Blender (Blender's Python).

import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import (cli, curves, export_plan, formats, gltf_mesh, gltf_write, import_data, keys,  # noqa: E402
                          retarget, rig, slots)
import unit_run  # noqa: E402

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "tools")))
import skinned_glb  # noqa: E402
import curve_eval  # noqa: E402

SAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "samples"))
CLI = os.environ.get("ANIMKIT_CLI", "")


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


def _import_file(path):
    """animkit import-data of `path` (the CLI reads what the add-on wrote)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.akd")
        subprocess.run([CLI, "import-data", path, "-o", out], check=True, stdout=subprocess.PIPE)
        return import_data.read(out)


class GltfRoundTrip(unittest.TestCase):
    """The add-on's glTF writer, read back by animkit (import-data)."""

    def setUp(self):
        if not (CLI and os.path.isfile(CLI)):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")

    def test_write_then_read(self):
        r = _rig()
        times = [0.0, 1 / 30, 2 / 30]
        # 60 fps: frame 1 is halfway between the first two keys, frame 3 between the last two
        clip = {"name": "walk", "extras": {"frame_rate": 60.0, "frame_count": 5, "duration": 4 / 60, "loop": True,
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
            data = _import_file(path)
        scene = data.scene
        self.assertEqual([n.name for n in scene.nodes], ["hips", "leg", "animkit_root"])
        self.assertEqual(scene.root, 2)
        self.assertEqual(scene.joints, [0, 1])
        self.assertEqual(scene.nodes[1].parent, 0)
        self.assertEqual(scene.nodes[0].parent, 2)
        self.assertAlmostEqual(scene.nodes[1].scale[1], 2.0)
        anim = scene.animations[0]
        self.assertEqual(anim.name, "walk")
        self.assertEqual(anim.extras["events"][0]["name"], "step")
        leg = [n.index for n in scene.nodes if n.name == "leg"][0]
        chs = {c.path: c for c in data.clips[0].channels if c.node == leg}
        rate = data.clips[0].frame_rate
        self.assertAlmostEqual(keys.sample(chs["rotation"], 2 / rate)[2], math.sin(0.1), places=6)
        self.assertAlmostEqual(keys.sample(chs["rotation"], 1 / rate)[2], math.sin(0.05), places=5)  # slerp halfway
        self.assertEqual(chs["scale"].interpolation, "STEP")

    def test_rig_order_and_parents(self):
        r = _rig()
        self.assertEqual(rig.bone_order(r), [0, 1])
        self.assertEqual(rig.bone_parent(r, 0), -1)
        self.assertEqual(rig.bone_parent(r, 1), 0)

    def test_matrix_decompose(self):
        c, s = math.cos(0.3), math.sin(0.3)
        m = [c * 2, s * 2, 0, 0, -s, c, 0, 0, 0, 0, 3, 0, 1, 2, 3, 1]  # column-major: T R S(2, 1, 3), about Z
        doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
               "nodes": [{"name": "m", "matrix": m}]}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.gltf")
            with open(path, "w") as f:
                json.dump(doc, f)
            node = _import_file(path).scene.nodes[0]
        t, q, sc = node.translation, node.rotation, node.scale
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
        # unchanged: 0.1 s at 30 fps is frame 3; "hit" at 6 is the second hit; a new marker.
        # The markers' order (the stored one) is kept, not sorted by time.
        out = rig.events_from_markers([("hit", 3), ("state", 0), ("hit", 6), ("new", 9)], stored, 30.0)
        self.assertEqual([(e["name"], round(e["time"], 3)) for e in out],
                         [("hit", 0.1), ("state", 0.0), ("hit", 0.2), ("new", 0.3)])
        self.assertEqual(out[0]["time"], 0.1)  # kept exactly
        self.assertEqual(out[0]["params"], [1, 2])
        self.assertEqual(out[0]["end_time"], 0.5)
        self.assertEqual(out[2]["params"], [3])
        self.assertNotIn("params", out[3])
        # the k-th marker of a name takes the k-th stored event of that name, in stored order
        late_first = [{"time": 0.5, "name": "hit", "params": [7]}, {"time": 0.1, "name": "hit", "params": [8]}]
        out = rig.events_from_markers([("hit", 15), ("hit", 3)], late_first, 30.0)
        self.assertEqual([(e["time"], e["params"]) for e in out], [(0.5, [7]), (0.1, [8])])
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


class FormatTable(unittest.TestCase):
    """The library's table answers what the add-on's own tables used to."""

    def test_extensions_and_formats(self):
        self.assertEqual(set(formats.import_extensions()), {
            ".anm", ".tmd", ".anc", ".anim", ".cinf", ".anb", ".mset", ".mdlx", ".bar", ".motion", ".canm", ".mdb",
            ".cas", ".rab", ".mrab", ".glb", ".gltf", ".cmdl", ".ancs", ".pak"})
        self.assertEqual(set(formats.export_extensions()),
                         {".anm", ".anim", ".anb", ".mset", ".motion", ".canm", ".anc", ".cas", ".pak"})
        self.assertEqual(formats.output_format(".anm"), "psx-anm")
        self.assertEqual(formats.output_format(".anm", "", "text-anm"), "text-anm")
        self.assertEqual(formats.output_format(".anm", "text-anm", "psx-anm"), "text-anm")
        self.assertEqual(formats.output_format(".mset", "", "kh2-bar"), "kh2-bar")
        self.assertEqual(formats.output_format(".anim", "psx-anm"), "metroid-anim")
        self.assertIsNone(formats.output_format(".glb"))
        self.assertTrue(formats.shares_extension("text-anm"))
        self.assertFalse(formats.shares_extension("edf-canm"))

    def test_up_axis_and_multi_clip(self):
        for f in ("psx-anm", "psx-tmd", "psx-anc"):
            self.assertEqual(formats.up_axis(f), "-Y")
        for f in ("kh2-bar", "edf-canm", "gltf", "text-anm"):
            self.assertEqual(formats.up_axis(f), "+Y")
        for f in ("metroid-anim", "metroid-cinf", "metroid-ancs", "metroid-pak"):
            self.assertEqual(formats.up_axis(f), "+Z")  # Blender's own: no turn
        self.assertEqual([f for f in ("kh2-bar", "edf-canm", "text-anm", "metroid-anim", "psx-anm", "kh2-motion",
                                      "psx-anc") if formats.multi_clip(f)], ["kh2-bar", "edf-canm", "text-anm"])

    def test_option_args(self):
        read = formats.options("read")
        write = formats.options("write")
        names = [o["name"] for o in read]
        self.assertIn("euler", names)
        self.assertIn("canm-fps", names)  # read and write
        self.assertNotIn("kh2-tolerance", names)
        self.assertIn("kh2-tolerance", [o["name"] for o in write])
        self.assertIn("canm-fps", [o["name"] for o in write])
        kh2 = next(o for o in write if o["name"] == "raw")
        self.assertEqual(kh2["formats"], ["kh2-bar", "kh2-motion"])
        defaults = {o["keyword"]: (o["default"] if o["default"] is not None else ("" if o["type"] in ("choice", "word") else 0))
                    for o in read + write if o["type"] != "flag"}
        self.assertEqual(formats.option_args(read + write, defaults), [])
        # a float32 property holding the default is still the default
        self.assertEqual(formats.option_args(write, {"kh2_tolerance": 9.999999747378752e-05}), [])
        self.assertEqual(formats.option_args(read, {"euler": "zyx", "psx_rate": 25.0}),
                         ["--euler", "zyx", "--psx-rate", "25.0"])
        self.assertEqual(formats.option_args(write, {"raw": True, "anim_version": "0", "max_error_pos": 0.0,
                                                     "rotation_divisor": 100}),
                         ["--anim-version", "0", "--rotation-divisor", "100", "--raw"])


class ExportPlan(unittest.TestCase):
    """The export's format, template and what another family's format loses: the add-on's
    export_plan over `animkit export-plan` (the library's rule, the one `convert` follows)."""

    def setUp(self):
        if not (CLI and os.path.isfile(CLI)):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")

    def family(self, source_format):
        return export_plan.plan(CLI, "/o/x.anm", "psx-anm", "", source_format).family

    def test_families(self):
        for a, b in (("kh2-bar", "kh2-motion"), ("psx-tmd", "psx-anm"), ("edf-mdb", "edf-canm"),
                     ("metroid-cinf", "metroid-anim"), ("gltf", "text-anm"), ("kh2-bar", "kh2-bar")):
            self.assertIn(b, self.family(a), (a, b))
            self.assertIn(a, self.family(b), (b, a))
        for a, b in (("kh2-bar", "psx-anm"), ("psx-anm", "text-anm"), ("edf-canm", "metroid-anim")):
            self.assertNotIn(b, self.family(a), (a, b))

    def test_default_path(self):
        self.assertEqual(export_plan.default_path(CLI, "/x/P_EX100.mset", "kh2-bar"), "/x/P_EX100.mset")
        self.assertEqual(export_plan.default_path(CLI, "/x/ex00.mdlx", "kh2-bar"), "/x/ex00.anb")
        self.assertEqual(export_plan.default_path(CLI, "/x/figure.tmd", "psx-tmd"), "/x/figure.anm")
        self.assertEqual(export_plan.default_path(CLI, "/x/soldier.mdb", "edf-mdb"), "/x/soldier.canm")
        self.assertEqual(export_plan.default_path(CLI, "", ""), "")

    def test_with_extension(self):
        self.assertEqual(export_plan.with_extension("/o/a.mset", "psx-anm"), "/o/a.anm")
        self.assertEqual(export_plan.with_extension("/o/a.anb", "kh2-bar"), "/o/a.anb")
        self.assertEqual(export_plan.with_extension("/o/a.mset", ""), "/o/a.mset")

    def test_choose_format(self):
        def choose(filepath, requested, source_format):
            return export_plan.plan(CLI, filepath, requested, "", source_format).format
        self.assertEqual(choose("/o/a.mset", "", "kh2-bar"), "kh2-bar")
        self.assertEqual(choose("/o/a.motion", "", "kh2-bar"), "kh2-motion")  # one family
        self.assertEqual(choose("/o/a.anm", "", "text-anm"), "text-anm")
        self.assertEqual(choose("/o/a.anm", "", "psx-tmd"), "psx-anm")
        self.assertEqual(choose("/o/a.anm", "", ""), "psx-anm")  # made in Blender: the extension's
        # a KH2 rig into a PS1 ANM: only when asked for, and the refusal says how and what is lost
        with self.assertRaises(export_plan.PlanError) as refused:
            choose("/o/a.anm", "", "kh2-bar")
        self.assertIn("choose Format psx-anm or text-anm", str(refused.exception))
        self.assertIn("lose their hierarchy", str(refused.exception))
        self.assertEqual(choose("/o/a.anm", "psx-anm", "kh2-bar"), "psx-anm")
        with self.assertRaises(export_plan.PlanError) as other:
            choose("/o/a.mset", "psx-anm", "kh2-bar")  # the chosen format does not write .mset
        self.assertEqual(str(other.exception), "psx-anm writes .anm, not .mset: give the file one of those extensions")
        with self.assertRaises(export_plan.PlanError) as glb:
            choose("/o/a.glb", "", "kh2-bar")
        self.assertIn("names no format animkit writes an animation to", str(glb.exception))

    def test_plan(self):
        src = os.path.join(SAMPLES, "kh2_bar", "p_ex00.mset")
        own = export_plan.plan(CLI, "/o/x.mset", "", src, "kh2-bar")
        self.assertEqual((own.format, own.to, own.template, own.notes), ("kh2-bar", False, src, []))
        other = export_plan.plan(CLI, "/o/x.anm", "psx-anm", src, "kh2-bar")
        self.assertEqual((other.format, other.to, other.template), ("psx-anm", True, ""))
        self.assertTrue(other.notes and all(level == "WARNING" for level, _ in other.notes))
        self.assertEqual(export_plan.plan(CLI, "/o/x.mset", "", src, "kh2-bar", use_template=False).template, "")
        self.assertEqual(export_plan.plan(CLI, "/o/x.anb", "", src, "kh2-bar").template, "")  # not its extension


class Slots(unittest.TestCase):
    def test_linked_clips(self):
        info = {"clips": [{"name": "000_A000"}, {"name": "002_A002"},
                          {"name": "003_A003", "shares_data_with": "000_A000"},
                          {"name": "004_A004", "shares_data_with": "003_A003"},
                          {"name": "005_ZZZ", "shares_data_with": "009_GONE"}]}
        names = ["000_A000", "002_A002", "003_A003", "004_A004", "005_ZZZ"]
        self.assertEqual(slots.linked_clips(info, names), {"003_A003": "000_A000", "004_A004": "000_A000"})
        self.assertEqual(slots.linked_clips({"clips": []}, names), {})
        self.assertEqual(slots.linked_clips(None, names), {})
        self.assertIn("003_A003", slots.shared_note("000_A000", ["003_A003"]))


class _Channel:
    """An import_data.Channel's interface over plain lists (glTF rotation x, y, z, w)."""

    def __init__(self, path, interpolation, times, rows):
        self.path, self.interpolation, self.times, self.rows = path, interpolation, times, rows
        self.width = len(rows[0])

    def key_values(self):
        if self.interpolation != "CUBICSPLINE":
            return self.rows, None, None
        return self.rows[1::3], self.rows[0::3], self.rows[2::3]


def _bezier_at(p0, h0, h1, p1, s):
    """A cubic Bezier's point at parameter s (x and y alike)."""
    a = 1.0 - s
    return tuple(a ** 3 * p + 3 * a * a * s * q + 3 * a * s * s * r + s ** 3 * w for p, q, r, w in zip(p0, h0, h1, p1))


class ImportKeys(unittest.TestCase):
    """keys.py: a glTF channel's keys as Blender keyframes, no sampling."""

    IDENTITY = keys.BasisMap((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))

    def test_per_frame_rotation_keeps_its_keys(self):
        # float32 key times land a hair either side of whole frames: no key is added
        rate = 30.0
        times = [_f32(k / rate) for k in range(48)]
        rows = [(0.0, 0.0, math.sin(0.05 * k), math.cos(0.05 * k)) for k in range(48)]
        out = keys.channel_curves(_Channel("rotation", "LINEAR", times, rows), rate, self.IDENTITY)
        self.assertEqual(out.count, 48)
        self.assertEqual(out.interpolation, keys.LINEAR)
        self.assertEqual([round(f, 3) for f in out.co[0][0::2]], [float(k) for k in range(48)])

    def test_sparse_linear_rotation_gets_whole_frames_between(self):
        # glTF slerps between keys, Blender interpolates each component: keys at frames 1..3
        rows = [(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, math.sin(0.4), math.cos(0.4))]
        out = keys.channel_curves(_Channel("rotation", "LINEAR", [0.0, 4 / 30], rows), 30.0, self.IDENTITY)
        self.assertEqual([round(f, 6) for f in out.co[0][0::2]], [0.0, 1.0, 2.0, 3.0, 4.0])
        self.assertAlmostEqual(out.co[3][3], math.sin(0.1), places=6)  # z at frame 1: a quarter of the turn

    def test_cubic_spline_handles_at_thirds_are_the_hermite(self):
        rate, times = 30.0, [0.0, 0.1, 0.3]
        rows = [(0.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0.0, 258.3, 3.0),  # in, value, out per key
                (0.0, -136.4, 0.0), (0.0, -3.46, 1.0), (0.0, -121.9, 0.0),
                (0.0, 13.0, 0.0), (0.0, -2.57, 0.5), (0.0, 0.0, 0.0)]
        ch = _Channel("translation", "CUBICSPLINE", times, rows)
        out = keys.channel_curves(ch, rate, self.IDENTITY)
        self.assertEqual((out.count, out.interpolation), (3, keys.BEZIER))
        co, left, right = out.co[1], out.left[1], out.right[1]
        for k in range(2):
            p0, p1 = (co[2 * k], co[2 * k + 1]), (co[2 * k + 2], co[2 * k + 3])
            h0, h1 = (right[2 * k], right[2 * k + 1]), (left[2 * k + 2], left[2 * k + 3])
            for s in (0.25, 1 / 3, 0.5, 0.9):
                x, y = _bezier_at(p0, h0, h1, p1, s)  # handles at thirds: x is linear in s
                self.assertAlmostEqual(x, p0[0] + s * (p1[0] - p0[0]), places=9)
                self.assertAlmostEqual(y, keys.sample(ch, x / rate)[1], places=4)


class ImportWarnings(unittest.TestCase):
    def test_a_warning_is_reported_without_the_word_warning(self):
        # The report's level says "Warning": animkit's own "warning: " is not said twice.
        self.assertEqual(cli.report_text("out.mset: warning: in.glb: joint 3: kept"), "out.mset: in.glb: joint 3: kept")
        self.assertEqual(cli.report_text("warning: joint 3: kept"), "joint 3: kept")
        self.assertEqual(cli.report_text("in.mset: skeleton file: none"), "in.mset: skeleton file: none")
        self.assertEqual(cli.Result("", "a.glb: warning: x\n\nb: y\n").warnings, ["a.glb: x", "b: y"])

    def test_import_data_lists_a_damaged_slot(self):
        if not CLI:
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")
        data = open(os.path.join(SAMPLES, "kh2_bar", "p_ex00.mset"), "rb").read()
        with tempfile.TemporaryDirectory() as tmp:
            cut = os.path.join(tmp, "cut.mset")
            with open(cut, "wb") as f:
                f.write(data[: len(data) * 2 // 3])
            out = os.path.join(tmp, "cut.animkit")
            subprocess.run([CLI, "import-data", cut, "-o", out], check=True, capture_output=True)
            warnings = import_data.read(out).header["warnings"]
        self.assertTrue(any(w.startswith("damaged, no clip from it") and "entry 2 (A000)" in w for w in warnings),
                        warnings)


class Limits(unittest.TestCase):
    def test_limit_args(self):
        table = {l["name"]: l for l in formats.limits()}
        self.assertIn("max-values", table)
        self.assertIn("max-frames", table)
        defaults = {l["keyword"]: l["default"] for l in formats.limits()}
        self.assertEqual(formats.limit_args(defaults), [])
        self.assertEqual(formats.limit_args(dict(defaults, max_values=table["max-values"]["default"] * 4)),
                         ["--max-values", str(table["max-values"]["default"] * 4)])


def _glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack_from("<I", data, 12)
    return json.loads(data[20:20 + length])


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class ImportFile(unittest.TestCase):
    """One `animkit import-data` run carries what `info`, `convert` and `sample` print."""

    def setUp(self):
        if not (CLI and os.path.isfile(CLI)):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")

    def animkit(self, *args):
        return subprocess.run([CLI] + list(args), check=True, stdout=subprocess.PIPE).stdout

    def check_scene(self, scene, doc):
        nodes = doc.get("nodes", [])
        self.assertEqual([n.name for n in scene.nodes], [n.get("name") for n in nodes])
        for i, n in enumerate(nodes):
            for c in n.get("children", []):
                self.assertEqual(scene.nodes[c].parent, i)
            self.assertEqual(scene.nodes[i].translation, tuple(n.get("translation", (0.0, 0.0, 0.0))))
            self.assertEqual(scene.nodes[i].rotation, tuple(n.get("rotation", (0.0, 0.0, 0.0, 1.0))))
            self.assertEqual((scene.nodes[i].mesh, scene.nodes[i].camera), (n.get("mesh"), n.get("camera")))
        self.assertEqual(scene.joints, doc["skins"][0]["joints"] if doc.get("skins") else scene.joints)
        self.assertEqual(scene.cameras, doc.get("cameras", []))
        self.assertEqual([len(m.primitives) for m in scene.meshes],
                         [len(m["primitives"]) for m in doc.get("meshes", [])])
        for mesh, m in zip(scene.meshes, doc.get("meshes", [])):
            for prim, p in zip(mesh.primitives, m["primitives"]):
                self.assertEqual(len(prim.positions), doc["accessors"][p["attributes"]["POSITION"]]["count"])
                if "indices" in p:
                    self.assertEqual(len(prim.indices), doc["accessors"][p["indices"]]["count"])
                self.assertTrue(all(0 <= i < len(prim.positions) for i in prim.indices))
        self.assertEqual([a.extras for a in scene.animations],
                         [a.get("extras", {}).get("animkit", {}) for a in doc.get("animations", [])])

    def check_file(self, rel):
        path = os.path.join(SAMPLES, rel)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.akd")
            self.animkit("import-data", path, "-o", out, "--skeleton", "auto")
            data = import_data.read(out)
            glb = os.path.join(tmp, "x.glb")
            skeleton = ["--skeleton", data.skeleton_file] if data.skeleton_file else []
            self.animkit("convert", path, glb, *skeleton)
            self.check_scene(data.scene, _glb_json(glb))
        info = json.loads(self.animkit("info", path, "--json", "--skeleton", "auto"))
        self.assertEqual(data.file_clips, [c["name"] for c in info["clips"]])
        self.assertEqual(data.format, info["format"])
        sample = json.loads(self.animkit("sample", path, *skeleton))
        self.assertEqual(len(data.clips), len(sample["clips"]))
        hidden = 0
        for clip, want in zip(data.clips, sample["clips"]):
            for key in ("name", "loop", "space", "joints"):
                self.assertEqual(getattr(clip, key), want[key], key)
            for key in ("frame_rate", "duration"):  # the same float32, printed shortest by sample
                self.assertEqual(_f32(getattr(clip, key)), _f32(want[key]), key)
            self.assertEqual(clip.frame_count, len(want["frames"]))
            self.assertEqual([e["name"] for e in clip.events], [e["name"] for e in want["events"]])
            hidden += sum(1 for c in clip.channels if c.path == "scale" and c.interpolation == "STEP")
            self.assertEqual(clip.key_count(), sum(c.key_count() for c in clip.channels))
        return hidden

    def test_samples(self):
        hidden = 0
        for rel in ("kh2_bar/walk.anb", "psx_tmd/figure.anm", "edf_canm/soldier5.canm", "psx_anc/orbit.anc",
                    "text_anm/figure.anm", "kh2_bar/raw.anb", "psx_tmd/figure.tmd"):
            hidden += self.check_file(rel)
        self.assertGreater(hidden, 0)  # figure.anm hides joints: NaN comes back as None

    def test_not_an_import_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.akd")
            with open(bad, "wb") as f:
                f.write(b"glTF" + bytes(20))
            with self.assertRaises(import_data.ImportDataError):
                import_data.read(bad)


class SkinnedMeshes(unittest.TestCase):
    """The import file's meshes, materials and images for the skinned glb of
    tests/tools/skinned_glb.py (values from its layout), and gltf_mesh.py's topology."""

    def setUp(self):
        if not (CLI and os.path.isfile(CLI)):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "skinned.glb")
        skinned_glb.write(self.path)

    def tearDown(self):
        self.tmp.cleanup()

    def test_attributes_skin_material_image(self):
        scene = _import_file(self.path).scene
        (prim,) = scene.meshes[0].primitives
        layout = skinned_glb.vertices()
        self.assertEqual(len(prim.positions), 20)
        self.assertEqual(len(gltf_mesh.triangles(prim.mode, prim.indices)), 32)
        self.assertEqual(gltf_mesh.influences(prim, 13), [(1, 0.25), (2, 0.75)])  # spine, head (nodes)
        self.assertAlmostEqual(prim.uvs[6][1], 1.0 - layout[6][2][1], places=6)  # V flipped
        self.assertEqual([n.skin for n in scene.nodes], [None, None, None, 0])
        mat = scene.materials[prim.material]
        self.assertEqual((mat.name, mat.alpha_mode, mat.double_sided), ("skin_tex", "MASK", True))
        self.assertAlmostEqual(mat.alpha_cutoff, 0.4, places=6)
        self.assertEqual(scene.images[mat.image].data, skinned_glb.png_2x2())


class CurvesTest(unittest.TestCase):
    """curves.py: a file curve as keyframes (handles at thirds) and back, its evaluation
    with pre / post, the section read from an import file's data."""

    KEYS = [(0.0, 1.0, 0.0, 0.5, 2.0), (6.0, 4.0, -0.25, 0.0, 1.0), (9.0, 2.0, 0.0, 0.0, 0.0),
            (12.0, 3.0, 0.0, 0.0, 1.0)]

    def test_keyframes_and_back(self):
        ch = curves.Channel(3, "rotation_euler", 1, self.KEYS, "offset", "repeat")
        fk = curves.fcurve_keys(ch)
        self.assertEqual(fk.interpolation, [curves.BEZIER, curves.LINEAR, curves.CONSTANT, curves.LINEAR])
        self.assertEqual(fk.right[0:2], [2.0, 1.0 + 0.5 * 2.0])  # a third of 6 frames, slope 0.5
        self.assertEqual(fk.left[2:4], [4.0, 4.0 + 0.25 * 2.0])
        names = {curves.CONSTANT: "CONSTANT", curves.LINEAR: "LINEAR", curves.BEZIER: "BEZIER"}
        pairs = lambda a: list(zip(a[0::2], a[1::2]))  # noqa: E731
        back = curves.channel_from_keyframes(3, "rotation_euler", 1, pairs(fk.co), pairs(fk.left), pairs(fk.right),
                                             [names[i] for i in fk.interpolation], "offset", "repeat")
        self.assertEqual(back.keys, ch.keys)
        self.assertEqual(curves.cycle_modes(ch), ("REPEAT_OFFSET", "REPEAT"))
        self.assertIsNone(curves.cycle_modes(curves.Channel(0, "scale", 0, self.KEYS)))
        with self.assertRaises(curves.CurvesError):
            curves.channel_from_keyframes(0, "scale", 0, [(0.0, 1.0)], [(0.0, 1.0)], [(0.0, 1.0)], ["ELASTIC"])

    def test_evaluate(self):
        ev = lambda c, f: curve_eval.evaluate(c.keys, c.pre, c.post, f)  # noqa: E731
        ch = curves.Channel(0, "location", 0, self.KEYS, "offset", "repeat")
        # hermite, u = 1/2 over 6 frames: h00 v0 + h10 d out0 + h01 v1 + h11 d in1
        self.assertAlmostEqual(ev(ch, 3.0), 0.5 * 1.0 + 0.125 * 6 * 0.5 + 0.5 * 4.0 - 0.125 * 6 * -0.25)
        self.assertEqual(ev(ch, 7.5), 4.0 + (2.0 - 4.0) * 0.5)
        self.assertEqual(ev(ch, 10.0), 2.0)  # constant
        self.assertEqual(ev(ch, 13.0), ev(ch, 1.0))  # repeat after
        self.assertAlmostEqual(ev(ch, -1.0), ev(ch, 11.0) - 2.0)  # offset before
        self.assertEqual(ev(curves.Channel(0, "scale", 0, self.KEYS, "zero", "clamp"), -0.5), 0.0)
        self.assertEqual(ev(curves.Channel(0, "scale", 0, self.KEYS, "zero", "clamp"), 20.0), 3.0)

    def test_parse(self):
        import array
        floats = array.array("f", [0.0] * 2 + [k for key in self.KEYS for k in key + (0.0,)])
        raw = {"rotation_mode": "XYZ", "driven": [5], "channels": [
            {"node": 2, "property": "scale", "index": 2, "pre": "clamp", "post": "zero",
             "keys": {"offset": 8, "count": 4}}]}
        c = curves.parse(raw, floats)
        self.assertEqual(c.driven, {5})
        self.assertEqual(c.key_count(), 4)
        self.assertEqual(c.channels[0].keys, [tuple(float(x) for x in k) for k in self.KEYS])
        self.assertIsNone(curves.parse(None, floats))
        with self.assertRaises(curves.CurvesError):
            curves.parse(dict(raw, channels=[dict(raw["channels"][0], keys={"offset": 8, "count": 5})]), floats)



class Retarget(unittest.TestCase):
    """io/retarget.py: the map file the rows become, the rig's axes, channels onto the rig."""

    def test_map_rows_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "map.json")
            rows = [("hips", "pelvis"), ("leg", ""), ("b\u00e9", "b\u00e9")]
            retarget.write_map(path, rows)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(json.load(f), {"hips": "pelvis", "leg": None, "b\u00e9": "b\u00e9"})
            self.assertEqual(retarget.read_map(path), rows)
            with open(path, "w") as f:
                f.write("[1]")
            with self.assertRaises(cli.AnimkitError):
                retarget.read_map(path)

    def test_target_axes(self):
        self.assertEqual(retarget.target_axes(""), retarget.BLENDER_AXES)
        self.assertEqual(retarget.target_axes("gltf"), "")
        self.assertEqual(retarget.target_axes("psx-anm"), "-Y,+Z")

    def test_channels_onto_the_rig_by_name(self):
        r = _rig()
        class Node:
            def __init__(self, index, name):
                self.index, self.name = index, name
        class Ch:
            def __init__(self, node):
                self.node = node
        class Clip:
            channels = [Ch(0), Ch(1), Ch(2)]
        node_of = retarget.nodes_by_name([Node(0, "leg"), Node(1, "hips"), Node(2, "tail")], r)
        self.assertEqual(node_of, {0: 1, 1: 0})
        clip = Clip()
        retarget.renumber_channels([clip], node_of)
        self.assertEqual([c.node for c in clip.channels], [1, 0])


def run(samples=None, cli=None):
    return unit_run.run(sys.modules[__name__], SAMPLES=samples, CLI=cli)


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__], {"--samples": "SAMPLES", "--cli": "CLI"})
