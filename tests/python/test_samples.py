"""Every bundled sample through the module against the CLI: sample() is `animkit sample`,
info() is `animkit info --json`, write() is the file's bytes. Each file decodes against
its companion (skeleton="auto", the CLI's --skeleton auto)."""

from pathlib import Path

import pytest

from animkit_support import (
    SAMPLES as SAMPLE_DIR,
    all_samples,
    animkit,
    assert_clip_equals_json,
    cli,
    cli_json,
    sample_id,
)

SAMPLES = all_samples()


ARCHIVES_OF_FILES = {e for f in animkit.formats() if f["archive_of_files"] for e in f["extensions"]}


@pytest.mark.parametrize("path", SAMPLES, ids=sample_id)
def test_sample_equals_cli(path):
    if path.suffix.lower() in ARCHIVES_OF_FILES and not animkit.load(path).scenes:
        # Its members are files, not one scene: both refuse with the same words.
        refused = cli("sample", path, check=False)
        assert refused.returncode == 1 and "convert it into a folder" in refused.stderr
        with pytest.raises(animkit.Error, match="convert it into a folder"):
            animkit.load(path).decode()
        return
    expected = cli_json("sample", path, "--skeleton", "auto")
    scene = animkit.load(path, skeleton="auto").decode()
    assert scene.format == expected["format"]
    assert len(scene.clips) == len(expected["clips"])
    for clip, clip_json in zip(scene.clips, expected["clips"]):
        assert_clip_equals_json(clip, clip_json)


@pytest.mark.parametrize("path", [p for p in SAMPLES if p.suffix in (".anm", ".anim", ".canm", ".anb")], ids=sample_id)
def test_resampled_equals_cli(path):
    expected = cli_json("sample", path, "--skeleton", "auto", "--rate", "45")
    scene = animkit.load(path, skeleton="auto").decode()
    for clip, clip_json in zip(scene.clips, expected["clips"]):
        assert_clip_equals_json(clip, clip_json, rate=45)


@pytest.mark.parametrize("path", SAMPLES, ids=sample_id)
def test_info_equals_cli(path):
    expected = cli_json("info", path, "--json", "--skeleton", "auto")
    assert animkit.load(str(path), skeleton="auto").info() == expected
    # The same from the bytes, named by the path.
    assert animkit.load(path.read_bytes(), name=str(path), skeleton="auto").info() == expected
    # full=True: `info --json --full`, every record.
    assert animkit.load(str(path), skeleton="auto").info(full=True) == cli_json(
        "info", path, "--json", "--full", "--skeleton", "auto")


@pytest.mark.parametrize("path", SAMPLES, ids=sample_id)
def test_write_gives_the_files_bytes(path, tmp_path):
    data = path.read_bytes()
    f = animkit.load(path)
    assert f.write() == data
    assert f.size == len(data)
    assert animkit.load(data, name=path.name).write() == data
    assert animkit.load(bytearray(data), name=path.name).write() == data
    out = tmp_path / path.name
    f.save(out)
    assert out.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind


def test_samples_pair_with_their_companions():
    pairs = {
        "edf_canm/soldier5.canm": "soldier.mdb",
        "edf_canm/soldier6.canm": "soldier.mdb",
        "metroid_anim/hologram_v0.anim": "skeleton.cinf",
        "metroid_anim/run.anim": "skeleton.cinf",
        "kh2_bar/walk.anb": "ex00.mdlx",
        "kh2_bar/raw.anb": "ex00.mdlx",
        "kh2_bar/p_ex00.mset": "ex00.mdlx",
        "psx_tmd/figure.anm": "figure.tmd",
        "text_anm/figure.anm": "figure_model.glb",
        "text_anm/authored.anm": "authored.anm.timeline.glb",
    }
    for name, companion in pairs.items():
        scene = animkit.load(SAMPLE_DIR / name, skeleton="auto").decode()
        assert Path(scene.skeleton_file).name == companion, scene.skeleton_note


def test_info_takes_a_skeleton_as_a_loaded_file_or_scene():
    path = SAMPLE_DIR / "edf_canm" / "soldier5.canm"
    model = SAMPLE_DIR / "edf_canm" / "soldier.mdb"
    expected = cli_json("info", path, "--json", "--skeleton", str(model))
    assert animkit.load(str(path), skeleton=str(model)).info() == expected
    assert animkit.load(str(path), skeleton=animkit.load(str(model))).info() == expected
    # Read from bytes under the model's name, or decoded already: named as given, the same.
    from_bytes = animkit.load(model.read_bytes(), name=str(model))
    assert animkit.load(str(path), skeleton=from_bytes).info() == expected
    assert animkit.load(str(path), skeleton=from_bytes.decode()).info() == expected
