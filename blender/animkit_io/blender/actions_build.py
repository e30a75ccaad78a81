# One Blender action per imported clip, from the clip's glTF channels as stored (keys.py):
# F-curves built with bulk calls (keyframe_points.add, then foreach_set of co,
# interpolation, handle types and handles).
#
# A clip in local space (nearly all) keys each bone property its channels key, as they
# key it, and no other. The rest pose of what a clip does not key comes from the rest-pose
# action (build_rest_action) on the bottom NLA track, under the active action: one
# constant key per property any imported clip keys (Blender keeps an unkeyed property
# where the last action left it). A model-space clip's keys are composed frame by frame
# into parent-relative ones (one linear key per frame).

import operator

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..io import curves as curvesmod, keys as keymod, rig as rigmod, root_motion as rootmod
from . import action_api

PATHS = (("translation", "location"), ("rotation", "rotation_quaternion"), ("scale", "scale"))


def keyed_paths(clips, bones):
    """{(node, glTF path)} some clip keys, of the nodes in `bones`."""
    out = set()
    for clip in clips:
        if clip.space == "model":
            out.update((i, p) for i in bones for p, _ in PATHS)
            continue
        out.update((c.node, c.path) for c in clip.channels if c.node in bones)
    return out


def _basis(offsets, i):
    lt, lqi = offsets[i]
    return keymod.BasisMap(tuple(lt), (lqi.w, lqi.x, lqi.y, lqi.z))


REST_POSE = "animkit_rest_pose"  # the custom property marking the rest-pose action
_REST_VALUE = {"translation": "t", "rotation": "r", "scale": "s"}


def is_rest_pose(action):
    return action is not None and bool(action.get(REST_POSE, False))


def build_rest_action(rig, order, offsets, keyed, name):
    """The rest-pose action: one constant key of the rest per (node, path) in `keyed`."""
    nodes = rig["nodes"]
    action = bpy.data.actions.new(name)
    action[REST_POSE] = True
    curves = {(i, path): keymod.rest_curves(path, nodes[i][_REST_VALUE[path]], _basis(offsets, i))
              for i in order for path, _prop in PATHS if (i, path) in keyed}
    _write_action(action, nodes, order, curves)
    return action


def _write_action(action, nodes, order, curves):
    for i in order:
        bone = nodes[i]["bone"]
        base = 'pose.bones["%s"].' % bpy.utils.escape_identifier(bone)
        for path, prop in PATHS:
            if (i, path) in curves:
                _write_curves(action, base + prop, bone, curves[(i, path)])


def additive_of(clip):
    """The clip's extras.animkit.additive (docs/conventions.md, "Additive clips"), or None."""
    additive = (clip.extras or {}).get("additive")
    return additive if isinstance(additive, dict) else None


def _delta_basis(offsets, i, path):
    """An additive clip's deltas in the pose basis: a rotation delta turns in the joint's own
    frame (base @ delta, what the NLA's Combine does), a translation delta is a direction in
    the parent's (the rest's inverse rotation, no offset)."""
    if path == "rotation":
        return keymod.BasisMap((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))
    lt, lqi = offsets[i]
    return keymod.BasisMap((0.0, 0.0, 0.0), (lqi.w, lqi.x, lqi.y, lqi.z))


class ObjectMotion:
    """The root-motion node whose keys go on the armature object, and the object's import
    transform they are composed with (io/root_motion.py)."""

    def __init__(self, node, axis_id, scale):
        self.node = node
        self.axis_id = axis_id
        self.scale = scale


OBJECT_PATHS = (("translation", "location"), ("rotation", "rotation_quaternion"))


def _write_object_motion(action, clip, rate, motion):
    """The root-motion joint's channels as the object's location / rotation_quaternion."""
    for ch in clip.channels:
        if ch.node != motion.node or not ch.key_count():
            continue
        prop = dict(OBJECT_PATHS).get(ch.path)
        if prop is not None:
            _write_curves(action, prop, "Object Transforms",
                          rootmod.object_curves(ch, rate, motion.axis_id, motion.scale))


