# The import file `animkit import-data` writes: everything an import needs from one
# decode (docs/blender.md, "The import file"). Pure Python (no bpy).
#
#   "AKIMPORT" u32 version u32 header length, the JSON header, then the data:
#   header["scene"]: the nodes, meshes, cameras and animations of the glTF animkit writes
#   for the file, arrays as {offset, count} into the data; each animation's channels as
#   stored (node, path, interpolation, key times, values);
#   header["clips"][k] {name, frame_rate, ..., animation}: the clips chosen (--clip),
#   header["file_clips"]: every clip name of the file;
#   version 3: header["clips"][k]["curves"], the clip's own curves where the format has
#   them (curves.py), else absent.
# The scene's meshes carry what a skinned, textured mesh needs (normals, UVs, joints as
# node indices, weights, material), its materials and images (PNG bytes): the library's
# GltfSceneView reads the glTF, the add-on none.

import array
import json
import struct
import sys

from . import curves as curvesmod

MAGIC = b"AKIMPORT"
VERSION = 3
READS = (2, 3)  # version 2: no curves

# glTF primitive modes
MODE_POINTS = 0
MODE_LINES = 1
MODE_LINE_LOOP = 2
MODE_LINE_STRIP = 3
MODE_TRIANGLES = 4
MODE_TRIANGLE_STRIP = 5
MODE_TRIANGLE_FAN = 6


class ImportDataError(Exception):
    pass


