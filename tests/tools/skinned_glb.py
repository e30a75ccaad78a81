# A small skinned, textured glb written here for the tests (pure Python): a three-joint
# chain (hips, spine, head) with one animation, and a column of vertices around it, each
# bound to one or two joints, with normals, UVs, colours and a material whose base colour
# texture is a 2x2 PNG. Every value is chosen here, so the expected deformation follows
# from this file's layout alone.
#
#   python3 skinned_glb.py OUT.glb [EXPECTED.json]
#
# EXPECTED.json: {"frames": [f...], "positions": {f: [[x, y, z] per vertex]}} (f "rest":
# the bind pose), for the tests that do not run Python themselves (tests/preview).

import json
import math
import struct
import sys
import zlib

FRAMES = 9
RATE = 30.0
# Rest: hips at (0, 1, 0), spine 1 above it, head 1 above the spine (all unrotated).
REST = [(0.0, 1.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 0.0)]
PARENT = [-1, 0, 1]


def png_2x2():
    rows = [(255, 0, 0, 255, 0, 255, 0, 255), (0, 0, 255, 255, 255, 255, 255, 128)]
    raw = b"".join(b"\x00" + bytes(r) for r in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def vertices():
    """A ring of 4 vertices at heights 1, 1.5, 2, 2.5, 3: (position, normal, uv, joints, weights)."""
    out = []
    for level, y in enumerate((1.0, 1.5, 2.0, 2.5, 3.0)):
        # level 0: hips; 1: hips/spine half and half; 2: spine; 3: spine 0.25 / head 0.75; 4: head
        joints, weights = [((0, 0, 0, 0), (1, 0, 0, 0)), ((0, 1, 0, 0), (0.5, 0.5, 0, 0)),
                           ((1, 0, 0, 0), (1, 0, 0, 0)), ((1, 2, 0, 0), (0.25, 0.75, 0, 0)),
                           ((2, 0, 0, 0), (1, 0, 0, 0))][level]
        for k in range(4):
            a = k * math.pi / 2
            n = (math.cos(a), 0.0, math.sin(a))
            out.append(((0.3 * n[0], y, 0.3 * n[2]), n, (k / 3.0, level / 4.0), joints, weights))
    return out


def triangles():
    out = []
    for level in range(4):
        for k in range(4):
            a, b = level * 4 + k, level * 4 + (k + 1) % 4
            out += [a, a + 4, b, b, a + 4, b + 4]
    return out


def animation():
    """Per frame: hips translation, spine and head rotations (about Z) as quaternions."""
    frames = []
    for f in range(FRAMES):
        t = f / (FRAMES - 1)
        spine, head = 0.6 * t, -0.9 * t
        frames.append(((0.2 * t, 1.0, 0.1 * t), (0.0, 0.0, math.sin(spine / 2), math.cos(spine / 2)),
                       (0.0, 0.0, math.sin(head / 2), math.cos(head / 2))))
    return frames


def write(path):
    blob = bytearray()
    views, accessors = [], []

    def add(fmt, rows, kind, component, target=None, minmax=False):
        while len(blob) % 4:
            blob.append(0)
        start = len(blob)
        for r in rows:
            blob.extend(struct.pack("<" + fmt, *(r if isinstance(r, (tuple, list)) else (r,))))
        view = {"buffer": 0, "byteOffset": start, "byteLength": len(blob) - start}
        if target:
            view["target"] = target
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": component, "count": len(rows), "type": kind}
        if minmax:
            acc["min"] = [min(r[k] for r in rows) for k in range(3)]
            acc["max"] = [max(r[k] for r in rows) for k in range(3)]
        accessors.append(acc)
        return len(accessors) - 1

    vs = vertices()
    attrs = {
        "POSITION": add("3f", [v[0] for v in vs], "VEC3", 5126, 34962, True),
        "NORMAL": add("3f", [v[1] for v in vs], "VEC3", 5126, 34962),
        "TEXCOORD_0": add("2f", [v[2] for v in vs], "VEC2", 5126, 34962),
        "COLOR_0": add("4f", [(1.0, 0.8 + 0.05 * (i % 4), 0.9, 1.0) for i in range(len(vs))], "VEC4", 5126, 34962),
        "JOINTS_0": add("4H", [v[3] for v in vs], "VEC4", 5123, 34962),
        "WEIGHTS_0": add("4f", [v[4] for v in vs], "VEC4", 5126, 34962),
    }
    indices = add("H", triangles(), "SCALAR", 5123, 34963)
    world = [1.0, 2.0, 3.0]  # rest heights of hips, spine, head
    ibm = add("16f", [(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1) for y in world], "MAT4", 5126)
    anim = animation()
    times = add("f", [f / RATE for f in range(FRAMES)], "SCALAR", 5126)
    accessors[times]["min"], accessors[times]["max"] = [0.0], [(FRAMES - 1) / RATE]
    hips_t = add("3f", [a[0] for a in anim], "VEC3", 5126)
    spine_r = add("4f", [a[1] for a in anim], "VEC4", 5126)
    head_r = add("4f", [a[2] for a in anim], "VEC4", 5126)
    png = png_2x2()
    while len(blob) % 4:
        blob.append(0)
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(png)})
    blob.extend(png)
    doc = {
        "asset": {"version": "2.0", "generator": "animkit tests (skinned_glb.py)"},
        "scene": 0,
        "scenes": [{"nodes": [0, 3]}],
        "nodes": [{"name": "hips", "translation": list(REST[0]), "children": [1]},
                  {"name": "spine", "translation": list(REST[1]), "children": [2]},
                  {"name": "head", "translation": list(REST[2])},
                  {"name": "body", "mesh": 0, "skin": 0}],
        "skins": [{"joints": [0, 1, 2], "inverseBindMatrices": ibm}],
        "meshes": [{"name": "body", "primitives": [{"attributes": attrs, "indices": indices, "material": 0}]}],
        "materials": [{"name": "skin_tex", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0},
                       "alphaMode": "MASK", "alphaCutoff": 0.4, "doubleSided": True}],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"magFilter": 9728, "minFilter": 9728}],
        "images": [{"name": "checker", "mimeType": "image/png", "bufferView": len(views) - 1}],
        "animations": [{"name": "bend", "samplers": [
            {"input": times, "output": hips_t, "interpolation": "LINEAR"},
            {"input": times, "output": spine_r, "interpolation": "LINEAR"},
            {"input": times, "output": head_r, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                         {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
                         {"sampler": 2, "target": {"node": 2, "path": "rotation"}}]}],
        "bufferViews": views,
        "accessors": accessors,
        "buffers": [{"byteLength": len(blob)}],
    }
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    while len(blob) % 4:
        blob.append(0)
    out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(blob))
    out += struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(blob), b"BIN\0") + bytes(blob)
    with open(path, "wb") as f:
        f.write(out)


