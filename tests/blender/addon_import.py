# --part import of test_addon.py: every sample imported with the operator, then every
# bone at every frame of every action against the pose composed from `animkit sample`.

import json
import math
import os
import shutil
import sys
import tempfile

import bpy

from addon_common import (ADDON_DIR, ARGS, CLI, HERE, Failure, action_api, actions_in_order, animkit, camera_track,
                          check, compare, expected_poses, import_file, model_size, read_gltf, reset, sample_json,
                          scale_of, up_matrix)


IMPORT_EXTENSIONS = (".anm", ".tmd", ".anc", ".anim", ".cinf", ".anb", ".mset", ".mdlx", ".bar", ".motion",
                     ".canm", ".mdb", ".cas", ".rab", ".mrab", ".glb", ".gltf", ".pak")
# The skeleton each sample is decoded with (animkit's companion rule: same stem, else the
# one whose name starts with the stem, else the only file of the companion kind).
EXPECTED_SKELETON = {
    "edf_canm/soldier5.canm": "soldier.mdb",
    "edf_canm/soldier6.canm": "soldier.mdb",
    "edf_cas/soldier5.cas": "soldier.rab",
    "edf_cas/soldier6.cas": "soldier.rab",
    "kh2_bar/p_ex00.mset": "ex00.mdlx",
    "kh2_bar/walk.anb": "ex00.mdlx",
    "kh2_bar/raw.anb": "ex00.mdlx",
    "metroid_anim/hologram_v0.anim": "skeleton.cinf",
    "metroid_anim/run.anim": "skeleton.cinf",
    "metroid_anim_echoes/swim.anim": "skeleton.cinf",
    "psx_tmd/figure.anm": "figure.tmd",
    "text_anm/figure.anm": "figure_model.glb",
    "text_anm/authored.anm": "authored.anm.timeline.glb",
}

TOL = 1e-4  # import: translation relative to the model size, rotation in radians, scale
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
    # A skinned mesh (its node has a skin) sits on the armature object with an Armature
    # modifier (--part skin checks its deformation); the others on their bones.
    skinned_names = {doc["meshes"][n["mesh"]].get("name", "") for n in doc["nodes"] if "mesh" in n and "skin" in n}
    skinned = [o for o in mesh_objs if o.get("animkit_mesh_name") in skinned_names and o.parent_type == "OBJECT"
               and any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers)]
    check(len(skinned) == sum(1 for n in doc["nodes"] if "mesh" in n and "skin" in n),
          "%s: %d skinned mesh objects on the armature" % (rel, len(skinned)))
    mesh_objs = [o for o in mesh_objs if o not in skinned]
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
        action_api.assign(arm.animation_data, action)
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
        check_markers(rel, action, clip)
    keyed = (check_keyframes_and_properties(rel, arm, doc, actions, clips) +
             check_curves_one_to_one(rel, path, arm, actions))
    joints = len(doc["skins"][0].get("joints", [])) if doc.get("skins") else 0
    print("import %-32s skeleton %-26s up %-6s %2d joints %2d clips (%d keyed as stored) %4d frames %d hidden  worst "
          "t %.2e r %.2e s %.2e" % (rel, os.path.basename(skeleton) or "-", up_axis, joints, len(clips), keyed,
                                    frames_checked, hidden_checked, worst[0], worst[1], worst[2]))
    sys.stdout.flush()


PROPERTY_LIMIT = 64 * 1024  # bytes of one custom property (the add-on keeps no info dump)


