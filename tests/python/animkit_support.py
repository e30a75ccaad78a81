"""What the Python tests share: the module (skipping with the reason when it is not
built), the samples and the CLI they are compared with.

ctest sets ANIMKIT_SOURCE_DIR and ANIMKIT_CLI (the animkit binary of the same build) and
PYTHONPATH (the build's python/ folder); run by hand:

    PYTHONPATH=build/release/python ANIMKIT_CLI=build/release/tools/animkit/animkit \\
        /usr/bin/python3 -m pytest tests/python
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed (python3-numpy)")
animkit = pytest.importorskip(
    "animkit",
    reason="the animkit module is not built or not on PYTHONPATH (`make python`; PYTHONPATH=build/release/python)",
)

SOURCE_DIR = Path(os.environ.get("ANIMKIT_SOURCE_DIR") or Path(__file__).resolve().parents[2])
SAMPLES = SOURCE_DIR / "samples"
CLI = os.environ.get("ANIMKIT_CLI", "")


def all_samples():
    """Every bundled sample file, sorted (not the .dds textures EDF models name)."""
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix != ".dds")


def sample_id(path):
    return str(Path(path).relative_to(SAMPLES))


def cli(*args, check=True):
    """Runs the animkit CLI; skips the test when ctest did not say where it is."""
    if not CLI:
        pytest.skip("ANIMKIT_CLI is not set: comparing with the CLI needs the animkit binary (ctest sets it)")
    result = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"animkit {' '.join(map(str, args))} failed: {result.stderr}")
    return result


def cli_json(*args):
    return json.loads(cli(*args).stdout)


def offset_in(message):
    """The byte offset an error message names ("offset 0x1c4: ..."), None when none."""
    m = re.search(r"offset 0x([0-9a-fA-F]+)", message)
    return int(m.group(1), 16) if m else None


def numbers(values):
    """JSON numbers as float32 (the sample JSON writes each float's shortest text); null -> NaN."""
    return [np.nan if v is None else v for v in values]


def expected_arrays(clip_json):
    """The trs (frames, joints, 10) and visibility (frames, joints) of a clip of `animkit sample`."""
    frames = clip_json["frames"]
    joints = len(clip_json["joints"])
    trs = np.zeros((len(frames), joints, 10), np.float32)
    visible = np.ones((len(frames), joints), bool)
    for f, row in enumerate(frames):
        assert len(row) == joints
        for j, pose in enumerate(row):
            if pose is None:
                visible[f, j] = False
            else:
                trs[f, j] = numbers(pose["t"] + pose["r"] + pose["s"])
    return trs, visible


def assert_clip_equals_json(clip, clip_json, rate=None):
    """clip.sample(rate) and the clip's other fields against `animkit sample [--rate]`'s JSON."""
    assert clip.name == clip_json["name"]
    assert clip.joints == clip_json["joints"]
    assert clip.loop == clip_json["loop"]
    assert clip.space == clip_json["space"]
    assert np.float32(clip.duration) == np.float32(clip_json["duration"])
    assert (rate or clip.frame_rate) == pytest.approx(clip_json["frame_rate"], rel=1e-7)
    trs, visible = clip.sample(rate)
    want_trs, want_visible = expected_arrays(clip_json)
    assert trs.dtype == np.float32 and visible.dtype == bool
    assert trs.shape == want_trs.shape
    assert np.array_equal(visible, want_visible)
    np.testing.assert_allclose(trs[visible], want_trs[want_visible], rtol=0, atol=1e-6, equal_nan=True)
    events = [dict(e) for e in clip_json["events"]]
    for e in events:
        e.setdefault("end_time", None)
    assert len(clip.events) == len(events)
    for got, want in zip(clip.events, events):
        assert got["name"] == want["name"]
        assert got["params"] == want["params"]
        assert np.float32(got["time"]) == np.float32(want["time"])
        assert (got["end_time"] is None) == (want["end_time"] is None)
        if want["end_time"] is not None:
            assert np.float32(got["end_time"]) == np.float32(want["end_time"])


def quaternion_angle(a, b):
    """Angle in radians between unit quaternions (..., 4), sign ignored, in float64: from the
    chord |a - b| (arccos of the dot product loses all precision near 0)."""
    a = a.astype(np.float64) / np.linalg.norm(a.astype(np.float64), axis=-1, keepdims=True)
    b = b.astype(np.float64) / np.linalg.norm(b.astype(np.float64), axis=-1, keepdims=True)
    b = np.where(np.sum(a * b, axis=-1, keepdims=True) < 0, -b, b)
    return 4 * np.arcsin(np.clip(np.linalg.norm(a - b, axis=-1) / 2, 0, 1))


def matrix(trs):
    """T * R * S of one t xyz, r xyzw, s xyz row, in float64."""
    t, (x, y, z, w), s = trs[0:3], trs[3:7], trs[7:10]
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * s
    m[:3, 3] = t
    return m
