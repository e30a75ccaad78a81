# Tests of the Blender add-on (blender/animkit_io), run inside Blender:
#
#   blender -b --factory-startup --python-exit-code 1 --python tests/blender/test_addon.py -- \
#       --cli build/release/tools/animkit/animkit --samples samples --out /tmp/out --part import
#
# --part import   every sample file: import with the operator, then every bone at every frame
#                 of every action against the pose composed here from `animkit sample`,
#                 meshes and cameras on their bones, markers against events.
# --part export   round trips (import, export unchanged, `animkit sample` of the new file
#                 against the original's within the format's bound), an edit (one bone
#                 rotated at one frame), a malformed file.
# --only TEXT     only the sample paths that contain TEXT.
#
# The expected poses are composed here from animkit's own output (sample JSON, glTF node
# hierarchy), independently of the add-on's code. Exit 0: passed; 1: a check failed;
# 77: skipped (no animkit executable).

import base64
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback

import addon_utils
import bpy
from mathutils import Matrix, Quaternion, Vector

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
ADDON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "blender"))

IMPORT_EXTENSIONS = (".anm", ".tmd", ".anc", ".anim", ".cinf", ".anb", ".mset", ".mdlx", ".bar", ".motion",
                     ".canm", ".mdb", ".glb", ".gltf")
PSX = ("psx-anm", "psx-tmd", "psx-anc")

# The skeleton each sample is decoded with (animkit's companion rule: same stem, else the
# one whose name starts with the stem, else the only file of the companion kind).
EXPECTED_SKELETON = {
    "edf_canm/soldier5.canm": "soldier.mdb",
    "edf_canm/soldier6.canm": "soldier.mdb",
    "kh2_bar/p_ex00.mset": "ex00.mdlx",
    "kh2_bar/walk.anb": "ex00.mdlx",
    "kh2_bar/raw.anb": "ex00.mdlx",
    "metroid_anim/hologram_v0.anim": "skeleton.cinf",
    "metroid_anim/run.anim": "skeleton.cinf",
    "psx_tmd/figure.anm": "figure.tmd",
    "text_anm/figure.anm": "figure_model.glb",
    "text_anm/authored.anm": "authored.anm.timeline.glb",
}

TOL = 1e-4  # import: translation relative to the model size, rotation in radians, scale