def stored_keyframes(doc, anim, rate, bones):
    """Keyframes the import's contract makes of a glTF animation: per channel on a bone, its
    keys times the components; a LINEAR rotation also a key per whole frame strictly inside
    each segment that turns (glTF slerps, Blender interpolates components linearly)."""
    accessor = doc["_accessor"]
    total = 0
    for ch in anim["channels"]:
        if doc["nodes"][ch["target"]["node"]].get("name") not in bones:
            continue
        sampler = anim["samplers"][ch["sampler"]]
        times = [t[0] for t in accessor(sampler["input"])]
        path = ch["target"]["path"]
        width = 4 if path == "rotation" else 3
        total += len(times) * width
        if path == "rotation" and sampler["interpolation"] == "LINEAR":
            values = accessor(sampler["output"])
            for k in range(1, len(times)):
                if abs(sum(a * b for a, b in zip(values[k - 1], values[k]))) < 1.0 - 5e-9:
                    inside = math.ceil(times[k] * rate - 1e-3) - math.floor(times[k - 1] * rate + 1e-3) - 1
                    total += max(0, inside) * width
    return total


def check_markers(rel, action, clip):
    """The action's pose markers are the clip's events."""
    rate = clip["frame_rate"]
    markers = sorted((m.frame, m.name) for m in action.pose_markers)
    events = sorted((e["time"] * rate, e["name"]) for e in clip["events"])
    check(len(markers) == len(events), "%s clip %s: %d markers for %d events" % (
        rel, clip["name"], len(markers), len(events)))
    for (mf, mn), (ef, en) in zip(markers, events):
        check(mn == en and abs(mf - ef) <= 0.5, "%s clip %s: marker %s@%d for event %s@%.2f" % (
            rel, clip["name"], mn, mf, en, ef))


def check_curves_one_to_one(rel, path, arm, actions):
    """Clips imported with the file's own curves (the control rig): each stored curve is
    one F-curve of its control bone with exactly its keys, at its frames (`animkit curves
    --json`, the library's reading of the file)."""
    with_curves = [a for a in actions if a.get("animkit_curves")]
    if not with_curves:
        return 0
    stored = {c["name"]: c["curves"] for c in json.loads(animkit("curves", path, "--json"))["clips"]}
    rig = json.loads(arm["animkit_rig"])
    control = {n["name"]: n.get("control") for n in rig["nodes"]}
    checked = 0
    for action in with_curves:
        curves = stored.get(json.loads(action["animkit_clip"])["name"])
        check(curves is not None, "%s: action %s has curves, the file none" % (rel, action.name))
        driven = set(curves["driven"])
        fcs = {(fc.data_path, fc.array_index): fc for fc in action_api.fcurves(action)}
        for ch in curves["channels"]:
            if ch["joint"] in driven or not control.get(ch["joint_name"]):
                continue
            data_path = 'pose.bones["%s"].%s' % (control[ch["joint_name"]], ch["property"])
            fc = fcs.get((data_path, ch["index"]))
            check(fc is not None, "%s clip %s: no F-curve %s[%d]" % (rel, action.name, data_path, ch["index"]))
            frames = [p.co[0] for p in fc.keyframe_points]
            want = [k[0] for k in ch["keys"]]
            check(len(frames) == len(want) and all(abs(a - b) <= 1e-4 for a, b in zip(frames, want)),
                  "%s clip %s %s[%d]: keyframes at %s, the file's keys at %s" % (
                      rel, action.name, data_path, ch["index"], frames[:6], want[:6]))
        checked += 1
    return checked


def check_keyframes_and_properties(rel, arm, doc, actions, clips):
    """Each local-space action holds exactly the stored keys (the file's own curves:
    check_curves_one_to_one); no custom property is large."""
    bones = set(arm.pose.bones.keys())
    anims = {a.get("name"): a for a in doc.get("animations", [])}
    checked = 0
    for action, clip in zip(actions, clips):
        anim = anims.get(clip["name"])
        if clip["space"] != "local" or anim is None or action.get("animkit_curves"):
            continue
        have = sum(len(fc.keyframe_points) for fc in action_api.fcurves(action))
        want = stored_keyframes(doc, anim, clip["frame_rate"], bones)
        check(have == want, "%s clip %s: %d keyframes, the glTF stores %d" % (rel, clip["name"], have, want))
        checked += 1
    for owner in [arm] + list(actions):
        for key in owner.keys():
            value = owner[key]
            size = len(value.encode()) if isinstance(value, str) else 0
            check(size <= PROPERTY_LIMIT, "%s: %s[%r] holds %d bytes" % (rel, owner.name, key, size))
    return checked


