# Checks of the model export's pure modules (no bpy): mesh_gltf.py (every weight in sets of four,
# vertices kept 1:1 or split, the imported triangles and normals kept, the nodes, PNG) and
# gltf_write.py's meshes, read back by animkit (import-data) when one is given.
#
#   python3 tests/blender/test_mesh_export.py [--cli animkit]
#
# test_addon.py --part mesh runs the same checks inside Blender.

import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import export_plan, gltf_write, import_data, mesh_gltf, rig  # noqa: E402
import unit_run  # noqa: E402

CLI = os.environ.get("ANIMKIT_CLI", "")


def _node(name, parent, kind, mesh=None, bone=""):
    return {"name": name, "parent": parent, "t": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0], "s": [1.0, 1.0, 1.0],
            "kind": kind, "camera": None, "mesh": mesh, "bone": bone}


def _rig():
    """root <- hips <- leg, and the imported skinned mesh's node (mesh 0)."""
    nodes = [_node("hips", 3, rig.KIND_JOINT, bone="hips"), _node("leg", 0, rig.KIND_JOINT, bone="leg"),
             _node("body mesh", 3, rig.KIND_SKINNED_MESH, mesh=0), _node("animkit_root", -1, rig.KIND_ROOT)]
    nodes[1]["t"] = [0.0, -0.5, 0.0]
    return {"version": rig.RIG_VERSION, "nodes": nodes, "joints": [0, 1], "skin": True, "cameras": [],
            "asset_extras": {"version": 1}}


def _quad(uv_seam=False):
    """Four vertices, two triangles over six corners (corner c of triangle t is 3t + c)."""
    positions = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0)]
    corner_vertex = [0, 1, 2, 0, 2, 3]
    data = mesh_gltf.MeshData(positions, corner_vertex, [(0, 1, 2), (3, 4, 5)], [0, 0])
    uv = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 1.0), 3: (0.0, 1.0)}
    data.uvs = [uv[v] for v in corner_vertex]
    if uv_seam:
        data.uvs[3] = (0.5, 0.5)  # vertex 0 seen by the second triangle elsewhere on the image
    data.groups = [[(0, 1.0)], [(0, 0.5), (1, 0.5)], [(1, 1.0)], [(1, 0.7), (0, 0.3)]]
    return data


class Influences(unittest.TestCase):
    def test_four_kept_as_they_are(self):
        # a file's own weights (here summing to 0.9, a KH2 vertex whose fifth is in the extras)
        self.assertEqual(mesh_gltf.influences([(3, 0.6), (1, 0.1), (7, 0.1), (2, 0.1)]),
                         ([3, 1, 7, 2], [0.6, 0.1, 0.1, 0.1]))

    def test_padded(self):
        self.assertEqual(mesh_gltf.influences([(5, 1.0)]), ([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]))
        self.assertEqual(mesh_gltf.influences([(5, 1.0)], sets=2), ([5] + [0] * 7, [1.0] + [0.0] * 7))

    def test_five_all_kept_in_two_sets(self):
        # which a format keeps, and renormalised how, is the library's; set 0 holds the 4
        # heaviest (what a reader of one set takes), none renormalised
        groups = [(1, 0.1), (2, 0.4), (3, 0.05), (4, 0.3), (5, 0.15), (6, 0.0)]
        self.assertEqual(mesh_gltf.influence_sets(groups), 2)
        self.assertEqual(mesh_gltf.influences(groups),
                         ([2, 4, 5, 1, 3, 0, 0, 0], [0.4, 0.3, 0.15, 0.1, 0.05, 0.0, 0.0, 0.0]))
        # four or fewer stay in the vertex's order
        self.assertEqual(mesh_gltf.influences([(1, 0.2), (2, 0.8)]), ([1, 2, 0, 0], [0.2, 0.8, 0.0, 0.0]))

    def test_primitive_sets_from_its_heaviest_vertex(self):
        data = _quad()
        data.groups[1] = [(0, 0.2), (1, 0.2), (2, 0.2), (3, 0.2), (4, 0.2)]
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual({len(j) for j in prim["joints"]} | {len(w) for w in prim["weights"]}, {8})
        self.assertEqual(prim["weights"][0], [1.0] + [0.0] * 7)


