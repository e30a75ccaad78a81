# Export: reads the armature's actions back (F-curves evaluated at every frame), writes a
# glTF with the stored skeleton (gltf_write) and has animkit encode it:
#   animkit convert clips.glb OUT [--skeleton S] [--template SOURCE] [options]
#
# For bone i with pose basis b_i at a frame, the joint's parent-relative transform is
# A_i = L_i b_i with L_i = B_parent^-1 B_i from the bones' rest matrices (see build.py).
# L_i is rigid, so A_i's scale is b_i's and translation / rotation are transformed.
# Clips imported in model space (KH2 raw motion) are written in model space again.
# A control rig goes back into its source as curves (export_curves.py); to another format
# through glTF as above, read from the control bones (a per-axis rig's locals turned into
# the closest matrix-rule ones the glTF's extras announce).

import array
import math
import os
import tempfile

import bpy
from mathutils import Euler, Matrix, Quaternion, Vector

from ..io import (cli, export_keys, export_plan, export_run, formats, gltf_write, keys as keymod, rig as rigmod,
                  slots)
from ..io.export_run import ExportError, ExportResult
from . import action_api, actions_build, export_curves, export_model, export_root_motion, mesh_read


def find_armature(context):
    obj = context.view_layer.objects.active if context.view_layer else None
    if obj is not None and obj.type == "ARMATURE":
        return obj
    if obj is not None and obj.parent is not None and obj.parent.type == "ARMATURE":
        return obj.parent
    return None


def _quat(xyzw):
    return Quaternion((xyzw[3], xyzw[0], xyzw[1], xyzw[2]))


def _xyzw(q):
    return (q.x, q.y, q.z, q.w)


def _rigid(m):
    loc, rot, _ = m.decompose()
    rot.normalize()
    return loc, rot


# ---------------------------------------------------------------------------------------
# The rig: stored at import, or made from the armature's bones


def rig_of(arm_obj):
    """(rig dict, {node index: bone name}, [names of bones the rig lacks])."""
    stored = rigmod.loads(arm_obj.get("animkit_rig", ""))
    bones = arm_obj.data.bones
    if stored and stored.get("version") == rigmod.RIG_VERSION:
        mapping = {}
        for i, n in enumerate(stored["nodes"]):
            if rigmod.is_bone(n) and n.get("bone") in bones:
                mapping[i] = n["bone"]
        known = set(mapping.values()) | {n["control"] for n in stored["nodes"] if n.get("control")}
        extra = [b.name for b in bones if b.name not in known]
        return stored, mapping, extra
    return _rig_from_bones(arm_obj), {i: b.name for i, b in enumerate(_bones_parents_first(arm_obj))}, []


def _bones_parents_first(arm_obj):
    out = []
    def visit(b):
        out.append(b)
        for c in b.children:
            visit(c)
    for b in arm_obj.data.bones:
        if b.parent is None:
            visit(b)
    return out


def _rig_from_bones(arm_obj):
    """A rig for an armature made in Blender: one joint per bone with the bone's rest
    (parent-relative, scale 1), roots under animkit_root."""
    order = _bones_parents_first(arm_obj)
    index = {b.name: i for i, b in enumerate(order)}
    nodes = []
    root = len(order)
    for b in order:
        m = b.matrix_local if b.parent is None else b.parent.matrix_local.inverted() @ b.matrix_local
        t, q = _rigid(m)
        nodes.append({"name": b.name, "parent": index[b.parent.name] if b.parent else root,
                      "t": list(t), "r": list(_xyzw(q)), "s": [1.0, 1.0, 1.0], "kind": rigmod.KIND_JOINT,
                      "camera": None, "mesh": None, "bone": b.name})
    nodes.append({"name": "animkit_root", "parent": -1, "t": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0],
                  "s": [1.0, 1.0, 1.0], "kind": rigmod.KIND_ROOT, "camera": None, "mesh": None, "bone": ""})
    return {"version": rigmod.RIG_VERSION, "nodes": nodes, "joints": list(range(len(order))), "skin": True,
            "cameras": [], "asset_extras": {"version": 1}}


