"""The front ends agree: the companion is load()'s and convert()'s default as it is every
CLI verb's, a missing file is a FileNotFoundError, and every limit is a keyword argument
of load() and convert()."""

import base64
import json
import shutil
import warnings

import pytest

from animkit_support import SAMPLES, animkit

CANM = SAMPLES / "edf_canm/soldier5.canm"


def pair_folder(tmp_path):
    """soldier5.canm and its companion soldier.mdb, copied into a folder of their own."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(CANM, folder / "soldier5.canm")
    shutil.copy(SAMPLES / "edf_mdb/soldier.mdb", folder / "soldier.mdb")
    return folder


def test_load_and_convert_pair_with_the_companion_by_default(tmp_path):
    folder = pair_folder(tmp_path)
    scene = animkit.load(folder / "soldier5.canm").decode()
    assert scene.skeleton_use == "companion"
    assert scene.skeleton_file == str(folder / "soldier.mdb")
    assert len(scene.skeleton.names) == 11
    assert animkit.load(folder / "soldier5.canm").info()["skeleton"] == "soldier.mdb (companion)"
    for none in ("none", False):
        alone = animkit.load(folder / "soldier5.canm", skeleton=none).decode()
        assert alone.skeleton_use == "none" and alone.skeleton_file is None
        assert len(alone.skeleton.names) == 0
    report = animkit.convert(folder / "soldier5.canm", tmp_path / "walk.glb")
    assert report["skeleton_use"] == "companion"
    assert report["skeleton"] == str(folder / "soldier.mdb")
    assert animkit.convert(folder / "soldier5.canm", tmp_path / "alone.glb", skeleton="none")["skeleton_use"] == "none"
    folder_report = animkit.convert_folder(folder, tmp_path / "out")
    entry = next(f for f in folder_report["files"] if f["path"] == "soldier5.canm")
    assert entry["skeleton"] == "soldier.mdb" and entry["skeleton_use"] == "companion"


def test_bytes_without_a_name_have_no_companion(tmp_path):
    folder = pair_folder(tmp_path)
    data = (folder / "soldier5.canm").read_bytes()
    assert animkit.load(data).decode().skeleton_use == "none"
    named = animkit.load(data, name=str(folder / "soldier5.canm")).decode()
    assert named.skeleton_use == "companion"


def test_a_companion_that_does_not_fit_is_left_out_with_a_warning(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "psx_tmd/figure.anm", folder / "figure.anm")
    shutil.copy(SAMPLES / "psx_anm/wave.anm", folder / "figure.tmd")  # no model of it
    with pytest.warns(UserWarning, match="does not fit figure.anm"):
        scene = animkit.load(folder / "figure.anm").decode()
    assert scene.skeleton_use == "none"
    assert "does not fit figure.anm" in scene.skeleton_warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = animkit.convert(folder / "figure.anm", tmp_path / "figure.glb")
    assert report["skeleton_use"] == "none"
    assert any("does not fit figure.anm" in str(w.message) for w in caught)


def test_a_missing_file_is_a_file_not_found_error(tmp_path):
    missing = tmp_path / "walk.canm"
    with pytest.raises(FileNotFoundError) as caught:
        animkit.load(missing)
    e = caught.value
    assert isinstance(e, animkit.Error) and isinstance(e, animkit.FileNotFoundError)
    assert e.path == str(missing) and e.filename == str(missing) and e.errno == 2
    assert str(e).startswith(str(missing) + ": cannot open")
    with pytest.raises(FileNotFoundError):
        animkit.convert(missing, tmp_path / "walk.glb")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        animkit.convert(CANM, tmp_path / "no" / "such" / "walk.glb")
    # A damaged file is an animkit.Error but no FileNotFoundError.
    broken = tmp_path / "broken.canm"
    broken.write_bytes(CANM.read_bytes()[:100])
    with pytest.raises(animkit.Error) as damaged:
        animkit.load(broken, skeleton="none").decode()
    assert not isinstance(damaged.value, FileNotFoundError)


def external_buffer_gltf(tmp_path):
    """A .gltf whose buffer is a file beside it (the exporter embeds it: moved out here)."""
    animkit.convert(SAMPLES / "psx_anm/dance.anm", tmp_path / "dance.gltf", skeleton="none")
    document = json.loads((tmp_path / "dance.gltf").read_text())
    uri = document["buffers"][0]["uri"]
    (tmp_path / "dance.bin").write_bytes(base64.b64decode(uri.split(",", 1)[1]))
    document["buffers"][0]["uri"] = "dance.bin"
    (tmp_path / "dance.gltf").write_text(json.dumps(document))
    return tmp_path / "dance.gltf"


def test_every_limit_is_a_keyword_of_load_and_convert(tmp_path):
    # A file each limit stops when set to 0.
    over = {
        "max_frames": CANM,
        "max_joints": CANM,
        "max_clips": CANM,
        "max_keys": CANM,
        "max_values": CANM,
        "max_depth": SAMPLES / "kh2_bar/p_ex00.mset",
        "max_buffer_bytes": external_buffer_gltf(tmp_path),
        "max_member_bytes": SAMPLES / "edf_rab/soldier.rab",
    }
    limits = animkit.limits()
    assert sorted(limit["keyword"] for limit in limits) == sorted(over)
    for limit in limits:
        keyword, flag = limit["keyword"], "--" + limit["name"]
        path = over[keyword]
        with pytest.raises(animkit.Error, match=flag):  # decoding or sampling (max_values: the samples)
            for clip in animkit.load(path, **{keyword: 0}).decode().clips:
                clip.sample()
        with pytest.raises(animkit.Error, match=flag):
            animkit.convert(path, tmp_path / ("%s.json" % keyword), **{keyword: 0})
        # At its default each goes through.
        animkit.load(path, **{keyword: limit["default"]}).decode()
        animkit.convert(path, tmp_path / ("%s.glb" % keyword), **{keyword: limit["default"]})