class Vertices(unittest.TestCase):
    def test_one_to_one(self):
        data = _quad()
        parts, split = mesh_gltf.split_parts(data)
        self.assertEqual((len(parts), split), (1, 0))
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["positions"], data.positions)
        self.assertEqual(prim["indices"], [0, 1, 2, 0, 2, 3])
        self.assertEqual(prim["uvs"], [(0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)])  # v flipped for glTF
        self.assertEqual(prim["joints"][3], [1, 0, 0, 0])
        self.assertEqual(prim["weights"][3], [0.7, 0.3, 0.0, 0.0])

    def test_uv_seam_splits_after_the_others(self):
        data = _quad(uv_seam=True)
        parts, split = mesh_gltf.split_parts(data)
        self.assertEqual(split, 1)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(len(prim["positions"]), 5)
        self.assertEqual(prim["positions"][4], data.positions[0])
        self.assertEqual(prim["indices"], [0, 1, 2, 4, 2, 3])
        self.assertEqual(prim["uvs"][4], (0.5, 0.5))

    def test_loose_vertex_kept_in_place(self):
        data = _quad()
        data.positions = data.positions + [(9.0, 9.0, 9.0)]
        data.groups.append([(0, 1.0)])
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["positions"][4], (9.0, 9.0, 9.0))
        self.assertEqual(prim["uvs"][4], (0.0, 1.0))

    def test_two_materials_two_parts(self):
        data = _quad()
        data.slots = [0, 1]
        parts, split = mesh_gltf.split_parts(data)
        self.assertEqual([s for s, _ in parts], [0, 1])
        self.assertEqual(parts[0][1].source, [0, 1, 2])
        self.assertEqual(parts[1][1].source, [0, 2, 3])
        self.assertEqual(parts[1][1].indices, [0, 1, 2])
        self.assertEqual(split, 0)


class KeptFromImport(unittest.TestCase):
    def test_imported_triangles_while_faces_unchanged(self):
        data = _quad()
        # the file had the second triangle twice (the other way round) and a degenerate one
        data.stored_triangles = [0, 1, 2, 0, 2, 3, 3, 2, 0, 1, 1, 2]
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["indices"], data.stored_triangles)

    def test_blender_triangles_once_edited(self):
        data = _quad()
        data.stored_triangles = [0, 1, 2, 0, 2, 3, 3, 2, 0]
        data.triangles, data.slots = data.triangles[:1], [0]  # a face deleted
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["indices"], [0, 1, 2])

    def test_file_normals_while_close(self):
        data = _quad()
        file_normal = (0.0, 0.6, 0.8)
        data.stored_normals = [file_normal] * 4
        near = (0.0, 0.6 + 2e-4, 0.8 - 1.5e-4)  # Blender's compressed custom normal
        data.normals = [near] * 6
        data.normals[5] = (1.0, 0.0, 0.0)  # vertex 3 turned in Blender
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["normals"][:3], [file_normal] * 3)
        self.assertEqual(prim["normals"][3], (1.0, 0.0, 0.0))


    def test_file_uvs_while_close(self):
        data = _quad()
        v = 0.1 + 2 ** -30  # 1 - (1 - v) is not v in float32
        data.stored_uvs = [(0.0, v), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)]
        data.uvs = [(0.0, 1.0 - v + 3e-8), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0 - v + 3e-8), (1.0, 1.0), (0.3, 1.0)]
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        self.assertEqual(prim["uvs"][:3], data.stored_uvs[:3])
        self.assertEqual(prim["uvs"][3], (0.3, 0.0))  # moved in Blender