# ---------------------------------------------------------------------------------------
# Which actions


def choose_actions(arm_obj, mode):
    ad = arm_obj.animation_data
    active = ad.action if ad else None
    if actions_build.is_rest_pose(active):
        active = None
    if mode == "ACTIVE":
        return [active] if active else []
    out = []
    if ad:
        for track in ad.nla_tracks:
            for strip in track.strips:
                if strip.action is not None and strip.action not in out and not actions_build.is_rest_pose(strip.action):
                    out.append(strip.action)
    if active is not None and active not in out:
        out.append(active)
    return out


# ---------------------------------------------------------------------------------------
# Reading an action


def _frame_range(action):
    if getattr(action, "use_frame_range", False):
        start, end = action.frame_start, action.frame_end
    else:
        start, end = action.frame_range
    f0 = int(round(start))
    f1 = max(f0, int(round(end)))
    return f0, f1


class _BoneCurves:
    """Evaluates a pose bone's basis (location, quaternion, scale) from its F-curves
    ({(property, index): fcurve}), frame by frame (the sampled path)."""

    def __init__(self, curves, pose_bone, rest_scale, rest=None):
        self.mode = pose_bone.rotation_mode
        self.curves = curves
        self.rest_scale = rest_scale
        self.keyed = bool(self.curves)
        # a control bone's unkeyed basis is the joint's rest local (location, rotation)
        self.rest_t, self.rest_q = rest if rest is not None else ((0.0, 0.0, 0.0), Quaternion())
        self.rest_e = self.rest_q.to_euler(self.mode) if self.mode not in ("QUATERNION", "AXIS_ANGLE") else None

    def _get(self, prop, k, frame, default):
        fc = self.curves.get((prop, k))
        return fc.evaluate(frame) if fc is not None else default

    def basis(self, frame):
        loc = Vector([self._get("location", k, frame, self.rest_t[k]) for k in range(3)])
        if self.mode == "QUATERNION":
            q = Quaternion([self._get("rotation_quaternion", k, frame, self.rest_q[k]) for k in range(4)])
        elif self.mode == "AXIS_ANGLE":
            a = [self._get("rotation_axis_angle", k, frame, (0.0, 0.0, 1.0, 0.0)[k]) for k in range(4)]
            q = Quaternion(Vector(a[1:]), a[0])
        else:
            e = [self._get("rotation_euler", k, frame, self.rest_e[k]) for k in range(3)]
            q = Euler(e, self.mode).to_quaternion()
        if q.magnitude == 0.0:
            q = Quaternion()
        q.normalize()
        s = Vector([self._get("scale", k, frame, self.rest_scale[k]) for k in range(3)])
        return loc, q, s


def read_curve(fc):
    """The F-curve's keys (export_keys.Curve), read with bulk calls; None when what it
    evaluates to is more than its keys (modifiers, extrapolation, no key)."""
    if len(fc.modifiers) or fc.extrapolation != "CONSTANT":
        return None
    points = fc.keyframe_points
    n = len(points)
    if n == 0:
        return None
    co = array.array("f", bytes(8 * n))
    points.foreach_get("co", co)
    interp = array.array("i", bytes(4 * n))
    points.foreach_get("interpolation", interp)
    handles = None
    if export_keys.BEZIER in interp[:n - 1]:
        left = array.array("f", bytes(8 * n))
        right = array.array("f", bytes(8 * n))
        points.foreach_get("handle_left", left)
        points.foreach_get("handle_right", right)
        handles = (left[0::2], left[1::2], right[0::2], right[1::2])
    return export_keys.Curve(co[0::2], co[1::2], interp, handles)


# (Blender property, glTF path, components, the basis where the property has no curve)
_PROPERTIES = (("location", "translation", 3, (0.0, 0.0, 0.0)),
               ("rotation_quaternion", "rotation", 4, (1.0, 0.0, 0.0, 0.0)),
               ("scale", "scale", 3, None))


