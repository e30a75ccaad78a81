# A small reader for the glTF 2.0 files animkit writes (.glb, or .gltf with its buffers
# embedded as data: URIs or in files next to it). Pure Python (struct, json, base64):
# no bpy, no numpy, so it can be tested with any Python 3.
#
# It reads what the add-on needs: nodes (name, TRS, children), the skin's joints,
# meshes (POSITION, COLOR_0, indices of TRIANGLES and LINES primitives), cameras,
# animation channels, and the animkit extras of the asset and of each animation.

import base64
import json
import math
import os
import struct
import urllib.parse

ROOT_NAME = "animkit_root"
EXTRAS_KEY = "animkit"

_COMPONENT = {  # componentType: (struct code, size, normalisation divisor)
    5120: ("b", 1, 127.0),
    5121: ("B", 1, 255.0),
    5122: ("h", 2, 32767.0),
    5123: ("H", 2, 65535.0),
    5125: ("I", 4, None),
    5126: ("f", 4, None),
}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}

MODE_POINTS = 0
MODE_LINES = 1
MODE_LINE_LOOP = 2
MODE_LINE_STRIP = 3
MODE_TRIANGLES = 4
MODE_TRIANGLE_STRIP = 5
MODE_TRIANGLE_FAN = 6


class GltfError(Exception):
    """The file is not a glTF this reader understands; the message says where."""


def _read_container(path, data):
    """Returns (json document, binary chunk or None)."""
    if data[:4] == b"glTF":
        if len(data) < 20:
            raise GltfError("%s: GLB header is truncated" % path)
        _magic, version, length = struct.unpack_from("<III", data, 0)
        if version != 2:
            raise GltfError("%s: GLB version %d, expected 2" % (path, version))
        length = min(length, len(data))
        offset = 12
        doc = None
        binary = None
        while offset + 8 <= length:
            chunk_len, chunk_type = struct.unpack_from("<II", data, offset)
            start = offset + 8
            end = start + chunk_len
            if end > length:
                raise GltfError("%s: GLB chunk at byte %d runs past the end" % (path, offset))
            if chunk_type == 0x4E4F534A:  # JSON
                doc = json.loads(data[start:end].decode("utf-8"))
            elif chunk_type == 0x004E4942 and binary is None:  # BIN
                binary = data[start:end]
            offset = end
        if doc is None:
            raise GltfError("%s: GLB without a JSON chunk" % path)
        return doc, binary
    try:
        return json.loads(data.decode("utf-8")), None
    except ValueError as e:
        raise GltfError("%s: not a GLB and not glTF JSON (%s)" % (path, e))


