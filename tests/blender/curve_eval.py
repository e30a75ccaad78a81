# A file curve's value at a frame, as the file defines it (keys of frame, value, in slope,
# out slope, interpolation; pre / post cycles): the tests' reference for the F-curves the
# add-on builds. Pure Python (no bpy), so the module tests run it outside Blender too.

import math


def _segment(a, b, f):
    fa, va, _ia, oa, interp = a[:5]
    fb, vb, ib, _ob, _ = b[:5]
    d = fb - fa
    if d <= 0 or int(round(interp)) == 0:
        return va
    u = (f - fa) / d
    if int(round(interp)) == 1:
        return va + (vb - va) * u
    u2, u3 = u * u, u * u * u
    return ((2 * u3 - 3 * u2 + 1) * va + (u3 - 2 * u2 + u) * d * oa + (-2 * u3 + 3 * u2) * vb +
            (u3 - u2) * d * ib)


def evaluate(keys, pre, post, f):
    """The value at frame f of the curve with these keys, pre / post included."""
    if not keys:
        return 0.0
    first, last = keys[0][0], keys[-1][0]
    span = last - first
    shift = 0.0
    mode = pre if f < first else post if f > last else ""
    if mode == "zero":
        return 0.0
    if mode in ("repeat", "offset") and span > 0:
        m = math.floor((f - first) / span)
        f -= m * span
        if mode == "offset":
            shift = m * (keys[-1][1] - keys[0][1])
    elif mode:
        return keys[0][1] if f < first else keys[-1][1]
    k = 0
    while k + 2 < len(keys) and keys[k + 1][0] <= f:
        k += 1
    if len(keys) == 1 or f <= keys[0][0]:
        return keys[0][1] + shift
    if f >= keys[-1][0]:
        return keys[-1][1] + shift
    return _segment(keys[k], keys[k + 1], f) + shift