def key_channels(node_index, node, fcs, rotation_mode, offset, f0, f1, rate, times_cache, additive=False):
    """The bone's glTF channels from its F-curves' keys, or None when they cannot carry it
    exactly (then it is sampled at every frame): Euler or axis-angle rotation, curves that
    are not Bezier-at-thirds / linear / constant throughout, keys outside the frame range,
    a hidden joint (scale 0). An additive clip's keys are deltas (actions_build._delta_basis):
    a rotation as it is, a translation turned by the rest without its offset."""
    if rotation_mode != "QUATERNION":
        return None
    lt, lq = offset
    lm = [tuple(row) for row in lq.to_matrix()]
    lqt = (lq.w, lq.x, lq.y, lq.z)
    if additive:
        lt, lqt = (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)
    out = []
    for prop, path, width, defaults in _PROPERTIES:
        curves = []
        for k in range(width):
            fc = fcs.get((prop, k))
            c = read_curve(fc) if fc is not None else None
            if fc is not None and (c is None or c.frames[0] < f0 - export_keys.TIME_TOLERANCE or
                                   c.frames[-1] > f1 + export_keys.TIME_TOLERANCE):
                return None
            if c is not None and prop == "scale" and min(map(abs, c.values)) < 1e-9:
                return None
            curves.append(c)
        if not any(curves):
            continue  # no curve: the basis' default, the node's rest (glTF keeps it without a channel)
        ch = export_keys.combine(curves, defaults or node["s"])
        if ch is None:
            return None
        out.append(export_keys.gltf_channel(node_index, path, ch, tuple(lt), lm, lqt, f0, rate, times_cache))
    return out


def _keys_at_rest(channels, node):
    """Whether a bone's key channels all hold its rest (a joint the clip did not list)."""
    eps_t = 1e-5 * max(1.0, Vector(node["t"]).length)
    rest = {"translation": (node["t"], eps_t), "rotation": (node["r"], 1e-5), "scale": (node["s"], 1e-5)}
    return all(export_keys.at_rest(c, *rest[c["path"]]) for c in channels)


def _close(a, b, eps):
    return all(abs(x - y) <= eps for x, y in zip(a, b))


def _angle(a, b):
    """Angle (rad) between two mathutils quaternions: 2 atan2(|v|, |w|) of a^-1 b, in
    double precision (mathutils holds float32: 1 - dot near 1 is noise)."""
    w, x, y, z = keymod.quat_mul((float(a.w), -float(a.x), -float(a.y), -float(a.z)), tuple(float(c) for c in b))
    return 2.0 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))


def _at_rest(vals, node):
    """Whether a node's transforms (t, q, s, hidden per frame) all equal its rest."""
    rest_t, rest_q = Vector(node["t"]), _quat(node["r"])
    for t, q, s, hidden in vals:
        eps = 1e-5 * max(1.0, rest_t.length, t.length)
        if hidden or not _close(t, rest_t, eps) or _angle(q, rest_q) > 1e-5 or not _close(s, node["s"], 1e-5):
            return False
    return True


def _sample(arm_obj, mapping, order, parents, offsets, fcs_of, nodes, sampled, f0, n, model_space, additive=False):
    """{node: [(t, q, s, hidden) per frame]} for the bones in `sampled`, evaluated frame by
    frame (model space: composed down the hierarchy, so every bone of `order`; additive: the
    deltas, as key_channels takes them)."""
    def rest(i):
        n = nodes[i]
        return (tuple(n["t"]), _quat(n["r"])) if mapping[i] == n.get("control") else None

    curves = {i: _BoneCurves(fcs_of.get(mapping[i], {}), arm_obj.pose.bones[mapping[i]], nodes[i]["s"], rest(i))
              for i in order if i in sampled}
    values = {i: [] for i in curves}
    for k in range(n):
        frame = f0 + k
        world = {}
        for i in curves:
            lt, lq = offsets[i]
            bt, bq, bs = curves[i].basis(frame)
            t = lq @ bt if additive else lt + lq @ bt
            q = bq if additive else lq @ bq
            s = bs
            hidden = all(abs(c) < 1e-9 for c in s)
            if model_space:
                p = parents[i]
                local = Matrix.LocRotScale(t, q, Vector((1, 1, 1)) if hidden else s)
                w = local if p < 0 or p not in world else world[p] @ local
                world[i] = w
                t, q, s2 = w.decompose()
                s = Vector((0, 0, 0)) if hidden else s2
            values[i].append((t, q, s, hidden))
    return values


