"""The module's API: the registry, the skeleton, world matrices, the GIL, the worked
example of docs/python.md."""

import threading

import pytest

from animkit_support import SAMPLES, animkit, cli, cli_json, matrix, np


def test_formats_are_the_registrys():
    formats = animkit.formats()
    ids = [f["id"] for f in formats]
    for contract_id in ("psx-anm", "psx-tmd", "psx-anc", "text-anm", "metroid-anim", "metroid-cinf", "kh2-bar",
                        "kh2-motion", "edf-canm", "edf-mdb", "gltf"):
        assert contract_id in ids
    listed = cli("formats").stdout.splitlines()
    assert [line.split("  ")[0] for line in listed] == ids
    canm = next(f for f in formats if f["id"] == "edf-canm")
    assert canm["extensions"] == [".canm"] and canm["companions"] == [".mdb"] and canm["writable"]
    version = next(o for o in canm["options"] if o["name"] == "canm-version")
    assert version["keyword"] == "canm_version" and version["type"] == "choice"
    assert version["choices"] == ["512", "768"] and version["default"] in (None, "512")
    assert all(o["help"] for f in formats for o in f["options"])


def test_scene_source_names_the_decoded_file():
    path = SAMPLES / "edf_canm/soldier6.canm"
    source = animkit.load(path).decode().source
    assert source == {"format": "edf-canm", "version": "768", "file": str(path)}
    assert animkit.load(SAMPLES / "kh2_bar/walk.anb").decode().source["version"] == ""


def test_formats_and_limits_are_the_clis_document():
    document = cli_json("formats", "--json")
    assert animkit.formats() == document["formats"]
    assert animkit.limits() == document["limits"]
    ups = {f["id"]: f["up_axis"] for f in document["formats"]}
    assert ups["psx-anm"] == ups["psx-tmd"] == ups["psx-anc"] == "-Y" and ups["gltf"] == "+Y"
    assert [f["id"] for f in document["formats"] if f["multi_clip"]] == ["text-anm", "gltf", "edf-canm", "kh2-bar", "edf-cas",
                                                                             "metroid-pak", "metroid-ancs"]
    uses = {o["name"]: o["use"] for f in document["formats"] for o in f["options"]}
    assert uses["euler"] == "read" and uses["kh2-tolerance"] == "write" and uses["canm-fps"] == "read-write"


def test_skeleton_arrays():
    scene = animkit.load(SAMPLES / "edf_canm/soldier.mdb").decode()
    skeleton = scene.skeleton
    n = len(skeleton)
    assert n > 1 and len(skeleton.names) == n
    assert skeleton.parents.dtype == np.int32 and skeleton.parents.shape == (n,)
    assert skeleton.rest.dtype == np.float32 and skeleton.rest.shape == (n, 10)
    assert skeleton.parents[0] == -1 and (skeleton.parents < np.arange(n)).all()
    assert skeleton.find(skeleton.names[1]) == 1 and skeleton.find("no such joint") == -1
    info = animkit.load(SAMPLES / "edf_canm/soldier.mdb").info()
    assert skeleton.names == info["joints"]


def test_world_composes_local_transforms_down_the_hierarchy():
    scene = animkit.load(SAMPLES / "edf_canm/soldier5.canm", skeleton="auto").decode()
    skeleton = scene.rest_skeleton
    clip = scene.clips[0]
    trs, _ = clip.sample()
    world = clip.world()
    assert world.shape == (trs.shape[0], len(skeleton), 4, 4) and world.dtype == np.float32
    for f in (0, trs.shape[0] // 2, trs.shape[0] - 1):
        local = skeleton.rest.astype(np.float64)
        for i, joint in enumerate(clip.joints):
            if skeleton.find(joint) >= 0:
                local[skeleton.find(joint)] = trs[f, i]
        model = []
        for j, parent in enumerate(skeleton.parents):
            m = matrix(local[j])
            model.append(m if parent < 0 else model[parent] @ m)
        np.testing.assert_allclose(world[f], np.array(model), rtol=1e-4, atol=1e-4)


def test_world_without_a_skeleton_puts_each_joint_at_the_root():
    scene = animkit.load(SAMPLES / "psx_anm/dance.anm").decode()
    clip = scene.clips[0]
    trs, _ = clip.sample()
    world = clip.world()
    assert world.shape == (trs.shape[0], len(clip.joints), 4, 4)
    np.testing.assert_allclose(world[3, 1], matrix(trs[3, 1].astype(np.float64)), rtol=1e-5, atol=1e-4)


def test_calls_release_the_gil():
    path = SAMPLES / "kh2_bar/p_ex00.mset"
    calls = {
        "load": lambda: animkit.load(path, skeleton="auto"),
        "decode": lambda: f.decode(),
        "write": lambda: f.write(),
        "info": lambda: f.info(),
        "sample": lambda: scene.clips[0].sample(),
        "world": lambda: scene.clips[0].world(),
        "encode": lambda: animkit.encode(scene, "gltf"),
    }
    f = animkit.load(path, skeleton="auto")
    scene = f.decode()
    for name, call in calls.items():
        before = animkit._animkit._released_sections()
        call()
        assert animkit._animkit._released_sections() > before, f"{name} kept the GIL"


def test_threads_decode_and_sample_at_once():
    path = SAMPLES / "metroid_anim/run.anim"
    skeleton = animkit.load(SAMPLES / "metroid_anim/skeleton.cinf")
    expected = animkit.load(path, skeleton=skeleton).decode().clips[0].sample()[0]
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append(animkit.load(path, skeleton=skeleton).decode().clips[0].sample()[0])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads) and not errors
    assert len(results) == 80 and all(np.array_equal(r, expected) for r in results)


