"""animkit.import_data() and animkit.export_plan(): the library jobs behind `animkit
import-data` and `animkit export-plan` (the Blender add-on's import and export dialog), the
same bytes and the same plans as the CLI's."""

import json
import struct

import pytest

from animkit_support import SAMPLES, animkit, cli

MSET = SAMPLES / "kh2_bar/p_ex00.mset"


def header_of(data):
    """The import file's header, read from the layout (docs/blender.md, "The import file")."""
    assert data[:8] == b"AKIMPORT"
    version, length = struct.unpack_from("<II", data, 8)
    assert version == 3 and length % 4 == 0
    return json.loads(data[16:16 + length])


def test_import_data_is_the_clis_file(tmp_path):
    out = tmp_path / "x.akd"
    cli("import-data", MSET, "-o", out, "--skeleton", "auto", "--clip", "000*", "--clip", "003_A000")
    data = animkit.import_data(MSET, clips=["000*", "003_A000"], skeleton="auto")
    assert isinstance(data, bytes)
    assert data == out.read_bytes()
    header = header_of(data)
    assert header["file_clips"] == ["000_A000", "002_A000", "003_A000"]
    assert [c["name"] for c in header["clips"]] == ["000_A000", "003_A000"]


def test_import_data_chooses_clips_and_skeleton():
    header = header_of(animkit.import_data(MSET, clips=["002*"]))
    assert [c["name"] for c in header["clips"]] == ["002_A000"]
    assert header["skeleton_use"] == "companion"  # None: the companion, as load()'s default
    assert header_of(animkit.import_data(MSET, skeleton="none"))["skeleton_use"] == "none"
    with pytest.raises(animkit.Error, match="no clip matches 'nosuch\\*'"):
        animkit.import_data(MSET, clips=["nosuch*"])


def test_export_plan_is_the_clis():
    plan = animkit.export_plan("/o/x.mset", source=MSET, source_format="kh2-bar")
    assert plan == json.loads(cli("export-plan", "/o/x.mset", "--source", MSET, "--source-format", "kh2-bar",
                                  "--json").stdout)
    assert (plan["format"], plan["to"], plan["template"], plan["notes"]) == ("kh2-bar", False, str(MSET), [])
    assert plan["family"] == ["kh2-bar", "kh2-motion"]


def test_export_plan_branches():
    assert animkit.export_plan("/o/x.motion", source=MSET, source_format="kh2-bar")["format"] == "kh2-motion"
    assert animkit.export_plan("/o/x.mset", source=MSET, source_format="kh2-bar", use_template=False)["template"] is None
    assert animkit.export_plan(source=MSET, source_format="kh2-bar")["output"] == str(MSET)
    assert animkit.export_plan("/o/x.anm")["format"] == "psx-anm"  # no source: the extension's first
    chosen = animkit.export_plan("/o/x.anm", format="psx-anm", source=MSET, source_format="kh2-bar")
    assert chosen["to"] and chosen["template"] is None
    assert [n["level"] for n in chosen["notes"]] == ["warning", "warning"]
    with pytest.raises(animkit.Error, match="choose Format psx-anm or text-anm explicitly"):
        animkit.export_plan("/o/x.anm", source=MSET, source_format="kh2-bar")
    with pytest.raises(animkit.Error, match="psx-anm writes .anm, not .mset"):
        animkit.export_plan("/o/x.mset", format="psx-anm", source_format="kh2-bar")


def test_export_plan_of_a_model(tmp_path):
    """model=True (`--model`): the rig's meshes go to any file convert writes, a model too."""
    model = tmp_path / "ex.mdlx"
    model.write_bytes(b"")  # the plan reads nothing; a template must exist
    plan = animkit.export_plan(str(model), source=str(model), source_format="kh2-bar", model=True)
    assert plan == json.loads(cli("export-plan", str(model), "--source", str(model), "--source-format", "kh2-bar",
                                  "--model", "--json").stdout)
    assert (plan["format"], plan["template"]) == ("kh2-bar", str(model))
    with pytest.raises(animkit.Error, match="names no format animkit writes an animation to"):
        animkit.export_plan(str(model), source=str(model), source_format="kh2-bar")
    assert animkit.export_plan("/o/x.mset", source=MSET, source_format="kh2-bar", model=True)["format"] == "kh2-bar"