def _matrix_rule_locals(order, parents, values):
    """Per-axis locals (KH2's rule: S = S_p s, R = R_p r, T = T_p + R_p (S_p t)) as the
    closest matrix-rule ones, each relative to its parent's written model (as the
    library's ConvertScaleInheritance writes them, so errors do not add up)."""
    out = {i: [] for i in values}
    n = len(next(iter(values.values()))) if values else 0
    for k in range(n):
        true, written = {}, {}
        for i in order:
            t, q, s, hidden = values[i][k]
            p = parents[i]
            if p < 0 or p not in true:
                true[i] = (t, q, s)
                written[i] = Matrix.LocRotScale(t, q, s)
                out[i].append((t, q, s, hidden))
                continue
            tp, qp, sp = true[p]
            true[i] = (tp + qp @ Vector([sp[c] * t[c] for c in range(3)]), qp @ q,
                       Vector([sp[c] * s[c] for c in range(3)]))
            if hidden or min(abs(c) for c in sp) < 1e-12:
                written[i] = written[p] @ Matrix.LocRotScale(t, q, s)
                out[i].append((t, q, s, hidden))
                continue
            local = written[p].inverted_safe() @ Matrix.LocRotScale(*true[i])
            lt, lq, ls = local.decompose()
            written[i] = written[p] @ Matrix.LocRotScale(lt, lq, ls)
            out[i].append((lt, lq, ls, hidden))
    return out


def _sampled_channels(i, node, vals, stored_vis, visibility):
    """A sampled bone's channels: one linear key per frame (scale STEP when hidden)."""
    qs = []
    prev = None
    for _t, q, _s, _h in vals:
        q = q.copy()
        if prev is not None and prev.dot(q) < 0.0:
            q.negate()
        qs.append(q)
        prev = q
    channels = [{"node": i, "path": "translation", "interpolation": "LINEAR", "values": [tuple(v[0]) for v in vals]},
                {"node": i, "path": "rotation", "interpolation": "LINEAR", "values": [_xyzw(q) for q in qs]}]
    hidden = [v[3] for v in vals]
    if any(hidden):
        visibility.append({"joint": node["name"], "frames": len(vals), "hidden": rigmod.hidden_ranges(hidden),
                           "scale": stored_vis.get(node["name"], {}).get("scale", "sampled")})
        channels.append({"node": i, "path": "scale", "interpolation": "STEP",
                         "values": [(0.0, 0.0, 0.0) if v[3] else tuple(v[2]) for v in vals]})
    else:
        channels.append({"node": i, "path": "scale", "interpolation": "LINEAR", "values": [tuple(v[2]) for v in vals]})
    return channels


