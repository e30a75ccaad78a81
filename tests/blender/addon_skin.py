# --part skin: skinned, textured meshes. A glb written here (tests/tools/skinned_glb.py: three joints,
# a column of 20 vertices bound to one or two of them, a 2x2 PNG texture) is imported
# with the operator: the mesh object must be parented to the armature with an Armature
# modifier, one vertex group per joint holding the file's weights, its UVs, colours and a
# material whose Image Texture node shows the glb's PNG. Then at several frames the
# depsgraph is evaluated and the deformed vertices (the evaluated mesh, in the
# armature's space) are compared with the skinning computed from the layout alone and,
# where animkit can skin (`animkit sample FILE --skin --frame N`), with animkit's.
# Real models (../shared/fixtures, skipped when absent) are checked the same way when
# animkit reads meshes from them. Tolerance: 1e-4 x the model's size.

import json
import os
import subprocess

import sys

import bpy
from mathutils import Vector

from addon_common import ARGS, CLI, HERE, check, import_file, reset

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "tools")))
import skinned_glb  # noqa: E402

FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "fixtures"))
REAL = ["kh2/P_EX100.mdlx", "edf/airtortoise_missile.mdb"]
TOLERANCE = 1e-4  # x the model's size


def _skinned_objects(arm):
    return [o for o in bpy.data.objects if o.type == "MESH" and o.parent == arm and
            any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers)]


def deformed(obj, arm, frame):
    """The evaluated mesh's vertices at `frame`, in the armature's space."""
    bpy.context.scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    me = evaluated.to_mesh()
    to_arm = arm.matrix_world.inverted() @ evaluated.matrix_world
    out = [tuple(to_arm @ v.co) for v in me.vertices]
    evaluated.to_mesh_clear()
    return out


def size_of(points):
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    return max(1e-9, Vector([hi[k] - lo[k] for k in range(3)]).length)


def compare(label, got, want, size):
    check(len(got) == len(want), "%s: %d vertices, expected %d" % (label, len(got), len(want)))
    worst = max((Vector(g) - Vector(w)).length for g, w in zip(got, want)) if got else 0.0
    check(worst <= TOLERANCE * size, "%s: a vertex is off by %g (tolerance %g x size %g)" % (
        label, worst, TOLERANCE, size))
    return worst / size


def animkit_skin(path, frame):
    """`animkit sample PATH --skin --frame N`: per mesh its deformed positions, or None
    when this animkit cannot skin."""
    proc = subprocess.run([CLI, "sample", path, "--skin", "--frame", str(frame)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    if proc.returncode != 0:
        return None
    return skin_positions(json.loads(proc.stdout.decode()))


def skin_positions(doc):
    """The meshes' positions of the first clip's one frame in `sample --skin` output."""
    clips = doc.get("clips") or []
    frames = clips[0].get("skin") or clips[0].get("meshes") if clips else doc.get("meshes")
    if isinstance(frames, list) and frames and isinstance(frames[0], list) and frames[0] and \
            isinstance(frames[0][0], dict):
        frames = frames[0]
    out = []
    for mesh in frames or []:
        flat = mesh["positions"] if isinstance(mesh, dict) else mesh
        if flat and not isinstance(flat[0], (list, tuple)):
            flat = [tuple(flat[k:k + 3]) for k in range(0, len(flat), 3)]
        out.append([tuple(p) for p in flat])
    return out


def check_synthetic(out):
    path = os.path.join(out, "skinned.glb")
    skinned_glb.write(path)
    reset()
    arm = import_file(path, up_axis="Y_UP")
    objs = _skinned_objects(arm)
    check(len(objs) == 1, "skinned.glb: %d skinned mesh objects on the armature, expected 1" % len(objs))
    obj = objs[0]
    me = obj.data
    check(sorted(g.name for g in obj.vertex_groups) == ["head", "hips", "spine"],
          "skinned.glb: vertex groups %s" % [g.name for g in obj.vertex_groups])
    # vertex 4..7: hips 0.5, spine 0.5 (the layout's level 1)
    names = {g.index: g.name for g in obj.vertex_groups}
    weights = {names[e.group]: round(e.weight, 5) for e in me.vertices[5].groups}
    check(weights == {"hips": 0.5, "spine": 0.5}, "skinned.glb: vertex 5's weights %s" % weights)
    check(len(me.polygons) == 32 and me.uv_layers, "skinned.glb: %d faces, %d UV layers" % (
        len(me.polygons), len(me.uv_layers)))
    check(me.color_attributes.get("Color") is not None, "skinned.glb: no colour attribute")
    mat = me.materials[0]
    tex = [n for n in mat.node_tree.nodes if n.type == "TEX_IMAGE"]
    check(tex and tex[0].image is not None and tuple(tex[0].image.size) == (2, 2) and tex[0].image.packed_file,
          "skinned.glb: the material has no packed 2x2 image")
    px = list(tex[0].image.pixels[:])  # bottom row first: (0,0,1,1) (1,1,1,0.5) then (1,0,0,1) (0,1,0,1)
    check(abs(px[0] - 0.0) < 1e-3 and abs(px[2] - 1.0) < 1e-3 and abs(px[8] - 1.0) < 1e-3,
          "skinned.glb: the image's pixels %s" % px[:12])
    size = size_of(skinned_glb.expected_positions(None))
    worst = 0.0
    for frame in (0, 3, 5, 8):
        got = deformed(obj, arm, frame)
        worst = max(worst, compare("skinned.glb frame %d (layout)" % frame, got,
                                   skinned_glb.expected_positions(frame), size))
        ref = animkit_skin(path, frame)
        if ref is not None:
            worst = max(worst, compare("skinned.glb frame %d (animkit sample --skin)" % frame, got, ref[0], size))
    print("skinned.glb: 4 frames x %d vertices, worst %.2e x size" % (len(me.vertices), worst))
    return 1


def check_real(rel, out):
    path = os.path.join(FIXTURES, rel)
    if not os.path.isfile(path):
        print("%s: absent (%s), skipped" % (rel, FIXTURES))
        return 0
    reset()
    arm = import_file(path)
    objs = _skinned_objects(arm)
    if not objs:
        print("%s: animkit gives no skinned mesh yet, skipped" % rel)
        return 0
    ref = animkit_skin(path, 0)
    got = [deformed(o, arm, 0) for o in objs]
    check(ref is not None and len(ref) == len(got), "%s: %d mesh objects, animkit sample --skin %s" % (
        rel, len(got), None if ref is None else len(ref)))
    size = size_of([p for m in ref for p in m])
    worst = max(compare("%s mesh %d" % (rel, k), g, w, size) for k, (g, w) in enumerate(zip(got, ref)))
    print("%s: %d meshes, %d vertices, worst %.2e x size" % (rel, len(got), sum(len(g) for g in got), worst))
    return 1


def part_skin():
    out = ARGS["out"]
    count = check_synthetic(out)
    for rel in REAL:
        count += check_real(rel, out)
    return count