def write_object_rest(action, node, motion):
    """One constant key of the joint's rest on the object's location and rotation."""
    t, q = rootmod.rest_object(node, motion.axis_id, motion.scale)
    for prop, value in (("location", t), ("rotation_quaternion", q)):
        curves = keymod.Curves(len(value), 1, keymod.CONSTANT)
        for c in range(len(value)):
            curves.co[c] += (0.0, value[c])
        _write_curves(action, prop, "Object Transforms", curves)


def build_action(rig, order, parents, offsets, clip, motion=None):
    nodes = rig["nodes"]
    rate = clip.frame_rate or 30.0
    action = bpy.data.actions.new(clip.name or "clip")
    additive = additive_of(clip) if clip.space != "model" else None
    if clip.space == "model":
        curves = _model_space_curves(nodes, order, parents, offsets, clip)
    else:
        channels = {(c.node, c.path): c for c in clip.channels}
        curves = {}
        for i in order:
            for path, _prop in PATHS:
                ch = channels.get((i, path))
                # An additive clip adds rotations (and translations unless rotation-only), never scale.
                if additive is not None and (path == "scale" or
                                             (path == "translation" and additive.get("rotation_only"))):
                    continue
                if ch is not None and ch.key_count():
                    basis = _delta_basis(offsets, i, path) if additive is not None else _basis(offsets, i)
                    curves[(i, path)] = keymod.channel_curves(ch, rate, basis)
    _write_action(action, nodes, order, curves)
    if motion is not None and clip.space != "model" and additive is None:
        _write_object_motion(action, clip, rate, motion)
    _store_clip(action, clip, rate)
    return action


def _store_clip(action, clip, rate):
    """The clip's frame range and record on its action."""
    if clip.frame_count > 0:
        action.use_frame_range = True
        action.frame_start = 0
        action.frame_end = clip.frame_count - 1
    record = dict(clip.extras)
    record["name"] = clip.name
    record["frame_rate"] = rate
    record["space"] = clip.space
    record["loop"] = clip.loop
    record["duration"] = clip.duration
    record["frame_count"] = clip.frame_count
    record["joints"] = list(clip.joints)
    record.pop("events", None)
    action["animkit_clip"] = rigmod.dumps(record)
    action["animkit_events"] = rigmod.dumps(clip.events)
    for e in clip.events:
        m = action.pose_markers.new(str(e.get("name", "")))
        m.frame = int(round(float(e.get("time", 0.0)) * rate))


def _write_curves(action, data_path, group, curves):
    if curves.count == 0:
        return
    merge = curves.count > 1 and action_api.update_merges_close_keys()
    for c in range(curves.width):
        co = curves.co[c]
        left = curves.left[c] if curves.left is not None else None
        right = curves.right[c] if curves.right is not None else None
        if merge:
            co, left, right = _merge_close_keys(co, left, right)
        n = len(co) // 2
        fc = action_api.new_fcurve(action, data_path, c, group)
        points = fc.keyframe_points
        points.add(n)
        points.foreach_set("co", co)
        points.foreach_set("interpolation", [curves.interpolation] * n)
        if left is not None:
            _set_free_handles(points, [keymod.FREE] * n)
            points.foreach_set("handle_left", left)
            points.foreach_set("handle_right", right)
        fc.update()


def _merge_close_keys(co, left, right):
    """Keys less than action_api.CLOSE_KEYS apart as one key: the later key with the
    earlier's left handle, so the curve stays the same. Blender 4 and later merge such keys
    in FCurve.update() keeping the later key's left handle, which bends the curve before
    them (two keys at frame 2 reached as 1.9999998 and 2.0 in a real KH2 moveset)."""
    times = co[0::2]
    if min(map(operator.sub, times[1:], times), default=action_api.CLOSE_KEYS) >= action_api.CLOSE_KEYS:
        return co, left, right  # (nearly always: the check in C, not a Python loop)
    keep = []  # (key kept, key whose left handle it takes)
    for k, t in enumerate(times):
        if keep and t - times[keep[-1][0]] < action_api.CLOSE_KEYS:
            keep[-1] = (k, keep[-1][1])
        else:
            keep.append((k, k))
    if len(keep) == len(times):
        return co, left, right

    def pick(flat, index):
        return [x for i in index for x in flat[2 * i:2 * i + 2]]

    kept = [k for k, _ in keep]
    return (pick(co, kept), pick(left, [j for _, j in keep]) if left is not None else None,
            pick(right, kept) if right is not None else None)


