# The many-clip KH2 moveset the add-on's moveset test edits (no bpy): 24 clips over the
# sample skeleton samples/kh2_bar/ex00.mdlx, written by animkit's own encoder (animkit
# convert clips.glb moveset.mset), then its last slot made a link entry to the slot the
# test edits (the game's link entries: same offset and size as the earlier entry, u16
# duplicate field 1). Triggers are stored out of time order in every third clip.
#
#   python3 tests/blender/moveset_source.py --cli ANIMKIT --samples samples --out DIR

import math
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import gltf_write, import_data, rig as rigmod  # noqa: E402

CLIPS = 24
EDITED = 5           # the slot the test edits
LINK = CLIPS - 1     # the slot made a link to EDITED
RATE = 30.0


def _quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def _axis_angle(axis, angle):
    n = math.sqrt(sum(c * c for c in axis))
    s = math.sin(angle / 2) / n
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2))


def _events(k, frames):
    """Every third clip: a range trigger stored before an earlier one, a frame trigger
    after both (names and params as the library decodes KH2 triggers)."""
    if k % 3:
        return []
    end = (frames - 1) / RATE
    return [{"time": 4 / RATE, "end_time": 7 / RATE, "name": "Attack hitbox", "params": [10.0, 7.0, 5.0, 1.0]},
            {"time": 0.0, "end_time": end, "name": "STATE: Grounded", "params": [0.0, -1.0]},
            {"time": 2 / RATE, "name": "Play footstep sound", "params": [2.0, 3.0, 0.0]}]


def _clip(k, rig):
    frames = 10 + (k % 7) * 3
    channels = []
    for i, node in enumerate(rig["nodes"]):
        if node["kind"] != rigmod.KIND_JOINT:
            continue
        axis = (math.sin(k + i), 1.0, math.cos(2 * k + i))
        amp = 0.2 + 0.05 * ((k * 7 + i) % 9)
        rot = [_quat_mul(node["r"], _axis_angle(axis, amp * math.sin(2 * math.pi * f / (frames - 1))))
               for f in range(frames)]
        channels.append({"node": i, "path": "translation", "interpolation": "LINEAR",
                         "values": [tuple(node["t"])] * frames})
        channels.append({"node": i, "path": "rotation", "interpolation": "LINEAR", "values": rot})
        channels.append({"node": i, "path": "scale", "interpolation": "LINEAR", "values": [tuple(node["s"])] * frames})
    extras = {"frame_rate": RATE, "frame_count": frames, "duration": (frames - 1) / RATE, "loop": False,
              "space": "local", "events": _events(k, frames)}
    return {"name": "clip%02d" % k, "extras": extras, "times": [f / RATE for f in range(frames)], "channels": channels}


def read_slots(path):
    """[(type, duplicate, name, offset, size)] of a BAR's entry table, and the bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"BAR\x01":
        raise ValueError("%s: not a BAR" % path)
    count = struct.unpack_from("<I", data, 4)[0]
    slots = []
    for i in range(count):
        t, dup, name, off, size = struct.unpack_from("<HH4sII", data, 16 + 16 * i)
        slots.append((t, dup, name.rstrip(b"\0").decode("ascii", "replace"), off, size))
    return slots, data


def _make_link(path):
    """Slot LINK becomes a link entry to slot EDITED; its own data, the file's last, goes."""
    slots, data = read_slots(path)
    t, _dup, name, off, _size = slots[LINK]
    if off != max(s[3] for s in slots):
        raise ValueError("%s: slot %d is not the last data" % (path, LINK))
    target = slots[EDITED]
    data = bytearray(data[:off])
    struct.pack_into("<HH4sII", data, 16 + 16 * LINK, t, 1, name.encode("ascii").ljust(4, b"\0"), target[3],
                     target[4])
    with open(path, "wb") as f:
        f.write(bytes(data))


def make_moveset(cli, samples, out_dir):
    """Writes OUT_DIR/moveset.mset; returns (its path, the skeleton's)."""
    skeleton = os.path.join(samples, "kh2_bar", "ex00.mdlx")
    with tempfile.TemporaryDirectory(prefix="animkit_moveset_") as tmp:
        akd = os.path.join(tmp, "skeleton.akd")
        subprocess.run([cli, "import-data", skeleton, "-o", akd], check=True, stdout=subprocess.PIPE)
        rig = rigmod.rig_from_scene(import_data.read(akd).scene)
        glb = os.path.join(tmp, "clips.glb")
        gltf_write.write_glb(glb, rig, [_clip(k, rig) for k in range(CLIPS)])
        out = os.path.join(out_dir, "moveset.mset")
        subprocess.run([cli, "convert", glb, out, "--skeleton", skeleton], check=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    _make_link(out)
    return out, skeleton


if __name__ == "__main__":
    def arg(name):
        return sys.argv[sys.argv.index(name) + 1]
    print(make_moveset(arg("--cli"), arg("--samples"), arg("--out")))
