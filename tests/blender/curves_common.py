# What the curves tests share (tests/blender/addon_curves.py): the import file read and
# written with a curves section, the curves evaluated and composed here (KH2's per-axis
# rule and the matrix rule), curves made from `animkit sample`, and the add-on's CLI
# calls pointed at the test's files.

import json
import os
import shutil
import struct
import sys
from mathutils import Matrix, Quaternion, Vector

import curve_eval
from addon_common import check, import_file, quat_angle

MAGIC = b"AKIMPORT"


def _fcurves(action):
    from animkit_io.blender import action_api  # the add-on's: Blender 5 has no action.fcurves
    return action_api.fcurves(action)


def _play(arm, action):
    """Makes `action` the armature's active action (Blender 4.4+: and its slot)."""
    from animkit_io.blender import action_api
    action_api.assign(arm.animation_data, action)


def _clip_actions(arm):
    return [s.action for t in arm.animation_data.nla_tracks for s in t.strips
            if not s.action.get("animkit_rest_pose", False)]

TOL = 1e-4  # translation relative to the model size, rotation in radians, scale


# ---------------------------------------------------------------------------------------
# The import file: read a real one, write one with curves


def read_import_file(path):
    with open(path, "rb") as f:
        blob = f.read()
    check(blob[:8] == MAGIC, "%s: not an import file" % path)
    version, length = struct.unpack_from("<II", blob, 8)
    return version, json.loads(blob[16:16 + length].decode("utf-8")), bytearray(blob[16 + length:])


def write_import_file(path, header, data, clip_curves):
    """Version 3: `header` and `data` as animkit wrote them, each clip's curves
    (clip_curves[k]: {"rotation_mode", "driven", "channels": [... "keys": [[6 floats]]]})
    added, the keys appended to the data."""
    data = bytearray(data)
    data += b"\0" * (-len(data) % 4)
    header = json.loads(json.dumps(header))
    for clip, curves in zip(header["clips"], clip_curves):
        if curves is None:
            continue
        out = dict(curves)
        out["channels"] = []
        for ch in curves["channels"]:
            offset = len(data)
            for key in ch["keys"]:
                data += struct.pack("<6f", *key)
            out["channels"].append(dict(ch, keys={"offset": offset, "count": len(ch["keys"])}))
        clip["curves"] = out
    text = json.dumps(header).encode("utf-8")
    with open(path, "wb") as f:
        f.write(MAGIC + struct.pack("<II", 3, len(text)) + text + bytes(data))