class Nodes(unittest.TestCase):
    def test_imported_mesh_on_its_node(self):
        nodes, joints, root, node_mesh = mesh_gltf.mesh_nodes(_rig(), [{"name": "body", "skinned": True, "node": 2}])
        self.assertEqual(len(nodes), 4)
        self.assertEqual((joints, root, node_mesh), ([0, 1], 3, {2: 0}))

    def test_deleted_mesh_node_dropped_and_new_mesh_node_added(self):
        meshes = [{"name": "new", "skinned": True, "node": None}, {"name": "prop", "skinned": False, "node": 1}]
        nodes, joints, root, node_mesh = mesh_gltf.mesh_nodes(_rig(), meshes)
        self.assertEqual([n["name"] for n in nodes], ["hips", "leg", "animkit_root", "new mesh"])
        self.assertEqual([n["parent"] for n in nodes], [2, 0, -1, -1])
        self.assertEqual((joints, root, node_mesh), ([0, 1], 2, {3: 0, 1: 1}))

    def test_second_rigid_mesh_on_a_bone_is_its_child(self):
        meshes = [{"name": "a", "skinned": False, "node": 1}, {"name": "b", "skinned": False, "node": 1}]
        nodes, _joints, _root, node_mesh = mesh_gltf.mesh_nodes(_rig(), meshes)  # the unused mesh node dropped
        self.assertEqual([(n["name"], n["parent"]) for n in nodes[2:]], [("animkit_root", -1), ("b mesh", 1)])
        self.assertEqual(node_mesh, {1: 0, 3: 1})