_BULK_HANDLE_TYPES = None  # whether foreach_set reaches handle types (Blender 4; 3.4 ignores it)


def _set_free_handles(points, free):
    """FREE handle types on every key, so fc.update() keeps the handles as computed."""
    global _BULK_HANDLE_TYPES
    if _BULK_HANDLE_TYPES is not False:
        points.foreach_set("handle_left_type", free)
        points.foreach_set("handle_right_type", free)
        if _BULK_HANDLE_TYPES is None:
            _BULK_HANDLE_TYPES = points[0].handle_left_type == "FREE" and points[-1].handle_right_type == "FREE"
        if _BULK_HANDLE_TYPES:
            return
    for p in points:
        p.handle_left_type = "FREE"
        p.handle_right_type = "FREE"


# ---------------------------------------------------------------------------------------
# Model-space clips


def _quat(xyzw):
    return Quaternion((xyzw[3], xyzw[0], xyzw[1], xyzw[2]))


def _model_space_curves(nodes, order, parents, offsets, clip):
    """Per (node, path): one linear key per frame of the parent-relative pose basis,
    composed from the model-space channels (a keyed node's value is its model-space
    transform; an unkeyed one composes with its parent; a hidden one (scale 0) keeps
    the last visible translation and rotation, its children composing with scale 1)."""
    channels = {}
    for c in clip.channels:
        channels.setdefault(c.node, {})[c.path] = c
    rate = clip.frame_rate or 30.0
    n_frames = max(1, clip.frame_count)
    out = {(i, p): keymod.Curves(4 if p == "rotation" else 3, n_frames, keymod.LINEAR) for i in order for p, _ in PATHS}
    last_q = {}
    for f in range(n_frames):
        t_now = f / rate
        world = {}
        for i in order:
            n, chs, p = nodes[i], channels.get(i, {}), parents[i]
            t = Vector(keymod.sample(chs["translation"], t_now)) if "translation" in chs else Vector(n["t"])
            q = _quat(keymod.sample(chs["rotation"], t_now)) if "rotation" in chs else _quat(n["r"])
            s = Vector(keymod.sample(chs["scale"], t_now)) if "scale" in chs else Vector(n["s"])
            hidden = "scale" in chs and s.length == 0.0
            m = Matrix.LocRotScale(t, q, Vector((1, 1, 1)) if hidden else s)
            if chs:
                world[i] = m
                a = m if p < 0 else world[p].inverted_safe() @ m
                t, q, s2 = a.decompose()
                s = Vector((0, 0, 0)) if hidden else s2
            else:
                world[i] = m if p < 0 else world[p] @ m
            lt, lqi = offsets[i]
            bt = lqi @ (t - lt)
            bq = lqi @ q
            bq.normalize()
            if i in last_q and last_q[i].dot(bq) < 0.0:
                bq.negate()
            last_q[i] = bq
            for path, v in (("translation", bt), ("rotation", bq), ("scale", s)):
                co = out[(i, path)].co
                for c in range(len(v)):
                    co[c] += (float(f), v[c])
    return out


# ---------------------------------------------------------------------------------------
# The control rig (clips that carry their own curves: curves.py, docs/blender.md "The
# control rig"). A control bone's rest is the identity at the armature's origin, so its
# pose basis is the joint's local transform as the game composes it; its rotation is
# Euler in the curves' rotation mode. The deform bones copy the control bones'
# transforms and carry no keys.

CONTROL_PROPS = (("translation", "location"), ("rotation", "rotation_euler"), ("scale", "scale"))
PROPERTY_NAMES = tuple(prop for _path, prop in CONTROL_PROPS)


class KeyCounts:
    """Keyframes made from a clip: of curve-moved joints (and how many the file stores),
    and baked ones of driven joints."""

    def __init__(self):
        self.curve_keys = 0
        self.stored_keys = 0
        self.constant_keys = 0  # of the file's constants: the other axes of a property keyed on one
        self.other_keys = 0  # of properties no curve keys on curve-moved joints (their glTF keys)
        self.baked_keys = 0
        self.unmatched = 0  # curves of joints no node stands for
        self.mirrored = set()  # nodes whose scale curves go negative


