# The character's meshes as glTF primitives, for a model export (export_model.py): Blender's
# per-corner values turned back into glTF's per-vertex ones, every weight of a vertex in
# sets of four (JOINTS_n / WEIGHTS_n), the nodes the meshes hang on, and PNG images.
# What a format keeps of them (how many influences, renormalised how) and whether a mesh is
# edited are the library's: its glTF reader reads every set, its writers decide. Pure
# Python (no bpy): mesh_read.py gives it the scene's meshes as plain lists.
#
# An imported mesh comes back 1:1: the import (mesh_build.py) made one Blender vertex per
# glTF vertex, in order, so a mesh with one material gives its vertices in Blender's order;
# a vertex whose corners disagree (a UV seam or sharp normal made in Blender) is split, the
# copies appended after the others. Its triangles are the imported ones (kept on the object
# with the duplicates and degenerate ones Blender drops) while Blender's faces are the same;
# its normals and UVs the file's own while Blender's are within NORMAL_MATCH / 1e-6 of them.

import math
import struct
import zlib

from . import rig as rigmod

SET = 4  # influences per glTF JOINTS_n / WEIGHTS_n set
# Blender stores custom normals compressed (about 1e-4 off what was set, 2.3e-3 at worst in
# the EDF model tested): a normal this close (radians, 0.6 degrees) to the one the file gave
# is that one.
NORMAL_MATCH = 1e-2
_UV_MATCH = 1e-6
_COLOR_MATCH = 1e-6


def influences(groups, sets=1):
    """A vertex's (joints, weights) from its [(joint, weight)] in order, zero weights left
    out, every one as it is (not renormalised), padded to `sets` sets of four (at least as
    many as it needs). A vertex of more than four has them heaviest first (stable), so that
    set 0 holds its 4 heaviest, as glTF readers that take one set expect."""
    kept = [(j, w) for j, w in groups if w > 0.0]
    if len(kept) > SET:
        kept.sort(key=lambda jw: -jw[1])
    pad = SET * max(sets, influence_sets(kept)) - len(kept)
    return [j for j, _ in kept] + [0] * pad, [w for _, w in kept] + [0.0] * pad


