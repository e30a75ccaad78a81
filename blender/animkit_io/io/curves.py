# A clip's own curves (the import file's header.clips[k].curves, version 3) as Blender
# F-curves 1:1, and back. Pure Python (no bpy), so it runs outside Blender too.
#
# A channel keys one component of a joint's local transform as the game composes it:
# local = T(location) R_euler(rotation_mode) S(scale), absolute, in the scene's units.
# Each key is 6 float32: frame, value, in_slope, out_slope (value per frame),
# interpolation (0 constant, 1 linear, 2 hermite), 0. On the control bones (identity
# rest at the armature's origin, docs/blender.md "The control rig") the pose basis is the
# local transform itself, so a key is a keyframe as is:
#   co = (frame, value); CONSTANT / LINEAR / BEZIER (hermite)
#   handle_right_k = (f_k + (f_{k+1} - f_k) / 3, v_k + out_k (f_{k+1} - f_k) / 3)
#   handle_left_k  = (f_k - (f_k - f_{k-1}) / 3, v_k - in_k (f_k - f_{k-1}) / 3)
# (handles at thirds: the Bezier is then the cubic Hermite exactly; a curve's first left
# and last right handle mirror the interval they have). Every key gets both handles, so
# a hermite segment after a linear key still has its slopes.
# pre / post: what the curve does before its first / after its last key, as the Cycles
# modifier's modes (clamp: no cycle, constant extrapolation; zero: 0 there, kept as the
# F-curve's custom property, see ZERO_NOTE).


CONSTANT, LINEAR, BEZIER = 0, 1, 2  # F-curve keyframe interpolation (RNA enum values)
HERMITE = 2  # the file's key interpolation
KEY_WIDTH = 6  # floats per key
PROPERTIES = ("location", "rotation_euler", "scale")
MODES = ("clamp", "offset", "repeat", "zero")
CONTROL_PREFIX = "ctl_"  # control bone = prefix + deform bone name (a bone name has 63 bytes)

# Cycles modifier mode of each pre / post mode ("clamp" and "zero": no cycle)
CYCLE_MODE = {"clamp": "NONE", "zero": "NONE", "repeat": "REPEAT", "offset": "REPEAT_OFFSET"}
FROM_CYCLE_MODE = {"NONE": "clamp", "REPEAT": "repeat", "REPEAT_OFFSET": "offset"}  # MIRROR: none


class CurvesError(Exception):
    pass


def control_name(bone_name):
    return (CONTROL_PREFIX + bone_name)[:63]


class Channel:
    """One curve: node, property, index, pre, post and its keys (frame, value, in, out, interp)."""

    def __init__(self, node, prop, index, keys, pre="clamp", post="clamp"):
        if prop not in PROPERTIES or not 0 <= index <= 2:
            raise CurvesError("curve of node %d: property %r index %r" % (node, prop, index))
        if pre not in MODES or post not in MODES:
            raise CurvesError("curve of node %d %s[%d]: pre %r post %r" % (node, prop, index, pre, post))
        self.node = node
        self.property = prop
        self.index = index
        self.pre = pre
        self.post = post
        self.keys = [tuple(k[:5]) for k in keys]

    def key(self):
        return (self.node, self.property, self.index)


class ClipCurves:
    """A clip's curves section: rotation mode, driven joints, channels; constants
    [(node, property, index, value)]: the other axes of a property keyed on one axis;
    joints {node: the clip's joint index} (what writing back names); unmatched: channels
    and constants of joints no node stands for (left out)."""

    def __init__(self, rotation_mode, driven, channels, constants=(), joints=None, unmatched=0):
        self.rotation_mode = rotation_mode
        self.driven = set(driven)
        self.channels = channels
        self.constants = list(constants)
        self.joints = dict(joints or {})
        self.unmatched = unmatched

    def key_count(self):
        return sum(len(c.keys) for c in self.channels)