def _control_path(nodes, i, prop):
    return 'pose.bones["%s"].%s' % (bpy.utils.escape_identifier(nodes[i]["control"]), prop)


def _euler(q, mode, compat=None):
    return q.to_euler(mode, compat) if compat is not None else q.to_euler(mode)


def build_control_rest_action(rig, order, rotation_mode, name, defaults=None):
    """The rest-pose action of a control rig: one constant key of each control bone's
    rest local per property, or of the clips' most common value (`defaults`)."""
    nodes = rig["nodes"]
    action = bpy.data.actions.new(name)
    action[REST_POSE] = True
    for i in order:
        for prop in PROPERTY_NAMES:
            value = _rest_value(nodes, i, prop, rotation_mode)
            for c in range(3):
                fc = action_api.new_fcurve(action, _control_path(nodes, i, prop), c, nodes[i]["control"])
                fc.keyframe_points.add(1)
                fc.keyframe_points.foreach_set("co", (0.0, (defaults or {}).get((i, prop, c), value[c])))
                fc.keyframe_points.foreach_set("interpolation", (keymod.CONSTANT,))
                fc.update()
    return action


def _write_channel(action, nodes, channel):
    """One file curve as one F-curve of its control bone, key for key; returns the key count."""
    fk = curvesmod.fcurve_keys(channel)
    n = fk.count
    if n == 0:
        return 0
    fc = action_api.new_fcurve(action, _control_path(nodes, channel.node, channel.property), channel.index,
                               nodes[channel.node]["control"])
    points = fc.keyframe_points
    points.add(n)
    points.foreach_set("co", fk.co)
    points.foreach_set("interpolation", fk.interpolation)
    _set_free_handles(points, [keymod.FREE] * n)
    points.foreach_set("handle_left", fk.left)
    points.foreach_set("handle_right", fk.right)
    modes = curvesmod.cycle_modes(channel)
    if modes is not None:
        mod = fc.modifiers.new("CYCLES")
        mod.mode_before, mod.mode_after = modes
    for start, end in curvesmod.zero_ranges(channel):
        mod = fc.modifiers.new("GENERATOR")
        mod.mode = "POLYNOMIAL"
        mod.poly_order = 1
        mod.use_additive = False
        mod.coefficients = (0.0, 0.0)
        mod.use_restricted_range = True
        # the range's ends are inclusive: stop short of the key itself
        mod.frame_start = start if start < 0 else start + ZERO_GAP
        mod.frame_end = end - ZERO_GAP if start < 0 else end
    fc.update()
    return n


ZERO_GAP = 1e-3  # frames between a "zero" pre / post range and the curve's end key


def _channels_by_node(clip):
    out = {}
    for ch in clip.channels:
        out.setdefault(ch.node, []).append(ch)
    return out


def _baked_control_curves(clip, i, rate, rotation_mode, model_curves=None, channels=None):
    """{property: [per component (frames, values, interpolation)]} of a node the clip does
    not key by curves: its glTF channels (`channels`: the node's, else looked up) on the
    control bone (the local transform as is); a rotation as Euler keys at every whole frame
    (exact there; glTF slerps between), one key when it never changes."""
    out = {}
    if model_curves is not None:
        for path, prop in CONTROL_PROPS:
            c = model_curves[(i, path)]
            frames = c.co[0][0::2]
            values = [c.co[k][1::2] for k in range(c.width)]
            if path == "rotation":
                values = _eulers([Quaternion(v) for v in zip(*values)], rotation_mode)
            out[prop] = [(frames, list(v), keymod.LINEAR) for v in values]
        return out
    identity = keymod.BasisMap((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))
    n_frames = max(1, clip.frame_count)
    for ch in (channels if channels is not None else [c for c in clip.channels if c.node == i]):
        if ch.node != i or not ch.key_count():
            continue
        if ch.path == "rotation":
            frames = [float(f) for f in range(n_frames)]
            if all(ch.values[k] == ch.values[k % 4] for k in range(len(ch.values))):
                frames = frames[:1]  # one rotation all clip long
            quats = [_quat(v) for v in keymod.sample_many(ch, [f / rate for f in frames])]
            out["rotation_euler"] = [(frames, list(v), keymod.LINEAR) for v in _eulers(quats, rotation_mode)]
            continue
        c = keymod.channel_curves(ch, rate, identity)
        prop = "location" if ch.path == "translation" else "scale"
        comps = []
        for k in range(c.width):
            comps.append((c.co[k][0::2], c.co[k][1::2], c.interpolation,
                          (c.left[k], c.right[k]) if c.left is not None else None))
        out[prop] = comps
    return out


