# Retargeting onto an armature (docs/blender.md, "Retargeting"): the armature's rig written as a
# glb animkit reads (gltf_write.py), `animkit retarget SOURCE --to RIG.glb`, the map it suggests
# (--map-out) and the one the user edited (--map). The rule and the map are the library's
# (docs/retarget.md). Pure Python (no bpy).

import json
import os

from . import cli, formats, gltf_write
from . import rig as rigmod


def write_target(path, rig):
    """The armature's skeleton as a glb of nodes without clips: what --to reads."""
    gltf_write.write_glb(path, rig, [])


# A rig made in Blender stands in Blender's axes: +Z up, facing -Y.
BLENDER_AXES = "+Z,-Y"


def target_axes(format_id):
    """`--target-axes` for the rig's glb: its numbers are those of the file the armature was
    imported from (its format's axes), or Blender's for a rig made in Blender; "" when the
    format's axes are the glTF's own (+Y up, +Z forward)."""
    if not format_id:
        return BLENDER_AXES
    up, forward = formats.up_axis(format_id), formats.forward_axis(format_id)
    if up[-1] == forward[-1] or (up, forward) == ("+Y", "+Z"):
        return ""
    return "%s,%s" % (up, forward)


def joint_names(rig):
    """The rig's joints (its bone nodes) as animkit names them, and the Blender bone of each."""
    return {n["name"]: n["bone"] for n in rig["nodes"] if rigmod.is_bone(n)}


def _retarget_args(source, target_glb, out_glb, map_arg, map_out, skeleton, axes, options):
    args = ["retarget", source, "--to", target_glb, "-o", out_glb, "--map", map_arg]
    if axes:
        args += ["--target-axes", axes]
    if map_out:
        args += ["--map-out", map_out]
    return args + cli.skeleton_args(skeleton) + list(options)


def suggest_map(exe, source, target_glb, tmp, skeleton="", axes="", options=()):
    """The automatic map (`--map auto`): [(target joint, source joint or "")] in the target's
    order, and animkit's warnings."""
    map_out = os.path.join(tmp, "suggested_map.json")
    out = os.path.join(tmp, "suggested.glb")
    warnings = cli.run(exe, _retarget_args(source, target_glb, out, "auto", map_out, skeleton, axes, options)).warnings
    return read_map(map_out), warnings


def source_joints(exe, source, skeleton="", rows=()):
    """The source's joint names for the rows' search: `animkit info --json`'s joints (decoded
    against its skeleton), then any source a row names that they lack."""
    text = cli.run(exe, ["info", source, "--json"] + cli.skeleton_args(skeleton)).stdout
    try:
        names = [str(j) for j in json.loads(text).get("joints", [])]
    except (ValueError, AttributeError):
        names = []
    return names + [s for _t, s in rows if s and s not in names]


def read_map(path):
    """A JSON map file animkit wrote ({target: source or null}, target order) as rows."""
    with open(path, "r", encoding="utf-8") as f:
        try:
            data = json.load(f)
        except ValueError as e:
            raise cli.AnimkitError("%s: the bone map is not JSON (%s)" % (path, e))
    if not isinstance(data, dict):
        raise cli.AnimkitError("%s: the bone map is not a JSON object" % path)
    return [(t, s or "") for t, s in data.items()]


def write_map(path, rows):
    """Rows (target joint, source joint or "": unmapped) as the JSON map --map reads."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump({t: (s or None) for t, s in rows}, f, ensure_ascii=False, indent=1)


def retarget(exe, source, target_glb, out_glb, map_json, skeleton="", axes="", options=()):
    """`animkit retarget` with the given map file; returns animkit's warnings."""
    return cli.run(exe, _retarget_args(source, target_glb, out_glb, map_json, "", skeleton, axes, options)).warnings


def nodes_by_name(scene_nodes, rig):
    """{node index in the retargeted file: node index in the armature's rig}, by name: the
    file animkit writes need not keep the rig's node order."""
    index = {n["name"]: i for i, n in enumerate(rig["nodes"]) if rigmod.is_bone(n)}
    return {n.index: index[n.name] for n in scene_nodes if n.name in index}


def renumber_channels(clips, node_of):
    """Each clip's channels on the rig's nodes (channels of nodes the rig lacks dropped)."""
    for clip in clips:
        kept = []
        for ch in clip.channels:
            if ch.node in node_of:
                ch.node = node_of[ch.node]
                kept.append(ch)
        clip.channels = kept