def sample_files():
    out = []
    for folder in sorted(os.listdir(ARGS["samples"])):
        d = os.path.join(ARGS["samples"], folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            # A PAK of files (Vib-Ribbon's, a Metroid PAK without characters) is no scene.
            if name.lower().endswith(".pak") and not json.loads(animkit("info", os.path.join(d, name), "--json"))["fields"].get("characters"):
                continue
            if name.lower().endswith(IMPORT_EXTENSIONS):
                rel = folder + "/" + name
                if ARGS["only"] in rel:
                    out.append((rel, os.path.join(d, name)))
    return out


def check_option_properties():
    """Each option of the library's table is a property of the dialog where it acts
    (read: import, write: export), with the table's type and default."""
    with open(os.path.join(ADDON_DIR, "animkit_io", "formats.json"), "r", encoding="utf-8") as f:
        table = json.load(f)
    kinds = {"flag": "BOOLEAN", "choice": "ENUM", "number": "FLOAT", "integer": "INT", "word": "STRING"}
    count = 0
    for op, use in ((bpy.ops.import_scene.animkit, "read"), (bpy.ops.export_scene.animkit, "write")):
        props = op.get_rna_type().properties
        for fmt in table["formats"]:
            for o in fmt["options"]:
                if o["use"] not in (use, "read-write"):
                    continue
                p = props.get(o["keyword"])
                check(p is not None, "%s dialog has no property for --%s" % (use, o["name"]))
                check(p.type == kinds[o["type"]], "--%s is a %s property" % (o["name"], p.type))
                if o["type"] in ("number", "integer"):
                    check(abs(p.default - float(o["default"] or 0)) <= 1e-6 * max(1.0, abs(p.default)),
                          "--%s default %r" % (o["name"], p.default))
                elif o["type"] in ("choice", "word") and o["default"] is not None:
                    check(p.default == o["default"], "--%s default %r" % (o["name"], p.default))
                count += 1
    check(count >= 20, "only %d option properties" % count)


def check_clip_filter():
    """The dialog's clip filter imports those clips alone; exported unedited with the
    source as template, the file comes back byte for byte (the clips not imported kept)."""
    path = os.path.join(ARGS["samples"], "kh2_bar", "p_ex00.mset")
    every = [c["name"] for c in json.loads(animkit("info", path, "--json"))["clips"]]
    check(len(every) >= 3, "p_ex00.mset has %d clips" % len(every))
    for text, want in ((every[1], [every[1]]), ("*3_A*", [every[2]]), ("0??_A*", every),
                       (" %s , %s " % (every[2], every[0]), [every[0], every[2]])):
        reset()
        arm = import_file(path, clip_filter=text)
        got = [a.name for a in actions_in_order(arm)]
        check(got == want, "clip filter %r: actions %s, expected %s" % (text, got, want))
        check([c["name"] for c in json.loads(arm["animkit_info"])["clips"]] == every,
              "the armature does not list the file's clips")
    out_dir = tempfile.mkdtemp(prefix="animkit_test_")
    try:
        out = os.path.join(out_dir, "p_ex00.mset")
        check(bpy.ops.export_scene.animkit(filepath=out) == {"FINISHED"}, "export of a clip subset failed")
        with open(path, "rb") as fa, open(out, "rb") as fb:
            check(fa.read() == fb.read(), "two of %d clips imported, exported unedited: the file changed" % len(every))
    finally:
        shutil.rmtree(out_dir)
    try:
        bpy.ops.import_scene.animkit(filepath=path, clip_filter="nothing*")
        raise Failure("a clip filter matching nothing imported")
    except RuntimeError as e:
        check("nothing*" in str(e), "a filter matching nothing: %s" % e)
    print("import clip filter: a name, a glob and a list pick their clips; exported unedited, the file is the same")


def check_action_switch():
    """Another clip chosen as the active action the way the Action Editor does
    (`animation_data.action = ...`, no slot given) plays, as with the add-on's own
    assignment: Blender 4.4+ picks the slot by name."""
    reset()
    arm = import_file(os.path.join(ARGS["samples"], "edf_canm/soldier5.canm"))
    actions = actions_in_order(arm)
    check(len(actions) == 2, "soldier5.canm: %d actions" % len(actions))
    scene = bpy.context.scene

    def pose(frame):
        scene.frame_set(frame)
        return [pb.matrix.copy() for pb in arm.pose.bones]

    action_api.assign(arm.animation_data, actions[1])
    want = pose(5)
    action_api.assign(arm.animation_data, actions[0])
    first = pose(5)
    arm.animation_data.action = actions[1]
    have = pose(5)
    moved = max(max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)) for a, b in zip(first, want))
    off = max(max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)) for a, b in zip(have, want))
    check(moved > 1e-3, "soldier5.canm: the two clips pose frame 5 alike (%.3g)" % moved)
    check(off < 1e-6, "soldier5.canm: clip %s chosen in the Action Editor does not play (off by %.3g)" % (
        actions[1].name, off))
    print("import action switch: %s chosen as Blender's UI does plays (the clips differ by %.3g)" % (
        actions[1].name, moved))