class Document:
    """The JSON of a glTF and access to its buffers and accessors."""

    def __init__(self, path, data):
        self.path = path  # external buffers are looked up beside it
        self.json, self._glb_bin = _read_container(path, data)
        self._buffers = {}

    def buffer(self, index):
        if index in self._buffers:
            return self._buffers[index]
        buffers = self.json.get("buffers", [])
        if not 0 <= index < len(buffers):
            raise GltfError("%s: buffer %d does not exist" % (self.path, index))
        uri = buffers[index].get("uri")
        if uri is None:
            if self._glb_bin is None:
                raise GltfError("%s: buffer %d has no uri and there is no GLB BIN chunk" % (self.path, index))
            data = self._glb_bin
        elif uri.startswith("data:"):
            head, _, payload = uri.partition(",")
            if not head.endswith(";base64"):
                raise GltfError("%s: buffer %d: only base64 data: URIs are read" % (self.path, index))
            data = base64.b64decode(payload)
        else:
            name = urllib.parse.unquote(uri)
            with open(os.path.join(os.path.dirname(self.path), name), "rb") as f:
                data = f.read()
        self._buffers[index] = data
        return data

    def _view(self, index):
        views = self.json.get("bufferViews", [])
        if not 0 <= index < len(views):
            raise GltfError("%s: buffer view %d does not exist" % (self.path, index))
        view = views[index]
        data = self.buffer(view["buffer"])
        start = view.get("byteOffset", 0)
        end = start + view["byteLength"]
        if end > len(data):
            raise GltfError("%s: buffer view %d runs past the end of its buffer" % (self.path, index))
        return data, start, view.get("byteStride")

    def accessor(self, index):
        """The accessor's elements: a list of tuples (one per element), floats for
        float and normalized components, ints otherwise."""
        accessors = self.json.get("accessors", [])
        if not 0 <= index < len(accessors):
            raise GltfError("%s: accessor %d does not exist" % (self.path, index))
        acc = accessors[index]
        code, size, divisor = _COMPONENT[acc["componentType"]]
        width = _WIDTH[acc["type"]]
        count = acc["count"]
        normalized = acc.get("normalized", False) and divisor is not None
        if "bufferView" in acc:
            data, start, stride = self._view(acc["bufferView"])
            start += acc.get("byteOffset", 0)
            element = size * width
            stride = stride or element
            if count and start + stride * (count - 1) + element > len(data):
                raise GltfError("%s: accessor %d runs past the end of its buffer view" % (self.path, index))
            fmt = "<%d%s" % (width, code)
            values = [struct.unpack_from(fmt, data, start + i * stride) for i in range(count)]
        else:
            values = [(0,) * width for _ in range(count)]
        sparse = acc.get("sparse")
        if sparse:
            n = sparse["count"]
            icode, isize, _ = _COMPONENT[sparse["indices"]["componentType"]]
            idata, istart, _ = self._view(sparse["indices"]["bufferView"])
            istart += sparse["indices"].get("byteOffset", 0)
            vdata, vstart, _ = self._view(sparse["values"]["bufferView"])
            vstart += sparse["values"].get("byteOffset", 0)
            for k in range(n):
                (i,) = struct.unpack_from("<" + icode, idata, istart + k * isize)
                values[i] = struct.unpack_from("<%d%s" % (width, code), vdata, vstart + k * size * width)
        if normalized:
            values = [tuple(max(v / divisor, -1.0) for v in e) for e in values]
        return values


# ---------------------------------------------------------------------------------------
# Plain records


class Node:
    def __init__(self, index, raw):
        self.index = index
        self.name = raw.get("name", "node_%d" % index)
        self.children = list(raw.get("children", []))
        self.parent = -1
        self.mesh = raw.get("mesh")
        self.camera = raw.get("camera")
        self.extras = raw.get("extras")
        if "matrix" in raw:
            self.translation, self.rotation, self.scale = decompose_column_major(raw["matrix"])
        else:
            self.translation = tuple(raw.get("translation", (0.0, 0.0, 0.0)))
            self.rotation = tuple(raw.get("rotation", (0.0, 0.0, 0.0, 1.0)))  # x, y, z, w
            self.scale = tuple(raw.get("scale", (1.0, 1.0, 1.0)))


class Primitive:
    def __init__(self, mode, positions, indices, colors):
        self.mode = mode
        self.positions = positions  # [(x, y, z)]
        self.indices = indices  # [int] (0..n-1 when the primitive has none)
        self.colors = colors  # [(r, g, b, a)] or None


class Mesh:
    def __init__(self, index, name, primitives):
        self.index = index
        self.name = name
        self.primitives = primitives


