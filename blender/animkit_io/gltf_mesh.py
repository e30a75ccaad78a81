# The meshes, skins, materials and images of the glTF animkit writes for a file, read from
# the glb `animkit import-data` appends to the import file (import_data.py): what a
# skinned, textured character needs beyond the nodes. Pure Python (struct, json): no bpy.
#
# Per mesh, per primitive: mode, positions, indices, and where the glTF has them normals,
# uvs (TEXCOORD_0, V flipped to Blender's bottom-up rows), colours (RGBA), joints and
# weights (4 per vertex, JOINTS_0 / WEIGHTS_0) and the material index. Per node: its skin.
# Per skin: its joint nodes and inverse bind matrices. Per material: name, base colour,
# the image of its base colour texture, alpha mode and cutoff, double sided. Per image:
# name, MIME type and bytes (PNG as animkit writes them).

import base64
import json
import os
import struct


class GltfMeshError(Exception):
    pass


_COMPONENTS = {5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2), 5123: ("H", 2), 5125: ("I", 4), 5126: ("f", 4)}
_NORMALIZE = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def split_glb(blob):
    """(JSON dict, binary chunk bytes) of a glb, or of a .gltf's JSON text (no chunk)."""
    blob = bytes(blob)
    if blob[:4] != b"glTF":
        try:
            return json.loads(blob.decode("utf-8")), b""
        except ValueError as e:
            raise GltfMeshError("the scene is neither a glb nor glTF JSON (%s)" % e)
    if len(blob) < 20:
        raise GltfMeshError("glb: %d bytes, shorter than its header" % len(blob))
    length = struct.unpack_from("<I", blob, 12)[0]
    if 20 + length > len(blob):
        raise GltfMeshError("glb: the JSON chunk (%d bytes at offset 20) runs past the end" % length)
    doc = json.loads(blob[20:20 + length].decode("utf-8"))
    at = 20 + length
    binary = b""
    if at + 8 <= len(blob):
        size = struct.unpack_from("<I", blob, at)[0]
        binary = blob[at + 8:at + 8 + size]
    return doc, binary


class _Reader:
    def __init__(self, doc, binary, base_dir):
        self.doc = doc
        self.buffers = []
        for k, b in enumerate(doc.get("buffers", [])):
            uri = b.get("uri")
            if uri is None:
                self.buffers.append(binary)
            elif uri.startswith("data:"):
                self.buffers.append(base64.b64decode(uri.split(",", 1)[1]))
            else:
                path = os.path.join(base_dir, uri)
                with open(path, "rb") as f:
                    self.buffers.append(f.read())

    def view(self, index):
        v = self.doc["bufferViews"][index]
        data = self.buffers[v["buffer"]]
        start = v.get("byteOffset", 0)
        if start + v["byteLength"] > len(data):
            raise GltfMeshError("bufferView %d runs past the end of buffer %d" % (index, v["buffer"]))
        return data, start, v["byteLength"], v.get("byteStride", 0)

    def accessor(self, index):
        """Rows of an accessor as tuples (floats when normalized or float)."""
        a = self.doc["accessors"][index]
        code, size = _COMPONENTS[a["componentType"]]
        width = _WIDTH[a["type"]]
        count = a["count"]
        if "bufferView" not in a:
            return [(0,) * width] * count
        data, start, length, stride = self.view(a["bufferView"])
        stride = stride or size * width
        offset = a.get("byteOffset", 0)
        if count and offset + stride * (count - 1) + size * width > length:
            raise GltfMeshError("accessor %d runs past the end of its bufferView" % index)
        fmt = struct.Struct("<%d%s" % (width, code))
        rows = [fmt.unpack_from(data, start + offset + k * stride) for k in range(count)]
        if a.get("normalized") and a["componentType"] in _NORMALIZE:
            d = _NORMALIZE[a["componentType"]]
            rows = [tuple(max(-1.0, v / d) for v in r) for r in rows]
        return rows


