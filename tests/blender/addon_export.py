# --part export of test_addon.py: round trips, edits, a malformed file and an armature
# made in Blender.

import json
import math
import os
import shutil
import sys
import tempfile
import time

import bpy
from mathutils import Quaternion, Vector

from addon_export_keys import check_keys_as_curves
from addon_common import (ARGS, Failure, action_api, animkit, camera_track, check, compare, expected_poses,
                          import_file, quat_angle, read_gltf, reset, rotation_angle, sample_json, turn_bone)


# Round trips: sample -> bound. Bounds: rotation (rad), translation (absolute, or relative
# to the clip's translation range when "rel"), scale.
PS1_ROT = 2 * math.pi / 4096
ROUND_TRIPS = [
    # file, bound dict, why
    ("edf_canm/soldier5.canm", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys"),
    ("edf_canm/soldier6.canm", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys"),
    ("edf_cas/soldier5.cas", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys, in its set"),
    ("edf_cas/soldier6.cas", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-3}, "CANM 16-bit keys, in its set"),
    ("psx_tmd/figure.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("psx_anm/dance.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("psx_anm/wave.anm", {"r": PS1_ROT, "t": 1.0, "s": 1e-5}, "PS1: 4096 per turn, whole units"),
    ("text_anm/figure.anm", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "floats"),
    ("text_anm/authored.anm", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "floats"),
    ("metroid_anim/run.anim", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-5}, "ANIM v2 encoder tolerances"),
    ("metroid_anim/hologram_v0.anim", {"r": 1e-5, "t_rel": 1e-5, "s": 1e-5}, "ANIM v0: floats"),
    ("metroid_character/Character.pak", {"r": 1e-3, "t_rel": 1e-3, "s": 1e-5}, "a PAK's character: its ANIMs' v2 tolerances"),
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
    ("edf_cas/soldier6.cas", "joint_1", 5),
    ("metroid_anim/run.anim", "joint_2", 20),
    ("metroid_character/Character.pak", "chest", 20),
    ("kh2_bar/walk.anb", "#1", 8),
    ("psx_anm/dance.anm", "#2", 30),
    ("text_anm/figure.anm", "lElbow", 20),
]


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


def _edit_span(arm, bone, frame):
    """The frames an edit key at `frame` may move: those between the keys next to it (a
    control rig's Euler curves interpolate across them), else the frame and its neighbours."""
    rig = json.loads(arm["animkit_rig"])
    control = next((n.get("control") for n in rig["nodes"] if n["name"] == bone), None)
    if not control:
        return frame - 2, frame + 2
    lo, hi = frame - 2, frame + 2
    path = 'pose.bones["%s"].rotation_euler' % control
    for fc in action_api.fcurves(arm.animation_data.action):
        if fc.data_path == path:
            keys = [p.co[0] for p in fc.keyframe_points]
            lo = min(lo, max((k for k in keys if k < frame - 0.5), default=lo))
            hi = max(hi, min((k for k in keys if k > frame + 0.5), default=hi))
    return int(math.floor(lo)), int(math.ceil(hi))


def edit_test(rel, bone, frame, out_dir):
    path = os.path.join(ARGS["samples"], rel)
    reset()
    arm = import_file(path)
    skeleton = arm["animkit_skeleton"]
    scene = bpy.context.scene
    scene.frame_set(frame)
    extra = Quaternion(Vector((0.3, 1.0, 0.2)).normalized(), math.radians(30.0))
    check(turn_bone(arm, bone, frame, extra), "keyframe_insert failed")
    out = os.path.join(out_dir, "edited_" + rel.replace("/", "_"))
    for stale in (out, out + ".timeline.glb"):
        if os.path.exists(stale):
            os.remove(stale)
    lo, hi = _edit_span(arm, bone, frame)
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
    far = [f for f in range(len(angles)) if f <= lo or f >= hi]
    worst_far = max(angles[f] for f in far)
    check(worst_far < 2e-3, "edit %s: frames away from %d changed by %.3g rad" % (rel, frame, worst_far))
    # The other joints and frames stay within the format's bound.
    bound = next(b for r, b, _ in ROUND_TRIPS if r == rel)
    compare_samples("edit " + rel, {"clips": [a]}, {"clips": [b]},
                    dict(bound, r=bound["r"]), skip_frames=set(range(lo + 1, hi)))
    if rel.endswith(".cas"):
        check_set_kept(path, out, clip_name)
    print("edit   %-32s bone %s frame %d: +%.2f degrees there, largest change elsewhere %.2e rad"
          % (rel, bone, frame, changed, worst_far))


def check_set_kept(original, edited, clip_name):
    """An edited clip exported into its CAS changes the CANM only: every table of the set
    (players, states, commands, controls, bones) and every other clip stay as they were."""
    a = json.loads(animkit("info", original, "--json", "--full"))
    b = json.loads(animkit("info", edited, "--json", "--full"))
    for key in ("version", "tcontrols", "vcontrols", "anmgroups", "bones", "unnamed_group", "canm_offset"):
        check(a["fields"][key] == b["fields"][key], "edit %s: the set's %s changed" % (original, key))
    others = [c["name"] for c in a["clips"] if c["name"] != clip_name]
    sa, sb = sample_json(original, "none"), sample_json(edited, "none")
    for name in others:
        ca = next(c for c in sa["clips"] if c["name"] == name)
        cb = next(c for c in sb["clips"] if c["name"] == name)
        check(ca == cb, "edit %s: clip %s, not edited, changed" % (original, name))
    check([c["name"] for c in a["clips"]] == [c["name"] for c in b["clips"]], "edit %s: the clip order changed" % original)


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
    action_api.assign(arm.animation_data_create(), action)
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
    check(bpy.ops.export_scene.animkit(filepath=out, output_format="text-anm") == {"FINISHED"}, "export failed")
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


def scaled_round_trip_test(out_dir):
    """An import at another scale scales only the armature object: the meshes stand that
    much taller or shorter in Blender, and the export writes the same bytes as an import at
    scale 1 does (docs/blender.md, "Units")."""
    n = 0
    for rel in ("kh2_bar/ex00.mdlx", "kh2_bar/walk.anb", "psx_tmd/figure.tmd"):
        path = os.path.join(ARGS["samples"], rel)
        written, heights = [], []
        for scale in (1.0, 0.01):
            reset()
            arm = import_file(path, scale=scale)
            near = lambda v: abs(v - scale) <= 1e-6 * scale  # noqa: E731 (the property is a float32)
            check(near(arm.matrix_world.to_scale().x) and near(arm["animkit_scale"]),
                  "%s at scale %g: the armature's scale is %s" % (rel, scale, tuple(arm.matrix_world.to_scale())))
            bpy.context.view_layer.update()
            zs = [(o.matrix_world @ Vector(c)).z for o in bpy.data.objects if o.type == "MESH" for c in o.bound_box]
            heights.append(max(zs) - min(zs) if zs else 0.0)
            out = os.path.join(out_dir, "scaled_%g_%s" % (scale, rel.replace("/", "_")))
            if os.path.exists(out):
                os.remove(out)
            check(bpy.ops.export_scene.animkit(filepath=out) == {"FINISHED"}, "export %s at scale %g" % (rel, scale))
            with open(out, "rb") as f:
                written.append(f.read())
        check(written[0] == written[1], "%s: an import at scale 0.01 exports other bytes than at scale 1" % rel)
        check(abs(heights[1] - heights[0] * 0.01) <= 1e-5 * max(1.0, heights[0]),
              "%s: the meshes span %g m at scale 0.01, %g at 1" % (rel, heights[1], heights[0]))
        print("scaled import %-24s exports the same %d bytes at scale 0.01 as at 1 (meshes %.4g m -> %.4g m)" % (
            rel, len(written[0]), heights[0], heights[1]))
        n += 1
    return n


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
    if ARGS["only"] in "scaled":
        n += scaled_round_trip_test(out_dir)
    if ARGS["only"] in "kh2_bar/walk.anb keys":
        import test_export_keys
        check(test_export_keys.run(), "export_keys' checks failed (test_export_keys.py)")
        n += check_keys_as_curves(ARGS["samples"], out_dir)
    return n
