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

from . import action_api, keys as keymod, rig as rigmod

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


def build_action(rig, order, parents, offsets, clip):
    nodes = rig["nodes"]
    rate = clip.frame_rate or 30.0
    action = bpy.data.actions.new(clip.name or "clip")
    if clip.space == "model":
        curves = _model_space_curves(nodes, order, parents, offsets, clip)
    else:
        channels = {(c.node, c.path): c for c in clip.channels}
        curves = {}
        for i in order:
            for path, _prop in PATHS:
                ch = channels.get((i, path))
                if ch is not None and ch.key_count():
                    curves[(i, path)] = keymod.channel_curves(ch, rate, _basis(offsets, i))
    _write_action(action, nodes, order, curves)
    n_frames = clip.frame_count
    if n_frames > 0:
        action.use_frame_range = True
        action.frame_start = 0
        action.frame_end = max(n_frames - 1, 0)
    _store_clip(action, clip, rate)
    return action


def _store_clip(action, clip, rate):
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
