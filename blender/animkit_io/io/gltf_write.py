# A small glTF 2.0 (.glb) writer for what export hands to animkit: the stored skeleton
# (rig.py) as nodes, and one animation per clip: each channel with its own key times (the
# F-curves' keys) or the clip's frames (sampled); or, for a model, the skeleton with the
# meshes, materials and images (mesh_gltf.py). Pure Python (array, struct, json): no bpy,
# no numpy.

import array
import json
import struct
import sys

from . import rig as rigmod

GENERATOR = "animkit Blender add-on"

_FLOAT = 5126
_USHORT = 5123
_UINT = 5125
_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4"}
_ARRAY_TYPE = {_FLOAT: "f", _USHORT: "H", _UINT: "I"}


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

    def add_bytes(self, data):
        """Appends raw bytes (an image) as a buffer view; returns its index."""
        self._align()
        start = len(self.data)
        self.data += data
        self.views.append({"buffer": 0, "byteOffset": start, "byteLength": len(data)})
        return len(self.views) - 1

    def _align(self):
        while len(self.data) % 4:
            self.data.append(0)

    def _add(self, flat, count, width, minmax, component=_FLOAT, target=None):
        """minmax: the accessor's min/max, per component (as the values stored)."""
        self._align()
        start = len(self.data)
        code = _ARRAY_TYPE[component]
        stored = flat if isinstance(flat, array.array) and flat.typecode == code else array.array(code, flat)
        acc = {"bufferView": len(self.views), "componentType": component, "count": count, "type": _TYPES[width]}
        if minmax and count:
            acc["min"] = [min(stored[k::width]) for k in range(width)]
            acc["max"] = [max(stored[k::width]) for k in range(width)]
        if sys.byteorder == "big":
            stored.byteswap()
        self.data += stored.tobytes()
        view = {"buffer": 0, "byteOffset": start, "byteLength": len(self.data) - start}
        if target:
            view["target"] = target
        self.views.append(view)
        self.accessors.append(acc)
        return len(self.accessors) - 1


def _primitive(buf, prim):
    """A mesh_gltf primitive's attributes and indices as accessors."""
    flat = lambda rows: [x for row in rows for x in row]  # noqa: E731
    count = len(prim["positions"])
    attrs = {"POSITION": buf._add(flat(prim["positions"]), count, 3, True, target=34962)}
    for key, name, width in (("normals", "NORMAL", 3), ("uvs", "TEXCOORD_0", 2), ("colors", "COLOR_0", 4)):
        if prim.get(key) is not None:
            attrs[name] = buf._add(flat(prim[key]), count, width, False, target=34962)
    if prim.get("joints") is not None:  # every vertex's influences, four a set
        sets = len(prim["joints"][0]) // 4 if count else 1
        for n in range(sets):
            part = lambda rows: [x for row in rows for x in row[4 * n:4 * n + 4]]  # noqa: E731
            attrs["JOINTS_%d" % n] = buf._add(part(prim["joints"]), count, 4, False, _USHORT, 34962)
            attrs["WEIGHTS_%d" % n] = buf._add(part(prim["weights"]), count, 4, False, target=34962)
    out = {"attributes": attrs, "mode": 4,
           "indices": buf._add(prim["indices"], len(prim["indices"]), 1, False, _UINT, 34963)}
    if prim.get("material") is not None:
        out["material"] = prim["material"]
    return out


def _model(doc, buf, model):
    """The meshes, materials, textures and images of a model (mesh_gltf.py's) into doc."""
    meshes = []
    for mesh in model["meshes"]:
        out = {"name": mesh["name"], "primitives": [_primitive(buf, p) for p in mesh["primitives"]]}
        if mesh.get("extras"):
            out["extras"] = {"animkit": mesh["extras"]}
        meshes.append(out)
    materials = []
    for m in model.get("materials", []):
        pbr = {"metallicFactor": 0.0}
        if list(m.get("base_color", (1, 1, 1, 1))) != [1, 1, 1, 1]:
            pbr["baseColorFactor"] = list(m["base_color"])
        if m.get("image") is not None:
            pbr["baseColorTexture"] = {"index": m["image"]}  # one texture per image, in order
        out = {"name": m["name"], "pbrMetallicRoughness": pbr, "doubleSided": bool(m.get("double_sided"))}
        if m.get("alpha_mode", "OPAQUE") != "OPAQUE":
            out["alphaMode"] = m["alpha_mode"]
            if m["alpha_mode"] == "MASK":
                out["alphaCutoff"] = m.get("alpha_cutoff", 0.5)
        if m.get("extras"):
            out["extras"] = {"animkit": m["extras"]}
        materials.append(out)
    images = [{"name": i["name"], "mimeType": i["mime"], "bufferView": buf.add_bytes(i["data"])}
              for i in model.get("images", [])]
    doc["meshes"] = meshes
    if materials:
        doc["materials"] = materials
    if images:
        doc["images"] = images
        doc["samplers"] = [{"magFilter": 9729, "minFilter": 9729, "wrapS": 10497, "wrapT": 10497}]
        doc["textures"] = [{"name": i["name"], "sampler": 0, "source": k} for k, i in enumerate(images)]


def document(rig, clips, model=None):
    """Builds the glTF JSON and binary buffer.

    rig: rig.py's dict. clips: [{"name", "extras" (the animkit extras), "times": [s],
    "channels": [{"node", "path", "interpolation", "values": [tuple per time] or "columns":
    [list per component], and "times": [s] when not the clip's}]}]. A CUBICSPLINE
    channel holds in tangent, value, out tangent per time. Equal key times share one
    accessor. model: {"nodes", "joints", "root", "node_mesh": {node: mesh}, "skinned":
    {mesh indices}, "meshes", "materials", "images"} (export_model.py): the nodes written
    instead of the rig's, with the meshes (skinned ones bound at the rest pose: positions
    in model space, no inverse bind matrices)."""
    nodes_in = model["nodes"] if model else rig["nodes"]
    joints = model["joints"] if model else rig.get("joints")
    node_mesh = model["node_mesh"] if model else {}
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
        if i in node_mesh:
            node["mesh"] = node_mesh[i]
            if node_mesh[i] in model["skinned"] and joints:
                node["skin"] = 0
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
    if joints:
        skin = {"name": "animkit_skeleton", "joints": list(joints)}
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
    if model:
        _model(doc, buf, model)
    if buf.data:
        doc["buffers"] = [{"byteLength": len(buf.data)}]
        doc["bufferViews"] = buf.views
        doc["accessors"] = buf.accessors
    return doc, bytes(buf.data)


def write_glb(path, rig, clips, model=None):
    doc, data = document(rig, clips, model)
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