def _png_pixels(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG without filters (ours)."""
    width, height = struct.unpack(">II", data[16:24])
    k, idat = 8, b""
    while k < len(data):
        n = struct.unpack(">I", data[k:k + 4])[0]
        if data[k + 4:k + 8] == b"IDAT":
            idat += data[k + 8:k + 8 + n]
        k += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + 4 * width
    return width, height, [raw[r * stride + 1:(r + 1) * stride] for r in range(height)]


class Png(unittest.TestCase):
    def test_rows_flipped_to_top_down(self):
        # Blender's pixels, bottom row first: red below, green above
        pixels = [1.0, 0.0, 0.0, 1.0] * 2 + [0.0, 1.0, 0.0, 0.5] * 2
        data = mesh_gltf.encode_png(2, 2, pixels)
        self.assertEqual(mesh_gltf.image_kind(data), "image/png")
        w, h, rows = _png_pixels(data)
        self.assertEqual((w, h), (2, 2))
        self.assertEqual(rows[0], bytes([0, 255, 0, 128]) * 2)
        self.assertEqual(rows[1], bytes([255, 0, 0, 255]) * 2)


class ReadBack(unittest.TestCase):
    """The glb gltf_write makes of a model, read back by animkit (import-data)."""

    def test_model_glb(self):
        if not CLI or not os.path.isfile(CLI):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")
        data = _quad(uv_seam=True)
        data.stored_triangles = None
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        meshes = [{"name": "body", "skinned": True, "node": 2, "extras": {"metadata": {"group": 3}},
                   "primitives": [prim]}]
        nodes, joints, root, node_mesh = mesh_gltf.mesh_nodes(_rig(), meshes)
        png = mesh_gltf.encode_png(1, 1, [0.2, 0.4, 0.6, 1.0])
        model = {"nodes": nodes, "joints": joints, "root": root, "node_mesh": node_mesh, "skinned": {0},
                 "meshes": meshes, "images": [{"name": "skin", "mime": "image/png", "data": png}],
                 "materials": [{"name": "body", "image": 0, "double_sided": True, "extras": {"metadata": {"k": 1}}}]}
        with tempfile.TemporaryDirectory() as tmp:
            glb = os.path.join(tmp, "model.glb")
            gltf_write.write_glb(glb, _rig(), [], model)
            out = os.path.join(tmp, "model.akd")
            subprocess.run([CLI, "import-data", glb, "-o", out], check=True, stdout=subprocess.PIPE)
            scene = import_data.read(out).scene
        self.assertEqual(len(scene.meshes), 1)
        mesh = scene.meshes[0]
        self.assertEqual((mesh.name, mesh.extras), ("body", {"metadata": {"group": 3}}))
        got = mesh.primitives[0]
        self.assertEqual(got.positions, [tuple(p) for p in prim["positions"]])
        self.assertEqual(got.indices, prim["indices"])
        self.assertEqual(got.uvs, [(u, 1.0 - v) for u, v in prim["uvs"]])
        self.assertEqual(got.joints[3][:2], (1, 0))  # node indices: leg, hips
        self.assertTrue(all(math.isclose(a, b, abs_tol=1e-7) for a, b in zip(got.weights[3], (0.7, 0.3, 0.0, 0.0))))
        self.assertEqual(scene.images[0].data, png)
        self.assertEqual(scene.materials[0].extras, {"metadata": {"k": 1}})
        self.assertEqual(json.dumps(scene.asset_extras), json.dumps({"version": 1}))


    def test_every_influence_reaches_the_library(self):
        """A vertex on five joints: both sets read by animkit, which a KH2 model keeps whole
        (the format holds more than four: the library's rule, not the add-on's)."""
        if not CLI or not os.path.isfile(CLI):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")
        skeleton = _rig()
        for name in ("foot", "toe", "tip"):
            skeleton["nodes"].append(_node(name, len(skeleton["nodes"]) - 1 if name != "foot" else 1,
                                           rig.KIND_JOINT, bone=name))
        skeleton["joints"] += [4, 5, 6]
        data = _quad()
        data.groups[0] = [(0, 0.1), (1, 0.4), (2, 0.05), (3, 0.3), (4, 0.15)]
        parts, _ = mesh_gltf.split_parts(data)
        prim = mesh_gltf.primitive(data, parts[0][1], True, 0)
        meshes = [{"name": "body", "skinned": True, "node": 2, "extras": {}, "primitives": [prim]}]
        nodes, joints, root, node_mesh = mesh_gltf.mesh_nodes(skeleton, meshes)
        model = {"nodes": nodes, "joints": joints, "root": root, "node_mesh": node_mesh, "skinned": {0},
                 "meshes": meshes, "images": [], "materials": []}
        with tempfile.TemporaryDirectory() as tmp:
            glb, mdlx, back = (os.path.join(tmp, n) for n in ("five.glb", "five.mdlx", "back.glb"))
            gltf_write.write_glb(glb, skeleton, [], model)
            subprocess.run([CLI, "convert", glb, mdlx, "--kh2-skeleton", "gltf"], check=True, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
            subprocess.run([CLI, "convert", mdlx, back], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out = os.path.join(tmp, "back.akd")
            subprocess.run([CLI, "import-data", back, "-o", out], check=True, stdout=subprocess.PIPE)
            scene = import_data.read(out).scene
        # Every influence in JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1, the 4 heaviest first.
        found = []
        for mesh in scene.meshes:
            for p in mesh.primitives:
                for js, ws in zip(p.joints, p.weights):
                    kept = [(scene.joints.index(j), round(w, 6)) for j, w in zip(js, ws) if w > 0.0]
                    if len(kept) > 4:
                        found.append(kept)
        self.assertEqual(len(found), 1)
        self.assertEqual(len(found[0]), 5)
        self.assertEqual([w for _, w in found[0][:4]], [0.4, 0.3, 0.15, 0.1])  # set 0: the 4 heaviest
        self.assertEqual(sorted(found[0]), [(0, 0.1), (1, 0.4), (2, 0.05), (3, 0.3), (4, 0.15)])  # skeleton joints, as given

class ModelPlan(unittest.TestCase):
    """`animkit export-plan --model`: a model file is planned in its own format, with the
    source as template; an animation extension stays an animation export."""

    def test_model_and_animation(self):
        if not CLI or not os.path.isfile(CLI):
            self.skipTest("no animkit executable (--cli or $ANIMKIT_CLI)")
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "P_EX100.mdlx")
            open(source, "wb").close()  # the plan reads nothing; the template must exist
            p = export_plan.plan(CLI, source, "", source, "kh2-bar", model=True)
            self.assertEqual((p.format, p.template, p.output), ("kh2-bar", source, source))
            self.assertTrue(export_plan.writes_model(p, source))
            self.assertEqual(export_plan.default_path(CLI, source, "kh2-bar", model=True), source)
            anb = os.path.join(tmp, "P_EX100.anb")
            p = export_plan.plan(CLI, anb, "", source, "kh2-bar", model=True)
            self.assertEqual((p.format, p.template), ("kh2-bar", ""))
            self.assertFalse(export_plan.writes_model(p, anb))
            mdb = os.path.join(tmp, "new.mdb")
            p = export_plan.plan(CLI, mdb, "edf-mdb", source, "kh2-bar", model=True)
            self.assertEqual((p.format, p.template), ("edf-mdb", ""))
            self.assertTrue(p.notes)  # what another family's format loses
            with self.assertRaises(export_plan.PlanError):  # another family: must be asked for
                export_plan.plan(CLI, mdb, "", source, "kh2-bar", model=True)


def run(cli=None):
    return unit_run.run(sys.modules[__name__], CLI=cli)


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__], {"--cli": "CLI"})
