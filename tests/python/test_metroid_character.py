"""A Metroid character from inside a PAK through the module: the PAK's members and its
characters listed, one decoded by name (the bundled samples/metroid_character/Character.pak,
made by the project's own writers)."""

import pytest

from animkit_support import SAMPLES, animkit, cli_json

PAK = SAMPLES / "metroid_character" / "Character.pak"


def test_load_lists_members_and_characters():
    f = animkit.load(PAK)
    assert f.format == "metroid-pak"
    types = {m["name"].split(".")[1] for m in f.members}
    assert {"ANCS", "CINF", "ANIM", "CMDL", "CSKR", "TXTR", "EVNT"} <= types
    assert f.scenes == ["Sentry"]
    assert [c["name"] for c in f.info()["fields"]["characters"]] == ["Sentry"]


def test_decode_gives_the_character_as_the_cli_samples_it():
    f = animkit.load(PAK)
    scene = f.decode(scene="Sentry")
    expected = cli_json("sample", PAK, "--character", "Sentry")
    assert [c.name for c in scene.clips] == [c["name"] for c in expected["clips"]]
    assert [c.name for c in scene.clips] == ["Idle", "Walk", "Nod_additive"]
    assert scene.meshes and scene.meshes[0].skinned
    assert scene.textures and scene.textures[0].pixels is not None
    walk = scene.clip("Walk")
    assert walk.events, "Walk has its EVNT's events"
    assert scene.clip("Nod_additive").additive is not None


def test_an_unknown_scene_is_a_key_error():
    with pytest.raises(KeyError, match="Ridley"):
        animkit.load(PAK).decode(scene="Ridley")