# Round trips: sample -> bound. Bounds: rotation (rad), translation (absolute, or relative
# to the clip's translation range when "rel"), scale.
PS1_ROT = 2 * math.pi / 4096
ROUND_TRIPS = [
    # file, bound dict, why
    ("edf_canm/soldier5.canm", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys"),
    ("edf_canm/soldier6.canm", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys"),
    ("psx_tmd/figure.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("psx_anm/dance.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("psx_anm/wave.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("text_anm/figure.anm", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "floats"),
    ("text_anm/authored.anm", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "floats"),
    ("metroid_anim/run.anim", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-5}, "ANIM v2 encoder tolerances"),
    ("metroid_anim/hologram_v0.anim", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "ANIM v0: floats"),
    ("kh2_bar/walk.anb", {"r": 1e-4, "t_rel": 1e-4, "s": 1e-4}, "KH2 interpolated: --kh2-tolerance 1e-4"),
    ("kh2_bar/p_ex00.mset", {"r": 1e-4, "t_rel": 1e-4, "s": 1e-4}, "KH2 interpolated: --kh2-tolerance 1e-4"),
    ("kh2_bar/raw.anb", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "KH2 raw: float matrices"),
    ("kh2_motion/wave.motion", {"r": 1e-4, "t_rel": 1e-4, "s": 1e-4}, "KH2 interpolated: --kh2-tolerance 1e-4"),
    ("kh2_motion/wave_raw.motion", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "KH2 raw: float matrices"),
    ("psx_anc/orbit.anc", {"r": PS1_ROT, "t_rel": 1e-5, "s": 1e-5}, "PS1 camera"),
]

# Edits: file, bone, frame
EDITS = [
    ("edf_canm/soldier5.canm", "joint_1", 10),
    ("metroid_anim/run.anim", "joint_2", 20),
    ("kh2_bar/walk.anb", "#1", 8),
    ("psx_anm/dance.anm", "#2", 30),
    ("text_anm/figure.anm", "lElbow", 20),
]


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


def up_matrix(up_axis, fmt):
    if up_axis == "AUTO":
        up_axis = "Y_DOWN" if fmt in PSX else "Y_UP"
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
                if strip.action not in out:
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


def check_import(rel, path, up_axis):
    reset()
    arm = import_file(path, up_axis=up_axis)
    fmt = arm["animkit_format"]
    skeleton = arm["animkit_skeleton"]
    want = EXPECTED_SKELETON.get(rel, "")
    check(os.path.basename(skeleton) == want, "%s: skeleton %r, expected %r" % (rel, skeleton, want))
    check(arm["animkit_source"] == os.path.abspath(path), "animkit_source")
    for key in ("animkit_info", "animkit_options", "animkit_rig"):
        json.loads(arm[key])
    up = up_matrix(up_axis, fmt)
    check(all(abs(a - b) < 1e-6 for ra, rb in zip(arm.matrix_world, up) for a, b in zip(ra, rb)),
          "%s: armature object matrix is not the up-axis rotation" % rel)
    up_inv = up.inverted()

    tmp = tempfile.mkdtemp(prefix="animkit_test_")
    try:
        glb = os.path.join(tmp, "ref.glb")
        animkit("convert", path, glb, *(["--skeleton", skeleton] if skeleton else []))
        doc = read_gltf(glb)
    finally:
        shutil.rmtree(tmp)
    samples = sample_json(path, skeleton)
    clips = samples["clips"]
    size = model_size(doc)
    nodes = doc["nodes"]
    actions = actions_in_order(arm)
    check(len(actions) == len(clips), "%s: %d actions for %d clips" % (rel, len(actions), len(clips)))
    scene = bpy.context.scene
    if clips:
        rate = clips[0]["frame_rate"]
        check(abs(scene.render.fps / scene.render.fps_base - rate) < 1e-6, "%s: scene fps" % rel)
        check(arm.animation_data.action == actions[0], "%s: first clip is not the active action" % rel)
    worst = [0.0, 0.0, 0.0]
    frames_checked = 0
    hidden_checked = 0
    mesh_objs = [o for o in bpy.data.objects if o.parent == arm and o.type == "MESH"]
    cam_objs = [o for o in bpy.data.objects if o.parent == arm and o.type == "CAMERA"]
    check(len(mesh_objs) == len(doc.get("meshes", [])), "%s: %d mesh objects for %d glTF meshes" % (
        rel, len(mesh_objs), len(doc.get("meshes", []))))
    check(len(cam_objs) == len(doc.get("cameras", [])), "%s: camera objects" % rel)
    for o in mesh_objs + cam_objs:
        check(o.parent_type == "BONE" and o.parent_bone in arm.pose.bones, "%s: %s not on a bone" % (rel, o.name))

    def check_frame(world, order, label):
        nonlocal hidden_checked
        for j in order:
            name = nodes[j]["name"]
            pb = arm.pose.bones.get(name)
            check(pb is not None, "%s: no bone for joint %s" % (rel, name))
            actual = up_inv @ (arm.matrix_world @ pb.matrix)
            if world[j] is None:
                check(max(scale_of(actual)) < 1e-6, "%s %s: hidden joint %s has scale %s" % (
                    rel, label, name, tuple(scale_of(actual))))
                hidden_checked += 1
                continue
            et, er, es = compare(actual, world[j], size)
            worst[0], worst[1], worst[2] = max(worst[0], et), max(worst[1], er), max(worst[2], es)
            check(et <= TOL and er <= TOL and es <= TOL, "%s %s joint %s: translation %.3g (relative), "
                  "rotation %.3g rad, scale %.3g" % (rel, label, name, et, er, es))

    def check_attached(label):
        for o in mesh_objs + cam_objs:
            pb = arm.pose.bones[o.parent_bone]
            want_m = arm.matrix_world @ pb.matrix
            et, er, es = compare(o.matrix_world, want_m, size)
            if max(scale_of(want_m)) < 1e-6:
                check(max(scale_of(o.matrix_world)) < 1e-6, "%s %s: %s visible on a hidden bone" % (rel, label, o.name))
                continue
            check(et <= TOL and er <= TOL and es <= TOL, "%s %s: object %s is not on its bone's pose "
                  "(%.3g, %.3g, %.3g)" % (rel, label, o.name, et, er, es))

    if not clips:
        # A skeleton or model alone: the rest pose.
        bpy.context.view_layer.update()
        rest = {"space": "local", "joints": [], "frames": [[]]}
        world, order = expected_poses(doc, rest)
        check_frame(world[0], order, "rest")
        check_attached("rest")
        frames_checked = 1
    for k, clip in enumerate(clips):
        action = actions[k]
        check(action.name == clip["name"] or action.name.startswith(clip["name"] + "."),
              "%s: action %s for clip %s" % (rel, action.name, clip["name"]))
        arm.animation_data.action = action
        expected, order = expected_poses(doc, clip)
        cams = camera_track(doc, k, len(clip["frames"]), clip["frame_rate"]) if cam_objs else {}
        for f, world in enumerate(expected):
            scene.frame_set(f)
            check_frame(world, order, "clip %s frame %d" % (clip["name"], f))
            check_attached("clip %s frame %d" % (clip["name"], f))
            for o in cam_objs:
                want_m = cams[o.parent_bone][f]
                et, er, es = compare(up_inv @ o.matrix_world, want_m, size)
                worst[0], worst[1] = max(worst[0], et), max(worst[1], er)
                check(et <= TOL and er <= TOL, "%s frame %d: camera %.3g %.3g" % (rel, f, et, er))
            frames_checked += 1
        # markers = events
        rate = clip["frame_rate"]
        markers = sorted((m.frame, m.name) for m in action.pose_markers)
        events = sorted((e["time"] * rate, e["name"]) for e in clip["events"])
        check(len(markers) == len(events), "%s clip %s: %d markers for %d events" % (
            rel, clip["name"], len(markers), len(events)))
        for (mf, mn), (ef, en) in zip(markers, events):
            check(mn == en and abs(mf - ef) <= 0.5, "%s clip %s: marker %s@%d for event %s@%.2f" % (
                rel, clip["name"], mn, mf, en, ef))
    print("import %-32s skeleton %-26s up %-6s %2d joints %2d clips %4d frames %d hidden  worst t %.2e r %.2e s %.2e"
          % (rel, os.path.basename(skeleton) or "-", up_axis, len(doc.get("skins", [{}])[0].get("joints", []))
             if doc.get("skins") else 0, len(clips), frames_checked, hidden_checked, worst[0], worst[1], worst[2]))
    sys.stdout.flush()


def sample_files():
    out = []
    for folder in sorted(os.listdir(ARGS["samples"])):
        d = os.path.join(ARGS["samples"], folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.lower().endswith(IMPORT_EXTENSIONS):
                rel = folder + "/" + name
                if ARGS["only"] in rel:
                    out.append((rel, os.path.join(d, name)))
    return out


def part_import():
    sys.path.insert(0, HERE)
    import test_modules
    check(test_modules.run(ARGS["samples"]), "the pure modules' checks failed (test_modules.py)")
    axes = ["AUTO", "Y_UP", "KEEP", "Y_DOWN"]
    files = sample_files()
    check(files, "no sample files under %s" % ARGS["samples"])
    for k, (rel, path) in enumerate(files):
        check_import(rel, path, axes[k % len(axes)])
    return len(files)


# ---------------------------------------------------------------------------------------
# Export checks


def translation_range(clip):
    lo = [float("inf")] * 3
    hi = [float("-inf")] * 3
    for row in clip["frames"]:
        for v in row:
            if v is not None:
                for k in range(3):
                    lo[k] = min(lo[k], v["t"][k])
                    hi[k] = max(hi[k], v["t"][k])
    if lo[0] == float("inf"):
        return 0.0
    return max(hi[k] - lo[k] for k in range(3))


def compare_samples(label, original, written, bound, skip_frames=(), same_joints=False):
    """Clip by clip, joint by joint (the original's joints), frame by frame: the worst
    errors (rotation rad, translation, scale); raises when over the bound."""
    check(len(original["clips"]) == len(written["clips"]), "%s: %d clips written for %d" % (
        label, len(written["clips"]), len(original["clips"])))
    worst = [0.0, 0.0, 0.0]
    for a, b in zip(original["clips"], written["clips"]):
        check(a["name"] == b["name"], "%s: clip %s written as %s" % (label, a["name"], b["name"]))
        check(len(a["frames"]) == len(b["frames"]), "%s clip %s: %d frames written for %d" % (
            label, a["name"], len(b["frames"]), len(a["frames"])))
        check(abs(a["frame_rate"] - b["frame_rate"]) < 1e-6, "%s clip %s: frame rate" % (label, a["name"]))
        check(a["loop"] == b["loop"], "%s clip %s: loop" % (label, a["name"]))
        t_bound = bound.get("t", 0.0)
        if "t_rel" in bound:
            t_bound = bound["t_rel"] * max(translation_range(a), 1e-3)
        col_b = {n: c for c, n in enumerate(b["joints"])}
        if same_joints:  # else the encoder may add joints (KH2 raw: every skeleton bone)
            check(sorted(a["joints"]) == sorted(b["joints"]), "%s clip %s: joints %s written as %s" % (
                label, a["name"], a["joints"], b["joints"]))
        for ca, name in enumerate(a["joints"]):
            check(name in col_b, "%s clip %s: joint %s not written" % (label, a["name"], name))
            cb = col_b[name]
            for f, (ra, rb) in enumerate(zip(a["frames"], b["frames"])):
                if f in skip_frames:
                    continue
                va, vb = ra[ca], rb[cb]
                check((va is None) == (vb is None), "%s clip %s frame %d joint %s: visibility differs" % (
                    label, a["name"], f, name))
                if va is None:
                    continue
                er = quat_angle(va["r"], vb["r"])
                et = max(abs(x - y) for x, y in zip(va["t"], vb["t"]))
                es = max(abs(x - y) for x, y in zip(va["s"], vb["s"]))
                worst[0], worst[1], worst[2] = max(worst[0], er), max(worst[1], et), max(worst[2], es)
                check(er <= bound["r"] * 1.0001 and et <= t_bound * 1.0001 + 1e-7 and es <= bound["s"] + 1e-7,
                      "%s clip %s frame %d joint %s: rotation %.3g rad (bound %.3g), translation %.3g (bound %.3g), "
                      "scale %.3g" % (label, a["name"], f, name, er, bound["r"], et, t_bound, es))
        ea = [(e["name"], e["time"]) for e in a["events"]]
        eb = [(e["name"], e["time"]) for e in b["events"]]
        check(len(ea) == len(eb) and all(x[0] == y[0] and abs(x[1] - y[1]) < 1e-4 for x, y in zip(ea, eb)),
              "%s clip %s: events %s written as %s" % (label, a["name"], ea, eb))
    return worst


def written_skeleton(out_path, fmt, skeleton):
    """A text ANM cuts the source's timeline while unedited, else its new one beside it."""
    if fmt == "text-anm" and os.path.isfile(out_path + ".timeline.glb"):
        return out_path + ".timeline.glb"
    return skeleton


def camera_frames(path):
    tmp = tempfile.mkdtemp(prefix="animkit_test_")
    try:
        glb = os.path.join(tmp, "cam.glb")
        animkit("convert", path, glb)
        doc = read_gltf(glb)
    finally:
        shutil.rmtree(tmp)
    ext = doc["animations"][0]["extras"]["animkit"]
    return camera_track(doc, 0, ext["frame_count"], ext["frame_rate"])


def round_trip(rel, bound, why, out_dir):
    path = os.path.join(ARGS["samples"], rel)
    reset()
    arm = import_file(path)
    skeleton = arm["animkit_skeleton"]
    fmt = arm["animkit_format"]
    out = os.path.join(out_dir, rel.replace("/", "_"))
    for stale in (out, out + ".timeline.glb"):
        if os.path.exists(stale):
            os.remove(stale)
    t0 = time.time()
    try:
        result = bpy.ops.export_scene.animkit(filepath=out)
    except RuntimeError as e:
        raise Failure("export %s: %s" % (rel, e))
    check(result == {"FINISHED"}, "export %s returned %s" % (rel, result))
    check(os.path.isfile(out), "export %s wrote nothing" % rel)
    original = sample_json(path, skeleton)
    written = sample_json(out, written_skeleton(out, fmt, skeleton))
    # A text ANM's sets are the joints each clip animates: the same joints must come back.
    worst = compare_samples("round trip " + rel, original, written, bound, same_joints=fmt == "text-anm")
    v_orig = json.loads(animkit("info", path, "--json")).get("version")
    v_out = json.loads(animkit("info", out, "--json")).get("version")
    check(v_orig == v_out, "round trip %s: version %s written as %s" % (rel, v_orig, v_out))
    if fmt == "psx-anc":
        # Nothing changed in Blender: the camera's raw values and aim come back exactly.
        with open(path, "rb") as fa, open(out, "rb") as fb:
            check(fa.read() == fb.read(), "round trip %s: the ANC is not the same file" % rel)
        a, b = camera_frames(path), camera_frames(out)
        for name in a:
            for f, (ma, mb) in enumerate(zip(a[name], b[name])):
                er = rotation_angle(ma, mb)
                check(er <= bound["r"], "round trip %s frame %d: camera rotation %.3g" % (rel, f, er))
                worst[0] = max(worst[0], er)
    frames = sum(len(c["frames"]) for c in original["clips"])
    print("export %-32s -> %-6s %d clips %4d frames  worst r %.2e rad  t %.2e  s %.2e  (bound: %s)  %.1f s" % (
        rel, os.path.splitext(out)[1], len(original["clips"]), frames, worst[0], worst[1], worst[2], why,
        time.time() - t0))
    sys.stdout.flush()


def edit_test(rel, bone, frame, out_dir):
    path = os.path.join(ARGS["samples"], rel)
    reset()
    arm = import_file(path)
    skeleton = arm["animkit_skeleton"]
    scene = bpy.context.scene
    scene.frame_set(frame)
    pb = arm.pose.bones[bone]
    extra = Quaternion(Vector((0.3, 1.0, 0.2)).normalized(), math.radians(30.0))
    pb.rotation_quaternion = pb.rotation_quaternion @ extra
    check(pb.keyframe_insert("rotation_quaternion", frame=frame, group=bone), "keyframe_insert failed")
    out = os.path.join(out_dir, "edited_" + rel.replace("/", "_"))
    for stale in (out, out + ".timeline.glb"):
        if os.path.exists(stale):
            os.remove(stale)
    check(bpy.ops.export_scene.animkit(filepath=out, clips="ACTIVE") == {"FINISHED"}, "export of the edit failed")
    original = sample_json(path, skeleton)
    written = sample_json(out, written_skeleton(out, arm["animkit_format"], skeleton))
    clip_name = original["clips"][0]["name"]
    a = original["clips"][0]
    b = next(c for c in written["clips"] if c["name"] == clip_name)
    ca, cb = a["joints"].index(bone), b["joints"].index(bone)
    angles = [quat_angle(ra[ca]["r"], rb[cb]["r"]) for ra, rb in zip(a["frames"], b["frames"])]
    changed = math.degrees(angles[frame])
    check(25.0 < changed < 35.0, "edit %s: bone %s frame %d turned %.2f degrees, expected 30" % (rel, bone, frame, changed))
    far = [f for f in range(len(angles)) if abs(f - frame) >= 2]
    worst_far = max(angles[f] for f in far)
    check(worst_far < 2e-3, "edit %s: frames away from %d changed by %.3g rad" % (rel, frame, worst_far))
    # The other joints and frames stay within the format's bound.
    bound = next(b for r, b, _ in ROUND_TRIPS if r == rel)
    compare_samples("edit " + rel, {"clips": [a]}, {"clips": [b]},
                    dict(bound, r=bound["r"]), skip_frames=set(range(frame - 1, frame + 2)))
    print("edit   %-32s bone %s frame %d: +%.2f degrees there, largest change elsewhere %.2e rad"
          % (rel, bone, frame, changed, worst_far))


def malformed_test():
    reset()
    src = os.path.join(ARGS["samples"], "edf_canm", "soldier5.canm")
    folder = tempfile.mkdtemp(prefix="animkit_malformed_")
    bad = os.path.join(folder, "truncated.canm")
    with open(src, "rb") as f:
        data = f.read()
    with open(bad, "wb") as f:
        f.write(data[:100])
    message = ""
    try:
        result = bpy.ops.import_scene.animkit(filepath=bad)
        check(result == {"CANCELLED"}, "malformed import returned %s" % result)
    except RuntimeError as e:
        message = str(e)
    check("Traceback" not in message, "malformed import raised a Python error: %s" % message)
    check(bad in message and "offset" in message, "malformed import: message %r does not name the file and "
          "offset" % message)
    shutil.rmtree(folder)
    check(not [o for o in bpy.data.objects if o.type == "ARMATURE"], "malformed import left an armature")
    print("error  %-32s CANCELLED: %s" % ("truncated soldier5.canm", message.strip().splitlines()[-1]))


def made_in_blender_test(out_dir):
    """An armature made in Blender (no animkit properties) exported as a text ANM: the
    written poses, composed down the written skeleton, are Blender's pose matrices."""
    reset()
    arm_data = bpy.data.armatures.new("made")
    arm = bpy.data.objects.new("made", arm_data)
    bpy.context.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    a = arm_data.edit_bones.new("hip")
    a.head, a.tail, a.roll = (0, 0, 1), (0, 0.2, 1.6), 0.3
    b = arm_data.edit_bones.new("leg")
    b.head, b.tail = (0.3, 0, 1), (0.3, 0.1, 0.1)
    b.parent = a
    bpy.ops.object.mode_set(mode="OBJECT")
    action = bpy.data.actions.new("swing")
    arm.animation_data_create().action = action
    scene = bpy.context.scene
    for f in range(0, 11, 5):
        scene.frame_set(f)
        pb = arm.pose.bones["leg"]
        pb.rotation_mode = "XYZ"
        pb.rotation_euler = (math.radians(9 * f), 0.0, math.radians(2 * f))
        pb.keyframe_insert("rotation_euler", frame=f)
        root = arm.pose.bones["hip"]
        root.location = (0.0, 0.05 * f, 0.0)
        root.keyframe_insert("location", frame=f)
    out = os.path.join(out_dir, "made.anm")
    check(bpy.ops.export_scene.animkit(filepath=out, anm_kind="text-anm") == {"FINISHED"}, "export failed")
    timeline = out + ".timeline.glb"
    written = sample_json(out, timeline)
    doc = read_gltf(timeline)
    clip = written["clips"][0]
    check(len(clip["frames"]) == 11, "made: %d frames written for 11" % len(clip["frames"]))
    expected, order = expected_poses(doc, clip)
    worst = [0.0, 0.0]
    for f, world in enumerate(expected):
        scene.frame_set(f)
        for j in order:
            name = doc["nodes"][j]["name"]
            et, er, es = compare(arm.pose.bones[name].matrix, world[j], 2.0)
            worst = [max(worst[0], et), max(worst[1], er)]
            check(et < 1e-5 and er < 1e-5 and es < 1e-5, "made frame %d bone %s: %.3g %.3g %.3g" % (
                f, name, et, er, es))
    print("export %-32s -> .anm  1 clip %4d frames  worst t %.2e r %.2e (a Blender-made armature)" % (
        "(armature made in Blender)", len(clip["frames"]), worst[0], worst[1]))


def part_export():
    out_dir = ARGS["out"]
    os.makedirs(out_dir, exist_ok=True)
    n = 0
    for rel, bound, why in ROUND_TRIPS:
        if ARGS["only"] in rel:
            round_trip(rel, bound, why, out_dir)
            n += 1
    for rel, bone, frame in EDITS:
        if ARGS["only"] in rel:
            edit_test(rel, bone, frame, out_dir)
            n += 1
    if ARGS["only"] in "malformed":
        malformed_test()
        n += 1
    if ARGS["only"] in "made":
        made_in_blender_test(out_dir)
        n += 1
    return n


# ---------------------------------------------------------------------------------------


def main():
    if not CLI or not os.path.isfile(CLI):
        print("animkit executable not found (%r): skipped" % CLI)
        sys.stdout.flush()
        os._exit(SKIP)
    os.makedirs(ARGS["out"] or tempfile.gettempdir(), exist_ok=True)
    enable_addon()
    t0 = time.time()
    count = 0
    try:
        if ARGS["part"] in ("import", "all"):
            count += part_import()
        if ARGS["part"] in ("export", "all"):
            count += part_export()
    except Failure as e:
        print("FAILED: %s" % e)
        sys.stdout.flush()
        os._exit(1)
    except Exception:
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(1)
    print("OK: %d checks in %.1f s (Blender %s)" % (count, time.time() - t0, bpy.app.version_string))
    sys.stdout.flush()


main()
