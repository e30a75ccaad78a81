# A small glTF 2.0 (.glb) writer for what export hands to animkit: the stored skeleton
# (rig.py) as nodes, and one animation per clip: each channel with its own key times (the
# F-curves' keys) or the clip's frames (sampled). Pure Python (array, struct, json): no bpy,
# no numpy.

import array
import json
import struct
import sys

from . import rig as rigmod

GENERATOR = "animkit Blender add-on"

_FLOAT = 5126
_TYPES = {1: "SCALAR", 3: "VEC3", 4: "VEC4"}


class _Buffer:
    def __init__(self):
        self.data = bytearray()
        self.views = []
        self.accessors = []

    def add(self, rows, width, minmax=False):
        """Appends float rows (tuples of `width`, or floats when width is 1); returns the
        accessor index."""
        flat = list(rows) if width == 1 else [v for row in rows for v in row]
        return self._add(flat, len(rows), width, minmax)

    def add_columns(self, columns):
        """Appends rows given as one sequence of floats per component; returns the accessor
        index."""
        count = len(columns[0])
        width = len(columns)
        flat = array.array("f", bytes(4 * count * width))
        for k, col in enumerate(columns):
            flat[k::width] = col if isinstance(col, array.array) and col.typecode == "f" else array.array("f", col)
        return self._add(flat, count, width, False)

    def _add(self, flat, count, width, minmax):
        while len(self.data) % 4:
            self.data.append(0)
        start = len(self.data)
        stored = flat if isinstance(flat, array.array) else array.array("f", flat)
        acc = {"bufferView": len(self.views), "componentType": _FLOAT, "count": count, "type": _TYPES[width]}
        if minmax and count:
            # min/max as the float32 values stored
            acc["min"] = [min(stored)]
            acc["max"] = [max(stored)]
        if sys.byteorder == "big":
            stored.byteswap()
        self.data += stored.tobytes()
        self.views.append({"buffer": 0, "byteOffset": start, "byteLength": len(self.data) - start})
        self.accessors.append(acc)
        return len(self.accessors) - 1


def document(rig, clips):
    """Builds the glTF JSON and binary buffer.

    rig: rig.py's dict. clips: [{"name", "extras" (the animkit extras), "times": [s],
    "channels": [{"node", "path", "interpolation", "values": [tuple per time] or "columns":
    [list per component], and "times": [s] when not the clip's}]}]. A CUBICSPLINE
    channel holds in tangent, value, out tangent per time. Equal key times share one
    accessor."""
    nodes_in = rig["nodes"]
    buf = _Buffer()
    nodes = []
    for i, n in enumerate(nodes_in):
        node = {"name": n["name"]}
        children = [c for c, m in enumerate(nodes_in) if m["parent"] == i]
        if children:
            node["children"] = children
        if any(v != 0 for v in n["t"]):
            node["translation"] = list(n["t"])
        if list(n["r"]) != [0, 0, 0, 1]:
            node["rotation"] = list(n["r"])
        if any(v != 1 for v in n["s"]):
            node["scale"] = list(n["s"])
        if n.get("camera") is not None and n["camera"] < len(rig.get("cameras", [])):
            node["camera"] = n["camera"]
        nodes.append(node)
    roots = [i for i, n in enumerate(nodes_in) if n["parent"] < 0]
    doc = {
        "asset": {"version": "2.0", "generator": GENERATOR},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    }
    if rig.get("asset_extras"):
        doc["asset"]["extras"] = {"animkit": rig["asset_extras"]}
    if rig.get("cameras"):
        doc["cameras"] = rig["cameras"]
    if rig.get("joints"):
        skin = {"name": "animkit_skeleton", "joints": list(rig["joints"])}
        root = next((i for i, n in enumerate(nodes_in) if n["kind"] == rigmod.KIND_ROOT), None)
        if root is not None:
            skin["skeleton"] = root
        doc["skins"] = [skin]
    animations = []
    for clip in clips:
        times = clip["times"]
        channels = clip["channels"]
        if not channels or not times:
            continue
        inputs = {}
        samplers = []
        chans = []
        for ch in channels:
            key_times = ch.get("times", times)
            key = array.array("f", key_times).tobytes()
            if key not in inputs:
                inputs[key] = buf.add(key_times, 1, minmax=True)
            if "columns" in ch:
                out = buf.add_columns(ch["columns"])
            else:
                out = buf.add(ch["values"], 4 if ch["path"] == "rotation" else 3)
            samplers.append({"input": inputs[key], "output": out, "interpolation": ch.get("interpolation", "LINEAR")})
            chans.append({"sampler": len(samplers) - 1, "target": {"node": ch["node"], "path": ch["path"]}})
        anim = {"name": clip["name"], "channels": chans, "samplers": samplers}
        if clip.get("extras") is not None:
            anim["extras"] = {"animkit": clip["extras"]}
        animations.append(anim)
    if animations:
        doc["animations"] = animations
    if buf.data:
        doc["buffers"] = [{"byteLength": len(buf.data)}]
        doc["bufferViews"] = buf.views
        doc["accessors"] = buf.accessors
    return doc, bytes(buf.data)


def write_glb(path, rig, clips):
    doc, data = document(rig, clips)
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((4 - len(text) % 4) % 4)
    data += b"\0" * ((4 - len(data) % 4) % 4)
    total = 12 + 8 + len(text) + (8 + len(data) if data else 0)
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, total))
        f.write(struct.pack("<II", len(text), 0x4E4F534A))
        f.write(text)
        if data:
            f.write(struct.pack("<II", len(data), 0x004E4942))
            f.write(data)
