# Export of F-curve keys as they are: the glTF channel a bone property's component curves
# make when glTF can carry them exactly (docs/blender.md, "Export"). Pure Python (no bpy):
# export.py reads the curves with bulk calls and hands them here as Curve objects.
#
# A property's curves (location xyz, rotation_quaternion wxyz, scale xyz) become one
# channel over the union of their key times:
#   every segment CONSTANT                       -> STEP
#   every segment LINEAR                         -> LINEAR
#   Bezier segments with handles at the thirds of
#   their interval (and LINEAR ones)             -> CUBICSPLINE (tangents from the handles)
#   anything else                                -> None: the caller samples every frame.
# A Bezier segment whose handles sit at the thirds in x is a cubic in the frame (x linear in
# the curve parameter), so restricting it to a sub-interval where another component has a
# key is exact: the value and derivative at the split point.

import array
import operator

# Keyframe interpolation as foreach_get('interpolation') gives it (RNA enum values).
CONSTANT, LINEAR, BEZIER = 0, 1, 2

# Handles within this many frames of the thirds count as at the thirds (float32 handles).
THIRDS_TOLERANCE = 1e-3
# Key times closer than this (frames) are one time of the union.
TIME_TOLERANCE = 1e-4

_ANY = "ANY"  # a curve with one key: constant, fits any kind


class Curve:
    """One F-curve's keys. frames, values: per key; interp: per key, the interpolation of
    the segment the key starts; hl_x, hl_y, hr_x, hr_y: the handles (None without Bezier)."""

    __slots__ = ("frames", "values", "interp", "hl_x", "hl_y", "hr_x", "hr_y")

    def __init__(self, frames, values, interp, handles=None):
        self.frames = frames
        self.values = values
        self.interp = interp
        self.hl_x, self.hl_y, self.hr_x, self.hr_y = handles if handles is not None else (None, None, None, None)


def _gaps(c):
    """The key intervals (frames)."""
    f = c.frames
    return list(map(operator.sub, f[1:], f))


def _at_thirds(c, gaps):
    """Whether every Bezier segment has its handles at the thirds of its interval in x."""
    f, it = c.frames, c.interp
    tol = THIRDS_TOLERANCE * max(1.0, max(gaps) / 3.0)
    right = all(abs(h - x - d / 3.0) <= tol for i, h, x, d in zip(it, c.hr_x, f, gaps) if i == BEZIER)
    return right and all(abs(y - h - d / 3.0) <= tol for i, h, y, d in zip(it, c.hl_x[1:], f[1:], gaps)
                         if i == BEZIER)


def curve_kind(c):
    """"STEP", "LINEAR", "CUBIC", _ANY (one key) or None (must be sampled)."""
    n = len(c.frames)
    if n < 2:
        return _ANY
    kinds = set(c.interp[:n - 1])
    if kinds == {CONSTANT}:
        return "STEP"
    gaps = _gaps(c)
    if min(gaps) <= 0.0:
        return None
    if kinds == {LINEAR}:
        return "LINEAR"
    if not kinds <= {LINEAR, BEZIER} or c.hr_x is None or not _at_thirds(c, gaps):
        return None
    return "CUBIC"


def property_kind(kinds):
    """The channel's kind from its curves' kinds (None: sample)."""
    found = set(k for k in kinds if k != _ANY)
    if None in found:
        return None
    if not found:
        return "LINEAR"
    if found <= {"LINEAR", "CUBIC"}:
        return "CUBIC" if "CUBIC" in found else "LINEAR"
    return found.pop() if len(found) == 1 else None


def union_times(curves):
    """The sorted key frames of all curves (keys within TIME_TOLERANCE merged); the first
    curve's own frames when all curves have the same."""
    first = curves[0].frames
    if all(c.frames == first for c in curves[1:]):
        return first
    merged = sorted(f for c in curves for f in c.frames)
    out = []
    for f in merged:
        if not out or f - out[-1] > TIME_TOLERANCE:
            out.append(f)
    return out


def _slopes(c, k):
    """(slope at the end of segment k-1, slope at the start of segment k), per frame."""
    n = len(c.frames)
    return (_segment_slope(c, k - 1, 1.0) if k > 0 else 0.0,
            _segment_slope(c, k, 0.0) if k < n - 1 else 0.0)