class Primitive:
    def __init__(self, raw, reader):
        attrs = raw.get("attributes", {})
        get = lambda name: reader.accessor(attrs[name]) if name in attrs else None  # noqa: E731
        self.mode = raw.get("mode", 4)
        self.vertex_key = tuple(sorted(attrs.items()))  # primitives with the same attributes share vertices
        self.positions = get("POSITION") or []
        n = len(self.positions)
        self.indices = [r[0] for r in reader.accessor(raw["indices"])] if "indices" in raw else list(range(n))
        self.normals = get("NORMAL")
        uvs = get("TEXCOORD_0")
        self.uvs = [(u, 1.0 - v) for u, v in uvs] if uvs else None
        colors = get("COLOR_0")
        self.colors = [tuple(c) + (1.0,) * (4 - len(c)) for c in colors] if colors else None
        self.joints = get("JOINTS_0")
        self.weights = get("WEIGHTS_0")
        self.material = raw.get("material")


class Material:
    def __init__(self, index, raw, doc):
        pbr = raw.get("pbrMetallicRoughness", {})
        self.index = index
        self.name = raw.get("name") or "material_%d" % index
        self.base_color = tuple(pbr.get("baseColorFactor", (1.0, 1.0, 1.0, 1.0)))
        self.image = None
        texture = pbr.get("baseColorTexture")
        if texture is not None:
            source = doc.get("textures", [])[texture["index"]].get("source")
            self.image = source
        self.alpha_mode = raw.get("alphaMode", "OPAQUE")
        self.alpha_cutoff = raw.get("alphaCutoff", 0.5)
        self.double_sided = bool(raw.get("doubleSided", False))


class Image:
    def __init__(self, index, raw, reader):
        self.index = index
        self.name = raw.get("name") or "image_%d" % index
        self.mime = raw.get("mimeType", "image/png")
        if "bufferView" in raw:
            data, start, length, _ = reader.view(raw["bufferView"])
            self.data = bytes(data[start:start + length])
        elif raw.get("uri", "").startswith("data:"):
            self.data = base64.b64decode(raw["uri"].split(",", 1)[1])
        else:
            self.data = b""


class Skin:
    def __init__(self, raw, reader):
        self.joints = list(raw.get("joints", []))
        if "inverseBindMatrices" in raw:
            self.inverse_bind = [tuple(m) for m in reader.accessor(raw["inverseBindMatrices"])]  # column-major
        else:
            self.inverse_bind = [(1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0)] * len(self.joints)


class GltfMeshes:
    """meshes[m] = [Primitive], node_skin[node] = skin index or None, skins, materials, images."""

    def __init__(self, doc, binary, base_dir=""):
        reader = _Reader(doc, binary, base_dir)
        self.meshes = [[Primitive(p, reader) for p in m.get("primitives", []) if "POSITION" in p.get("attributes", {})]
                       for m in doc.get("meshes", [])]
        self.node_skin = [n.get("skin") for n in doc.get("nodes", [])]
        self.skins = [Skin(s, reader) for s in doc.get("skins", [])]
        self.materials = [Material(k, m, doc) for k, m in enumerate(doc.get("materials", []))]
        self.images = [Image(k, i, reader) for k, i in enumerate(doc.get("images", []))]


def read(blob, base_dir=""):
    doc, binary = split_glb(blob)
    return GltfMeshes(doc, binary, base_dir)


def triangles(mode, indices):
    """The triangles (index triples, degenerate ones dropped) of a triangle primitive."""
    out = []
    if mode == 4:
        out = [tuple(indices[j:j + 3]) for j in range(0, len(indices) - 2, 3)]
    elif mode == 5:
        for j in range(len(indices) - 2):
            a, b, c = indices[j], indices[j + 1], indices[j + 2]
            out.append((a, b, c) if j % 2 == 0 else (b, a, c))
    elif mode == 6:
        out = [(indices[0], indices[j], indices[j + 1]) for j in range(1, len(indices) - 1)]
    return [t for t in out if len(set(t)) == 3]


def lines(mode, indices):
    """The edges (index pairs) of a line primitive, degenerate ones dropped."""
    out = []
    if mode == 1:
        out = [(indices[j], indices[j + 1]) for j in range(0, len(indices) - 1, 2)]
    elif mode in (2, 3):
        out = [(indices[j], indices[j + 1]) for j in range(len(indices) - 1)]
        if mode == 2 and len(indices) > 2:
            out.append((indices[-1], indices[0]))
    return [e for e in out if e[0] != e[1]]


def influences(prim, vertex):
    """[(skin joint slot, weight)] of one vertex, zero weights left out."""
    if prim.joints is None or prim.weights is None:
        return []
    return [(j, w) for j, w in zip(prim.joints[vertex], prim.weights[vertex]) if w > 0.0]
