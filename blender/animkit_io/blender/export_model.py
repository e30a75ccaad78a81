# Model export: the character (the armature's mesh objects with their materials and images)
# written to a model format (KH2 MDLX, EDF MDB, glTF) when the export plan's format writes
# the file as a model, not as an animation (docs/blender.md, "Exporting the character"):
#   animkit convert model.glb OUT --template SOURCE [--to F] [options]
# The glTF holds the stored skeleton (rig.py, as the animation export writes it) and one
# mesh per mesh object (mesh_read.py reads them, mesh_gltf.py makes the primitives), each
# with the extras the import kept (extras.animkit.metadata: the library matches a mesh to
# the template's part by them). A model file holds no clips: the actions are not written.

import json
import os
import tempfile

import bpy

from ..io import cli, export_run, gltf_write, mesh_gltf, rig as rigmod
from . import mesh_read


def _skinned(obj, joint_of_bone):
    return (any(m.type == "ARMATURE" for m in obj.modifiers) or
            any(g.name in joint_of_bone for g in obj.vertex_groups))


def _placement(obj, rig, mapping, joint_of_bone):
    """(skinned, the node it hangs on or None, the object's transform off its parent)."""
    node_of_bone = {b: n for n, b in mapping.items()}
    if obj.parent_type == "BONE" and obj.parent_bone in node_of_bone:
        return False, node_of_bone[obj.parent_bone], obj.matrix_basis
    matrix = obj.matrix_parent_inverse @ obj.matrix_basis
    if not rig.get("joints") or not _skinned(obj, joint_of_bone):
        return False, None, matrix
    index = obj.get("animkit_mesh_index")
    node = next((i for i, n in enumerate(rig["nodes"]) if n["kind"] == rigmod.KIND_SKINNED_MESH and
                 index is not None and n.get("mesh") == index), None)
    return True, node, matrix


def _unweighted(prim):
    """Binds a skinned primitive's vertices without weight to skin joint 0 (glTF's weights
    sum to 1); their count."""
    count = 0
    for k, w in enumerate(prim.get("weights") or ()):
        if not any(w):
            prim["joints"][k] = [0] * len(w)
            prim["weights"][k] = [1.0] + [0.0] * (len(w) - 1)
            count += 1
    return count


def _meshes_of(obj, rig, mapping, joint_of_bone, materials, messages):
    """The glTF meshes of one object: one per material slot its faces use (the first keeps
    the object's name and extras)."""
    skinned, node, matrix = _placement(obj, rig, mapping, joint_of_bone)
    data, unknown = mesh_read.read_mesh(obj, skinned, joint_of_bone, matrix)
    name = obj.get("animkit_mesh_name", obj.name)
    extras = json.loads(obj.get("animkit_mesh_extras", "{}") or "{}")
    if unknown:
        messages.append(("WARNING", "%s: vertex groups that name no bone of the skeleton are not written: %s" % (
            name, ", ".join(unknown[:10]))))
    parts, split = mesh_gltf.split_parts(data)
    if split:
        messages.append(("INFO", "%s: %d vertices split where their faces' UVs, normals or colours differ" % (
            name, split)))
    out = []
    for k, (slot, part) in enumerate(parts):
        mat = obj.material_slots[slot].material if slot < len(obj.material_slots) else None
        prim = mesh_gltf.primitive(data, part, len(parts) == 1, materials.material(mat))
        bare = _unweighted(prim) if skinned else 0
        if bare:
            joint = rig["nodes"][rig["joints"][0]]["name"]
            messages.append(("WARNING", "%s: %d vertices have no weight: bound to %s" % (name, bare, joint)))
        mesh = {"name": name if k == 0 else "%s_%s" % (name, mat.name if mat else slot), "skinned": skinned,
                "node": node if k == 0 or not skinned else None, "extras": extras if k == 0 else {}, "primitives": [prim]}
        out.append(mesh)
    if len(out) > 1:
        messages.append(("INFO", "%s: one mesh per material (%d): the format's parts hold one material each" % (
            name, len(out))))
    return out


def read_model(arm_obj, rig, mapping):
    """The model dict gltf_write.document takes, and the messages [(level, text)]."""
    joints = rig.get("joints", [])
    joint_of_bone = {b: joints.index(n) for n, b in mapping.items() if n in joints}
    materials = mesh_read.Materials()
    for name in arm_obj.get("animkit_materials", []):  # the file's, in its order (used or not)
        materials.material(bpy.data.materials.get(name))
    messages = []
    meshes = []
    for obj in mesh_read.mesh_objects(arm_obj):
        meshes += _meshes_of(obj, rig, mapping, joint_of_bone, materials, messages)
    nodes, skin_joints, root, node_mesh = mesh_gltf.mesh_nodes(rig, meshes)
    if materials.missing:
        messages.append(("WARNING", "images without pixels (their materials are written without a texture): " +
                         ", ".join(materials.missing)))
    if materials.encoded:
        messages.append(("INFO", "images written from Blender's pixels (changed or not packed): " +
                         ", ".join(materials.encoded)))
    model = {"nodes": nodes, "joints": skin_joints, "root": root, "node_mesh": node_mesh,
             "skinned": {k for k, m in enumerate(meshes) if m["skinned"]}, "meshes": meshes,
             "materials": materials.materials, "images": materials.images}
    return model, messages


def write_model_glb(path, arm_obj, rig, mapping):
    """Writes the character as the glTF animkit converts; returns (model, messages)."""
    model, messages = read_model(arm_obj, rig, mapping)
    if not model["meshes"]:
        raise ValueError("%s has no mesh object to write" % arm_obj.name)
    gltf_write.write_glb(path, rig, [], model)
    return model, messages


def summary(model, filepath):
    verts = sum(len(p["positions"]) for m in model["meshes"] for p in m["primitives"])
    return ("INFO", "%s: %d meshes (%d vertices), %d materials, %d images written; a model file holds no clips "
            "(the actions are not written)" % (os.path.basename(filepath), len(model["meshes"]), verts,
                                               len(model["materials"]), len(model["images"])))


def export(arm_obj, filepath, exe, plan, rig, mapping, args, result):
    """Writes the character to `filepath` (plan: export_plan.Plan; args: the options);
    messages and the command into `result` (export_run.ExportResult)."""
    with tempfile.TemporaryDirectory(prefix="animkit_export_") as tmp:
        glb = os.path.join(tmp, "model.glb")
        model, messages = write_model_glb(glb, arm_obj, rig, mapping)
        result.messages += messages
        export_run.keep_copy(glb)
        template = export_run.readable_template(plan.template, filepath, tmp)
        to = plan.format if plan.to else ""
        result.command = ["convert", glb, filepath] + (["--template", template] if template else []) + (
            ["--to", to] if to else []) + list(args)
        warnings = cli.convert(exe, glb, filepath, "", args, template, to)
    result.messages += [("WARNING", w) for w in warnings]
    result.messages.append(summary(model, filepath))
