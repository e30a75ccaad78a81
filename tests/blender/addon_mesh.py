# The model export (test_addon.py --part mesh): the character written back to its model
# file. For each real model (../shared/fixtures: KH2 P_EX100.mdlx, EDF airtortoise_missile.mdb;
# ../shared/real/kh2/*.mdlx; skipped when absent):
#   1. imported with the operator, the glTF the export hands to animkit (export_model.py)
#      against the glTF `animkit convert` makes of the file (what the import read): the
#      same meshes in the same order, each with its extras, vertices 1:1 (positions, indices,
#      weights, UVs, normals, colours exactly), materials and images;
#   2. exported unedited (File > Export, the imported file as template): the file's bytes;
#   3. one mesh's vertices moved: exported, imported again: that mesh moved, the others
#      as they were.
# And a mesh made in Blender (check_new_mesh): the glTF written for it.
# Steps 2 and 3 need animkit's model writers: while `animkit convert` cannot write the
# model, they fail naming the step and animkit's message.

import os
import struct
import tempfile

import bpy

from addon_common import ARGS, CLI, Failure, animkit, check, import_file, reset

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))
# the fixtures, then the real KH2 models (../shared/real/kh2/*.mdlx) there are, and the open
# case of a vertex in two matrix slots of one bone (one glTF influence: still unedited)
MODELS = ("fixtures/kh2/P_EX100.mdlx", "fixtures/edf/airtortoise_missile.mdb", "real/kh2/*.mdlx",
          "real/kh2-open/P_EX101.mdlx")
# Files a glTF holds nothing of (no bone, mesh or clip): exported unedited, the file's bytes
NOTHING = ("real/kh2-open/placeholder/ECA11602E.anb", "real/kh2-open/F_PO590.mdlx")
_COMPONENT = {5126: "f", 5125: "I", 5123: "H", 5121: "B"}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(path):
    """(JSON, accessor(i) -> [tuple]) of a .glb, any component type (the test's own reader)."""
    import json
    with open(path, "rb") as f:
        data = f.read()
    check(data[:4] == b"glTF", "%s is not a glb" % path)
    jlen = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + jlen])
    binary = data[20 + jlen + 8:]

    def accessor(i):
        a = doc["accessors"][i]
        view = doc["bufferViews"][a["bufferView"]]
        code, width = _COMPONENT[a["componentType"]], _WIDTH[a["type"]]
        size = struct.calcsize("<" + code)
        stride = view.get("byteStride", size * width)
        start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        return [struct.unpack_from("<%d%s" % (width, code), binary, start + k * stride) for k in range(a["count"])]

    def image(i):
        view = doc["bufferViews"][doc["images"][i]["bufferView"]]
        return binary[view.get("byteOffset", 0):view.get("byteOffset", 0) + view["byteLength"]]

    return doc, accessor, image


def _meshes(doc, accessor):
    """Per glTF mesh (in order): name, extras, and per primitive its attributes (joints as
    node names) and indices."""
    out = []
    node_names = [n.get("name", "") for n in doc["nodes"]]
    skin_joints = doc["skins"][0]["joints"] if doc.get("skins") else []
    for m in doc["meshes"]:
        prims = []
        for p in m["primitives"]:
            a = {k: accessor(v) for k, v in p["attributes"].items()}
            for key in [k for k in a if k.startswith("JOINTS_")]:
                weights = a["WEIGHTS_" + key[len("JOINTS_"):]]
                a[key] = [tuple(node_names[skin_joints[j]] if w > 0 else "" for j, w in zip(js, ws))
                          for js, ws in zip(a[key], weights)]
            prims.append((a, [i[0] for i in accessor(p["indices"])], p.get("material")))
        out.append((m["name"], m.get("extras"), prims))
    return out


def _close(a, b, eps):
    return all(abs(x - y) <= eps for u, v in zip(a, b) for x, y in zip(u, v))


