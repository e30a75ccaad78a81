# --part skin: skinned, textured meshes. A glb written here (tests/tools/skinned_glb.py:
# three joints, a column of 20 vertices bound to one or two of them, a 2x2 PNG texture)
# is imported with the operator: the mesh object must be parented to the armature with an
# Armature modifier, one vertex group per joint holding the file's weights, its UVs,
# colours and a material whose Image Texture node shows the glb's PNG; the mesh node is no
# bone. Then at several frames the depsgraph is evaluated and the deformed vertices (the
# evaluated mesh, in the armature's space) are compared with the skinning computed from
# the layout alone and with `animkit sample FILE --skin`. The
# real models (../shared/fixtures, skipped when absent or while animkit reads no mesh
# from them): alone, their bind pose against the glb's positions; Sora's model under a
# motion, frames against `animkit sample --skin` (its 6 vertices of more than 4 bones in
# that many vertex groups, skinned with all of them). Tolerance: 1e-4 x the model's size.

import json
import os
import subprocess

import sys

import bpy
from mathutils import Vector

from addon_common import ARGS, CLI, HERE, check, import_file, read_gltf, reset

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "tools")))
import skinned_glb  # noqa: E402

FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "fixtures"))
REAL = [  # file, its model (none: the file alone, in its bind pose), frames
    ("kh2/P_EX100.mdlx", "", []),
    ("edf/airtortoise_missile.mdb", "", []),
    ("kh2/interpolated.motion", "kh2/P_EX100.mdlx", [0, 40, 90, 150]),
]
TOLERANCE = 1e-4  # x the model's size
OVER_FOUR = {"kh2/P_EX100.mdlx": 6}  # vertices of more than 4 bones (the game blends them all)


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