class FakeImportData:
    """Stands in for `animkit import-data`: copies the test's file where the add-on asks."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        self.module = sys.modules["animkit_io.io.cli"]
        self.real = self.module.import_data
        self.module.import_data = lambda exe, src, out, skeleton="auto", options=(): shutil.copyfile(
            self.path, out) and []
        return self

    def __exit__(self, *exc):
        self.module.import_data = self.real


def evaluate(ch, f):
    """A curve of the import file's schema at frame f (the file's definition: curve_eval)."""
    return curve_eval.evaluate(ch["keys"], ch["pre"], ch["post"], f)


PROPS = ("location", "rotation_euler", "scale")


def locals_from_curves(curves, n_frames, rest):
    """Per frame {node: (t, euler, s)} from the curves (nodes without a curve: rest)."""
    out = []
    by = {(c["node"], c["property"], c["index"]): c for c in curves["channels"]}
    for f in range(n_frames):
        row = {}
        for node, (t, e, s) in rest.items():
            vals = {"location": list(t), "rotation_euler": list(e), "scale": list(s)}
            for p in PROPS:
                for k in range(3):
                    c = by.get((node, p, k))
                    if c is not None:
                        vals[p][k] = evaluate(c, float(f))
            row[node] = tuple(vals[p] for p in PROPS)
        out.append(row)
    return out


def compose(parents, order, local, per_axis):
    """{node: model matrix}: matrix products, or KH2's per-axis rule (math.cpp
    ComposePerAxis: S = S_p s, R = R_p r, T = T_p + R_p (S_p t))."""
    model = {}
    trs = {}
    for i in order:
        t, e, s = local[i]
        r = euler_quat(e)
        p = parents[i]
        if p < 0:
            trs[i] = (Vector(t), r, Vector(s))
        elif per_axis:
            tp, rp, sp = trs[p]
            trs[i] = (tp + rp @ Vector([sp[k] * t[k] for k in range(3)]), rp @ r,
                      Vector([sp[k] * s[k] for k in range(3)]))
        else:
            m = model[p] @ Matrix.LocRotScale(Vector(t), r, Vector(s))
            model[i] = m
            continue
        model[i] = Matrix.LocRotScale(*trs[i])
    return model


def euler_quat(e):
    """R = Rz Ry Rx (XYZ: X applied first), as a quaternion, computed from the axes."""
    qx = Quaternion((1, 0, 0), e[0])
    qy = Quaternion((0, 1, 0), e[1])
    qz = Quaternion((0, 0, 1), e[2])
    return qz @ qy @ qx


def quat_euler(q, compat=None):
    e = q.to_euler("XYZ", compat) if compat is not None else q.to_euler("XYZ")
    b = euler_quat(e)
    check(quat_angle((q.x, q.y, q.z, q.w), (b.x, b.y, b.z, b.w)) < 1e-5, "test: Euler conversion")
    return e


# ---------------------------------------------------------------------------------------
# Curves from `animkit sample`


def curves_from_samples(header, sample_clip, style, driven_names=()):
    """A clip's curves from its sampled locals: per channel one of three key styles
    (linear at every frame, constant at every frame, hermite every second frame with
    central-difference slopes); a channel that holds still gets one key and a cycle."""
    names = {n["name"]: i for i, n in enumerate(header["scene"]["nodes"])}
    frames = sample_clip["frames"]
    n = len(frames)
    channels = []
    driven = []
    for col, name in enumerate(sample_clip["joints"]):
        node = names[name]
        if name in driven_names:
            driven.append(node)
            continue
        eulers = []
        last = None
        for row in frames:
            v = row[col]
            q = Quaternion((v["r"][3], v["r"][0], v["r"][1], v["r"][2]))
            last = quat_euler(q, last)
            eulers.append(last)
        for p in PROPS:
            for k in range(3):
                if p == "location":
                    vals = [row[col]["t"][k] for row in frames]
                elif p == "scale":
                    vals = [row[col]["s"][k] for row in frames]
                else:
                    vals = [e[k] for e in eulers]
                kind = (style + col + 3 * PROPS.index(p) + k) % 3
                if max(vals) - min(vals) < 1e-7:
                    # still: one key, a cycle either side (the value everywhere)
                    keys = [[0.0, vals[0], 0.0, 0.0, 1.0, 0.0]]
                    channels.append({"node": node, "property": p, "index": k, "pre": "repeat", "post": "offset",
                                     "keys": keys})
                    continue
                if kind == 0:
                    keys = [[float(f), vals[f], 0.0, 0.0, 1.0, 0.0] for f in range(n)]
                    channels.append({"node": node, "property": p, "index": k, "pre": "zero",
                                     "post": ("repeat", "zero", "clamp")[(col + k) % 3], "keys": keys})
                    continue
                elif kind == 1:
                    keys = [[float(f), vals[f], 0.0, 0.0, 0.0, 0.0] for f in range(n)]
                else:
                    at = sorted(set(list(range(0, n, 2)) + [n - 1]))
                    keys = []
                    for j, f in enumerate(at):
                        a, b = at[max(0, j - 1)], at[min(len(at) - 1, j + 1)]
                        slope = (vals[b] - vals[a]) / (b - a) if b > a else 0.0
                        keys.append([float(f), vals[f], slope, slope * 0.5, 2.0, 0.0])
                channels.append({"node": node, "property": p, "index": k, "pre": "clamp", "post": "clamp",
                                 "keys": keys})
    return {"rotation_mode": "XYZ", "driven": driven, "channels": channels}


def _import_with_curves(header, data, curves, tmp, name, source=""):
    """Imports the test's file as if animkit had written it for tmp/name (a copy of
    `source` there: export's template)."""
    path = os.path.join(tmp, name + ".akd")
    write_import_file(path, header, data, curves)
    if source:
        shutil.copyfile(source, os.path.join(tmp, name))
    with FakeImportData(path):
        return import_file(os.path.join(tmp, name))


class CapturedCurvesReplace:
    """Catches the edits the add-on hands `animkit curves-replace`, to compare them with
    the test's invented curves (which no file holds, so the verb itself would refuse them;
    the export and moveset parts run the real verb on real clips)."""

    def __enter__(self):
        self.module = sys.modules["animkit_io.io.cli"]
        self.real = (self.module.has_verb, self.module.curves_replace)
        self.edits = None
        self.argv = None

        def replace(exe, template, edits, out, options=()):
            with open(edits, "r", encoding="utf-8") as f:
                self.edits = json.load(f)
            self.argv = (template, out)
            shutil.copyfile(template, out)
            return [], out + ": no clip's curves changed"  # (warnings, summary), as the real call

        self.module.has_verb = lambda exe, verb: verb == self.module.CURVES_REPLACE
        self.module.curves_replace = replace
        return self

    def __exit__(self, *exc):
        self.module.has_verb, self.module.curves_replace = self.real


def _scene_tree(header):
    nodes = header["scene"]["nodes"]
    joints = set(header["scene"]["joints"])
    parents = {}
    for i in joints:
        p = nodes[i]["parent"]
        while p >= 0 and p not in joints:
            p = nodes[p]["parent"]
        parents[i] = p
    order = []
    while len(order) < len(parents):
        for i in sorted(parents):
            if i not in order and (parents[i] < 0 or parents[i] in order):
                order.append(i)
    return nodes, parents, order