def compare_glb(rel, ours, ref):
    """Step 1: the export's glTF against the import's."""
    doc, acc, img = read_glb(ours)
    rdoc, racc, rimg = read_glb(ref)
    mine, theirs = _meshes(doc, acc), _meshes(rdoc, racc)
    check([m[0] for m in mine] == [m[0] for m in theirs], "%s: meshes %s, the file's %s" % (
        rel, [m[0] for m in mine], [m[0] for m in theirs]))
    for (name, extras, prims), (_n, rextras, rprims) in zip(mine, theirs):
        check(extras == rextras, "%s: mesh %s extras %s, the file's %s" % (rel, name, extras, rextras))
        check(len(prims) == len(rprims), "%s: mesh %s has %d primitives, the file's %d" % (
            rel, name, len(prims), len(rprims)))
        for (a, idx, _mat), (ra, ridx, _rmat) in zip(prims, rprims):
            n, rn = len(a["POSITION"]), len(ra["POSITION"])
            check(n == rn, "%s: mesh %s has %d vertices, the file's %d" % (rel, name, n, rn))
            check(a["POSITION"] == ra["POSITION"], "%s: mesh %s positions differ" % (rel, name))
            check(idx == ridx, "%s: mesh %s triangles differ (%d indices, the file's %d)" % (
                rel, name, len(idx), len(ridx)))
            skin = lambda attrs: sorted(k for k in attrs if k.startswith(("JOINTS_", "WEIGHTS_")))  # noqa: E731
            check(skin(a) == skin(ra), "%s: mesh %s has %s, the file's %s" % (rel, name, skin(a), skin(ra)))
            for key in skin(a):
                check(a[key] == ra[key], "%s: mesh %s %s differ" % (rel, name, key))
            for key, eps in (("TEXCOORD_0", 0.0), ("NORMAL", 0.0), ("COLOR_0", 0.0)):
                check((key in a) == (key in ra), "%s: mesh %s %s %s" % (
                    rel, name, key, "written, the file has none" if key in a else "missing"))
                if key in a:
                    check(_close(a[key], ra[key], eps), "%s: mesh %s %s differ by more than %g" % (
                        rel, name, key, eps))
    check(len(doc.get("materials", [])) == len(rdoc.get("materials", [])), "%s: %d materials, the file's %d" % (
        rel, len(doc.get("materials", [])), len(rdoc.get("materials", []))))
    for k, (m, rm) in enumerate(zip(doc.get("materials", []), rdoc.get("materials", []))):
        check(m.get("extras") == rm.get("extras"), "%s: material %d extras differ" % (rel, k))
    images = [img(i) for i in range(len(doc.get("images", [])))]
    check(images == [rimg(i) for i in range(len(rdoc.get("images", [])))], "%s: the images differ" % rel)
    return sum(len(p[0]["POSITION"]) for m in mine for p in m[2]), len(images)


def _export(rel, arm, out, step):
    """File > Export of the armature to `out`; a Failure naming the step and animkit's
    message when it cannot (the library's model writers missing)."""
    bpy.context.view_layer.objects.active = arm
    try:
        result = bpy.ops.export_scene.animkit(filepath=out)
    except RuntimeError as e:
        raise Failure("%s: %s: the export failed (animkit's model writer): %s" % (rel, step, str(e).strip()))
    check(result == {"FINISHED"}, "%s: %s: the export returned %s" % (rel, step, result))


def _positions(arm):
    from animkit_io.blender import mesh_read
    return {o.get("animkit_mesh_name", o.name): [tuple(v.co) for v in o.data.vertices]
            for o in mesh_read.mesh_objects(arm)}


def _move_first(arm, offset, restore=None):
    """Moves the first mesh's vertices by `offset` along x (or sets them to `restore`);
    returns its name."""
    from animkit_io.blender import mesh_read
    obj = mesh_read.mesh_objects(arm)[0]
    points = restore or [(v.co.x + offset, v.co.y, v.co.z) for v in obj.data.vertices]
    obj.data.vertices.foreach_set("co", [c for p in points for c in p])
    obj.data.update()
    return obj.get("animkit_mesh_name", obj.name)


