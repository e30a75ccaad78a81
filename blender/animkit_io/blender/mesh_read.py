# The Blender side of a model export: the armature's mesh objects read into plain lists
# (mesh_gltf.MeshData), their materials and images, with bulk calls. mesh_gltf.py turns them
# into glTF primitives, export_model.py hands them to animkit.
#
# A mesh is read as Blender holds it, without its modifiers: the Armature modifier's pose
# is not the bind pose, and other modifiers (a mirror, a subdivision) are not applied.
# Positions are the mesh's own (the import puts a skinned mesh in the armature's model
# space, a rigid one in its bone's), with the object's own transform applied when it was
# moved off its parent.

import array
import json
import os

import bpy
from mathutils import Vector

from ..io import mesh_gltf
from . import mesh_build


def mesh_objects(arm_obj):
    """The armature's mesh children: imported ones in the file's mesh order, then the others
    by name."""
    objs = [o for o in arm_obj.children if o.type == "MESH"]
    return sorted(objs, key=lambda o: (o.get("animkit_mesh_index", 1 << 30), o.name))


def _floats(collection, prop, width, count):
    out = array.array("f", bytes(4 * width * count))
    collection.foreach_get(prop, out)
    return [tuple(out[k:k + width]) for k in range(0, len(out), width)] if width > 1 else out


def _ints(collection, prop, count):
    out = array.array("i", bytes(4 * count))
    collection.foreach_get(prop, out)
    return out


def _is_identity(m):
    return all(abs(m[r][c] - (1.0 if r == c else 0.0)) <= 1e-7 for r in range(4) for c in range(4))


def _corner_normals(me, n_loops):
    """Blender's normal per corner (custom ones where set)."""
    if hasattr(me, "corner_normals"):  # Blender 4.1+
        return _floats(me.corner_normals, "vector", 3, n_loops)
    me.calc_normals_split()
    normals = _floats(me.loops, "normal", 3, n_loops)
    me.free_normals_split()
    return normals


def _corner_colors(me, corner_vertex):
    """The colour attribute's RGBA per corner (the import's "Color", else the active or
    first), or None."""
    attrs = getattr(me, "color_attributes", None)
    if not attrs or not len(attrs):
        return None
    attr = attrs.get("Color") or attrs.active_color or attrs[0]
    values = _floats(attr.data, "color", 4, len(attr.data))
    if attr.domain == "POINT":
        return [values[v] for v in corner_vertex]
    return values if attr.domain == "CORNER" else None


def _triangles(me, n_loops):
    """([(corner, corner, corner)], [material slot]): a triangle face as it is, others
    through Blender's triangulation."""
    n_polys = len(me.polygons)
    starts, totals = _ints(me.polygons, "loop_start", n_polys), _ints(me.polygons, "loop_total", n_polys)
    mats = _ints(me.polygons, "material_index", n_polys)
    tris, slots = [], []
    others = set()
    for p in range(n_polys):
        if totals[p] == 3:
            s = starts[p]
            tris.append((s, s + 1, s + 2))
            slots.append(mats[p])
        else:
            others.add(p)
    if others:
        me.calc_loop_triangles()
        n = len(me.loop_triangles)
        loops, polys = _ints(me.loop_triangles, "loops", 3 * n), _ints(me.loop_triangles, "polygon_index", n)
        for k in range(n):
            if polys[k] in others:
                tris.append(tuple(loops[3 * k:3 * k + 3]))
                slots.append(mats[polys[k]])
    return tris, slots


def _groups(obj, me, joint_of_bone):
    """Per vertex [(skin joint, weight)] in the vertex's order; the names of groups that
    are no skin joint."""
    joint_of_group = {g.index: joint_of_bone.get(g.name) for g in obj.vertex_groups}
    unknown = sorted(g.name for g in obj.vertex_groups if joint_of_group[g.index] is None)
    out = []
    for v in me.vertices:
        out.append([(joint_of_group[g.group], g.weight) for g in v.groups if joint_of_group.get(g.group) is not None])
    return out, unknown


def read_mesh(obj, skinned, joint_of_bone, matrix):
    """The mesh of `obj` as a mesh_gltf.MeshData (`matrix`: the object's transform off its
    parent, applied unless the identity); also the vertex groups that are no joint."""
    if obj.mode != "EDIT":
        return _read(obj, obj.data, skinned, joint_of_bone, matrix)
    # In Edit Mode the edits are Edit Mode's, and the mesh hides its UVs and attributes:
    # a copy with the edits written back is read.
    obj.update_from_editmode()
    me = obj.data.copy()
    try:
        return _read(obj, me, skinned, joint_of_bone, matrix)
    finally:
        bpy.data.meshes.remove(me)