class Channel:
    def __init__(self, node, path, interpolation, read_keys):
        self.node = node
        self.path = path  # translation | rotation | scale | weights
        self.interpolation = interpolation  # LINEAR | STEP | CUBICSPLINE
        self._read_keys = read_keys  # () -> (times, values): read when first asked for
        self._keys = None

    def _loaded(self):
        if self._keys is None:
            self._keys = self._read_keys()
        return self._keys

    @property
    def times(self):  # [float]
        return self._loaded()[0]

    @property
    def values(self):  # [tuple] (CUBICSPLINE: in-tangent, value, out-tangent per key)
        return self._loaded()[1]

    def sample(self, time):
        """The channel's value at `time` (clamped to its keys)."""
        times = self.times
        if not times:
            return None
        cubic = self.interpolation == "CUBICSPLINE"

        def value(k):
            return self.values[3 * k + 1] if cubic else self.values[k]

        # Key times are float32: a time within float32 rounding of a key is that key.
        eps = 1e-6 * max(1.0, abs(time))
        if time <= times[0] + eps:
            return value(0)
        if time >= times[-1] - eps:
            return value(len(times) - 1)
        lo, hi = 0, len(times) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if times[mid] <= time + eps:
                lo = mid
            else:
                hi = mid
        if self.interpolation == "STEP":
            return value(lo)
        t0, t1 = times[lo], times[hi]
        u = (time - t0) / (t1 - t0) if t1 > t0 else 0.0
        a, b = value(lo), value(hi)
        if cubic:
            dt = t1 - t0
            m0 = self.values[3 * lo + 2]
            m1 = self.values[3 * hi]
            u2, u3 = u * u, u * u * u
            h00 = 2 * u3 - 3 * u2 + 1
            h10 = u3 - 2 * u2 + u
            h01 = -2 * u3 + 3 * u2
            h11 = u3 - u2
            out = tuple(h00 * a[i] + h10 * dt * m0[i] + h01 * b[i] + h11 * dt * m1[i] for i in range(len(a)))
        elif self.path == "rotation":
            out = quat_slerp(a, b, u)
        else:
            out = tuple(a[i] + (b[i] - a[i]) * u for i in range(len(a)))
        if self.path == "rotation":
            out = quat_normalize(out)
        return out


class Animation:
    def __init__(self, index, name, extras, channels):
        self.index = index
        self.name = name
        self.extras = extras  # the animation's extras.animkit (dict, possibly empty)
        self.channels = channels


class Scene:
    """What the add-on reads from one glTF."""

    def __init__(self, doc):
        j = doc.json
        self.path = doc.path
        self.nodes = [Node(i, n) for i, n in enumerate(j.get("nodes", []))]
        for node in self.nodes:
            for c in node.children:
                if not 0 <= c < len(self.nodes):
                    raise GltfError("%s: node %d has a child %d that does not exist" % (doc.path, node.index, c))
                self.nodes[c].parent = node.index
        self.asset_extras = _animkit_extras(j.get("asset", {}))
        skins = j.get("skins", [])
        self.root = None
        for node in self.nodes:
            if node.name == ROOT_NAME and node.parent == -1:
                self.root = node.index
        if skins:
            self.joints = list(skins[0].get("joints", []))
        elif self.asset_extras.get("skeleton") is False:
            self.joints = []
        else:
            self.joints = [n.index for n in self.nodes if n.index != self.root and n.camera is None]
        self.cameras = list(j.get("cameras", []))
        self.meshes = [self._mesh(doc, i, m) for i, m in enumerate(j.get("meshes", []))]
        self.animations = [self._animation(doc, i, a) for i, a in enumerate(j.get("animations", []))]

    @staticmethod
    def _mesh(doc, index, raw):
        prims = []
        for p in raw.get("primitives", []):
            attrs = p.get("attributes", {})
            if "POSITION" not in attrs:
                continue
            positions = doc.accessor(attrs["POSITION"])
            colors = None
            if "COLOR_0" in attrs:
                colors = [tuple(c) + (1.0,) * (4 - len(c)) for c in doc.accessor(attrs["COLOR_0"])]
            if "indices" in p:
                indices = [e[0] for e in doc.accessor(p["indices"])]
            else:
                indices = list(range(len(positions)))
            prims.append(Primitive(p.get("mode", MODE_TRIANGLES), positions, indices, colors))
        return Mesh(index, raw.get("name", "mesh_%d" % index), prims)

    @staticmethod
    def _animation(doc, index, raw):
        samplers = raw.get("samplers", [])
        channels = []
        for ch in raw.get("channels", []):
            target = ch.get("target", {})
            if "node" not in target:
                continue
            s = samplers[ch["sampler"]]

            def read_keys(s=s):  # most channels are joints', which the import file carries
                return [e[0] for e in doc.accessor(s["input"])], doc.accessor(s["output"])
            channels.append(Channel(target["node"], target.get("path"), s.get("interpolation", "LINEAR"), read_keys))
        return Animation(index, raw.get("name", "animation_%d" % index), _animkit_extras(raw), channels)

    def node_by_name(self):
        return {n.name: n.index for n in self.nodes}