def check_close_keys():
    """Two keys 1.2e-7 frames apart (frame 2 reached as 1.9999998 and 2.0, as in a real KH2
    moveset), written as the import writes keys: the curve is the Bezier of the keys as
    given on every Blender (4.3 and 5.2 merge such keys in FCurve.update())."""
    from animkit_io.io import keys as keymod
    from animkit_io.blender import actions_build
    reset()
    curves = keymod.Curves(1, 4, keymod.BEZIER)
    a, b, c, d = 0.8, 1.6, -0.5, 0.4  # handle values at the thirds of each interval
    t1 = 1.9999998807907104
    curves.co[0] = [0.0, 0.0, t1, 1.0, 2.0, 1.0, 4.0, 0.0]
    curves.left[0] = [-2 / 3, 0.0, 4 / 3, b, 2.0, 1.0, 4 - 2 / 3, d]
    curves.right[0] = [2 / 3, a, 2.0, 1.0, 2 + 2 / 3, c, 4 + 2 / 3, 0.0]
    action = bpy.data.actions.new("close keys")
    actions_build._write_curves(action, "location", "probe", curves)
    fcs = action_api.fcurves(action)
    check(len(fcs) == 1, "close keys: %d F-curves" % len(fcs))

    def bezier(p0, p1, p2, p3, t):
        return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3

    worst = 0.0
    for q in range(1, 16):
        f = q / 4
        want = bezier(0.0, a, b, 1.0, f / 2) if f <= 2 else bezier(1.0, c, d, 0.0, (f - 2) / 2)
        worst = max(worst, abs(fcs[0].evaluate(f) - want))
    check(worst < 1e-5, "close keys: the curve is off by %.3g (%d keys)" % (worst, len(fcs[0].keyframe_points)))
    print("import close keys: 2 keys 1.2e-7 frames apart, %d keys in Blender, the curve within %.1e" % (
        len(fcs[0].keyframe_points), worst))
    bpy.data.actions.remove(action)


def part_import():
    sys.path.insert(0, HERE)
    import test_modules
    check(test_modules.run(ARGS["samples"], CLI), "the pure modules' checks failed (test_modules.py)")
    import test_layout
    check(test_layout.run(), "the add-on's layout checks failed (test_layout.py)")
    check_option_properties()
    axes = ["AUTO", "Y_UP", "KEEP", "Y_DOWN"]
    files = sample_files()
    check(files, "no sample files under %s" % ARGS["samples"])
    for k, (rel, path) in enumerate(files):
        check_import(rel, path, axes[k % len(axes)])
    check_clip_filter()
    check_close_keys()
    check_action_switch()
    return len(files) + 3