def animkit_skin(path, skeleton=""):
    """`animkit sample PATH --skin`: {clip name: (meshes, mesh_frames)}, meshes
    [{name, skinning, vertices}], mesh_frames[f][m] [(x, y, z)]; None when this animkit
    cannot skin."""
    proc = subprocess.run([CLI, "sample", path, "--skin"] + (["--skeleton", skeleton] if skeleton else []),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        return None
    out = {}
    for clip in json.loads(proc.stdout.decode()).get("clips", []):
        if "mesh_frames" not in clip:
            return None
        frames = [[[tuple(m[k:k + 3]) for k in range(0, len(m), 3)] for m in frame] for frame in clip["mesh_frames"]]
        out[clip["name"]] = (clip["meshes"], frames)
    return out


def pair_meshes(objs, meshes):
    """The index in `meshes` (sample --skin's list) of each skinned object, matched by
    name in order (glTF leaves out meshes without faces or lines)."""
    out, k = [], 0
    for o in objs:
        name = o.get("animkit_mesh_name", o.data.name)
        while k < len(meshes) and not (meshes[k]["name"] == name and meshes[k]["skinning"] == "skinned"):
            k += 1
        check(k < len(meshes), "mesh object %s: no skinned mesh of that name in animkit sample --skin" % name)
        out.append(k)
        k += 1
    return out


def glb_positions(path, skeleton=""):
    """Per skinned mesh node of the glb `animkit convert` writes, in node order: its
    positions (the bind pose), by the test's own glTF reader."""
    glb = os.path.join(ARGS["out"], os.path.basename(path) + ".bind.glb")
    subprocess.run([CLI, "convert", path, glb] + (["--skeleton", skeleton] if skeleton else []), check=True,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    doc = read_gltf(glb)
    out = []
    for n in doc["nodes"]:
        if "mesh" in n and "skin" in n:
            prims = doc["meshes"][n["mesh"]]["primitives"]
            out.append(doc["_accessor"](prims[0]["attributes"]["POSITION"]))
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
    check(sorted(b.name for b in arm.data.bones) == ["head", "hips", "spine"],
          "skinned.glb: bones %s (the mesh node is no bone)" % [b.name for b in arm.data.bones])
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
    ref = animkit_skin(path)
    check(ref is not None and "bend" in ref, "skinned.glb: animkit sample --skin gave no mesh frames")
    for frame in (0, 3, 5, 8):
        got = deformed(obj, arm, frame)
        worst = max(worst, compare("skinned.glb frame %d (layout)" % frame, got,
                                   skinned_glb.expected_positions(frame), size))
        worst = max(worst, compare("skinned.glb frame %d (animkit sample --skin)" % frame, got,
                                   ref["bend"][1][frame][0], size))
    print("skinned.glb: 4 frames x %d vertices, worst %.2e x size" % (len(me.vertices), worst))
    return 1


def check_real(rel, skeleton_rel, frames):
    """A real model alone (its bind pose against the glb's positions) or an animation with
    its model (`frames` against `animkit sample --skin`)."""
    path = os.path.join(FIXTURES, rel)
    skeleton = os.path.join(FIXTURES, skeleton_rel) if skeleton_rel else ""
    if not os.path.isfile(path) or (skeleton and not os.path.isfile(skeleton)):
        print("%s: absent (%s), skipped" % (rel, FIXTURES))
        return 0
    reset()
    arm = import_file(path, skeleton_path=skeleton) if skeleton else import_file(path)
    objs = _skinned_objects(arm)
    if not objs:
        print("%s: animkit gives no skinned mesh yet, skipped" % rel)
        return 0
    # Every influence is a vertex group: Sora's vertices of more than 4 bones have all theirs.
    over = sum(1 for o in objs for v in o.data.vertices if len([g for g in v.groups if g.weight > 0.0]) > 4)
    want_over = OVER_FOUR.get(skeleton_rel or rel, 0)
    check(over == want_over, "%s: %d vertices in more than 4 vertex groups, the model has %d" % (rel, over, want_over))
    worst, count = 0.0, 0
    if not frames:
        want = glb_positions(path, skeleton)
        check(len(want) == len(objs), "%s: %d mesh objects, the glb has %d skinned meshes" % (rel, len(objs), len(want)))
        size = size_of([p for m in want for p in m])
        for k, (o, w) in enumerate(zip(objs, want)):
            worst = max(worst, compare("%s mesh %d bind pose" % (rel, k), deformed(o, arm, 0), w, size))
            count += len(w)
    else:
        ref = animkit_skin(path, skeleton)
        check(ref, "%s: animkit sample --skin failed" % rel)
        meshes, mesh_frames = next(iter(ref.values()))
        pairs = pair_meshes(objs, meshes)
        size = size_of([p for m in mesh_frames[0] for p in m])
        for f in frames:
            f = min(f, len(mesh_frames) - 1)
            for o, m in zip(objs, pairs):
                worst = max(worst, compare("%s frame %d mesh %s" % (rel, f, o.name), deformed(o, arm, f),
                                           mesh_frames[f][m], size))
        count = sum(len(o.data.vertices) for o in objs)
    print("%s: %d mesh objects, %d vertices, frames %s, worst %.2e x size" % (
        rel, len(objs), count, frames or "bind", worst))
    return 1


REAL_KH2 = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "real", "kh2"))


def check_shadow():
    """A real MDLX with a shadow model (../shared/real/kh2/W_EX010_M0.mdlx, skipped when
    absent): its shadow mesh (extras.animkit.metadata.hidden in the glb) is imported hidden
    in the viewport and in renders, the character's mesh shown."""
    path = os.path.join(REAL_KH2, "W_EX010_M0.mdlx")
    if not os.path.isfile(path):
        print("W_EX010_M0.mdlx: absent (%s), skipped" % REAL_KH2)
        return 0
    reset()
    arm = import_file(path)
    objs = _skinned_objects(arm)
    shadow = [o for o in objs if "shadow" in o.get("animkit_mesh_name", "")]
    shown = [o for o in objs if o not in shadow]
    check(len(shadow) == 1 and len(shown) == 1, "W_EX010_M0.mdlx: %d shadow and %d other mesh objects, expected 1 and 1"
          % (len(shadow), len(shown)))
    check(shadow[0].hide_get() and shadow[0].hide_render and shadow[0].get("animkit_hidden"),
          "W_EX010_M0.mdlx: the shadow mesh is not hidden")
    check(not shown[0].hide_get() and not shown[0].hide_render, "W_EX010_M0.mdlx: the character's mesh is hidden")
    print("W_EX010_M0.mdlx: shadow mesh %s imported hidden (%d vertices)" % (shadow[0].name, len(shadow[0].data.vertices)))
    return 1


def part_skin():
    count = check_synthetic(ARGS["out"])
    for rel, skeleton, frames in REAL:
        count += check_real(rel, skeleton, frames)
    count += check_shadow()
    return count
