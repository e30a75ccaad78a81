# The add-on tests' shared part (runs inside Blender): arguments, animkit runs, the
# test's own glTF reader and pose composition (independent of the add-on's code), and
# the Blender helpers. test_addon.py runs the parts.

import base64
import json
import math
import os
import struct
import subprocess
import sys

import addon_utils
import bpy
from mathutils import Matrix, Quaternion, Vector


SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
ADDON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "blender"))
PSX = ("psx-anm", "psx-tmd", "psx-anc")


class _AddonModule:
    """An add-on module imported on first use (after enable_addon has loaded the add-on):
    the tests reach actions only through the add-on's action_api, as the add-on does."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        import importlib
        return getattr(importlib.import_module("animkit_io.blender." + self._name), attr)


action_api = _AddonModule("action_api")
class Failure(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


# ---------------------------------------------------------------------------------------
# Arguments, animkit


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    args = {"cli": "", "samples": "", "out": "", "part": "all", "only": ""}
    k = 0
    while k < len(argv):
        key = argv[k].lstrip("-")
        if key not in args or k + 1 >= len(argv):
            raise SystemExit("unknown or incomplete argument: %s" % argv[k])
        args[key] = argv[k + 1]
        k += 2
    return args


ARGS = parse_args()
CLI = ARGS["cli"]


def animkit(*args):
    proc = subprocess.run([CLI] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise Failure("animkit %s failed: %s" % (" ".join(str(a) for a in args), proc.stderr.decode().strip()))
    return proc.stdout.decode()


def sample_json(path, skeleton=""):
    return json.loads(animkit("sample", path, *(["--skeleton", skeleton] if skeleton else [])))


# ---------------------------------------------------------------------------------------
# A minimal glTF reader of our own (JSON, nodes, float accessors)


def read_gltf(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        jlen = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + jlen])
        rest = 20 + jlen
        binary = data[rest + 8:] if rest + 8 <= len(data) else b""
    else:
        doc = json.loads(data)
        binary = b""
    bufs = []
    for b in doc.get("buffers", []):
        uri = b.get("uri")
        bufs.append(base64.b64decode(uri.split(",", 1)[1]) if uri else binary)

    def accessor(i):
        a = doc["accessors"][i]
        view = doc["bufferViews"][a["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
        check(a["componentType"] == 5126, "test reader: float accessors only")
        start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = view.get("byteStride", 4 * width)
        return [struct.unpack_from("<%df" % width, bufs[view["buffer"]], start + k * stride) for k in range(a["count"])]

    doc["_accessor"] = accessor
    return doc


def node_parents(doc):
    parents = {}
    for i, n in enumerate(doc.get("nodes", [])):
        for c in n.get("children", []):
            parents[c] = i
    return parents


def trs(t, r, s):
    return Matrix.LocRotScale(Vector(t), Quaternion((r[3], r[0], r[1], r[2])), Vector(s))


def node_rest(n):
    if "matrix" in n:
        m = n["matrix"]
        return Matrix([[m[0], m[4], m[8], m[12]], [m[1], m[5], m[9], m[13]], [m[2], m[6], m[10], m[14]],
                       [m[3], m[7], m[11], m[15]]])
    return trs(n.get("translation", (0, 0, 0)), n.get("rotation", (0, 0, 0, 1)), n.get("scale", (1, 1, 1)))


def quat_angle(a, b):
    """Angle (rad) between two rotations given as x, y, z, w; computed in double precision
    as 2 atan2(|v|, |w|) of a^-1 b (acos of a dot product near 1 loses half the digits)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    w = aw * bw + ax * bx + ay * by + az * bz
    x = aw * bx - ax * bw - ay * bz + az * by
    y = aw * by + ax * bz - ay * bw - az * bx
    z = aw * bz - ax * by + ay * bx - az * bw
    return 2.0 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))


def rotation_angle(a, b):
    """Angle (rad) between the rotation parts of two matrices (scale removed)."""
    qa = a.to_3x3().normalized().to_quaternion()
    qb = b.to_3x3().normalized().to_quaternion()
    return quat_angle((qa.x, qa.y, qa.z, qa.w), (qb.x, qb.y, qb.z, qb.w))


def scale_of(m):
    return Vector([m.col[k].xyz.length for k in range(3)])


# ---------------------------------------------------------------------------------------
# Blender set-up


def enable_addon():
    if ADDON_DIR not in sys.path:
        sys.path.insert(0, ADDON_DIR)
    mod = addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    check(mod is not None, "the add-on did not load from %s" % ADDON_DIR)
    prefs = bpy.context.preferences.addons["animkit_io"].preferences
    prefs.use_custom_animkit = True
    prefs.animkit_path = CLI


def reset():
    if bpy.context.object is not None and bpy.context.object.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras,
                 bpy.data.materials):
        for item in list(coll):
            coll.remove(item)


def import_file(path, **kw):
    before = set(bpy.data.objects)
    result = bpy.ops.import_scene.animkit(filepath=path, **kw)
    check(result == {"FINISHED"}, "import %s returned %s" % (path, result))
    arms = [o for o in bpy.data.objects if o not in before and o.type == "ARMATURE"]
    check(len(arms) == 1, "import %s made %d armatures" % (path, len(arms)))
    return arms[0]