def read_clip(arm_obj, action, rig, mapping, scene_rate):
    """One clip dict for gltf_write (plus what the report needs). Each keyed bone's curves
    are written as their keys where glTF carries them exactly (key_channels), else sampled
    at every frame; model-space clips are sampled throughout."""
    nodes = rig["nodes"]
    record = rigmod.loads(action.get("animkit_clip", ""), {}) or {}
    stored_events = rigmod.loads(action.get("animkit_events", ""), []) or []
    rate = float(record.get("frame_rate") or scene_rate)
    f0, f1 = _frame_range(action)
    n = f1 - f0 + 1
    times = [k / rate for k in range(n)]
    model_space = record.get("space") == "model"
    additive = isinstance(record.get("additive"), dict) and not model_space
    listed = set(record.get("joints", [])) if "joints" in record else None

    bones = arm_obj.data.bones
    order = [i for i in rigmod.bone_order(rig) if i in mapping]
    parents = {i: rigmod.bone_parent(rig, i) for i in order}
    offsets = {}
    for i in order:
        b = bones[mapping[i]].matrix_local
        p = parents[i]
        lm = b if p < 0 or p not in mapping else bones[mapping[p]].matrix_local.inverted() @ b
        offsets[i] = _rigid(lm)

    fcs_of = action_api.curves_by_bone(arm_obj, action)
    keyed = [i for i in order if fcs_of.get(mapping[i])]
    per_axis = export_curves.control_rig(rig) and record.get("scale_inheritance") == "per_axis"
    if per_axis:
        keyed = list(order)  # every joint's matrix-rule local depends on its parents' scales
    from_keys = {}
    times_cache = {}
    if not model_space and not per_axis:
        for i in keyed:
            chans = key_channels(i, nodes[i], fcs_of[mapping[i]], arm_obj.pose.bones[mapping[i]].rotation_mode,
                                 offsets[i], f0, f1, rate, times_cache, additive)
            if chans is not None:
                from_keys[i] = chans
    sampled = set(order) if model_space else set(keyed) - set(from_keys)
    values = _sample(arm_obj, mapping, order, parents, offsets, fcs_of, nodes, sampled, f0, n, model_space, additive)
    if per_axis:
        values = _matrix_rule_locals(order, parents, values)

    channels = []
    visibility = []
    stored_vis = {v.get("joint"): v for v in record.get("visibility", []) if isinstance(v, dict)}
    for i in keyed:
        node = nodes[i]
        unlisted = node["kind"] == rigmod.KIND_JOINT and listed is not None and node["name"] not in listed
        if i in from_keys:
            if not (unlisted and _keys_at_rest(from_keys[i], node)):
                channels += from_keys[i]
        elif not (unlisted and _at_rest(values[i], node)):
            # A joint the clip did not animate: written only when edited away from its rest.
            channels += _sampled_channels(i, node, values[i], stored_vis, visibility)
    channels += [] if model_space or additive else export_root_motion.channels(arm_obj, action, rig, f0, n)

    name = rigmod.export_clip_name(action.name, record.get("name", ""))
    extras = {k: v for k, v in record.items() if k not in ("name", "joints", "visibility", "placeholder", "events")}
    extras["frame_rate"] = rate
    extras["frame_count"] = n
    if record.get("frame_count") == n and "duration" in record:
        extras["duration"] = record["duration"]
    else:
        extras["duration"] = (n - 1) / rate if n > 1 else 0.0
    extras["loop"] = bool(record.get("loop", False))
    extras["space"] = "model" if model_space else "local"
    markers = [(m.name, m.frame) for m in action.pose_markers]
    extras["events"] = rigmod.events_from_markers(markers, stored_events, rate, f0)
    if visibility:
        extras["visibility"] = visibility
    joint_channels = [c for c in channels if nodes[c["node"]]["kind"] == rigmod.KIND_JOINT]
    root = next((j for j, m in enumerate(nodes) if m["kind"] == rigmod.KIND_ROOT), None)
    if not joint_channels and root is not None:
        # No joint animated (a camera clip): animkit's own placeholder channel.
        extras["placeholder"] = True
        channels.insert(0, {"node": root, "path": "translation", "interpolation": "STEP",
                            "values": [tuple(nodes[root]["t"])] * n})
    return {"name": name, "extras": extras, "times": times, "channels": channels}


def holds_nothing(arm_obj):
    """Whether the rig holds nothing a file is written from: no bone, mesh object or action
    (imported from a placeholder ANB, an MDLX without a model entry)."""
    return not arm_obj.data.bones and not mesh_read.mesh_objects(arm_obj) and not choose_actions(arm_obj, "ALL")


