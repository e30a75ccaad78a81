"""Encode -> decode through the module: every sample with clips, re-encoded in its own
format against its skeleton and decoded again, stays within its format's bound; clips
built from arrays come back as they were."""

import math

import pytest

from animkit_support import all_samples, animkit, np, quaternion_angle, sample_id


def clip_samples():
    out = []
    # An archive whose scenes are made of its members (a Metroid PAK) is written into its
    # original (a template), not re-encoded alone.
    writable = {f["id"] for f in animkit.formats() if f["writable"] and not f["scenes_of_members"]}
    for path in all_samples():
        f = animkit.load(path, skeleton="auto")
        if f.format not in writable:
            continue
        if f.format in writable and any(c.joints for c in f.decode().clips):
            out.append(path)
    return out


def half_step(values):
    """Half the 16-bit quantization step of each curve: (max - min) / 65535 / 2 per joint and component."""
    return (values.max(axis=0) - values.min(axis=0)) / 131070


def bounds(fmt, trs):
    """The format's encode -> decode bound for translation, rotation (radians), scale, given
    the original samples trs (frames, joints, 10). From docs/formats/*.md:
    - edf-canm: each component within half its curve's 16-bit step; rotations 1e-3 rad;
    - psx-anm: Euler angles within pi/4096 each (so 3 pi/4096 as an angle), integer
      translations (0.5), scale within 1/8192;
    - metroid-anim: the v2 encoder's tolerances (max-error-rot 1e-3 rad, max-error-pos
      1e-3 x the translation range); version 0 stores floats;
    - kh2-bar / kh2-motion (interpolated, kh2-tolerance 1e-4): each Euler channel within
      1e-4 (3e-4 rad as an angle), translation and scale within 1e-4 x max(1, |largest|);
    - floats elsewhere (text ANM values, glTF): 1e-6.
    Float rounding (1e-5 relative) is added to each."""
    t, s = trs[..., 0:3], trs[..., 7:10]
    rounding = 1e-5 * np.maximum(1, np.abs(trs).max(axis=0))
    if fmt == "edf-canm":
        return half_step(t) + rounding[:, 0:3], 1e-3, half_step(s) + rounding[:, 7:10]
    if fmt == "psx-anm":
        return 0.5, 3 * math.pi / 4096 + 1e-5, 1 / 8192 + 1e-6
    if fmt == "metroid-anim":
        span = (t.max(axis=(0, 1)) - t.min(axis=(0, 1))).max()
        return 1e-3 * span + rounding[:, 0:3], 1e-3 + 1e-5, rounding[:, 7:10]
    if fmt in ("kh2-bar", "kh2-motion"):
        big = lambda v: 1e-4 * np.maximum(1, np.abs(v).max(axis=0))  # noqa: E731
        return big(t) + rounding[:, 0:3], 3e-4 + 1e-5, big(s) + rounding[:, 7:10]
    return 1e-6 + rounding[:, 0:3], 1e-5, 1e-6 + rounding[:, 7:10]


def assert_within(fmt, before, after):
    assert len(after.clips) == len(before.clips)
    for a, b in zip(before.clips, after.clips):
        trs_a, vis_a = a.sample()
        trs_b, vis_b = b.sample()
        assert set(a.joints) <= set(b.joints), f"{fmt}: joints lost"
        columns = [b.joints.index(j) for j in a.joints]
        trs_b, vis_b = trs_b[:, columns], vis_b[:, columns]
        assert trs_b.shape == trs_a.shape, f"{fmt} clip {a.name}: {trs_b.shape} != {trs_a.shape}"
        assert np.array_equal(vis_a, vis_b)
        t_tol, r_tol, s_tol = bounds(fmt, trs_a)
        shown = vis_a[..., None]
        t_err = np.where(shown, np.abs(trs_b[..., 0:3] - trs_a[..., 0:3]), 0)
        s_err = np.where(shown, np.abs(trs_b[..., 7:10] - trs_a[..., 7:10]), 0)
        r_err = np.where(vis_a, quaternion_angle(trs_a[..., 3:7], trs_b[..., 3:7]), 0)
        assert (t_err <= t_tol).all(), f"{fmt} clip {a.name}: translation error {t_err.max()}"
        assert (r_err <= r_tol).all(), f"{fmt} clip {a.name}: rotation error {r_err.max()} rad"
        assert (s_err <= s_tol).all(), f"{fmt} clip {a.name}: scale error {s_err.max()}"
        assert len(b.events) == len(a.events)


