# --part moveset of test_addon.py: a 24-clip KH2 moveset made by animkit's encoder
# (moveset_source.py: slot 23 links to slot 5, triggers stored out of time order),
# imported headless, one bone turned 30 degrees at one frame of one action, exported with
# the source as template. Exactly the edited slot's bytes (and its link's, which shares
# them) change; every other slot is byte-identical; triggers keep their stored order.
# Then: the export's format choice (another family's format only when chosen) and the
# limits passed from both dialogs.

import json
import math
import os
import time

import bpy
from mathutils import Quaternion, Vector

from addon_common import (ARGS, CLI, Failure, action_api, actions_in_order, animkit, check, import_file, quat_angle,
                          reset, turn_bone)
from addon_export_keys import check_moveset_unedited
from moveset_source import CLIPS, EDITED, LINK, make_moveset, read_slots

BONE = "#2"
FRAME = 12


def _edit(arm):
    """Turns BONE by 30 degrees at FRAME in the edited slot's action; returns its name."""
    name = "%03d_clip" % EDITED
    action = bpy.data.actions[name]
    action_api.assign(arm.animation_data, action)
    scene = bpy.context.scene
    scene.frame_set(FRAME)
    extra = Quaternion(Vector((0.3, 1.0, 0.2)).normalized(), math.radians(30.0))
    check(turn_bone(arm, BONE, FRAME, extra), "keyframe_insert failed")
    return name


def _slot_bytes(path):
    slots, data = read_slots(path)
    return slots, [data[off:off + size] for _t, _d, _n, off, size in slots]


def _events(path):
    doc = json.loads(animkit("info", path, "--json"))
    out = {}
    for e in doc["events"]:
        out.setdefault(e["clip"], []).append((e["name"], round(e["time"] * 30.0, 6), e.get("params")))
    return out


def check_shared_action(arm):
    actions = actions_in_order(arm)
    names = [a.name for a in actions]
    check(len(actions) == CLIPS - 1, "%d actions for %d slots, one a link: %s" % (len(actions), CLIPS, names))
    target = bpy.data.actions["%03d_clip" % EDITED]
    linked = json.loads(target.get("animkit_linked_slots", "[]"))
    check(linked == ["%03d_clip" % LINK], "the linked slot is not recorded on its target's action: %s" % linked)
    check("%03d_clip" % LINK not in names, "the link slot has an action of its own")


def check_slots(source, out):
    """Exactly the edited slot and its link differ; returns the changed slot indices."""
    slots_a, bytes_a = _slot_bytes(source)
    slots_b, bytes_b = _slot_bytes(out)
    check(len(slots_a) == len(slots_b), "%d slots written for %d" % (len(slots_b), len(slots_a)))
    changed = [i for i in range(len(slots_a)) if bytes_a[i] != bytes_b[i]]
    check(changed == [EDITED, LINK], "slots changed: %s (expected %d and its link %d); %s" % (
        changed, EDITED, LINK, ", ".join("%d: %d -> %d bytes" % (i, len(bytes_a[i]), len(bytes_b[i]))
                                         for i in changed)))
    check(slots_b[LINK][3] == slots_b[EDITED][3] and slots_b[LINK][1] == 1, "slot %d no longer links to %d" % (
        LINK, EDITED))
    return changed


def check_edit(source, out, skeleton):
    a = json.loads(animkit("sample", source, "--skeleton", skeleton))
    b = json.loads(animkit("sample", out, "--skeleton", skeleton))
    clip_a = next(c for c in a["clips"] if c["name"] == "%03d_clip" % EDITED)
    clip_b = next(c for c in b["clips"] if c["name"] == "%03d_clip" % EDITED)
    link_b = next(c for c in b["clips"] if c["name"] == "%03d_clip" % LINK)
    j = clip_a["joints"].index(BONE)
    turned = math.degrees(quat_angle(clip_a["frames"][FRAME][j]["r"], clip_b["frames"][FRAME][j]["r"]))
    check(25.0 < turned < 35.0, "bone %s at frame %d turned %.2f degrees, expected 30" % (BONE, FRAME, turned))
    check(link_b["frames"] == clip_b["frames"], "the link slot does not show the edit")
    return turned