def test_worked_example_kh2_moveset(tmp_path):
    """docs/python.md's example: an MSET with its MDLX, one joint's rotation scaled, written back."""
    mset = animkit.load(SAMPLES / "kh2_bar/p_ex00.mset", skeleton=SAMPLES / "kh2_bar/ex00.mdlx")
    scene = mset.decode()
    clip = scene.clips[0]
    trs, visible = clip.sample()
    joint = clip.joints.index(clip.joints[1])
    # Halve the joint's rotation: slerp from identity, q^0.5.
    q = trs[:, joint, 3:7].astype(np.float64)
    angle = 2 * np.arccos(np.clip(q[:, 3], -1, 1))
    axis = q[:, :3] / np.maximum(np.linalg.norm(q[:, :3], axis=1, keepdims=True), 1e-12)
    trs[:, joint, 3:6] = axis * np.sin(angle / 4)[:, None]
    trs[:, joint, 6] = np.cos(angle / 4)
    edited = animkit.Clip.from_arrays(clip.name, clip.frame_rate, clip.joints, trs, visible, loop=clip.loop,
                                      events=clip.events, space=clip.space)
    out = tmp_path / "edited.anb"
    animkit.save([edited], out, skeleton=SAMPLES / "kh2_bar/ex00.mdlx")
    again = animkit.load(out, skeleton=SAMPLES / "kh2_bar/ex00.mdlx").decode().clips[0]
    trs_b, _ = again.sample()
    b = trs_b[:, again.joints.index(clip.joints[1]), 3:7].astype(np.float64)
    dot = np.abs(np.sum(b * trs[:, joint, 3:7], axis=1))
    assert (2 * np.arccos(np.clip(dot, 0, 1)) < 1e-3).all()


def test_world_of_a_model_space_clip_uses_its_keys_as_they_are():
    scene = animkit.load(SAMPLES / "kh2_motion/wave_raw.motion").decode()
    clip = scene.clips[0]
    assert clip.space == "model"
    trs, _ = clip.sample()
    world = clip.world()
    names = scene.rest_skeleton.names or clip.joints
    for i, joint in enumerate(clip.joints):
        j = names.index(joint)
        for f in range(trs.shape[0]):
            np.testing.assert_allclose(world[f, j], matrix(trs[f, i].astype(np.float64)), rtol=1e-5, atol=1e-4)


def chain_scene(rule):
    """root scaled (2, 1, 1); child one unit along x, turned 90 degrees about z."""
    h = np.sqrt(0.5)
    trs = np.array([[[0, 0, 0, 0, 0, 0, 1, 2, 1, 1], [1, 0, 0, 0, 0, h, h, 1, 1, 1]]], dtype=np.float32)
    clip = animkit.Clip.from_arrays("chain", 30, ["root", "child"], trs, scale_inheritance=rule)
    return animkit.Scene([clip], skeleton=animkit.Skeleton(["root", "child"], [-1, 0]))


def test_world_and_model_samples_follow_the_clips_scale_rule():
    # Per axis: the child's model scale is (2, 1, 1) and its axes Rz90 diag(2,1,1): (0,2,0),
    # (-1,0,0), (0,0,1). Under the matrix rule diag(2,1,1) Rz90: (0,1,0), (-2,0,0), (0,0,1),
    # i.e. scale (1, 2, 1). The origin is (2, 0, 0) either way.
    axes = {"per_axis": [[0, -1, 0], [2, 0, 0], [0, 0, 1]], "matrix": [[0, -2, 0], [1, 0, 0], [0, 0, 1]]}
    scales = {"per_axis": [2, 1, 1], "matrix": [1, 2, 1]}
    for rule in ("per_axis", "matrix"):
        clip = chain_scene(rule).clips[0]
        assert clip.scale_inheritance == rule
        world = clip.world()
        np.testing.assert_allclose(world[0, 1, :3, :3], axes[rule], atol=1e-6)
        np.testing.assert_allclose(world[0, 1, :3, 3], [2, 0, 0], atol=1e-6)
        model, _ = clip.sample(space="model")
        np.testing.assert_allclose(model[0, 1, 0:3], [2, 0, 0], atol=1e-6)
        np.testing.assert_allclose(model[0, 1, 7:10], scales[rule], atol=1e-6)
        local, _ = clip.sample()
        np.testing.assert_allclose(local[0, 1, 7:10], [1, 1, 1], atol=1e-6)
    with pytest.raises(ValueError):
        clip.sample(space="world")
