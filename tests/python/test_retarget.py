"""animkit.retarget() and animkit.bone_map(): the library's retarget on decoded scenes
(docs/python.md, docs/retarget.md)."""

import json

import pytest

from animkit_support import SAMPLES, SOURCE_DIR, animkit, np

SOLDIER = SAMPLES / "edf_cas" / "soldier.rab"
SOLDIER_CLIPS = SAMPLES / "edf_cas" / "soldier5.cas"
SHARED = SOURCE_DIR.parent / "shared"
KH2_MSET = SHARED / "real" / "kh2" / "airslide" / "P_EX100.mset"
KH2_MODEL = SHARED / "fixtures" / "kh2" / "P_EX100.mdlx"


def trs_matrix(trs):
    """The 4x4 matrix (column vectors) of t xyz, r xyzw, s xyz."""
    x, y, z, w = trs[3:7]
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * np.asarray(trs[7:10])
    m[:3, 3] = trs[0:3]
    return m


@pytest.fixture(scope="module")
def soldier():
    return animkit.load(SOLDIER_CLIPS).decode(), animkit.load(SOLDIER).decode()


def test_onto_its_own_skeleton_gives_the_same_poses(soldier):
    source, target = soldier
    out = animkit.retarget(source, target)
    assert isinstance(out, animkit.Scene)
    assert out.skeleton.names == target.rest_skeleton.names
    assert [c.name for c in out.clips] == [c.name for c in source.clips]
    for a, b in zip(source.clips, out.clips):
        trs_a, vis_a = a.sample()
        trs_b, vis_b = b.sample()
        assert trs_a.shape == trs_b.shape
        np.testing.assert_allclose(trs_b, trs_a, atol=1e-5, err_msg=a.name)
        assert (vis_a == vis_b).all()


def test_files_are_decoded_and_the_result_saves(soldier, tmp_path):
    out = animkit.retarget(animkit.load(SOLDIER_CLIPS), animkit.load(SOLDIER), clips=[0])
    assert len(out.clips) == 1
    assert out.clips[0].name == soldier[0].clips[0].name
    path = tmp_path / "out.glb"
    animkit.save(out, str(path))
    back = animkit.load(path).decode()
    assert [c.name for c in back.clips] == [out.clips[0].name]


def test_bone_map_is_the_automatic_map(soldier):
    source, target = soldier
    result = animkit.bone_map(target, source)
    names = target.rest_skeleton.names
    assert list(result["map"]) == names
    assert result["map"] == {n: n for n in names}  # the same skeleton: every joint by its own name
    # a name that says nothing (#N) is matched by the hierarchy, the others by name
    assert set(result["matched_by"].values()) <= {"exact", "hierarchy"}
    assert "exact" in result["matched_by"].values()
    assert result["source_joints"] == source.rest_skeleton.names


def test_a_dict_map_leaves_the_others_at_rest(soldier):
    source, target = soldier
    names = target.rest_skeleton.names
    kept = names[0]
    out = animkit.retarget(source, target, map={kept: kept})
    clip = out.clips[0]
    assert clip.joints == [kept]  # the unmapped joints get no track: their rest pose
    world = clip.world()  # every joint of the skeleton, model space
    parents = target.rest_skeleton.parents
    rest = target.rest_skeleton.rest
    for k in range(1, len(names)):
        local = np.linalg.inv(world[:, parents[k]]) @ world[:, k] if parents[k] >= 0 else world[:, k]
        want = np.broadcast_to(trs_matrix(rest[k]), local.shape)
        np.testing.assert_allclose(local, want, atol=1e-4, err_msg=names[k])
    trs, _ = clip.sample()
    src, _ = source.clips[0].sample()
    column = source.clips[0].joints.index(kept)
    dots = np.abs(np.sum(trs[:, 0, 3:7] * src[:, column, 3:7], axis=-1))  # q and -q are one rotation
    np.testing.assert_allclose(dots, 1, atol=1e-5)


def test_a_map_file(soldier, tmp_path):
    source, target = soldier
    names = target.rest_skeleton.names
    path = tmp_path / "map.json"
    path.write_text(json.dumps({names[0]: names[0], names[1]: None}))
    assert animkit.retarget(source, target, map=str(path)).clips[0].joints == [names[0]]
    csv = tmp_path / "map.csv"
    csv.write_text("target,source\n%s,%s\n%s,%s\n" % (names[0], names[0], names[2], names[2]))
    out = animkit.retarget(source, target, map=csv)
    assert len(out.clips) == len(source.clips)
    assert sorted(out.clips[0].joints) == sorted([names[0], names[2]])


def test_a_map_naming_a_missing_joint_raises_naming_it(soldier):
    source, target = soldier
    with pytest.raises(animkit.Error, match="no_such_joint"):
        animkit.retarget(source, target, map={"no_such_joint": target.rest_skeleton.names[0]})
    with pytest.raises(animkit.Error, match="not_in_the_source"):
        animkit.retarget(source, target, map={target.rest_skeleton.names[0]: "not_in_the_source"})


def test_bad_arguments(soldier):
    source, target = soldier
    with pytest.raises(TypeError):
        animkit.retarget("soldier.cas", target)
    with pytest.raises(KeyError):
        animkit.retarget(source, target, clips=["no such clip"])
    with pytest.raises(animkit.Error):
        animkit.retarget(source, target, source_axes="+Y,+Y")


@pytest.mark.skipif(not (KH2_MSET.is_file() and KH2_MODEL.is_file()), reason="../shared's KH2 P_EX100 files are absent")
def test_kh2_moveset_onto_its_model():
    source = animkit.load(KH2_MSET).decode()
    target = animkit.load(KH2_MODEL).decode()
    result = animkit.bone_map(target, source)
    assert len(result["map"]) == 229
    assert sum(1 for v in result["map"].values() if v is not None) == 228
    out = animkit.retarget(source, target)
    assert len(out.skeleton.names) == 229
    assert len(out.clips) == 101
    assert len(out.clips[0].joints) == 228  # the unmapped joint has no track
    trs, _ = out.clips[0].sample()
    assert np.isfinite(trs).all()