def check_dialog(arm, path):
    """What the export dialog shows for the default file and for an .anm."""
    from animkit_io.io import export_plan
    from animkit_io.blender import export
    check(export_plan.default_path(CLI, arm["animkit_source"], arm["animkit_format"]) == path,
          "the dialog's default file is not the imported one")
    notes = export.dialog_notes(CLI, arm, path, "", "AUTO")
    check(notes[0] == ("INFO", "writes kh2-bar, keeping the source's other data (template)"), "notes: %s" % notes)
    check(any("%03d_clip" % LINK in text and "changes" in text for _l, text in notes),
          "the dialog does not say that the shared action changes its linked slot: %s" % notes)
    notes = export.dialog_notes(CLI, arm, os.path.splitext(path)[0] + ".anm", "", "AUTO")
    check(notes[0][0] == "ERROR" and "choose Format" in notes[0][1], "notes for .anm: %s" % notes)
    notes = export.dialog_notes(CLI, arm, os.path.splitext(path)[0] + ".anm", "psx-anm", "AUTO")
    check([level for level, _ in notes[1:3]] == ["WARNING", "WARNING"], "notes for a chosen psx-anm: %s" % notes)


def check_format_choice(arm, out_dir):
    """A KH2 rig into .anm: refused unless the format is chosen; chosen, it says what is lost."""
    anm = os.path.join(out_dir, "moveset.anm")
    for stale in (anm, anm + ".timeline.glb"):
        if os.path.exists(stale):
            os.remove(stale)
    try:
        bpy.ops.export_scene.animkit(filepath=anm)
        raise Failure("a KH2 rig was written as %s without choosing its format" % anm)
    except RuntimeError as e:
        check("choose Format psx-anm" in str(e), "the refusal does not say how to choose: %s" % e)
    check(not os.path.exists(anm), "the refused export wrote %s" % anm)
    check(bpy.ops.export_scene.animkit(filepath=anm, output_format="text-anm") == {"FINISHED"},
          "the chosen format was not written")
    info = json.loads(animkit("info", anm, "--json"))
    check(info["format"] == "text-anm", "written as %s" % info["format"])


def check_limits(path, skeleton, out_dir):
    """The dialogs' limits reach animkit: too low, both operators fail with its message."""
    reset()
    try:
        bpy.ops.import_scene.animkit(filepath=path, skeleton_path=skeleton, max_values=100)
        raise Failure("import with max_values=100 did not fail")
    except RuntimeError as e:
        check("--max-values" in str(e), "import with max_values=100: %s" % e)
    arm = import_file(path, skeleton_path=skeleton, max_values=5000000)
    check("--max-values" in json.loads(arm["animkit_options"]), "the import's limit is not kept for export")
    try:
        # Without a template the clips go through glTF, sampled: the frame limit applies (the
        # file's own curves, written back into the template, are not sampled).
        bpy.ops.export_scene.animkit(filepath=os.path.join(out_dir, "limited.mset"), max_frames=20,
                                     use_template=False)
        raise Failure("export with max_frames=20 did not fail")
    except RuntimeError as e:
        check("--max-frames" in str(e), "export with max_frames=20: %s" % e)


def part_moveset():
    out_dir = ARGS["out"]
    os.makedirs(out_dir, exist_ok=True)
    path, skeleton = make_moveset(CLI, ARGS["samples"], out_dir)
    keys_checks = check_moveset_unedited(path, skeleton, out_dir)
    reset()
    t0 = time.time()
    arm = import_file(path, skeleton_path=skeleton)
    t_import = time.time() - t0
    check_shared_action(arm)
    edited = _edit(arm)
    out = os.path.join(out_dir, "edited.mset")
    if os.path.exists(out):
        os.remove(out)
    t0 = time.time()
    check(bpy.ops.export_scene.animkit(filepath=out) == {"FINISHED"}, "export failed")
    t_export = time.time() - t0
    changed = check_slots(path, out)
    turned = check_edit(path, out, skeleton)
    before, after = _events(path), _events(out)
    check(before == after, "triggers differ: %s" % [c for c in before if before.get(c) != after.get(c)])
    unsorted = [c for c, ev in before.items() if [e[1] for e in ev] != sorted(e[1] for e in ev)]
    check(unsorted, "the moveset has no triggers stored out of time order to keep")
    print("moveset %d slots (slot %d links to %d): %s bone %s frame %d +%.2f degrees; slots changed %s, the other "
          "%d byte-identical; triggers in stored order (%d clips stored unsorted); import %.1f s, export %.1f s" % (
              CLIPS, LINK, EDITED, edited, BONE, FRAME, turned, changed, CLIPS - len(changed), len(unsorted),
              t_import, t_export))
    check_dialog(arm, path)
    check_format_choice(arm, out_dir)
    check_limits(path, skeleton, out_dir)
    print("moveset: another family's format only when chosen; limits reach animkit from both dialogs")
    return 4 + keys_checks
