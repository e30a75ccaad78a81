# The import file `animkit import-data` writes: everything an import needs from one
# decode (docs/blender.md, "The import file"). Pure Python (no bpy).
#
#   "AKIMPORT" u32 version u32 header length, the JSON header, then the data:
#   header["scene"] {offset, length}: the glTF scene (gltf_read reads it);
#   header["clips"][k] {..., frame_count, offset}: frame_count x joints x 10 float32
#   (t xyz, r xyzw, s xyz) per frame, NaN for a hidden joint.

import array
import json
import math
import struct
import sys

MAGIC = b"AKIMPORT"
VERSION = 1
_STRIDE = 10


class ImportDataError(Exception):
    pass


class Clip:
    """One clip's header fields and its poses: frames[f][j] is None (hidden) or a
    (t, r, s) triple of tuples, in the order of `joints`."""

    def __init__(self, header, floats):
        self.header = header
        self.name = header["name"]
        self.frame_rate = float(header["frame_rate"])
        self.duration = header["duration"]
        self.loop = bool(header["loop"])
        self.space = header["space"]
        self.joints = list(header["joints"])
        self.events = list(header["events"])
        self.frame_count = int(header["frame_count"])
        self._floats = floats
        self._start = int(header["offset"]) // 4

    def frame(self, f):
        width = len(self.joints) * _STRIDE
        start = self._start + f * width
        row = self._floats[start:start + width]
        out = []
        for j in range(0, width, _STRIDE):
            if math.isnan(row[j]):
                out.append(None)
            else:
                out.append((tuple(row[j:j + 3]), tuple(row[j + 3:j + 7]), tuple(row[j + 7:j + 10])))
        return out


class ImportData:
    def __init__(self, header, data):
        self.header = header
        self.format = header["format"]
        self.info = header["info"]
        self.skeleton_file = header.get("skeleton_file") or ""
        self.skeleton_note = header.get("skeleton_note") or ""
        scene = header["scene"]
        self.scene_bytes = bytes(data[scene["offset"]:scene["offset"] + scene["length"]])
        floats = array.array("f")
        floats.frombytes(bytes(data[:len(data) - len(data) % 4]))
        if sys.byteorder != "little":
            floats.byteswap()
        self.clips = [Clip(c, floats) for c in header["clips"]]


def read(path):
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 16 or blob[:8] != MAGIC:
        raise ImportDataError("%s: not an animkit import file" % path)
    version, length = struct.unpack_from("<II", blob, 8)
    if version != VERSION:
        raise ImportDataError("%s: import file version %d, this add-on reads %d" % (path, version, VERSION))
    try:
        header = json.loads(blob[16:16 + length].decode("utf-8"))
    except ValueError as e:
        raise ImportDataError("%s: the import file's header is not JSON (%s)" % (path, e))
    return ImportData(header, memoryview(blob)[16 + length:])