def turn_bone(arm, bone, frame, extra):
    """What a user does to turn a joint by the quaternion `extra` at `frame` (the scene
    there): keys the bone's rotation, or, on a control rig (clips with their own curves),
    its control bone's Euler rotation (a key on each axis's curve)."""
    rig = json.loads(arm["animkit_rig"])
    control = next((n.get("control") for n in rig["nodes"] if n["name"] == bone), None)
    if control:
        pb = arm.pose.bones[control]
        turned = pb.rotation_euler.to_quaternion() @ extra
        pb.rotation_euler = turned.to_euler(pb.rotation_mode, pb.rotation_euler)
        return pb.keyframe_insert("rotation_euler", frame=frame, group=control)
    pb = arm.pose.bones[bone]
    pb.rotation_quaternion = pb.rotation_quaternion @ extra
    return pb.keyframe_insert("rotation_quaternion", frame=frame, group=bone)


def up_matrix(up_axis, fmt):
    if up_axis == "AUTO":
        up_axis = "Y_DOWN" if fmt in PSX else "KEEP" if fmt.startswith("metroid-") else "Y_UP"
    if up_axis == "Y_UP":
        return Matrix.Rotation(math.pi / 2, 4, "X")
    if up_axis == "Y_DOWN":
        return Matrix.Rotation(-math.pi / 2, 4, "X")
    return Matrix.Identity(4)


def actions_in_order(arm):
    ad = arm.animation_data
    out = []
    if ad:
        for track in ad.nla_tracks:
            for strip in track.strips:
                if strip.action not in out and not strip.action.get("animkit_rest_pose", False):
                    out.append(strip.action)
    return out


# ---------------------------------------------------------------------------------------
# Import checks


def expected_poses(doc, clip):
    """Per frame: {node index: model-space matrix or None (hidden)}, composed from the
    sample JSON and the glTF hierarchy (joints not in the clip take their rest)."""
    nodes = doc["nodes"]
    parents = node_parents(doc)
    skins = doc.get("skins", [])
    joints = skins[0]["joints"] if skins else []
    by_name = {}
    for j in joints:
        by_name.setdefault(nodes[j]["name"], j)
    col = {by_name[n]: c for c, n in enumerate(clip["joints"]) if n in by_name}
    joint_set = set(joints)

    def joint_parent(j):
        p = parents.get(j)
        while p is not None and p not in joint_set:
            p = parents.get(p)
        return p

    order = []
    placed = set()
    pending = list(joints)
    while pending:
        nxt = []
        for j in pending:
            p = joint_parent(j)
            if p is None or p in placed:
                order.append(j)
                placed.add(j)
            else:
                nxt.append(j)
        check(len(nxt) < len(pending), "joint hierarchy has a cycle")
        pending = nxt
    model_space = clip.get("space") == "model"
    out = []
    for row in clip["frames"]:
        world = {}
        hidden = set()
        for j in order:
            p = joint_parent(j)
            if p in hidden:
                hidden.add(j)
                world[j] = None
                continue
            if j in col:
                v = row[col[j]]
                if v is None:
                    hidden.add(j)
                    world[j] = None
                    continue
                m = trs(v["t"], v["r"], v["s"])
                world[j] = m if model_space or p is None else world[p] @ m
            else:
                m = node_rest(nodes[j])
                world[j] = m if p is None else world[p] @ m
        out.append(world)
    return out, order


def model_size(doc):
    nodes = doc["nodes"]
    parents = node_parents(doc)
    pts = []
    for i in range(len(nodes)):
        m = node_rest(nodes[i])
        p = parents.get(i)
        while p is not None:
            m = node_rest(nodes[p]) @ m
            p = parents.get(p)
        pts.append(m.translation)
    if not pts:
        return 1.0
    return max(1.0, max(max(p[k] for p in pts) - min(p[k] for p in pts) for k in range(3)))


def camera_track(doc, anim_index, frame_count, rate):
    """Camera nodes' model-space matrix per frame, from the glTF's channels (STEP/LINEAR)."""
    nodes = doc["nodes"]
    parents = node_parents(doc)
    anim = doc["animations"][anim_index]
    out = {}
    for i, n in enumerate(nodes):
        if "camera" not in n:
            continue
        chans = {}
        for ch in anim["channels"]:
            if ch["target"].get("node") == i:
                s = anim["samplers"][ch["sampler"]]
                chans[ch["target"]["path"]] = (doc["_accessor"](s["input"]), doc["_accessor"](s["output"]))
        frames = []
        for f in range(frame_count):
            t = f / rate
            vals = {}
            for path, (times, values) in chans.items():
                k = 0
                while k + 1 < len(times) and times[k + 1][0] <= t + 1e-6:
                    k += 1
                vals[path] = values[k]
            m = trs(vals.get("translation", n.get("translation", (0, 0, 0))),
                    vals.get("rotation", n.get("rotation", (0, 0, 0, 1))),
                    vals.get("scale", n.get("scale", (1, 1, 1))))
            p = parents.get(i)
            while p is not None:
                m = node_rest(nodes[p]) @ m
                p = parents.get(p)
            frames.append(m)
        out[n["name"]] = frames
    return out


def compare(actual, expected, size):
    et = (actual.translation - expected.translation).length / size
    er = rotation_angle(actual, expected)
    es = max(abs(a - b) for a, b in zip(scale_of(actual), scale_of(expected)))
    return et, er, es