def _read(obj, me, skinned, joint_of_bone, matrix):
    n_verts, n_loops = len(me.vertices), len(me.loops)
    positions = _floats(me.vertices, "co", 3, n_verts)
    corner_vertex = list(_ints(me.loops, "vertex_index", n_loops))
    tris, slots = _triangles(me, n_loops)
    data = mesh_gltf.MeshData(positions, corner_vertex, tris, slots)
    uv = me.uv_layers.active or (me.uv_layers[0] if len(me.uv_layers) else None)
    if uv is not None:
        data.uvs = _floats(uv.data, "uv", 2, n_loops)
    stored = me.attributes.get(mesh_build.NORMAL_ATTRIBUTE)
    imported = "animkit_mesh_index" in obj
    if stored is not None and stored.domain == "POINT" and len(stored.data) == n_verts:
        data.stored_normals = _floats(stored.data, "vector", 3, n_verts)
    stored = me.attributes.get(mesh_build.UV_ATTRIBUTE)
    if stored is not None and stored.domain == "POINT" and len(stored.data) == n_verts:
        data.stored_uvs = _floats(stored.data, "vector", 2, n_verts)
    if data.stored_normals is not None or not imported:  # normals where the file had them, and for new meshes
        data.normals = _corner_normals(me, n_loops)
    data.colors = _corner_colors(me, corner_vertex)
    kept = obj.get("animkit_triangles")
    if kept is not None:
        data.stored_triangles = list(kept)
    unknown = []
    if skinned:
        data.groups, unknown = _groups(obj, me, joint_of_bone)
    if not _is_identity(matrix):
        rot = matrix.to_3x3().inverted_safe().transposed()
        data.positions = [tuple(matrix @ _vec(p)) for p in data.positions]
        if data.normals is not None:
            data.normals = [tuple((rot @ _vec(n)).normalized()) for n in data.normals]
        data.stored_normals = None
    return data, unknown


def _vec(p):
    return Vector(p)


# ---------------------------------------------------------------------------------------
# Materials and images


def _upstream_image(node, seen):
    """The first image texture node feeding `node` (depth first)."""
    for socket in node.inputs:
        for link in socket.links:
            n = link.from_node
            if n.name in seen:
                continue
            seen.add(n.name)
            if n.type == "TEX_IMAGE" and n.image is not None:
                return n.image
            found = _upstream_image(n, seen)
            if found is not None:
                return found
    return None


def _base_color(nt, bsdf):
    """The colour factor: the Base Color's own value, else the RGB node the import made."""
    socket = bsdf.inputs["Base Color"]
    if not socket.is_linked:
        return tuple(socket.default_value)
    rgb = next((n for n in nt.nodes if n.type == "RGB"), None)
    return tuple(rgb.outputs[0].default_value) if rgb is not None else (1.0, 1.0, 1.0, 1.0)


def _alpha_mode(mat, bsdf):
    alpha = bsdf.inputs.get("Alpha") if bsdf is not None else None
    if alpha is None or (not alpha.is_linked and alpha.default_value >= 1.0):
        return "OPAQUE"
    method = getattr(mat, "blend_method", "")
    return "MASK" if method in ("CLIP", "HASHED") else "BLEND"


class Materials:
    """The glTF materials and images of the meshes written, each once, in first use order."""

    def __init__(self):
        self.materials, self.images = [], []
        self._material_of, self._image_of = {}, {}
        self.encoded = []  # images written from Blender's pixels (changed or not packed)
        self.missing = []  # images without pixels: their materials go without a texture

    def material(self, mat):
        """The glTF material index of a Blender material (None: none)."""
        if mat is None:
            return None
        if mat.name not in self._material_of:
            self._material_of[mat.name] = len(self.materials)
            self.materials.append(self._read(mat))
        return self._material_of[mat.name]

    def _read(self, mat):
        if mat.name.startswith("animkit_vertex_color"):  # the import's, for vertex colours only
            return {"name": "animkit_vertex_color", "double_sided": True}
        nt = mat.node_tree if mat.use_nodes else None
        bsdf = next((n for n in nt.nodes if n.type == "BSDF_PRINCIPLED"), None) if nt else None
        image = None
        if bsdf is not None:
            image = _upstream_image(bsdf, set())
        if image is None and nt is not None:
            image = next((n.image for n in nt.nodes if n.type == "TEX_IMAGE" and n.image is not None), None)
        extras = json.loads(mat.get("animkit_material_extras", "{}") or "{}")
        return {"name": mat.get("animkit_material_name", mat.name),
                "base_color": _base_color(nt, bsdf) if bsdf is not None else tuple(mat.diffuse_color),
                "image": self.image(image) if image is not None else None,
                "alpha_mode": _alpha_mode(mat, bsdf), "alpha_cutoff": getattr(mat, "alpha_threshold", 0.5),
                "double_sided": not mat.use_backface_culling, "extras": extras}

    def image(self, img):
        """The glTF image index of a Blender image (None: it has no pixels, e.g. its file
        is missing: listed in `missing`)."""
        if img.name not in self._image_of:
            data = _image_bytes(img)
            if data is None and not (img.size[0] and img.size[1] and img.has_data):
                self.missing.append(img.name)
                self._image_of[img.name] = None
                return None
            self._image_of[img.name] = len(self.images)
            if data is None:
                pixels = array.array("f", bytes(4 * len(img.pixels)))
                img.pixels.foreach_get(pixels)
                data = mesh_gltf.encode_png(img.size[0], img.size[1], pixels)
                self.encoded.append(img.name)
            self.images.append({"name": img.get("animkit_image_name", img.name), "mime": mesh_gltf.image_kind(data),
                                "data": data})
        return self._image_of[img.name]


def _image_bytes(img):
    """The image's own PNG or JPEG bytes while Blender has not changed it: packed, else its
    file; None when it must be written from its pixels."""
    if img.is_dirty:
        return None
    data = None
    if img.packed_file is not None:
        data = bytes(img.packed_file.data)
    else:
        path = bpy.path.abspath(img.filepath) if img.filepath else ""
        if path and os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
    return data if data and mesh_gltf.image_kind(data) else None