class Channel:
    """One glTF channel as stored: node, path ("translation", "rotation", "scale"),
    interpolation ("LINEAR", "STEP", "CUBICSPLINE"), times (seconds) and values, flat
    float32 (width 3, or 4 for rotation; CUBICSPLINE: in-tangent, value, out-tangent per key)."""

    def __init__(self, raw, floats):
        self.node = int(raw["node"])
        self.path = raw["path"]
        self.interpolation = raw["interpolation"]
        self.width = 4 if self.path == "rotation" else 3
        t, v = raw["times"], raw["values"]
        self.times = floats[t["offset"] // 4:t["offset"] // 4 + t["count"]]
        self.values = floats[v["offset"] // 4:v["offset"] // 4 + v["count"] * self.width]

    def key_count(self):
        return len(self.times)

    def key_values(self):
        """(values, in-tangents, out-tangents) as lists of tuples (tangents None unless
        CUBICSPLINE)."""
        w = self.width
        rows = [tuple(self.values[k:k + w]) for k in range(0, len(self.values), w)]
        if self.interpolation != "CUBICSPLINE":
            return rows, None, None
        return rows[1::3], rows[0::3], rows[2::3]

    def same(self, other):
        return (self.node, self.path, self.interpolation) == (other.node, other.path, other.interpolation) and \
            self.times.tobytes() == other.times.tobytes() and self.values.tobytes() == other.values.tobytes()


class Clip:
    """One chosen clip's header fields and its glTF animation (extras, channels)."""

    def __init__(self, header, animation, floats=None):
        self.header = header
        self.curves = curvesmod.parse(header.get("curves"), floats) if floats is not None else None
        self.name = header["name"]
        self.frame_rate = float(header["frame_rate"])
        self.duration = header["duration"]
        self.loop = bool(header["loop"])
        self.space = header["space"]
        self.joints = list(header["joints"])
        self.events = list(header["events"])
        self.frame_count = int(header["frame_count"])
        self.shares_data_with = header.get("shares_data_with")
        self.extras = animation.extras if animation is not None else {}
        self.channels = animation.channels if animation is not None else []

    def key_count(self):
        return sum(c.key_count() for c in self.channels)

    def same_data(self, other):
        """Whether two clips hold the same channels, bit for bit."""
        return (self.frame_count == other.frame_count and self.frame_rate == other.frame_rate and
                len(self.channels) == len(other.channels) and
                all(a.same(b) for a, b in zip(self.channels, other.channels)))


def _rows(numbers, ref, width):
    """The {offset, count} array of `width`-wide rows as a list of tuples."""
    start = ref["offset"] // 4
    flat = numbers[start:start + ref["count"] * width]
    return [tuple(flat[k:k + width]) for k in range(0, len(flat), width)]


class Node:
    def __init__(self, index, raw):
        self.index = index
        self.name = raw["name"]
        self.parent = raw["parent"]
        self.translation = tuple(raw["t"])
        self.rotation = tuple(raw["r"])  # x, y, z, w
        self.scale = tuple(raw["s"])
        self.camera = raw["camera"]
        self.mesh = raw["mesh"]
        self.skin = raw.get("skin")


class Primitive:
    def __init__(self, raw, floats, ints):
        opt = lambda key, numbers, width: _rows(numbers, raw[key], width) if raw.get(key) else None  # noqa: E731
        self.mode = raw["mode"]
        self.positions = _rows(floats, raw["positions"], 3)  # [(x, y, z)]
        self.vertex_key = raw["positions"]["offset"]  # primitives over the same vertices share them
        self.indices = [i[0] for i in _rows(ints, raw["indices"], 1)]
        self.colors = opt("colors", floats, 4)  # [(r, g, b, a)]
        self.normals = opt("normals", floats, 3)
        uvs = opt("uvs", floats, 2)
        self.uvs = [(u, 1.0 - v) for u, v in uvs] if uvs else None  # Blender's rows run bottom-up
        sets = raw.get("influences", 4)  # every JOINTS_n / WEIGHTS_n set, 4 per set
        self.joints = opt("joints", ints, sets)  # node indices
        self.weights = opt("weights", floats, sets)
        self.material = raw.get("material")


class Material:
    def __init__(self, index, raw):
        self.index = index
        self.name = raw.get("name") or "material_%d" % index
        self.base_color = tuple(raw.get("base_color", (1.0, 1.0, 1.0, 1.0)))
        self.image = raw.get("image")
        self.alpha_mode = raw.get("alpha_mode", "OPAQUE")
        self.alpha_cutoff = raw.get("alpha_cutoff", 0.5)
        self.double_sided = bool(raw.get("double_sided", False))
        self.extras = raw.get("extras") or {}  # extras.animkit (export writes them back)


class Image:
    def __init__(self, index, raw, blob):
        self.index = index
        self.name = raw.get("name") or "image_%d" % index
        self.mime = raw.get("mime_type") or "image/png"
        ref = raw.get("data")
        self.data = bytes(blob[ref["offset"]:ref["offset"] + ref["count"]]) if ref else b""


class Mesh:
    def __init__(self, index, raw, floats, ints):
        self.index = index
        self.name = raw["name"]
        self.primitives = [Primitive(p, floats, ints) for p in raw["primitives"]]
        self.extras = raw.get("extras") or {}

    @property
    def hidden(self):
        """True for a mesh its file marks hidden by default (KH2's shadow model:
        extras.animkit.metadata.hidden)."""
        metadata = self.extras.get("metadata") or {}
        return metadata.get("hidden") is True


class Animation:
    """extras.animkit and the channels as stored."""

    def __init__(self, raw, floats):
        self.name = raw["name"]
        self.extras = raw["extras"]
        self.channels = [Channel(c, floats) for c in raw["channels"]]


class Scene:
    """The glTF's nodes, skin joints, root, extras, cameras, meshes and animations."""

    def __init__(self, raw, floats, ints, blob):
        self.nodes = [Node(i, n) for i, n in enumerate(raw["nodes"])]
        self.root = raw["root"]
        self.joints = list(raw["joints"])
        self.asset_extras = raw["asset_extras"]
        self.cameras = list(raw["cameras"])
        self.meshes = [Mesh(i, m, floats, ints) for i, m in enumerate(raw["meshes"])]
        self.animations = [Animation(a, floats) for a in raw["animations"]]
        self.materials = [Material(k, m) for k, m in enumerate(raw.get("materials", []))]
        self.images = [Image(k, i, blob) for k, i in enumerate(raw.get("images", []))]


class ImportData:
    def __init__(self, header, data):
        self.header = header
        self.format = header["format"]
        self.file_clips = list(header.get("file_clips", []))
        self.skeleton_file = header.get("skeleton_file") or ""
        self.skeleton_note = header.get("skeleton_note") or ""
        whole = bytes(data[:len(data) - len(data) % 4])
        floats = array.array("f")
        floats.frombytes(whole)
        ints = array.array("I")
        ints.frombytes(whole)
        if sys.byteorder != "little":
            floats.byteswap()
            ints.byteswap()
        self.scene = Scene(header["scene"], floats, ints, data)
        anims = self.scene.animations
        try:
            self.clips = [Clip(c, anims[c["animation"]] if 0 <= c["animation"] < len(anims) else None, floats)
                          for c in header["clips"]]
        except curvesmod.CurvesError as e:
            raise ImportDataError("the import file's curves: %s" % e)


def read(path):
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 16 or blob[:8] != MAGIC:
        raise ImportDataError("%s: not an animkit import file" % path)
    version, length = struct.unpack_from("<II", blob, 8)
    if version not in READS:
        raise ImportDataError("%s: import file version %d, this add-on reads %s" % (
            path, version, " and ".join(str(v) for v in READS)))
    try:
        header = json.loads(blob[16:16 + length].decode("utf-8"))
    except ValueError as e:
        raise ImportDataError("%s: the import file's header is not JSON (%s)" % (path, e))
    return ImportData(header, memoryview(blob)[16 + length:])
