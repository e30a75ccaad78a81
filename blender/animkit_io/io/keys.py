# A glTF channel's keys as Blender keyframes, as stored: no sampling. Pure Python (no
# bpy, no mathutils), so it runs outside Blender too.
#
# Key k at time t_k is at Blender frame f_k = t_k * rate. STEP -> CONSTANT, LINEAR ->
# LINEAR, CUBICSPLINE -> BEZIER with FREE handles at one third of each neighbouring
# interval (docs/blender.md, "Keys as stored"):
#   handle_right_k = (f_k + (f_{k+1} - f_k) / 3, v_k + out_k (t_{k+1} - t_k) / 3)
#   handle_left_k  = (f_k - (f_k - f_{k-1}) / 3, v_k - in_k (t_k - t_{k-1}) / 3)
# With handles at thirds the Bezier's frame is linear in the segment's parameter, so its
# value is the glTF's cubic Hermite exactly. A curve's first key's left handle and its
# last key's right handle mirror the interval they have.
#
# Values are taken to the bone's pose basis (build.py): basis = L^-1 A with L rigid
# (translation lt, rotation lq): translation lq^-1 (t - lt), rotation lq^-1 q, scale as is.
# Both maps are linear but for the offset, so tangents take the map without the offset.

import math

CONSTANT, LINEAR, BEZIER = 0, 1, 2  # F-curve keyframe interpolation (RNA enum values)
FREE = 0  # keyframe handle type (RNA enum value)

INTERPOLATION = {"STEP": CONSTANT, "LINEAR": LINEAR, "CUBICSPLINE": BEZIER}


def quat_mul(a, b):
    """Hamilton product of (w, x, y, z) quaternions."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def rotate(q, v):
    """v rotated by the unit quaternion q (w, x, y, z)."""
    w, x, y, z = quat_mul(quat_mul(q, (0.0, v[0], v[1], v[2])), (q[0], -q[1], -q[2], -q[3]))
    return (x, y, z)


class BasisMap:
    """A bone's rest offset: translation lt (x, y, z) and inverse rotation lqi (w, x, y, z)."""

    def __init__(self, lt, lqi):
        self.lt = tuple(lt)
        self.lqi = tuple(lqi)

    def value(self, path, v):
        """A glTF value (rotation x, y, z, w) as the pose basis value (rotation w, x, y, z)."""
        if path == "translation":
            return rotate(self.lqi, (v[0] - self.lt[0], v[1] - self.lt[1], v[2] - self.lt[2]))
        if path == "rotation":
            return quat_mul(self.lqi, (v[3], v[0], v[1], v[2]))
        return tuple(v)

    def tangent(self, path, d):
        if path == "translation":
            return rotate(self.lqi, d)
        if path == "rotation":
            return quat_mul(self.lqi, (d[3], d[0], d[1], d[2]))
        return tuple(d)


class Curves:
    """One channel as Blender keyframes: per component k, flat `co` [f0, v0, f1, v1, ...]
    and, for BEZIER, flat `left` / `right` handles; `interpolation` for every key."""

    def __init__(self, width, count, interpolation):
        self.width = width
        self.count = count
        self.interpolation = interpolation
        self.co = [[] for _ in range(width)]
        self.left = [[] for _ in range(width)] if interpolation == BEZIER else None
        self.right = [[] for _ in range(width)] if interpolation == BEZIER else None


def _slerp_frames(channel, rate):
    """A LINEAR rotation's keys plus one at each whole frame inside a segment that turns
    more than 1e-4 rad: glTF slerps, Blender's quaternion F-curves interpolate linearly."""
    times, values = [], []
    src_t, src_v = list(channel.times), channel.key_values()[0]
    for k in range(len(src_t)):
        if k > 0:
            a, b = src_v[k - 1], src_v[k]
            d = min(1.0, abs(sum(x * y for x, y in zip(a, b))))
            if d < 1.0 - 5e-9:
                # whole frames strictly inside, keys within 1e-3 frame of one being on it
                f = math.floor(src_t[k - 1] * rate + 1e-3) + 1
                while f < src_t[k] * rate - 1e-3:
                    u = (f / rate - src_t[k - 1]) / (src_t[k] - src_t[k - 1])
                    times.append(f / rate)
                    values.append(_slerp(a, b, u))
                    f += 1
        times.append(src_t[k])
        values.append(src_v[k])
    return times, values