def _farthest(points, others, eps):
    """The largest distance from a point of `points` to the nearest of `others` (searched
    in cells of eps; beyond that: 2 eps)."""
    cells = {}
    for p in others:
        cells.setdefault(tuple(int(c // eps) for c in p), []).append(p)
    worst = 0.0
    for p in points:
        key = tuple(int(c // eps) for c in p)
        near = [q for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
                for q in cells.get((key[0] + dx, key[1] + dy, key[2] + dz), ())]
        d = min((max(abs(a - b) for a, b in zip(p, q)) for q in near), default=2.0 * eps)
        worst = max(worst, d)
    return worst


def _move_in_edit_mode(arm, offset):
    """Moves the first mesh's vertices by `offset` along x in Edit Mode (left in it)."""
    import bmesh
    from animkit_io.blender import mesh_read
    obj = mesh_read.mesh_objects(arm)[0]
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    bm = bmesh.from_edit_mesh(obj.data)
    for v in bm.verts:
        v.co.x += offset
    bmesh.update_edit_mesh(obj.data)
    return obj.get("animkit_mesh_name", obj.name)


def _import_model(rel):
    """(path, the armature) of a model of ../shared imported afresh; (path, None) when absent."""
    path = os.path.join(SHARED, rel)
    if not os.path.isfile(path):
        print("%s: absent (%s), skipped" % (rel, SHARED))
        return path, None
    reset()
    return path, import_file(path)


def check_model(rel, out_dir):
    from animkit_io.blender import export, export_model
    path, arm = _import_model(rel)
    if arm is None:
        return 0
    base = os.path.join(out_dir, os.path.basename(path))
    ref, ours = base + ".import.glb", base + ".export.glb"
    animkit("convert", path, ref)
    rig, mapping, _extra = export.rig_of(arm)
    _model, messages = export_model.write_model_glb(ours, arm, rig, mapping)
    check(not [m for m in messages if m[0] == "WARNING"], "%s: unedited export warns: %s" % (rel, messages))
    verts, images = compare_glb(rel, ours, ref)
    print("%s: the export's glTF has the import's %d vertices 1:1, extras, %d images" % (rel, verts, images))

    # 1b. one mesh moved: the glTF has it moved, the others as the file has them
    before = _positions(arm)
    size = max(max(abs(c) for p in ps for c in p) for ps in before.values()) or 1.0
    offset = 0.05 * size
    moved_name = _move_in_edit_mode(arm, offset)  # exported while still in Edit Mode
    moved_glb = base + ".moved.glb"
    export_model.write_model_glb(moved_glb, arm, rig, mapping)
    bpy.ops.object.mode_set(mode="OBJECT")
    doc, acc, _img = read_glb(moved_glb)
    for name, _extras, prims in _meshes(doc, acc):
        want = [(x + offset, y, z) for x, y, z in before[name]] if name == moved_name else before[name]
        got = prims[0][0]["POSITION"]
        check(len(got) == len(want), "%s: moved export: mesh %s has %d vertices, %d before" % (
            rel, name, len(got), len(want)))
        eps = 1e-6 * size if name == moved_name else 0.0
        check(_close(got, want, eps), "%s: moved export: mesh %s positions not %s" % (
            rel, name, "moved" if name == moved_name else "the file's"))
    _move_first(arm, 0.0, before[moved_name])
    export_model.write_model_glb(ours, arm, rig, mapping)
    compare_glb(rel + " (moved back)", ours, ref)  # Edit Mode's round trip changed nothing written
    print("%s: %s moved in Edit Mode: moved in the glTF, the other meshes the file's" % (rel, moved_name))

    # 2. unedited: what animkit writes from its own glTF of the file, and the file's bytes
    ext = os.path.splitext(path)[1]
    own, same = base + ".animkit" + ext, base + ".unedited" + ext
    try:
        animkit("convert", ref, own, "--template", path)
    except Failure as e:
        raise Failure("%s: animkit cannot write the model from its own glTF yet (the library's model writer): %s" % (
            rel, e))
    _export(rel, arm, same, "unedited export")
    with open(path, "rb") as f, open(same, "rb") as g, open(own, "rb") as h:
        file_bytes, written, animkit_bytes = f.read(), g.read(), h.read()
    check(written == animkit_bytes, "%s: the unedited export differs from animkit's convert of its own glTF" % rel)
    check(written == file_bytes, "%s: the unedited export (as animkit's convert of its own glTF) differs from the "
          "file: %d bytes, the file %d (the library's model writer)" % (rel, len(written), len(file_bytes)))
    print("%s: unedited export = the file's bytes" % rel)

    # 3. one mesh moved, exported, imported again
    _move_first(arm, offset)
    edited = base + ".moved" + ext
    _export(rel, arm, edited, "export of a moved mesh")
    reset()
    again = _positions(import_file(edited))
    check(list(again) == list(before), "%s: read back meshes %s, exported %s" % (rel, list(again), list(before)))
    eps = 1e-3 * size  # the format's quantisation
    for name, ps in before.items():
        if name != moved_name:
            check(again[name] == ps, "%s: mesh %s (not edited) read back changed" % (rel, name))
            continue
        # an edited mesh is encoded anew: its vertices may be laid out otherwise (KH2 splits
        # them by packet), so the point sets are compared, each point within eps of the other's
        want = [(x + offset, y, z) for x, y, z in ps]
        far = max(_farthest(again[name], want, eps), _farthest(want, again[name], eps))
        check(far <= eps, "%s: mesh %s read back %.3g off where it was moved to (%d vertices, %d written)" % (
            rel, name, far, len(again[name]), len(want)))
    print("%s: %s moved by %.3g, read back moved; %d other meshes unchanged" % (
        rel, moved_name, offset, len(before) - 1))
    return 3


def part_mesh():
    import test_mesh_export
    check(test_mesh_export.run(CLI), "the model export's pure modules failed (test_mesh_export.py)")
    out_dir = ARGS["out"] or tempfile.mkdtemp(prefix="animkit_mesh_")
    count, failed = 1, []
    import glob
    found = [os.path.relpath(p, SHARED) for pattern in MODELS[2:] for p in sorted(glob.glob(os.path.join(SHARED, pattern)))]
    for rel in list(MODELS[:2]) + found:
        if ARGS["only"] in rel:
            try:  # each model's steps, then every failure together
                count += check_model(rel, out_dir)
            except Failure as e:
                print("FAILED: %s" % e)
                failed.append(rel)
    for rel in NOTHING:
        if ARGS["only"] in rel:
            count += check_nothing_to_edit(rel, out_dir)
    count += check_new_mesh(out_dir)
    check(not failed, "%d models failed (above): %s" % (len(failed), ", ".join(failed)))
    return count


def check_nothing_to_edit(rel, out_dir):
    """A file with nothing a glTF holds: imported (an armature of no bone), exported with
    the file as template: the file's bytes; without a template: animkit's error."""
    path = os.path.join(SHARED, rel)
    if not os.path.isfile(path):
        print("%s: absent (%s), skipped" % (rel, SHARED))
        return 0
    reset()
    arm = import_file(path)
    check(len(arm.data.bones) == 0, "%s: imported %d bones" % (rel, len(arm.data.bones)))
    out = os.path.join(out_dir, "nothing_" + os.path.basename(path))
    _export(rel, arm, out, "unedited export")
    with open(path, "rb") as f, open(out, "rb") as g:
        check(f.read() == g.read(), "%s: the unedited export differs from the file" % rel)
    bpy.context.view_layer.objects.active = arm
    try:
        bpy.ops.export_scene.animkit(filepath=out + ".new" + os.path.splitext(path)[1], use_template=False)
        raise Failure("%s: exported without a template, with nothing to write" % rel)
    except RuntimeError as e:
        check("nothing to write" in str(e), "%s: without a template: %s" % (rel, str(e).strip()))
    print("%s: nothing to edit: the file's bytes (without a template: nothing to write)" % rel)
    return 2


def _new_object(arm, bones):
    """A mesh made in Blender on the armature: a quad (material with a new 2x2 image) and a
    triangle (another material); vertex 0 on five bones, vertex 4 on none."""
    me = bpy.data.meshes.new("added")
    me.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (2, 0, 0)], [], [(0, 1, 2, 3), (1, 4, 2)])
    me.uv_layers.new(name="UVMap")
    obj = bpy.data.objects.new("added", me)
    bpy.context.collection.objects.link(obj)
    obj.parent = arm
    obj.modifiers.new("Armature", "ARMATURE").object = arm
    for k, (bone, w) in enumerate(zip(bones, (0.1, 0.4, 0.05, 0.3, 0.15))):
        obj.vertex_groups.new(name=bone).add([0], w, "REPLACE")
    obj.vertex_groups[bones[0]].add([1, 2, 3], 1.0, "REPLACE")
    img = bpy.data.images.new("added_image", 2, 2, alpha=True)
    img.pixels.foreach_set([1.0, 0.0, 0.0, 1.0] * 2 + [0.0, 0.0, 1.0, 1.0] * 2)
    for name in ("added_textured", "added_plain"):
        mat = bpy.data.materials.new(name)
        mat.use_nodes = True
        me.materials.append(mat)
    nt = me.materials[0].node_tree
    tex = nt.nodes.new("ShaderNodeTexImage")
    tex.image = img
    bsdf = next(n for n in nt.nodes if n.type == "BSDF_PRINCIPLED")
    nt.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    me.polygons[1].material_index = 1
    return obj


def check_new_mesh(out_dir):
    """A mesh made in Blender, written with the imported ones (the glTF only: what animkit
    does with it is the library's): one glTF mesh per material, every weight as it is (a
    vertex on five bones: JOINTS_0 and JOINTS_1, not renormalised), a vertex without weight
    bound with a warning, the new image as a PNG, and animkit reads the glTF."""
    from animkit_io.io import import_data
    from animkit_io.blender import export, export_model
    _path, arm = _import_model("fixtures/kh2/P_EX100.mdlx")
    if arm is None:
        return 0
    bones = [b.name for b in arm.data.bones][1:6]
    _new_object(arm, bones)
    rig, mapping, _extra = export.rig_of(arm)
    glb = os.path.join(out_dir, "P_EX100.added.glb")
    model, messages = export_model.write_model_glb(glb, arm, rig, mapping)
    warnings = [t for level, t in messages if level == "WARNING"]
    check(not any("weights" in t and "more than" in t for t in warnings), "the weights were cut: %s" % warnings)
    check(any("1 vertices have no weight" in t for t in warnings), "no warning of the vertex without weight: %s" % warnings)
    doc, acc, img = read_glb(glb)
    names = [m["name"] for m in doc["meshes"]]
    check(names[3:] == ["added", "added_added_plain"], "new meshes %s" % names[3:])
    a, idx, mat = _meshes(doc, acc)[3][2][0]
    check(len(a["POSITION"]) == 4 and len(idx) == 6, "the quad: %d vertices, %d indices" % (len(a["POSITION"]), len(idx)))
    # all five, heaviest first (set 0 holds the 4 heaviest), not renormalised
    heaviest = [1, 3, 4, 0, 2]  # the bones' weights are 0.1, 0.4, 0.05, 0.3, 0.15
    got = [j for j in a["JOINTS_0"][0] + a["JOINTS_1"][0] if j]
    check(got == [bones[k] for k in heaviest], "vertex 0's joints %s, want %s (all five, heaviest first)" % (
        got, [bones[k] for k in heaviest]))
    weights = [w for w in a["WEIGHTS_0"][0] + a["WEIGHTS_1"][0] if w]
    want = list(struct.unpack("<5f", struct.pack("<5f", 0.4, 0.3, 0.15, 0.1, 0.05)))
    check(weights == want, "vertex 0's weights %s, want %s (as given)" % (weights, want))
    check(a["JOINTS_1"][1] == ("", "", "", ""), "vertex 1's second set %s, want none" % (a["JOINTS_1"][1],))
    texture = doc["materials"][mat]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
    png = img(doc["textures"][texture]["source"])
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (2, 2), "the new image is no 2x2 PNG")
    out = os.path.join(out_dir, "P_EX100.added.akd")
    animkit("import-data", glb, "-o", out)
    scene = import_data.read(out).scene
    check(len(scene.meshes) == 5, "animkit reads %d meshes of the glTF, 5 written" % len(scene.meshes))
    print("P_EX100.mdlx: a mesh made in Blender: 2 meshes (one per material), all 5 weights, the new 2x2 PNG; "
          "animkit reads the glTF")
    return 1
