# The Blender side of meshes: the bpy calls that turn the scene's meshes (import_data.py:
# the library's view of the glTF) into mesh objects, and their materials.
#
# A skinned mesh (a glTF node with a mesh and a skin) becomes one mesh object parented to
# the armature object, with a vertex group per skin joint (named by the joint's bone,
# holding its WEIGHTS_0) and an Armature modifier. Blender moves a vertex by
# pose_i * rest_i^-1 and glTF by joint_i * inverseBind_i: the same, as animkit's glTF
# binds every skinned mesh at the skeleton's rest pose (its import moves a glTF bound in
# another pose to its rest), so the vertices are taken as they are.
# A rigid mesh (a mesh node without a skin) is built the same way without the skin and
# rides its node's bone. Primitives over the same vertex attributes (a mesh's triangles
# and lines) share their vertices, so the object has the glTF mesh's vertices in order.

import json
import os
import tempfile

import bpy
from mathutils import Matrix, Vector

from ..io import gltf_mesh

_VERTEX_COLOR = "Color"
# The file's normals as read (float32, per vertex): export writes them back exactly where
# Blender's (stored compressed) are still within NORMAL_MATCH of them (mesh_gltf.py).
NORMAL_ATTRIBUTE = "animkit_normal"
# The file's UVs as read (glTF's, rows top-down): Blender's are 1 - v, which float32 does not
# always turn back exactly.
UV_ATTRIBUTE = "animkit_uv"


def vertex_color_material():
    mat = bpy.data.materials.new("animkit_vertex_color")
    mat.use_nodes = True
    nt = mat.node_tree
    bsdf = next((nd for nd in nt.nodes if nd.type == "BSDF_PRINCIPLED"), None)
    attr = nt.nodes.new("ShaderNodeVertexColor")
    attr.layer_name = _VERTEX_COLOR
    attr.location = (-300, 300)
    if bsdf is not None:
        nt.links.new(attr.outputs["Color"], bsdf.inputs["Base Color"])
    mat.use_backface_culling = False
    return mat


def _set_colors(me, colors):
    attr = me.color_attributes.new(_VERTEX_COLOR, "FLOAT_COLOR", "POINT")
    attr.data.foreach_set("color", [c for col in colors for c in col])


class MaterialCache:
    """Blender materials per (glTF material, whether the mesh has vertex colours), and
    Blender images per glTF image, made once per import."""

    def __init__(self, scene):
        self.gm = scene  # import_data.Scene: materials, images
        self.materials = {}
        self.images = {}

    def image(self, index):
        if index in self.images:
            return self.images[index]
        img = None
        src = self.gm.images[index] if 0 <= index < len(self.gm.images) else None
        if src is not None and src.data:
            ext = ".png" if "png" in src.mime else ".jpg"
            with tempfile.TemporaryDirectory(prefix="animkit_image_") as tmp:
                path = os.path.join(tmp, "image" + ext)
                with open(path, "wb") as f:
                    f.write(src.data)
                img = bpy.data.images.load(path)
                img.pack()
            img.name = src.name
            img["animkit_image_name"] = src.name  # Blender renames a name taken
        self.images[index] = img
        return img

    def material(self, index, colored):
        key = (index, colored)
        if key not in self.materials:
            if index is None or not 0 <= index < len(self.gm.materials):
                self.materials[key] = vertex_color_material() if colored else None
            else:
                self.materials[key] = _build_material(self.gm.materials[index], self.image(self.gm.materials[index].image)
                                                      if self.gm.materials[index].image is not None else None, colored)
        return self.materials[key]

    def every_material(self):
        """The Blender names of the file's materials in its order, each made (one no mesh
        uses kept with a fake user): export writes them all back, in that order."""
        names = []
        for index in range(len(self.gm.materials)):
            made = [m for (k, _c), m in self.materials.items() if k == index and m is not None]
            if not made:
                made = [self.material(index, False)]
                made[0].use_fake_user = True
            names.append(made[0].name)
        return names


def _multiply(nt, a, b, location):
    node = nt.nodes.new("ShaderNodeVectorMath")
    node.operation = "MULTIPLY"
    node.location = location
    nt.links.new(a, node.inputs[0])
    nt.links.new(b, node.inputs[1])
    return node.outputs[0]


