"""Errors: animkit.Error (a ValueError) naming the file and the place, as the CLI does."""

import warnings

import pytest

from animkit_support import SAMPLES, animkit, cli, offset_in, sample_id

BINARY = [
    SAMPLES / "edf_canm/soldier5.canm",
    SAMPLES / "edf_canm/soldier6.canm",
    SAMPLES / "edf_mdb/soldier.mdb",
    SAMPLES / "kh2_motion/wave.motion",
    SAMPLES / "metroid_anim/run.anim",
    SAMPLES / "metroid_anim/hologram_v0.anim",
    SAMPLES / "metroid_cinf/skeleton.cinf",
    SAMPLES / "psx_anm/dance.anm",
    SAMPLES / "psx_anc/orbit.anc",
    SAMPLES / "psx_tmd/figure.tmd",
]


def first_error(path, **kwargs):
    with pytest.raises(animkit.Error) as caught:
        animkit.load(path, **kwargs).decode()
    return caught.value


@pytest.mark.parametrize("sample", BINARY, ids=sample_id)
def test_truncated_file_error_carries_the_clis_offset(sample, tmp_path):
    data = sample.read_bytes()
    broken = tmp_path / sample.name
    broken.write_bytes(data[: len(data) * 2 // 3])
    result = cli("sample", broken, check=False)
    assert result.returncode == 1
    message = result.stderr.strip()
    e = first_error(broken)
    assert isinstance(e, ValueError)
    assert str(e) == message
    assert e.path == str(broken)
    assert e.offset is not None and e.offset == offset_in(message)
    assert e.line is None and e.column is None
    assert e.message and e.message in message
    # The same from bytes: the name given is the path the error names.
    e = first_error(broken.read_bytes(), name=str(broken))
    assert str(e) == message and e.offset == offset_in(message)


@pytest.mark.parametrize("name", ["walk.anb", "ex00.mdlx", "p_ex00.mset"])
def test_a_cut_archive_reads_with_its_damaged_parts_named(name, tmp_path):
    # A KH2 archive cut short keeps what it holds: the entries past the cut are damaged
    # (listed, kept as bytes), the rest decodes, as the CLI's validate says.
    data = (SAMPLES / "kh2_bar" / name).read_bytes()
    broken = tmp_path / name
    # ex00.mdlx's texture entry (an 8-bit TIM2, its 1 KB CLUT) is its last third: cut inside the model entry.
    broken.write_bytes(data[: len(data) // 2 if name == "ex00.mdlx" else len(data) * 2 // 3])
    damaged = animkit.load(broken).info()["damaged"]
    assert damaged and all("runs past the end of the file" in d or "past the end" in d for d in damaged)
    loaded = animkit.load(broken)
    assert [w for w in loaded.warnings if "damaged, no clip from it" in w] == [
        "damaged, no clip from it (its bytes are kept): " + d for d in damaged]
    if name == "p_ex00.mset":
        # Slot 0 lies before the cut: it reads, and each damaged part is a UserWarning.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert loaded.decode().clips
        said = [str(w.message) for w in caught]
        assert all(any(d in m for m in said) for d in damaged), said
    else:
        # The cut falls inside the first entry: nothing can be read, an error as in the CLI.
        with pytest.raises(animkit.Error) as nothing:
            loaded.decode()
        assert "nothing could be read" in str(nothing.value) and damaged[0] in str(nothing.value)
        result = cli("sample", broken, check=False)
        assert result.returncode == 1 and result.stderr.strip() == str(nothing.value)
    result = cli("validate", broken, check=False)
    assert result.returncode == 1
    assert "damaged: " + damaged[0] in result.stdout or "nothing could be read" in result.stdout


def test_text_error_carries_line_and_column(tmp_path):
    text = (SAMPLES / "text_anm/authored.anm").read_text().splitlines()
    text.insert(len(text) // 2, "an walk 10 not-a-number")
    broken = tmp_path / "authored.anm"
    broken.write_text("\n".join(text) + "\n")
    result = cli("sample", broken, "--format", "text-anm", check=False)
    e = first_error(broken, format="text-anm")
    assert str(e) == result.stderr.strip()
    assert e.offset is None and e.line is not None and e.line >= 1 and e.column is not None
    assert f"line {e.line}" in str(e)


def test_unknown_and_bad_options_are_the_librarys_errors():
    path = SAMPLES / "psx_anm/dance.anm"
    with pytest.raises(animkit.Error, match="unknown option 'no-such-option'"):
        animkit.load(path, no_such_option=1)
    with pytest.raises(animkit.Error, match="--euler expects"):
        animkit.load(path, euler="abc")
    with pytest.raises(animkit.Error, match="--canm-version expects"):
        animkit.encode(animkit.load(path).decode(), "edf-canm", canm_version=3)
    assert animkit.load(path, euler="zyx").decode().clips  # a declared option, `_` for `-`
    with pytest.raises(TypeError):
        animkit.load(path, euler=["zyx"])


def test_limits_are_keyword_arguments():
    path = SAMPLES / "edf_canm/soldier5.canm"
    with pytest.raises(animkit.Error, match="max-frames"):
        animkit.load(path, max_frames=2).decode()
    with pytest.raises(ValueError):
        animkit.load(path, max_frames=-1)
    names = [limit["keyword"] for limit in animkit.limits()]
    assert "max_frames" in names and "max_values" in names


def test_missing_file_and_unknown_format():
    with pytest.raises(animkit.Error) as caught:
        animkit.load("/nonexistent/walk.canm")
    assert caught.value.path == "/nonexistent/walk.canm" and caught.value.offset is None
    with pytest.raises(animkit.Error, match="unknown format id"):
        animkit.load(SAMPLES / "psx_anm/dance.anm", format="no-such-format")
    with pytest.raises(animkit.Error, match="not a file of any supported format"):
        animkit.load(b"hello, world", name="notes.txt")


def test_no_clip_named():
    scene = animkit.load(SAMPLES / "psx_anm/dance.anm").decode()
    with pytest.raises(animkit.Error, match="no clip named 'nope'"):
        scene.clip("nope")
    assert scene.clip(scene.clips[0].name).name == scene.clips[0].name


def test_error_raised_from_python_has_no_place():
    e = animkit.Error("made here")
    assert isinstance(e, ValueError)
    assert e.path is None and e.offset is None and e.line is None