def _animkit_extras(obj):
    extras = obj.get("extras")
    if isinstance(extras, dict) and isinstance(extras.get(EXTRAS_KEY), dict):
        return extras[EXTRAS_KEY]
    return {}


def read(path, data=None):
    """Reads a glTF into a Scene: `data` (the file's bytes), else the file at `path`."""
    if data is None:
        with open(path, "rb") as f:
            data = f.read()
    try:
        return Scene(Document(path, data))
    except (KeyError, IndexError, TypeError, struct.error) as e:
        raise GltfError("%s: unexpected glTF content (%s: %s)" % (path, type(e).__name__, e))


# ---------------------------------------------------------------------------------------
# Small quaternion / matrix helpers (x, y, z, w order, column vectors)


def quat_normalize(q):
    n = math.sqrt(sum(c * c for c in q))
    if n == 0.0:
        return (0.0, 0.0, 0.0, 1.0)
    return tuple(c / n for c in q)


def quat_slerp(a, b, u):
    dot = sum(a[i] * b[i] for i in range(4))
    if dot < 0.0:
        b = tuple(-c for c in b)
        dot = -dot
    if dot > 0.9995:
        return quat_normalize(tuple(a[i] + (b[i] - a[i]) * u for i in range(4)))
    theta = math.acos(min(dot, 1.0))
    s = math.sin(theta)
    wa = math.sin((1.0 - u) * theta) / s
    wb = math.sin(u * theta) / s
    return tuple(wa * a[i] + wb * b[i] for i in range(4))


def decompose_column_major(m):
    """glTF node matrix (16 numbers, column-major) -> translation, rotation (x, y, z, w), scale."""
    cols = [m[0:3], m[4:7], m[8:11]]
    t = (m[12], m[13], m[14])
    s = [math.sqrt(sum(c * c for c in col)) for col in cols]
    det = (cols[0][0] * (cols[1][1] * cols[2][2] - cols[2][1] * cols[1][2])
           - cols[1][0] * (cols[0][1] * cols[2][2] - cols[2][1] * cols[0][2])
           + cols[2][0] * (cols[0][1] * cols[1][2] - cols[1][1] * cols[0][2]))
    if det < 0:
        s[0] = -s[0]
    r = [[cols[c][row] / s[c] if s[c] else 0.0 for c in range(3)] for row in range(3)]
    return t, matrix3_to_quat(r), tuple(s)


def matrix3_to_quat(r):
    """Rotation matrix (rows) -> quaternion (x, y, z, w)."""
    trace = r[0][0] + r[1][1] + r[2][2]
    if trace > 0:
        s = 0.5 / math.sqrt(trace + 1.0)
        q = ((r[2][1] - r[1][2]) * s, (r[0][2] - r[2][0]) * s, (r[1][0] - r[0][1]) * s, 0.25 / s)
    elif r[0][0] > r[1][1] and r[0][0] > r[2][2]:
        s = 2.0 * math.sqrt(max(1.0 + r[0][0] - r[1][1] - r[2][2], 1e-30))
        q = (0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s, (r[2][1] - r[1][2]) / s)
    elif r[1][1] > r[2][2]:
        s = 2.0 * math.sqrt(max(1.0 + r[1][1] - r[0][0] - r[2][2], 1e-30))
        q = ((r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s, (r[0][2] - r[2][0]) / s)
    else:
        s = 2.0 * math.sqrt(max(1.0 + r[2][2] - r[0][0] - r[1][1], 1e-30))
        q = ((r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s, (r[1][0] - r[0][1]) / s)
    return quat_normalize(q)