def _eulers(quats, mode):
    """Per component, the Euler angles of the rotations, each compatible with the last."""
    values = ([], [], [])
    last = None
    for q in quats:
        e = _euler(q, mode, last)
        last = e
        for k in range(3):
            values[k].append(e[k])
    return values


def _rest_value(nodes, i, prop, rotation_mode):
    n = nodes[i]
    if prop == "location":
        return tuple(n["t"])
    if prop == "scale":
        return tuple(n["s"])
    return tuple(_euler(_quat(n["r"]), rotation_mode))


def _at_rest(nodes, i, prop, index, value, rotation_mode, defaults=None):
    """Whether a constant value is what the rest-pose action keys: the clips' most common
    value of that property (`defaults`), else the control bone's rest."""
    rest = (defaults or {}).get((i, prop, index))
    if rest is None:
        rest = _rest_value(nodes, i, prop, rotation_mode)[index]
    return abs(value - rest) <= 1e-6 * max(1.0, abs(rest))


def _clip_constants(clip, nodes, order, rotation_mode):
    """{(node, property, axis): value} a clip with curves holds all clip long besides its
    curves on its curve-moved joints: the file's constants, the initial pose (glTF
    channels whose every key is the same) and the rest (no glTF channel)."""
    out = {}
    if clip.curves is None:
        return out
    bones = set(order)
    curved = {(c.node, c.property) for c in clip.curves.channels}
    for i in order:
        if i not in clip.curves.driven:
            for prop in PROPERTY_NAMES:
                if (i, prop) not in curved:
                    rest = _rest_value(nodes, i, prop, rotation_mode)
                    out.update({(i, prop, k): rest[k] for k in range(3)})
    for node, prop, index, value in clip.curves.constants:
        if node in bones and node not in clip.curves.driven and (node, prop) in curved:
            out[(node, prop, index)] = value
    for ch in clip.channels:
        i = ch.node
        prop = dict(CONTROL_PROPS).get(ch.path)
        if i not in bones or i in clip.curves.driven or (i, prop) in curved or not ch.key_count():
            continue
        if ch.interpolation == "CUBICSPLINE":
            continue
        w = ch.width
        if any(ch.values[k] != ch.values[k % w] for k in range(len(ch.values))):
            continue
        first = tuple(ch.values[:w])
        value = tuple(_euler(_quat(first), rotation_mode)) if ch.path == "rotation" else first
        for k in range(3):
            out[(i, prop, k)] = value[k]
    return out


def control_defaults(clips, nodes, order, rotation_mode):
    """{(node, property, axis): value} the rest-pose action of a control rig keys where the
    clips hold a value all clip long: the most common one (so most clips need no key)."""
    votes = {}
    for clip in clips:
        for key, value in _clip_constants(clip, nodes, order, rotation_mode).items():
            tally = votes.setdefault(key, {})
            tally[value] = tally.get(value, 0) + 1
    return {key: max(tally, key=tally.get) for key, tally in votes.items()}


def _constant(values):
    return all(v == values[0] for v in values)