def _segment_slope(c, k, s):
    """d value / d frame of segment k at s in [0, 1]."""
    it = c.interp[k]
    d = c.frames[k + 1] - c.frames[k]
    if it == CONSTANT or d <= 0.0:
        return 0.0
    p0, p3 = c.values[k], c.values[k + 1]
    if it == LINEAR:
        return (p3 - p0) / d
    p1, p2 = c.hr_y[k], c.hl_y[k + 1]
    u = 1.0 - s
    return 3.0 * (u * u * (p1 - p0) + 2.0 * u * s * (p2 - p1) + s * s * (p3 - p2)) / d


def _segment_value(c, k, s):
    it = c.interp[k]
    p0, p3 = c.values[k], c.values[k + 1]
    if it == CONSTANT:
        return p0
    if it == LINEAR:
        return p0 + (p3 - p0) * s
    p1, p2 = c.hr_y[k], c.hl_y[k + 1]
    u = 1.0 - s
    return u * u * u * p0 + 3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s * p3


def _own_keys(c, cubic):
    """(values, in slopes, out slopes) at the curve's own keys."""
    values = c.values
    if not cubic:
        return values, None, None
    gaps = _gaps(c)
    if c.hr_y is None:  # linear segments only
        slopes = [(y - x) / d for x, y, d in zip(values, values[1:], gaps)]
        return values, [0.0] + slopes, slopes + [0.0]
    outs = [3.0 * (h - x) / d if i == BEZIER else (y - x) / d
            for i, h, x, y, d in zip(c.interp, c.hr_y, values, values[1:], gaps)]
    ins = [3.0 * (y - h) / d if i == BEZIER else (y - x) / d
           for i, h, x, y, d in zip(c.interp, c.hl_y[1:], values, values[1:], gaps)]
    return values, [0.0] + ins, outs + [0.0]


def evaluate(c, frames, cubic, own=False):
    """(values, in slopes, out slopes) per frame of `frames` (sorted; own: the curve's own
    key frames); slopes per frame, None unless cubic. Outside the keys the curve holds its
    end values (slope 0)."""
    if own:
        return _own_keys(c, cubic)
    n = len(c.frames)
    values, ins, outs = [], [], []
    k = 0
    for f in frames:
        while k < n and c.frames[k] < f - TIME_TOLERANCE:
            k += 1
        if k < n and abs(c.frames[k] - f) <= TIME_TOLERANCE:  # a key of its own
            values.append(c.values[k])
            a, b = _slopes(c, k) if cubic else (0.0, 0.0)
        elif k == 0 or k == n:  # before the first key or after the last
            values.append(c.values[0 if k == 0 else n - 1])
            a = b = 0.0
        else:  # inside segment k-1: split there
            s = (f - c.frames[k - 1]) / (c.frames[k] - c.frames[k - 1])
            values.append(_segment_value(c, k - 1, s))
            a = b = _segment_slope(c, k - 1, s) if cubic else 0.0
        ins.append(a)
        outs.append(b)
    return values, (ins if cubic else None), (outs if cubic else None)


class Channel:
    """A property's channel in the bone's basis: frames (the union), kind, and per component
    values and (CUBIC) in / out slopes per frame."""

    def __init__(self, frames, kind, values, ins, outs):
        self.frames = frames
        self.kind = kind
        self.values = values
        self.ins = ins
        self.outs = outs


def combine(curves, defaults):
    """The Channel of a property from its component curves (None where a component has no
    curve: its default). None when it cannot be carried exactly (sample instead)."""
    present = [c for c in curves if c is not None]
    kind = property_kind([curve_kind(c) for c in present]) if present else "LINEAR"
    if kind is None:
        return None
    frames = union_times(present) if present else [0.0]
    shared = frames is present[0].frames if present else False
    cubic = kind == "CUBIC"
    zeros = [0.0] * len(frames) if cubic else None
    values, ins, outs = [], [], []
    for c, default in zip(curves, defaults):
        if c is None:
            v, a, b = [float(default)] * len(frames), zeros, zeros
        else:
            v, a, b = evaluate(c, frames, cubic, shared)
        values.append(v)
        ins.append(a)
        outs.append(b)
    return Channel(frames, kind, values, ins if cubic else None, outs if cubic else None)