def parse(raw, floats):
    """The header's curves dict (keys as {offset, count} into the data) as a ClipCurves;
    None for a clip without curves."""
    if not raw:
        return None
    mode = raw.get("rotation_mode", "XYZ")
    if mode not in ("XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"):
        raise CurvesError("curves: rotation mode %r" % mode)
    channels = []
    joints = {}
    unmatched = 0
    for c in raw.get("channels", []):
        if c.get("node") is None:  # a joint of the file no node of the scene stands for
            unmatched += 1
            continue
        if c.get("joint") is not None:
            joints[int(c["node"])] = int(c["joint"])
        ref = c["keys"]
        start, count = ref["offset"] // 4, int(ref["count"])
        flat = floats[start:start + count * KEY_WIDTH]
        if len(flat) != count * KEY_WIDTH:
            raise CurvesError("curve of node %d: %d keys past the data's end" % (c["node"], count))
        keys = [tuple(flat[k:k + KEY_WIDTH]) for k in range(0, len(flat), KEY_WIDTH)]
        channels.append(Channel(int(c["node"]), c["property"], int(c["index"]), keys, c.get("pre", "clamp"),
                                c.get("post", "clamp")))
    constants = []
    for c in raw.get("constants", []):
        if c.get("node") is None:
            unmatched += 1
            continue
        if c["property"] not in PROPERTIES or not 0 <= int(c["index"]) <= 2:
            raise CurvesError("constant of node %d: property %r index %r" % (c["node"], c["property"], c["index"]))
        constants.append((int(c["node"]), c["property"], int(c["index"]), float(c["value"])))
    return ClipCurves(mode, [int(n) for n in raw.get("driven", [])], channels, constants, joints, unmatched)


INTERPOLATION = {0: CONSTANT, 1: LINEAR, 2: BEZIER}


class FCurveKeys:
    """One channel as keyframes: flat co, handle_left, handle_right, per-key interpolation."""

    def __init__(self, count):
        self.count = count
        self.co = []
        self.left = []
        self.right = []
        self.interpolation = []


def fcurve_keys(channel):
    keys = channel.keys
    n = len(keys)
    out = FCurveKeys(n)
    for k, (f, v, din, dout, interp) in enumerate(keys):
        dl = f - keys[k - 1][0] if k > 0 else (keys[1][0] - f if n > 1 else 1.0)
        dr = keys[k + 1][0] - f if k + 1 < n else (f - keys[k - 1][0] if n > 1 else 1.0)
        out.co += (f, v)
        out.left += (f - dl / 3.0, v - din * dl / 3.0)
        out.right += (f + dr / 3.0, v + dout * dr / 3.0)
        out.interpolation.append(INTERPOLATION.get(int(round(interp)), LINEAR))
    return out


def cycle_modes(channel):
    """(mode_before, mode_after) of the Cycles modifier the channel needs, or None."""
    before, after = CYCLE_MODE[channel.pre], CYCLE_MODE[channel.post]
    if before == "NONE" and after == "NONE":
        return None
    return before, after


def zero_ranges(channel):
    """The frame ranges where a "zero" pre / post makes the curve 0: [(start, end)]."""
    if not channel.keys:
        return []
    out = []
    if channel.pre == "zero":
        out.append((-1.0e6, channel.keys[0][0]))
    if channel.post == "zero":
        out.append((channel.keys[-1][0], 1.0e6))
    return out


# ---------------------------------------------------------------------------------------
# Back: keyframes -> the curves schema (export)


def channel_from_keyframes(node, prop, index, co, left, right, interpolation, pre="clamp", post="clamp"):
    """A Channel from an F-curve's keyframes: co / left / right as [(frame, value)],
    interpolation as RNA enum names; slopes from the handles (value per frame)."""
    names = {"CONSTANT": 0, "LINEAR": 1, "BEZIER": 2}
    keys = []
    for k, (f, v) in enumerate(co):
        lf, lv = left[k]
        rf, rv = right[k]
        din = (v - lv) / (f - lf) if f - lf > 1e-9 else 0.0
        dout = (rv - v) / (rf - f) if rf - f > 1e-9 else 0.0
        interp = names.get(interpolation[k])
        if interp is None:
            raise CurvesError("node %d %s[%d]: key at frame %g has interpolation %s, which the file cannot store "
                              "(constant, linear or Bezier)" % (node, prop, index, f, interpolation[k]))
        keys.append((f, v, din, dout, float(interp)))
    return Channel(node, prop, index, keys, pre, post)


def to_json(rotation_mode, driven, channels, joints=None):
    """The curves schema with the keys inline ("keys": [[frame, value, in, out, interp, 0]]);
    `joints` {node: the clip's joint index} adds each channel's "joint" (what
    `animkit curves-replace` takes)."""
    def channel(c):
        out = {"node": c.node, "property": c.property, "index": c.index, "pre": c.pre, "post": c.post,
               "keys": [[float(x) for x in k] + [0.0] for k in c.keys]}
        if joints and c.node in joints:
            out["joint"] = joints[c.node]
        return out
    return {"rotation_mode": rotation_mode, "driven": sorted(driven), "channels": [channel(c) for c in channels]}