def _write_baked(action, nodes, i, prop, comps):
    """Each component as an F-curve of the control bone; one key where it never changes."""
    count = 0
    for c, comp in enumerate(comps):
        frames, values, interpolation = comp[0], comp[1], comp[2]
        handles = comp[3] if len(comp) > 3 else None
        if len(frames) > 1 and _constant(values) and (handles is None or
                                                      (_constant(handles[0][1::2]) and _constant(handles[1][1::2]))):
            frames, values, handles = frames[:1], values[:1], None
        n = len(frames)
        if n == 0:
            continue
        fc = action_api.new_fcurve(action, _control_path(nodes, i, prop), c, nodes[i]["control"])
        points = fc.keyframe_points
        points.add(n)
        points.foreach_set("co", [x for fv in zip(frames, values) for x in fv])
        points.foreach_set("interpolation", [interpolation if n > 1 else keymod.CONSTANT] * n)
        if handles is not None:
            _set_free_handles(points, [keymod.FREE] * n)
            points.foreach_set("handle_left", handles[0])
            points.foreach_set("handle_right", handles[1])
        fc.update()
        count += n
    return count


def build_control_action(rig, order, parents, clip, rotation_mode, counts, defaults=None):
    """A clip's action on the control bones: its curves 1:1, the joints it drives (or,
    without curves, every joint) baked from its glTF channels. Adds to `counts`."""
    nodes = rig["nodes"]
    bones = set(order)
    rate = clip.frame_rate or 30.0
    action = bpy.data.actions.new(clip.name or "clip")
    curved = set()
    by_node = _channels_by_node(clip)
    if clip.curves is not None:
        for ch in clip.curves.channels:
            if ch.node in bones and ch.node not in clip.curves.driven:
                counts.curve_keys += _write_channel(action, nodes, ch)
                counts.stored_keys += len(ch.keys)
                if ch.property == "scale" and any(k[1] < 0.0 for k in ch.keys):
                    counts.mirrored.add(ch.node)
                curved.add((ch.node, ch.property))
        # The other axes of a property keyed on one: one constant key each, unless the
        # rest-pose action (under every clip) already holds that value.
        for node, prop, index, value in clip.curves.constants:
            if node in bones and node not in clip.curves.driven and (node, prop) in curved and \
                    not _at_rest(nodes, node, prop, index, value, rotation_mode, defaults):
                counts.constant_keys += _write_baked(action, nodes, node, prop,
                                                     [([], [], keymod.CONSTANT)] * index +
                                                     [([0.0], [value], keymod.CONSTANT)])
        counts.unmatched += clip.curves.unmatched
        driven = [i for i in order if i in clip.curves.driven]
        # Properties no curve keys on curve-moved joints: their glTF keys (the initial pose),
        # where they are not the rest.
        for i in order:
            if i in clip.curves.driven:
                continue
            baked = _baked_control_curves(clip, i, rate, rotation_mode, None, by_node.get(i, []))
            for prop in PROPERTY_NAMES:  # unkeyed by the glTF: the rest, where the rest-pose action differs
                if (i, prop) not in curved and prop not in baked and defaults:
                    rest = _rest_value(nodes, i, prop, rotation_mode)
                    baked[prop] = [([0.0], [rest[k]], keymod.CONSTANT) for k in range(3)]
            for prop, comps in baked.items():
                if (i, prop) in curved:
                    continue
                comps = [([], [], c[2]) if len(c[0]) and _constant(c[1]) and
                         _at_rest(nodes, i, prop, k, c[1][0], rotation_mode, defaults) else c
                         for k, c in enumerate(comps)]
                counts.other_keys += _write_baked(action, nodes, i, prop, comps)
    else:
        driven = list(order)
    model_curves = None
    if clip.space == "model":
        identity = {i: (Vector((0.0, 0.0, 0.0)), Quaternion()) for i in order}
        model_curves = _model_space_curves(nodes, order, parents, identity, clip)
    for i in driven:
        for prop, comps in _baked_control_curves(clip, i, rate, rotation_mode, model_curves,
                                                 by_node.get(i, [])).items():
            if (i, prop) not in curved:
                counts.baked_keys += _write_baked(action, nodes, i, prop, comps)
    _store_clip(action, clip, rate)
    if clip.curves is not None:
        # What export writes back: the file's curves (by the clip's joint index), and only them.
        action["animkit_curves"] = rigmod.dumps({
            "rotation_mode": clip.curves.rotation_mode, "driven": sorted(clip.curves.driven),
            "joints": sorted([n, j] for n, j in clip.curves.joints.items()),
            "curves": sorted([c.node, c.property, c.index] for c in clip.curves.channels
                             if c.node in bones and c.node not in clip.curves.driven)})
    return action
