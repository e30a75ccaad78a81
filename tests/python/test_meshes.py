"""Scene.meshes, materials and textures as NumPy arrays; Clip.skin() deforms them with the
library's skinning. Expected poses come from Clip.world() and the skeleton's rest poses,
composed here in NumPy, not from the skinning itself."""

import pytest

from animkit_support import SOURCE_DIR, SAMPLES, animkit, cli_json, matrix, np

FIXTURES = SOURCE_DIR.parent / "shared" / "fixtures"


def rest_model(skeleton):
    """Each joint's rest pose in model space (parents first, matrix rule)."""
    out = []
    for rest, parent in zip(skeleton.rest.astype(np.float64), skeleton.parents):
        local = matrix(rest)
        out.append(local if parent < 0 else out[parent] @ local)
    return out


def test_a_rigid_mesh_follows_its_joint():
    scene = animkit.load(SAMPLES / "psx_tmd/figure.anm").decode()  # figure.tmd beside it: the companion
    assert scene.meshes, "the companion model's meshes join the animation's scene"
    clip = scene.clips[0]
    world = clip.world()
    skinned = clip.skin()
    one_frame = clip.skin(frame=1)
    assert len(skinned) == len(scene.meshes) == len(one_frame)
    for mesh, deformed, at_1 in zip(scene.meshes, skinned, one_frame):
        assert not mesh.skinned and mesh.joint is not None
        assert deformed.shape == (clip.frame_count, len(mesh.positions), 3)
        p = np.c_[mesh.positions, np.ones(len(mesh.positions))]
        for f in (0, clip.frame_count // 2, clip.frame_count - 1):
            expected = (world[f, mesh.joint].astype(np.float64) @ p.T).T[:, :3]
            np.testing.assert_allclose(deformed[f], expected, atol=1e-3 * max(1, np.abs(expected).max()))
        np.testing.assert_array_equal(at_1, deformed[1])


def test_mesh_arrays_have_one_row_per_vertex():
    scene = animkit.load(SAMPLES / "psx_tmd/figure.tmd").decode()
    for mesh in scene.meshes:
        v = len(mesh.positions)
        assert mesh.positions.dtype == np.float32 and mesh.positions.shape == (v, 3)
        assert mesh.indices.dtype == np.uint32 and mesh.indices.shape[1] == 3
        assert mesh.indices.size == 0 or mesh.indices.max() < v
        assert mesh.colors is None or mesh.colors.shape == (v, 4)
        assert mesh.joints is None and mesh.weights is None
    with pytest.raises(IndexError):
        animkit.load(SAMPLES / "psx_tmd/figure.anm").decode().clips[0].skin(frame=10**6)


def skinned_samples():
    out = []
    for path in (SAMPLES / "kh2_bar/ex00.mdlx", SAMPLES / "edf_canm/soldier.mdb"):
        scene = animkit.load(path).decode()
        if any(m.skinned for m in scene.meshes):
            out.append(path)
    return out


@pytest.mark.parametrize("path", skinned_samples())
def test_a_skinned_sample_deforms_by_its_weights(path):
    scene = animkit.load(path).decode()
    bind = rest_model(scene.skeleton)
    for mesh in scene.meshes:
        if not mesh.skinned:
            continue
        np.testing.assert_allclose(mesh.weights.sum(axis=1), 1, atol=1e-5)
        assert mesh.joints.max() < len(scene.skeleton)
        assert mesh.uvs is None or mesh.uvs.shape == (len(mesh.positions), 2)
        if mesh.texture is not None and mesh.texture.missing is None:
            t = mesh.texture
            assert t.pixels.shape == (t.height, t.width, 4) and t.pixels.dtype == np.uint8
    # The same sample's animation over it: each vertex is the weighted sum of its joints'
    # posed * inverse(bind) transforms.
    anims = sorted(p for p in path.parent.iterdir() if p.suffix in (".mset", ".anb", ".canm") and p != path)
    if not anims:
        pytest.skip(f"no animation beside {path.name}")
    anim = animkit.load(anims[0], skeleton=path).decode()
    clip = anim.clips[0]
    # The bind poses here are composed by the matrix rule: the same as the per-axis rule
    # when no rest scale differs from 1.
    if clip.scale_inheritance != "matrix" and not np.allclose(anim.rest_skeleton.rest[:, 7:], 1):
        pytest.skip("the NumPy composition here is the matrix rule")
    assert any(m.skinned for m in anim.meshes), "the model's meshes join the animation's scene"
    world = clip.world()
    f = clip.frame_count // 2
    deformed = clip.skin(frame=f)
    for mesh, got in zip(anim.meshes, deformed):
        if not mesh.skinned:
            continue
        p = np.c_[mesh.positions, np.ones(len(mesh.positions))].astype(np.float64)
        expected = np.zeros((len(p), 3))
        for k in range(4):
            for v in range(len(p)):
                j = mesh.joints[v, k]
                expected[v] += mesh.weights[v, k] * (world[f, j] @ np.linalg.inv(bind[j]) @ p[v])[:3]
        np.testing.assert_allclose(got, expected, atol=1e-3 * max(1, np.abs(expected).max()))


def test_sora_model_has_textured_skinned_meshes():
    """Sora's three meshes (4,871 vertices) and three 8-bit indexed textures."""
    mdlx = FIXTURES / "kh2/P_EX100.mdlx"
    if not mdlx.exists():
        pytest.skip(f"fixture {mdlx} not found beside the checkout")
    scene = animkit.load(mdlx).decode()
    if not scene.meshes:
        pytest.skip("this build reads MDLX skeletons only")
    assert sum(len(m.positions) for m in scene.meshes) > 1000
    assert any(m.skinned for m in scene.meshes)
    for m in scene.meshes:
        if m.skinned:
            np.testing.assert_allclose(m.weights.sum(axis=1), 1, atol=1e-5)
    textures = [t for t in scene.textures if t.missing is None]
    assert textures and all(t.pixels.shape == (t.height, t.width, 4) for t in textures)
    assert all(m.texture is not None for m in scene.meshes)


def test_info_summarises_each_model():
    f = animkit.load(SAMPLES / "psx_tmd/figure.tmd")
    scene = f.decode()
    info = f.info()
    assert [m["name"] for m in info["models"]] == ["model"]
    model = info["models"][0]
    assert model["meshes"] == len(scene.meshes) == 8
    assert model["skinned_meshes"] == 0
    assert model["vertices"] == sum(len(m.positions) for m in scene.meshes)
    assert model["triangles"] == sum(len(m.indices) for m in scene.meshes)
    assert model["materials"] == 0 and model["textures"] == [] and info["textures"] == []
    assert "models" not in animkit.load(SAMPLES / "kh2_motion/wave.motion", skeleton="none").info()


def test_clip_skin_blends_every_influence_of_soras_five_bone_vertices():
    """Sora's 6 vertices of more than 4 bones (mesh metadata influences_over_4: the game
    blends every one) under a motion: clip.skin() puts them where `animkit sample --skin`
    does (the library's rule, checked by hand on a 6-influence vertex in
    tests/offline/skinning_influences_test.cpp: every influence blended)."""
    mdlx, motion = FIXTURES / "kh2/P_EX100.mdlx", FIXTURES / "kh2/interpolated.motion"
    if not mdlx.exists() or not motion.exists():
        pytest.skip(f"fixtures {mdlx.name} and {motion.name} not found beside the checkout")
    anim = animkit.load(motion, skeleton=mdlx).decode()
    clip = anim.clips[0]
    f = 90
    deformed = clip.skin(frame=f)
    reference = cli_json("sample", motion, "--skeleton", mdlx, "--skin", "--clip", clip.name)["clips"][0]["mesh_frames"][f]
    listed = 0
    for m, (mesh, got) in enumerate(zip(anim.meshes, deformed)):
        want = np.asarray(reference[m], dtype=np.float64).reshape(-1, 3)
        for entry in mesh.metadata.get("influences_over_4", []):
            v = entry["vertex"]
            assert len(entry["joints"]) > 4
            np.testing.assert_allclose(got[v], want[v], atol=1e-4)
            assert np.linalg.norm(got[v] - mesh.positions[v]) > 0.01, "the motion moves it"
            listed += 1
    assert listed == 6
