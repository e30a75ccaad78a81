# The skeleton ("rig") the add-on stores on the armature object, and the clip records it
# stores on each action. Pure Python (no bpy): import and export both use it.
#
# The rig keeps the glTF nodes animkit wrote, in their order: name, parent node, rest
# translation / rotation (x, y, z, w) / scale exactly as animkit gave them, what the node
# is (a skeleton joint, a camera, the animkit_root node, or another node) and the Blender
# bone that stands for it. Export writes the same nodes back, so animkit sees the same
# skeleton it wrote.

import json

RIG_VERSION = 1

KIND_JOINT = "joint"
KIND_CAMERA = "camera"
KIND_ROOT = "root"
KIND_OTHER = "other"
KIND_SKINNED_MESH = "skinned_mesh"  # a mesh node with a skin: its mesh object stands for it


def rig_from_scene(scene, skinned=()):
    """The rig of an import_data.Scene (a JSON-ready dict); `skinned`: the nodes that
    carry a skinned mesh (gltf_mesh.py), which become no bone."""
    joints = set(scene.joints)
    nodes = []
    for n in scene.nodes:
        if n.index == scene.root:
            kind = KIND_ROOT
        elif n.index in joints:
            kind = KIND_JOINT
        elif n.index in skinned:
            kind = KIND_SKINNED_MESH
        elif n.camera is not None:
            kind = KIND_CAMERA
        else:
            kind = KIND_OTHER
        nodes.append({
            "name": n.name,
            "parent": n.parent,
            "t": list(n.translation),
            "r": list(n.rotation),
            "s": list(n.scale),
            "kind": kind,
            "camera": n.camera,
            "mesh": n.mesh,
            "bone": "",
        })
    return {
        "version": RIG_VERSION,
        "nodes": nodes,
        "joints": list(scene.joints),  # the skin's joint order
        "skin": bool(scene.joints) or scene.asset_extras.get("skeleton") is not False,
        "cameras": scene.cameras,
        "asset_extras": scene.asset_extras,
    }


def is_bone(node):
    """Nodes that become Blender bones: everything but animkit_root, skinned mesh nodes and
    the root-motion joint whose motion is the armature object's (root_motion.py)."""
    return node["kind"] not in (KIND_ROOT, KIND_SKINNED_MESH) and not node.get("root_motion")


def bone_parent(rig, index):
    """The nearest ancestor of node `index` that is a bone, or -1."""
    nodes = rig["nodes"]
    p = nodes[index]["parent"]
    seen = set()
    while p >= 0 and p not in seen:
        seen.add(p)
        if is_bone(nodes[p]):
            return p
        p = nodes[p]["parent"]
    return -1


def bone_order(rig):
    """Bone node indices, parents before children."""
    nodes = rig["nodes"]
    order = []
    placed = set()
    pending = [i for i, n in enumerate(nodes) if is_bone(n)]
    while pending:
        rest = []
        for i in pending:
            p = bone_parent(rig, i)
            if p < 0 or p in placed:
                order.append(i)
                placed.add(i)
            else:
                rest.append(i)
        if len(rest) == len(pending):  # a cycle: place the rest as roots
            order.extend(rest)
            break
        pending = rest
    return order


def dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text, default=None):
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


# ---------------------------------------------------------------------------------------
# Events <-> markers


def events_from_markers(markers, stored, frame_rate, start_frame=0):
    """Rebuilds a clip's events from pose markers, in the markers' order.

    markers: [(name, frame)] in the action's order (import makes them in the stored
    events' order, and moving a marker keeps its place, so the order written is the
    stored one: a format that keeps its events' order, e.g. KH2 triggers, gets it back);
    stored: the events the clip was imported with ({"time", "name", "params"?,
    "end_time"?}). Stored records are matched by name and order (the k-th marker named N
    takes the k-th stored event named N): a marker still on its stored event's frame
    keeps the stored time exactly, a moved one gets frame / rate (its end_time moves with
    it); params and end_time come from the match; markers without a match become events
    without params."""
    by_name = {}
    for e in stored or []:
        by_name.setdefault(e.get("name", ""), []).append(e)
    used = {}
    events = []
    for name, frame in markers:
        k = used.get(name, 0)
        used[name] = k + 1
        time = (frame - start_frame) / frame_rate
        event = {"time": time, "name": name}
        candidates = by_name.get(name, [])
        if k < len(candidates):
            old = candidates[k]
            old_time = float(old.get("time", 0.0))
            if int(round(old_time * frame_rate)) == frame - start_frame:
                time = old_time
                event["time"] = time
            if old.get("params"):
                event["params"] = list(old["params"])
            if "end_time" in old:
                event["end_time"] = float(old["end_time"]) + (time - old_time)
        events.append(event)
    return events


def hidden_ranges(flags):
    """[bool hidden per frame] -> inclusive [first, last] ranges."""
    out = []
    start = None
    for i, h in enumerate(flags):
        if h and start is None:
            start = i
        elif not h and start is not None:
            out.append([start, i - 1])
            start = None
    if start is not None:
        out.append([start, len(flags) - 1])
    return out


def export_clip_name(action_name, stored_name):
    """The clip name to write: the stored one while the action still carries it (Blender
    adds '.001' to a name that is taken), else the action's own name."""
    if not stored_name:
        return action_name
    if action_name == stored_name:
        return stored_name
    head, dot, tail = action_name.rpartition(".")
    if dot and head == stored_name and tail.isdigit() and len(tail) == 3:
        return stored_name
    return action_name