def _build_material(src, image, colored):
    """Principled BSDF: base colour = factor x texture x vertex colour (glTF's rule), the
    texture's alpha x the factor's for MASK (alpha clip) and BLEND."""
    mat = bpy.data.materials.new(src.name)
    mat.use_nodes = True
    nt = mat.node_tree
    bsdf = next((nd for nd in nt.nodes if nd.type == "BSDF_PRINCIPLED"), None)
    mat["animkit_material"] = src.index
    mat["animkit_material_name"] = src.name
    if src.extras:
        mat["animkit_material_extras"] = json.dumps(src.extras, separators=(",", ":"))
    mat.use_backface_culling = not src.double_sided
    if bsdf is None:
        return mat
    color, alpha = None, None
    if image is not None:
        tex = nt.nodes.new("ShaderNodeTexImage")
        tex.image = image
        tex.location = (-700, 300)
        color, alpha = tex.outputs["Color"], tex.outputs["Alpha"]
    if colored:
        attr = nt.nodes.new("ShaderNodeVertexColor")
        attr.layer_name = _VERTEX_COLOR
        attr.location = (-700, 0)
        color = attr.outputs["Color"] if color is None else _multiply(nt, color, attr.outputs["Color"], (-450, 200))
    factor = src.base_color
    if color is None:
        bsdf.inputs["Base Color"].default_value = factor
    else:
        if tuple(factor[:3]) != (1.0, 1.0, 1.0):
            rgb = nt.nodes.new("ShaderNodeRGB")
            rgb.outputs[0].default_value = factor
            rgb.location = (-450, -100)
            color = _multiply(nt, color, rgb.outputs[0], (-250, 200))
        nt.links.new(color, bsdf.inputs["Base Color"])
    if src.alpha_mode != "OPAQUE":
        if alpha is not None and factor[3] == 1.0:
            nt.links.new(alpha, bsdf.inputs["Alpha"])
        elif alpha is not None:
            scale = nt.nodes.new("ShaderNodeMath")
            scale.operation = "MULTIPLY"
            scale.inputs[1].default_value = factor[3]
            nt.links.new(alpha, scale.inputs[0])
            nt.links.new(scale.outputs[0], bsdf.inputs["Alpha"])
        else:
            bsdf.inputs["Alpha"].default_value = factor[3]
        _alpha_mode(mat, src)
    return mat


def _alpha_mode(mat, src):
    """MASK: alpha clip at the cutoff; BLEND: alpha blend (Blender 3 and 4 name these differently)."""
    if hasattr(mat, "blend_method"):
        try:
            mat.blend_method = "CLIP" if src.alpha_mode == "MASK" else "BLEND"
        except TypeError:  # a Blender without CLIP (4.2+): dithered is the nearest
            mat.blend_method = "HASHED" if src.alpha_mode == "MASK" else "BLEND"
    if hasattr(mat, "alpha_threshold"):
        mat.alpha_threshold = src.alpha_cutoff
    if hasattr(mat, "surface_render_method"):
        mat.surface_render_method = "DITHERED" if src.alpha_mode == "MASK" else "BLENDED"


def _faces(prim, base, slot, faces, face_material, seen):
    """Appends a primitive's triangles (a face over the same vertices only once)."""
    for t in gltf_mesh.triangles(prim.mode, prim.indices):
        tri = tuple(base + i for i in t)
        if frozenset(tri) not in seen:
            seen.add(frozenset(tri))
            faces.append(tri)
            face_material.append(slot)


def _keep_source(obj, me, source, prims, faces, normals, uvs):
    """What export needs to write an unedited mesh back as it was read: the glTF mesh's
    index and extras, its triangles when Blender keeps fewer (duplicates, degenerate ones),
    its normals and UVs exactly (Blender stores custom normals compressed, UVs flipped)."""
    if source is not None:
        obj["animkit_mesh_index"] = source.index
        if source.extras:
            obj["animkit_mesh_extras"] = json.dumps(source.extras, separators=(",", ":"))
    read, base, bases = [], 0, {}
    for prim in prims:
        if prim.vertex_key not in bases:
            bases[prim.vertex_key] = base
            base += len(prim.positions)
        read += [bases[prim.vertex_key] + i for t in gltf_mesh.triangles(prim.mode, prim.indices, True) for i in t]
    if read != [i for t in faces for i in t]:
        obj["animkit_triangles"] = read
    if normals:
        attr = me.attributes.new(NORMAL_ATTRIBUTE, "FLOAT_VECTOR", "POINT")
        attr.data.foreach_set("vector", [c for n in normals for c in n])
    if uvs:
        attr = me.attributes.new(UV_ATTRIBUTE, "FLOAT2", "POINT")
        attr.data.foreach_set("vector", [c for u, v in uvs for c in (u, 1.0 - v)])  # exact: 1 - v was, in double