@pytest.mark.parametrize("path", clip_samples(), ids=sample_id)
def test_encode_decode_within_the_formats_bound(path, tmp_path):
    f = animkit.load(path, skeleton="auto")
    scene = f.decode()
    out = tmp_path / path.name
    written = animkit.save(scene, out, format=f.format)
    assert written[0]["path"] == str(out) and written[0]["bytes"] == out.stat().st_size
    assert animkit.encode(scene, f.format, path=out) == out.read_bytes()
    # The file an encoder adds (a text ANM's new timeline) is the skeleton it decodes against.
    skeleton = written[1]["path"] if len(written) > 1 else scene.skeleton_file
    again = animkit.load(out.read_bytes(), format=f.format, name=str(out), skeleton=skeleton).decode()
    assert_within(f.format, scene, again)


def moving_clip(frames=40, joints=3, scale=0.25):
    t = np.linspace(0, 1, frames, dtype=np.float32)
    trs = np.zeros((frames, joints, 10), np.float32)
    for j in range(joints):
        angle = (j + 1) * t
        trs[:, j, 0] = j + t  # translation x
        trs[:, j, 1] = np.sin(angle)
        trs[:, j, 5] = np.sin(angle / 2)  # rotation about z
        trs[:, j, 6] = np.cos(angle / 2)
        trs[:, j, 7:10] = 1 + scale * t[:, None]
    return trs


def test_from_arrays_encode_load_decode_round_trip():
    trs = moving_clip()
    visible = np.ones(trs.shape[:2], bool)
    visible[5:9, 1] = False
    events = [{"time": 0.5, "name": "step", "params": [1.0, 2.0]}, {"time": 0.25, "name": "swing", "params": [],
                                                                     "end_time": 0.75}]
    clip = animkit.Clip.from_arrays("wave", 30, ["root", "arm", "#7"], trs, visible, loop=True, events=events)
    assert clip.frame_count == 40 and clip.duration == pytest.approx(39 / 30)
    got, shown = clip.sample()  # the keys themselves; rotations come back normalized (within an ulp)
    np.testing.assert_allclose(got, trs, rtol=0, atol=1e-6)
    assert np.array_equal(shown, visible)

    data = animkit.encode([clip], "gltf")
    assert data[:4] == b"glTF"
    back = animkit.load(data, name="wave.glb").decode()
    (decoded,) = back.clips
    assert decoded.name == "wave" and decoded.loop
    assert decoded.frame_rate == pytest.approx(30)
    trs_b, shown_b = decoded.sample()
    columns = [decoded.joints.index(j) for j in clip.joints]
    assert np.array_equal(shown_b[:, columns], visible)  # glTF hides a joint with a STEP scale of 0
    np.testing.assert_allclose(trs_b[:, columns][visible], trs[visible], rtol=0, atol=1e-6)
    assert sorted(e["name"] for e in decoded.events) == ["step", "swing"]


def test_from_arrays_to_a_game_format_stays_within_its_bound():
    trs = moving_clip(frames=60, joints=4, scale=0)  # a Metroid ANIM stores no scale
    clip = animkit.Clip.from_arrays("walk", 30, ["root", "spine", "arm", "hand"], trs)
    skeleton = animkit.Skeleton(["root", "spine", "arm", "hand"], [-1, 0, 1, 2])
    # An ANIM names bones by number: its CINF (written from the skeleton) names them back.
    cinf = animkit.load(animkit.encode(animkit.Scene([], skeleton), "metroid-cinf"), name="walk.cinf")
    for fmt, name, rig in (("edf-canm", "walk.canm", skeleton), ("metroid-anim", "walk.anim", cinf),
                           ("kh2-bar", "walk.anb", skeleton)):
        data = animkit.encode(animkit.Scene([clip], skeleton), fmt, path=name, skeleton=rig)
        again = animkit.load(data, name=name, skeleton=rig).decode()
        assert_within(fmt, animkit.Scene([clip], skeleton), again)


def test_scene_keeps_its_clips_and_skeleton():
    trs = moving_clip()
    clip = animkit.Clip.from_arrays("a", 24, ["root", "arm", "hand"], trs, space="model")
    skeleton = animkit.Skeleton(["root", "arm", "hand"], [-1, 0, 1], np.tile(trs[0, 0], (3, 1)))
    scene = animkit.Scene([clip, clip], skeleton)
    assert [c.name for c in scene.clips] == ["a", "a"]
    assert scene.clips[0].space == "model"
    assert scene.skeleton.names == ["root", "arm", "hand"]
    assert scene.skeleton.parents.tolist() == [-1, 0, 1]
    np.testing.assert_array_equal(scene.skeleton.rest, np.tile(trs[0, 0], (3, 1)))
    assert scene.format is None and scene.path is None
    with pytest.raises(ValueError):
        animkit.Skeleton(["a", "b"], [1, -1])  # a parent after its child
    with pytest.raises(ValueError):
        animkit.Clip.from_arrays("bad", 30, ["a"], np.zeros((3, 2, 10), np.float32))
    with pytest.raises(ValueError):
        animkit.Clip.from_arrays("bad", 0, ["a"], np.zeros((3, 1, 10), np.float32))
