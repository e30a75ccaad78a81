"""EDF archives and sets from Python: a RAB's members (list, read, replace, extract), the
model inside it, and a CAS decoded with the archive beside it."""

import pytest

from animkit_support import SAMPLES, animkit, cli, cli_json


RAB = SAMPLES / "edf_rab" / "soldier.rab"


def test_members_are_the_clis_listing():
    f = animkit.load(RAB)
    assert f.format == "edf-rab"
    assert f.members == cli_json("archive", "list", str(RAB), "--json")
    assert [(m["folder"], m["name"]) for m in f.members] == [("TEXTURE", "soldier.dds"), ("MODEL", "soldier.mdb")]
    assert all(m["compressed"] and m["stored_size"] < m["size"] for m in f.members)


def test_a_member_unpacks_to_the_model_the_samples_hold():
    f = animkit.load(RAB)
    mdb = f.member("soldier.mdb")
    assert mdb == (SAMPLES / "edf_canm" / "soldier.mdb").read_bytes()
    assert f.member("MODEL/soldier.mdb") == mdb
    with pytest.raises(animkit.Error, match="no member named 'soldier.cas'"):
        f.member("soldier.cas")


def test_replacing_a_member_with_its_own_bytes_gives_the_archive_back():
    f = animkit.load(RAB)
    assert f.with_member("soldier.mdb", f.member("soldier.mdb")) == f.write() == RAB.read_bytes()


def test_a_replaced_member_reads_back_packed_in_its_place():
    f = animkit.load(RAB)
    texture = bytearray(f.member("soldier.dds"))
    texture[-1] ^= 0xFF  # one texel block changed
    edited = animkit.load(f.with_member("soldier.dds", texture), name="edited.rab")
    assert [m["name"] for m in edited.members] == [m["name"] for m in f.members]
    assert edited.member("soldier.dds") == bytes(texture)
    assert edited.member("soldier.mdb") == f.member("soldier.mdb")
    assert edited.members[0]["compressed"]


def test_extract_writes_each_member_under_its_folder(tmp_path):
    written = animkit.load(RAB).extract(tmp_path)
    assert written == [str(tmp_path / "TEXTURE" / "soldier.dds"), str(tmp_path / "MODEL" / "soldier.mdb")]
    assert (tmp_path / "MODEL" / "soldier.mdb").read_bytes() == (SAMPLES / "edf_canm" / "soldier.mdb").read_bytes()


def test_the_archive_decodes_to_its_textured_model():
    scene = animkit.load(RAB).decode()
    assert len(scene.meshes) == 1 and scene.meshes[0].skinned
    assert len(scene.textures) == 1
    assert scene.textures[0].pixels is not None and scene.textures[0].pixels.shape == (8, 8, 4)


def test_a_set_decodes_with_the_archive_beside_it():
    scene = animkit.load(SAMPLES / "edf_cas" / "soldier6.cas").decode()
    assert scene.skeleton_use == "companion" and scene.skeleton_file.endswith("soldier.rab")
    assert [c.name for c in scene.clips] == ["walk", "idle"]
    assert scene.meshes and scene.textures[0].pixels is not None


def test_a_file_that_is_no_archive_has_no_members():
    f = animkit.load(SAMPLES / "edf_canm" / "soldier6.canm")
    assert f.members == []
    with pytest.raises(animkit.Error, match="no archive"):
        f.member("x")


PAK = SAMPLES / "psx_pak" / "FILES.PAK"


def test_a_vib_ribbon_pak_lists_its_stored_paths_in_stored_order():
    f = animkit.load(PAK)
    assert f.format == "psx-pak"
    assert f.members == cli_json("archive", "list", str(PAK), "--json")
    assert [m["name"] for m in f.members] == ["GAME/FIGURE.ANM", "GAME/FIGURE.TMD", "GAME/CAMERA/ORBIT.ANC"]
    assert not any(m["compressed"] for m in f.members)
    assert f.member("GAME/FIGURE.TMD") == (SAMPLES / "psx_tmd" / "figure.tmd").read_bytes()
    assert f.with_member("GAME/FIGURE.ANM", f.member("GAME/FIGURE.ANM")) == f.write() == PAK.read_bytes()


def test_a_pak_extracts_into_nested_folders(tmp_path):
    written = animkit.load(PAK).extract(tmp_path)
    assert written[2] == str(tmp_path / "GAME" / "CAMERA" / "ORBIT.ANC")
    assert (tmp_path / "GAME" / "FIGURE.ANM").read_bytes() == (SAMPLES / "psx_tmd" / "figure.anm").read_bytes()