# ---- the expected deformation, from the layout above (pure Python) ----------------------


def _rotate_z(q, p):
    """p rotated by a quaternion about Z (x, y, z, w with x = y = 0)."""
    angle = 2.0 * math.atan2(q[2], q[3])
    c, s = math.cos(angle), math.sin(angle)
    return (c * p[0] - s * p[1], s * p[0] + c * p[1], p[2])


def joint_transform(frame):
    """Per joint: a function mapping a point in the joint's space to model space at `frame`
    (frame None: the rest pose)."""
    hips_t, spine_r, head_r = animation()[frame] if frame is not None else (REST[0], (0, 0, 0, 1), (0, 0, 0, 1))
    rot = [(0, 0, 0, 1), spine_r, head_r]
    trans = [hips_t, REST[1], REST[2]]

    def chain(j):
        def apply(p):
            q = _rotate_z(rot[j], p)
            q = (q[0] + trans[j][0], q[1] + trans[j][1], q[2] + trans[j][2])
            return chain(PARENT[j])(q) if PARENT[j] >= 0 else q
        return apply

    return [chain(j) for j in range(3)]


def expected_positions(frame):
    """Every vertex at `frame` by linear blend skinning: sum of w_j * joint_j(bind_j^-1 p)."""
    joints = joint_transform(frame)
    rest_y = [1.0, 2.0, 3.0]
    out = []
    for p, _n, _uv, js, ws in vertices():
        acc = [0.0, 0.0, 0.0]
        for j, w in zip(js, ws):
            if w:
                q = joints[j]((p[0], p[1] - rest_y[j], p[2]))
                acc = [acc[k] + w * q[k] for k in range(3)]
        out.append(tuple(acc))
    return out


if __name__ == "__main__":
    write(sys.argv[1])
    if len(sys.argv) > 2:
        expected = {str(f): expected_positions(f) for f in range(FRAMES)}
        expected["rest"] = expected_positions(None)
        with open(sys.argv[2], "w") as f:
            json.dump({"frames": FRAMES, "rate": RATE, "positions": expected}, f)