def channel_curves(channel, rate, basis):
    """Curves of an import_data.Channel in the pose basis `basis` (a BasisMap)."""
    path = channel.path
    times = list(channel.times)
    values, ins, outs = channel.key_values()
    if path == "rotation" and channel.interpolation == "LINEAR" and len(times) > 1:
        times, values = _slerp_frames(channel, rate)
    n = len(times)
    interpolation = INTERPOLATION.get(channel.interpolation, LINEAR) if n > 1 else CONSTANT
    basis_values = [basis.value(path, v) for v in values]
    if path == "rotation" and interpolation != BEZIER:  # continuity; a cubic's keys stay as stored
        for k in range(1, n):
            a, b = basis_values[k - 1], basis_values[k]
            if sum(x * y for x, y in zip(a, b)) < 0.0:
                basis_values[k] = tuple(-x for x in b)
    width = len(basis_values[0]) if n else channel.width
    out = Curves(width, n, interpolation)
    frames = [t * rate for t in times]
    for k in range(n):
        for c in range(width):
            out.co[c] += (frames[k], basis_values[k][c])
    if interpolation != BEZIER:
        return out
    tin = [basis.tangent(path, d) for d in ins]
    tout = [basis.tangent(path, d) for d in outs]
    for k in range(n):
        dt_left = times[k] - times[k - 1] if k > 0 else times[1] - times[0]
        dt_right = times[k + 1] - times[k] if k + 1 < n else times[k] - times[k - 1]
        fl, fr = frames[k] - dt_left * rate / 3.0, frames[k] + dt_right * rate / 3.0
        for c in range(width):
            v = basis_values[k][c]
            out.left[c] += (fl, v - tin[k][c] * dt_left / 3.0)
            out.right[c] += (fr, v + tout[k][c] * dt_right / 3.0)
    return out


def rest_curves(path, value, basis):
    """One CONSTANT key at frame 0 holding a glTF rest value (a path a clip does not key)."""
    v = basis.value(path, value)
    out = Curves(len(v), 1, CONSTANT)
    for c in range(len(v)):
        out.co[c] += (0.0, v[c])
    return out


# ---------------------------------------------------------------------------------------
# Sampling (model-space clips only, whose keys build.py composes frame by frame)


def _slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0.0:
        b, d = tuple(-x for x in b), -d
    if d > 0.9995:
        r = tuple(x + (y - x) * u for x, y in zip(a, b))
    else:
        th = math.acos(min(1.0, d))
        s = math.sin(th)
        wa, wb = math.sin((1.0 - u) * th) / s, math.sin(u * th) / s
        r = tuple(wa * x + wb * y for x, y in zip(a, b))
    n = sum(x * x for x in r) ** 0.5 or 1.0
    return tuple(x / n for x in r)


def sample(channel, t):
    """The glTF value (rotation x, y, z, w) of a channel at time t, as glTF defines it."""
    return _sample(channel, channel.key_values(), t)


def sample_many(channel, ts):
    """sample() at each time of ts, ascending (the keys unpacked once, walked once); a
    time that is a key's gives that key's value."""
    rows = channel.key_values()
    times = channel.times
    out = []
    k = 0
    for t in ts:
        while k + 1 < len(times) and times[k + 1] <= t:
            k += 1
        out.append(rows[0][k] if times[k] == t else _sample(channel, rows, t, max(0, min(k, len(times) - 2))))
    return out


def _sample(channel, rows, t, k=0):
    """The value at t; k: a key at or before the segment holding t (0: search from the start)."""
    times = channel.times
    values, ins, outs = rows
    n = len(times)
    if n == 1 or t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[-1]
    while k + 2 < n and times[k + 1] <= t:
        k += 1
    dt = times[k + 1] - times[k]
    u = (t - times[k]) / dt if dt > 0 else 0.0
    if channel.interpolation == "STEP":
        return values[k]
    if channel.interpolation == "CUBICSPLINE":
        u2, u3 = u * u, u * u * u
        h = (2 * u3 - 3 * u2 + 1, (u3 - 2 * u2 + u) * dt, -2 * u3 + 3 * u2, (u3 - u2) * dt)
        r = tuple(h[0] * p + h[1] * m + h[2] * q + h[3] * w
                  for p, m, q, w in zip(values[k], outs[k], values[k + 1], ins[k + 1]))
        if channel.path == "rotation":
            n2 = sum(x * x for x in r) ** 0.5 or 1.0
            r = tuple(x / n2 for x in r)
        return r
    if channel.path == "rotation":
        return _slerp(values[k], values[k + 1], u)
    return tuple(a + (b - a) * u for a, b in zip(values[k], values[k + 1]))