def plan_for(exe, arm_obj, filepath, output_format="", use_template=True):
    """(export_plan.Plan, whether it writes the character) for exporting `arm_obj` to
    `filepath`: a rig with mesh objects to a file its format writes as a model writes its
    meshes (export_model.py), else its clips (PlanError: the format must be chosen); a rig
    that holds nothing to any file its format writes."""
    path = os.path.abspath(bpy.path.abspath(filepath))
    source, fmt = arm_obj.get("animkit_source", ""), arm_obj.get("animkit_format", "")
    model_error = None
    nothing = holds_nothing(arm_obj)
    if nothing or mesh_read.mesh_objects(arm_obj):
        try:
            p = export_plan.plan(exe, path, output_format, source, fmt, use_template, model=True)
            if nothing:
                return p, False
            if export_plan.writes_model(p, path):
                return p, True
        except export_plan.PlanError as e:
            model_error = e
    try:
        return export_plan.plan(exe, path, output_format, source, fmt, use_template), False
    except export_plan.PlanError:
        if model_error is not None and os.path.splitext(path)[1].lower() not in formats.export_extensions():
            raise model_error
        raise


def default_file(exe, arm_obj):
    """The export dialog's default file: the imported file's own name and format (a
    character with meshes: its model file; export_plan.default_path)."""
    return export_plan.default_path(exe, arm_obj.get("animkit_source", ""), arm_obj.get("animkit_format", ""),
                                    model=bool(mesh_read.mesh_objects(arm_obj)))


def dialog_notes(exe, arm_obj, filepath, output_format, clips_mode):
    """What the export dialog says before it runs: the format written (the character's
    meshes, or clips), what another family's format loses, the actions linked slots share
    (never raises)."""
    if arm_obj is None:
        return []
    actions = choose_actions(arm_obj, "ACTIVE" if clips_mode == "ACTIVE" else "ALL")
    try:
        p, model = plan_for(exe, arm_obj, filepath, output_format)
    except export_plan.PlanError as e:
        return [("ERROR", str(e))]
    what = p.format + (": the character (its meshes; no clips)" if model else "")
    notes = [("INFO", "writes %s%s" % (what, ", keeping the source's other data (template)" if p.template else ""))]
    return notes + p.notes + ([] if model else slots.link_notes(actions))


def _read_clips(context, arm_obj, actions, rig, mapping, scene_rate):
    """read_clip of every action, with Blender's progress indicator."""
    wm = context.window_manager
    wm.progress_begin(0, len(actions))
    try:
        out = []
        for k, action in enumerate(actions):
            out.append(read_clip(arm_obj, action, rig, mapping, scene_rate))
            wm.progress_update(k + 1)
        return out
    finally:
        wm.progress_end()