def build_gltf_mesh(name, prims, skinned, bone_of_node, arm_obj, cache, source=None):
    """One mesh object for a glTF mesh (`source`: the import_data.Mesh): vertices,
    triangles (material slots per primitive), UVs, vertex colours, custom normals,
    materials; skinned also vertex groups and the Armature modifier, parented to `arm_obj`
    (else the caller puts it on its bone)."""
    verts, normals, uvs, colors, faces, face_material, groups, edges = [], [], [], [], [], [], [], []
    slots, seen, bases = [], set(), {}
    any_uv = any(p.uvs for p in prims)
    any_color = any(p.colors for p in prims)
    any_normal = all(p.normals for p in prims)
    for prim in prims:
        key = prim.material
        if key not in slots:
            slots.append(key)
        if prim.vertex_key in bases:  # a second primitive over the same vertices (lines)
            base = bases[prim.vertex_key]
            edges.extend((base + a, base + b) for a, b in gltf_mesh.lines(prim.mode, prim.indices))
            _faces(prim, base, slots.index(key), faces, face_material, seen)
            continue
        base = bases[prim.vertex_key] = len(verts)
        edges.extend((base + a, base + b) for a, b in gltf_mesh.lines(prim.mode, prim.indices))
        for v, p in enumerate(prim.positions):
            verts.append(tuple(p))
            if any_normal:
                normals.append(prim.normals[v])
            uvs.append(prim.uvs[v] if prim.uvs else (0.0, 0.0))
            colors.append(prim.colors[v] if prim.colors else (1.0, 1.0, 1.0, 1.0))
            groups.append(gltf_mesh.influences(prim, v) if skinned else [])
        _faces(prim, base, slots.index(key), faces, face_material, seen)
    me = bpy.data.meshes.new(name)
    me.from_pydata(verts, edges, faces)
    if faces:
        me.polygons.foreach_set("material_index", face_material)
    me.validate(clean_customdata=False)
    if any_uv and me.loops:
        layer = me.uv_layers.new(name="UVMap")
        loop_vertex = [0] * len(me.loops)
        me.loops.foreach_get("vertex_index", loop_vertex)
        layer.data.foreach_set("uv", [c for v in loop_vertex for c in uvs[v]])
    if any_color:
        _set_colors(me, colors)
    for key in slots:
        me.materials.append(cache.material(key, any_color))
    if any_normal and verts:
        if hasattr(me, "use_auto_smooth"):  # Blender < 4.1 uses custom normals only with it
            me.use_auto_smooth = True
        me.normals_split_custom_set_from_vertices([tuple(Vector(n).normalized()) for n in normals])
    me.update()
    obj = bpy.data.objects.new(name, me)
    obj["animkit_mesh_name"] = name  # the glTF mesh's (Blender renames a name taken)
    _keep_source(obj, me, source, prims, faces, normals, uvs if any_uv else None)
    if not skinned:
        return obj
    vgroups = {}
    for v, inf in enumerate(groups):
        for k, w in inf:
            bone = bone_of_node.get(k, "")
            if not bone:
                continue
            if bone not in vgroups:
                vgroups[bone] = obj.vertex_groups.new(name=bone)
            vgroups[bone].add([v], w, "ADD")
    obj.parent = arm_obj
    obj.matrix_parent_inverse = Matrix.Identity(4)
    obj.matrix_basis = Matrix.Identity(4)
    mod = obj.modifiers.new("Armature", "ARMATURE")
    mod.object = arm_obj
    mod.use_vertex_groups = True
    mod.use_bone_envelopes = False
    return obj