def influence_sets(groups):
    """The JOINTS_n / WEIGHTS_n sets a vertex's nonzero influences fill (at least one)."""
    return max(1, -(-sum(1 for _, w in groups if w > 0.0) // SET))


def _close(a, b, eps):
    return all(abs(x - y) <= eps for x, y in zip(a, b))


def _angle(a, b):
    la = math.sqrt(sum(x * x for x in a))
    lb = math.sqrt(sum(x * x for x in b))
    if la == 0.0 or lb == 0.0:
        return math.pi
    d = sum(x * y for x, y in zip(a, b)) / (la * lb)
    return math.acos(max(-1.0, min(1.0, d)))


def _unique_triangles(flat):
    """The triangles of a flat index list as Blender keeps them: degenerate ones and later
    ones over the same three vertices dropped."""
    seen, out = set(), []
    for k in range(0, len(flat) - 2, 3):
        t = tuple(flat[k:k + 3])
        if len(set(t)) == 3 and frozenset(t) not in seen:
            seen.add(frozenset(t))
            out.append(t)
    return out


class MeshData:
    """One Blender mesh as plain lists (mesh_read.py fills it). Per vertex: positions,
    groups ([(skin joint, weight)] or None: not skinned), stored_normals (the file's, or
    None), stored_uvs (the file's, or None). Per corner (loop): corner_vertex, uvs
    (Blender's, v up), normals, colors (each None when not written). triangles:
    [(corner, corner, corner)], slots: the material slot of each; stored_triangles: the
    imported triangles (flat vertex indices) or None."""

    def __init__(self, positions, corner_vertex, triangles, slots):
        self.positions = positions
        self.corner_vertex = corner_vertex
        self.triangles = triangles
        self.slots = slots
        self.uvs = None
        self.normals = None
        self.colors = None
        self.groups = None
        self.stored_normals = None
        self.stored_uvs = None  # the file's (glTF's, rows top-down), per vertex
        self.stored_triangles = None


class _Part:
    """The vertices of one primitive: out vertex k is Blender vertex source[k] with the
    corner values variant[k]."""

    def __init__(self):
        self.source = []
        self.variant = []
        self.index_of = {}  # Blender vertex -> [out indices of its variants]
        self.indices = []


def _corner_key(data, c):
    return (data.uvs[c] if data.uvs else None, data.normals[c] if data.normals else None,
            data.colors[c] if data.colors else None)


def _same_key(a, b):
    return ((a[0] is None or _close(a[0], b[0], _UV_MATCH)) and
            (a[1] is None or _angle(a[1], b[1]) <= NORMAL_MATCH) and
            (a[2] is None or _close(a[2], b[2], _COLOR_MATCH)))


def _vertex(part, data, v, c, split):
    """The out index for Blender vertex v seen through corner c (a new copy when its
    values differ from every copy's so far); `split` counts the copies made."""
    key = _corner_key(data, c) if c is not None else None
    found = part.index_of.get(v)
    if found is None:
        part.index_of[v] = [len(part.source)]
        part.source.append(v)
        part.variant.append(key)
        return len(part.source) - 1
    for k in found:
        if part.variant[k] is None:
            part.variant[k] = key
        if key is None or _same_key(part.variant[k], key):
            return k
    split[0] += 1
    found.append(len(part.source))
    part.source.append(v)
    part.variant.append(key)
    return len(part.source) - 1


def split_parts(data):
    """The primitives of a mesh: [(slot, _Part)], one per material slot used, and how many
    vertices were split. One slot: every vertex in Blender's order (loose ones too), then
    the copies; several: each slot's vertices in Blender's order (a vertex on two slots'
    faces is in both)."""
    used = sorted(set(data.slots)) or [0]
    split = [0]
    if data.normals is not None and data.stored_normals is not None:
        stored, cv = data.stored_normals, data.corner_vertex
        data.normals = [stored[cv[c]] if _angle(n, stored[cv[c]]) <= NORMAL_MATCH else n
                        for c, n in enumerate(data.normals)]
    parts = []
    for slot in used:
        part = _Part()
        if len(used) == 1:
            for v in range(len(data.positions)):
                _vertex(part, data, v, None, split)
        else:
            for v in sorted({data.corner_vertex[c] for t, s in zip(data.triangles, data.slots) if s == slot for c in t}):
                _vertex(part, data, v, None, split)
        for t, s in zip(data.triangles, data.slots):
            if s == slot:
                part.indices.extend(_vertex(part, data, data.corner_vertex[c], c, split) for c in t)
        parts.append((slot, part))
    if len(used) > 1 and data.triangles:
        loose = set(range(len(data.positions))) - set(data.corner_vertex)
        for v in sorted(loose):
            _vertex(parts[0][1], data, v, None, split)
    return parts, split[0]


def _restore_triangles(data, part, whole):
    """The imported triangles when Blender's faces are the ones they made (same vertices,
    nothing split), else Blender's."""
    stored = data.stored_triangles
    if not whole or stored is None or len(part.source) != len(data.positions) or max(stored, default=-1) >= len(part.source):
        return part.indices
    faces = [tuple(part.indices[k:k + 3]) for k in range(0, len(part.indices), 3)]
    return list(stored) if _unique_triangles(stored) == faces else part.indices


def primitive(data, part, whole, material):
    """One glTF primitive (gltf_write.py) of a _Part: per vertex its joints and weights in
    as many sets of four as its heaviest-influenced vertex needs."""
    prim = {"positions": [data.positions[v] for v in part.source], "material": material,
            "indices": _restore_triangles(data, part, whole)}
    keys = part.variant
    if data.uvs is not None:
        uvs = [(k[0][0], 1.0 - k[0][1]) if k else (0.0, 1.0) for k in keys]  # glTF's rows run top-down
        if data.stored_uvs is not None:  # the file's own where Blender's are still those
            stored = data.stored_uvs
            uvs = [stored[v] if _close(uv, stored[v], _UV_MATCH) else uv for v, uv in zip(part.source, uvs)]
        prim["uvs"] = uvs
    if data.normals is not None:
        stored = data.stored_normals
        out = []
        for v, k in zip(part.source, keys):
            n = k[1] if k else (stored[v] if stored else (0.0, 0.0, 1.0))
            if stored is not None and _angle(n, stored[v]) <= NORMAL_MATCH:
                n = stored[v]
            else:
                length = math.sqrt(sum(x * x for x in n)) or 1.0
                n = tuple(x / length for x in n)
            out.append(n)
        prim["normals"] = out
    if data.colors is not None:
        prim["colors"] = [k[2] if k else (1.0, 1.0, 1.0, 1.0) for k in keys]
    if data.groups is not None:
        sets = max((influence_sets(data.groups[v]) for v in part.source), default=1)
        joints, weights = [], []
        for v in part.source:
            j, w = influences(data.groups[v], sets)
            joints.append(j)
            weights.append(w)
        prim["joints"], prim["weights"] = joints, weights
    return prim


# ---------------------------------------------------------------------------------------
# Nodes


def mesh_nodes(rig, meshes):
    """The nodes written with the meshes: the rig's, less the skinned-mesh nodes no mesh
    uses, plus a node per mesh that needs one (a rigid mesh on a node already taken: a
    child of it). meshes: [{"skinned", "node" (rigid: the bone's node; skinned: the
    imported mesh's node or None)}] in order. Returns (nodes as the rig's dicts, the skin's
    joints, the root, {node: mesh index}) with indices remapped."""
    nodes = [dict(n, mesh=None) for n in rig["nodes"]]
    taken, assign = set(), {}
    for m, mesh in enumerate(meshes):
        node = mesh.get("node")
        if node is not None and node not in taken and 0 <= node < len(nodes):
            taken.add(node)
            assign[node] = m
            continue
        parent = node if node is not None and not mesh["skinned"] else -1
        nodes.append({"name": "%s mesh" % mesh["name"], "parent": parent, "t": [0.0, 0.0, 0.0],
                      "r": [0.0, 0.0, 0.0, 1.0], "s": [1.0, 1.0, 1.0], "kind": rigmod.KIND_OTHER,
                      "camera": None, "mesh": None, "bone": ""})
        taken.add(len(nodes) - 1)
        assign[len(nodes) - 1] = m
    keep = [i for i, n in enumerate(nodes) if n["kind"] != rigmod.KIND_SKINNED_MESH or i in assign]
    new = {old: k for k, old in enumerate(keep)}
    out = []
    for old in keep:
        n = dict(nodes[old])
        p = n["parent"]
        while p >= 0 and p not in new:  # a dropped node's children move up
            p = nodes[p]["parent"]
        n["parent"] = new[p] if p >= 0 else -1
        out.append(n)
    root = next((i for i, n in enumerate(out) if n["kind"] == rigmod.KIND_ROOT), None)
    return out, [new[j] for j in rig.get("joints", []) if j in new], root, {new[k]: m for k, m in assign.items()}


# ---------------------------------------------------------------------------------------
# PNG


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width, height, rgba, bottom_up=True):
    """An 8-bit RGBA PNG of `rgba` (width x height x 4 floats in 0..1, Blender's pixels:
    rows bottom-up unless `bottom_up` is False)."""
    row_len = width * 4
    scaled = bytes(max(0, min(255, int(round(x * 255.0)))) for x in rgba)
    rows = range(height - 1, -1, -1) if bottom_up else range(height)
    raw = b"".join(b"\0" + scaled[r * row_len:(r + 1) * row_len] for r in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")


def image_kind(data):
    """The MIME type of PNG or JPEG bytes, else ""."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    return ""