# ---------------------------------------------------------------------------------------
# Basis -> parent-relative: A = L basis, L = (lt, lq) rigid


def _rotate(m, offset, x, y, z):
    """offset + the 3x3 rows m times the columns x, y, z."""
    (a, b, c), (d, e, f), (g, h, i) = m
    o0, o1, o2 = offset
    return ([a * p + b * q + c * r + o0 for p, q, r in zip(x, y, z)],
            [d * p + e * q + f * r + o1 for p, q, r in zip(x, y, z)],
            [g * p + h * q + i * r + o2 for p, q, r in zip(x, y, z)])


def _quat_times(lq, w, x, y, z):
    """lq (w, x, y, z) times the quaternion columns, as columns x, y, z, w (glTF's order)."""
    aw, ax, ay, az = lq
    return ([aw * q1 + ax * q0 + ay * q3 - az * q2 for q0, q1, q2, q3 in zip(w, x, y, z)],
            [aw * q2 - ax * q3 + ay * q0 + az * q1 for q0, q1, q2, q3 in zip(w, x, y, z)],
            [aw * q3 + ax * q2 - ay * q1 + az * q0 for q0, q1, q2, q3 in zip(w, x, y, z)],
            [aw * q0 - ax * q1 - ay * q2 - az * q3 for q0, q1, q2, q3 in zip(w, x, y, z)])


def to_parent(ch, path, lt, lm, lq):
    """The channel's columns in the parent's space (glTF component order): translation
    lt + R b (tangents R b'), rotation lq b (tangents lq b'), scale b."""
    def apply(cols, offset):
        if path == "translation":
            return list(_rotate(lm, lt if offset else (0.0, 0.0, 0.0), *cols))
        if path == "rotation":
            return list(_quat_times(lq, *cols))
        return list(cols)
    values = apply(ch.values, True)
    if ch.kind != "CUBIC":
        return values, None, None
    return values, apply(ch.ins, False), apply(ch.outs, False)


def gltf_channel(node, path, ch, lt, lm, lq, f0, rate, times_cache):
    """The glTF channel dict (gltf_write) of Channel `ch`: times (s) from frame f0, values
    as columns (CUBICSPLINE: in tangent, value, out tangent per key; tangents per second).
    times_cache: {} shared by a clip's channels (most have the same key frames)."""
    values, ins, outs = to_parent(ch, path, lt, lm, lq)
    key = array.array("d", ch.frames).tobytes()
    times = times_cache.get(key)
    if times is None:
        times = times_cache[key] = [(f - f0) / rate for f in ch.frames]
    kind = ch.kind
    if len(times) == 1:  # one key is a constant: glTF's LINEAR and CUBICSPLINE need two
        kind = "STEP"
    if kind == "CUBIC":
        columns = []
        for a, v, b in zip(ins, values, outs):
            col = [0.0] * (3 * len(v))
            col[0::3] = [x * rate for x in a]
            col[1::3] = v
            col[2::3] = [x * rate for x in b]
            columns.append(col)
        return {"node": node, "path": path, "interpolation": "CUBICSPLINE", "times": times, "columns": columns}
    return {"node": node, "path": path, "interpolation": kind, "times": times, "columns": values}


def at_rest(channel, rest, eps):
    """Whether a glTF channel (columns) holds its rest value throughout: every value within
    eps of rest and every tangent within eps of 0 (a rotation: of rest or -rest)."""
    if channel["path"] == "rotation" and _at_rest(channel, [-r for r in rest], eps):
        return True
    return _at_rest(channel, rest, eps)


def _at_rest(channel, rest, eps):
    cols = channel["columns"]
    cubic = channel["interpolation"] == "CUBICSPLINE"
    for col, r in zip(cols, rest):
        if cubic:
            if any(abs(v - r) > eps for v in col[1::3]) or any(abs(v) > eps for v in col[0::3] + col[2::3]):
                return False
        elif any(abs(v - r) > eps for v in col):
            return False
    return True