def export_file(context, arm_obj, filepath, exe, clips="AUTO", output_format="", use_template=True, options=()):
    result = ExportResult()
    if arm_obj is None:
        raise ExportError("select an armature (imported with animkit) to export")
    filepath = os.path.abspath(bpy.path.abspath(filepath))
    try:
        plan, model = plan_for(exe, arm_obj, filepath, output_format, use_template)
    except export_plan.PlanError as e:
        raise ExportError(str(e))
    fmt = plan.format
    result.messages += plan.notes
    stored_options = rigmod.loads(arm_obj.get("animkit_options", ""), []) or []
    if model:  # the character's meshes (a model file holds no clips)
        rig, mapping, _extra = rig_of(arm_obj)
        try:
            export_model.export(arm_obj, filepath, exe, plan, rig, mapping, cli.merge_options(stored_options, options),
                                result)
        except ValueError as e:
            raise ExportError(str(e))
        return result
    if holds_nothing(arm_obj):
        return _export_nothing(arm_obj, filepath, exe, plan, cli.merge_options(stored_options, options), result)
    multi = formats.multi_clip(fmt)
    mode = clips
    if mode == "AUTO":
        mode = "ALL" if multi else "ACTIVE"
    actions = choose_actions(arm_obj, mode)
    if not actions:
        raise ExportError("%s has no action to export" % arm_obj.name)
    if not multi and len(actions) > 1:
        result.messages.append(("WARNING", "%s holds one clip: only the first of %d actions (%s) is written" % (
            os.path.basename(filepath), len(actions), actions[0].name)))
        actions = actions[:1]
    rig, mapping, extra = rig_of(arm_obj)
    if extra:
        result.messages.append(("WARNING", "bones added in Blender are not exported: " + ", ".join(extra)))
    if export_curves.control_rig(rig):
        if (plan.template and fmt == arm_obj.get("animkit_format", "") and
                all(a.get("animkit_curves") for a in actions)):
            limits = export_curves.limit_flags(cli.merge_options(rigmod.loads(arm_obj.get("animkit_options", ""), []) or [], options))
            if export_curves.write_curves(arm_obj, actions, rig, plan, filepath, exe, result, limits):
                return result
        mapping = export_curves.control_mapping(rig, arm_obj)  # the control bones hold the clips
    render = context.scene.render
    scene_rate = render.fps / render.fps_base
    clip_data = _read_clips(context, arm_obj, actions, rig, mapping, scene_rate)
    result.clips = [c["name"] for c in clip_data]

    skeleton = arm_obj.get("animkit_skeleton", "")
    if skeleton and not os.path.isfile(skeleton):
        result.messages.append(("WARNING", "the skeleton used at import (%s) is gone: exporting without it" % skeleton))
        skeleton = ""
    extra_args = []
    # A text ANM with its source as template keeps its sets over the source's timeline
    # while the clips are unedited; animkit lays edited ones out on a new timeline
    # (OUT.anm.timeline.glb) and says so.
    template = plan.template
    result.messages += slots.link_notes(actions)
    if not template and multi:
        # No template to keep the links: each linked slot gets the shared action's clip.
        clip_data += slots.linked_copies(actions, clip_data)
    if template:
        info = rigmod.loads(arm_obj.get("animkit_info", ""), {}) or {}
        if mode == "ACTIVE" and len(info.get("clips", [])) > 1:
            extra_args += ["--clip", clip_data[0]["name"]]
    args = cli.merge_options(stored_options, options) + extra_args
    to = fmt if plan.to else ""
    if fmt == "text-anm" and not template and "--anm-layout" not in args:
        # No source to keep the sets of: the clips as they are in Blender, on a new timeline.
        args += ["--anm-layout", "new"]

    with tempfile.TemporaryDirectory(prefix="animkit_export_") as tmp:
        glb = os.path.join(tmp, "clips.glb")
        gltf_write.write_glb(glb, rig, clip_data)
        export_run.keep_copy(glb)
        template = export_run.readable_template(template, filepath, tmp)
        result.command = ["convert", glb, filepath] + (["--skeleton", skeleton] if skeleton else []) + (
            ["--template", template] if template else []) + (["--to", to] if to else []) + args
        warnings = cli.convert(exe, glb, filepath, skeleton, args, template, to)
    for w in warnings:
        result.messages.append(("WARNING", w))
    result.messages.append(("INFO", "%s: %d clip(s) written (%s)" % (
        os.path.basename(filepath), len(clip_data), ", ".join(result.clips))))
    return result


def _export_nothing(arm_obj, filepath, exe, plan, args, result):
    """Nothing to edit, nothing changed: the glTF of a rig that holds nothing, written over
    the source (the template) as animkit writes it: the source's bytes. Without a template,
    animkit's error says there is nothing to write."""
    rig, _mapping, _extra = rig_of(arm_obj)
    to = plan.format if plan.to else ""
    with tempfile.TemporaryDirectory(prefix="animkit_export_") as tmp:
        glb = os.path.join(tmp, "nothing.glb")
        gltf_write.write_glb(glb, rig, [])
        export_run.keep_copy(glb)
        template = export_run.readable_template(plan.template, filepath, tmp)
        result.command = ["convert", glb, filepath] + (["--template", template] if template else []) + (
            ["--to", to] if to else []) + list(args)
        warnings = cli.convert(exe, glb, filepath, "", args, template, to)
    result.messages += [("WARNING", w) for w in warnings]
    if template:
        result.messages.append(("INFO", "%s: nothing to edit (no bone, mesh or action): the source's bytes written" %
                                os.path.basename(filepath)))
    return result
