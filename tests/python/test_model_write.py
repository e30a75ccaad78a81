"""Meshes back into a game model: Scene.with_mesh() and the other edits make a new scene,
animkit.save(scene, path, template=original) writes it over the original (the template's
unedited parts byte for byte), and the written file reads back with the edit."""

import warnings

import pytest

from animkit_support import SOURCE_DIR, animkit, np

SHARED = SOURCE_DIR.parent / "shared"
MODELS = [SHARED / "fixtures/kh2/P_EX100.mdlx", SHARED / "fixtures/edf/airtortoise_missile.mdb",
          *sorted((SHARED / "real/kh2").glob("*.mdlx"))]
# Every file of ../shared a glTF writes back into with the file as template: models,
# movesets, ANBs, motions, the open cases too (a placeholder ANB, an MDLX without a model).
WRITTEN_BACK = sorted(p for folder in ("fixtures", "real") for p in (SHARED / folder).rglob("*")
                      if p.suffix.lower() in (".mdlx", ".mset", ".anb", ".motion", ".mdb"))


def model(path):
    if not path.exists():
        pytest.skip(f"{path} is absent (the real files live in ../shared)")
    return animkit.load(path).decode()


def test_with_mesh_is_a_new_scene_and_checks_its_arrays():
    scene = model(MODELS[0])
    mesh = scene.meshes[0]
    moved = scene.with_mesh(mesh.name, positions=mesh.positions + [1, 2, 3])
    np.testing.assert_array_equal(moved.meshes[0].positions, mesh.positions + np.float32([1, 2, 3]))
    np.testing.assert_array_equal(scene.meshes[0].positions, mesh.positions)  # the original is unchanged
    np.testing.assert_array_equal(moved.meshes[1].positions, scene.meshes[1].positions)
    with pytest.raises(ValueError, match="rows for"):
        scene.with_mesh(0, positions=mesh.positions[:-1])  # uvs and weights still have a row per vertex
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        scene.with_mesh(0, positions=mesh.positions[:, :2])
    with pytest.raises(KeyError):
        scene.with_mesh("no such mesh", positions=mesh.positions)
    assert len(scene.without_mesh(0).meshes) == len(scene.meshes) - 1
    with pytest.raises(IndexError):
        scene.without_mesh(len(scene.meshes))


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_an_unedited_scene_saved_over_its_model_is_the_models_bytes(path, tmp_path):
    scene = model(path)
    out = tmp_path / path.name
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unedited scene gives no warning
        animkit.save(scene, out, template=path)
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", WRITTEN_BACK or [SHARED / "fixtures/kh2/P_EX100.mdlx"],
                         ids=lambda p: str(p.relative_to(SHARED)))
def test_an_unedited_gltf_saved_over_its_file_is_its_bytes(path, tmp_path):
    """Every group judged unedited (a bone in two matrix slots is one glTF influence), and a
    file whose glTF holds nothing (no clip, mesh or joint) comes back as its bytes."""
    if not path.exists():
        pytest.skip(f"{path} is absent (the real files live in ../shared)")
    glb = tmp_path / (path.name + ".glb")
    animkit.convert(path, glb)
    # decoded against the template's companion (a moveset's model beside it), as `animkit
    # convert` decodes a glTF going back over a game file
    companion = path.with_suffix(".mdlx")
    with_companion = path.suffix.lower() != ".mdlx" and companion.exists()
    scene = animkit.load(glb, skeleton=companion).decode() if with_companion else animkit.load(glb).decode()
    out = tmp_path / path.name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the open cases' decode warnings are not this test's
        animkit.save(scene, out, template=path)
    assert out.read_bytes() == path.read_bytes()
    if not scene.clips and not scene.meshes and len(scene.skeleton) == 0:  # nothing to edit
        report = animkit.encode(scene, path=out, template=path, details=True)["report"]
        assert report["nothing_to_edit"] is True
        with pytest.raises(animkit.Error, match="nothing to write"):
            animkit.save(scene, tmp_path / ("new" + path.suffix))  # without a template: why not


def assert_same_points(got, want, tolerance, name):
    """Every point of each set within tolerance of a point of the other."""
    d = np.linalg.norm(got[:, None, :].astype(np.float64) - want[None, :, :], axis=2)
    assert d.min(axis=1).max() <= tolerance, f"mesh {name}: a written vertex is not where the edit put one"
    assert d.min(axis=0).max() <= tolerance, f"mesh {name}: an edited vertex is missing from the written mesh"


@pytest.mark.parametrize("path", MODELS[:2], ids=lambda p: p.name)
def test_a_moved_mesh_reads_back_moved_and_the_others_as_they_were(path, tmp_path):
    scene = model(path)
    target = max(range(len(scene.meshes)), key=lambda i: len(scene.meshes[i].positions))
    mesh = scene.meshes[target]
    size = float(np.ptp(mesh.positions, axis=0).max())
    shift = np.float32([0.1 * size, 0, 0])
    out = tmp_path / path.name
    animkit.save(scene.with_mesh(target, positions=mesh.positions + shift), out, template=path)
    back = animkit.load(out).decode()
    assert [m.name for m in back.meshes] == [m.name for m in scene.meshes]
    for i, (a, b) in enumerate(zip(scene.meshes, back.meshes)):
        if i == target:  # rebuilt: its vertices may be split and ordered anew (packets, strips)
            assert_same_points(b.positions, a.positions + shift, 1e-3 * size, a.name)
            continue
        np.testing.assert_allclose(b.positions, a.positions, atol=1e-3 * size, err_msg=f"mesh {a.name}")
        if a.weights is not None:
            np.testing.assert_allclose(b.weights, a.weights, atol=1 / 255, err_msg=f"mesh {a.name}")
    assert out.read_bytes() != path.read_bytes()


def test_save_never_writes_over_its_template(tmp_path):
    path = MODELS[0]
    scene = model(path)
    with pytest.raises(animkit.Error):
        animkit.save(scene, path, template=path)


def test_a_changed_texture_goes_into_the_models_texture_entry(tmp_path):
    path = MODELS[0]
    scene = model(path)
    pixels = scene.textures[0].pixels.copy()
    pixels[: pixels.shape[0] // 2, :, 0] = 255 - pixels[: pixels.shape[0] // 2, :, 0]  # top half's red inverted
    out = tmp_path / path.name
    animkit.save(scene.with_texture(0, pixels), out, template=path)
    back = animkit.load(out).decode()
    got = back.textures[0].pixels.astype(np.int32)
    assert np.abs(got - pixels).mean() < 3, "the changed texture reads back within the palette's error"
    for a, b in zip(scene.textures[1:], back.textures[1:]):
        np.testing.assert_array_equal(b.pixels, a.pixels, err_msg=f"texture {a.name} was not changed")
    for a, b in zip(scene.meshes, back.meshes):
        np.testing.assert_array_equal(b.positions, a.positions)
