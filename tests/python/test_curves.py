"""animkit.curves() and animkit.curves_replace(): the file's stored curves (KH2), the same as
`animkit curves --json`, and one channel written back (docs/python.md, docs/cli.md "curves")."""

import json
import subprocess

import pytest

from animkit_support import CLI, SAMPLES, animkit

MSET = SAMPLES / "kh2_bar" / "p_ex00.mset"


def test_curves_are_what_the_cli_prints():
    curves = animkit.curves(str(MSET), skeleton="none")
    assert curves["clips"], "the sample moveset stores curves"
    clip = curves["clips"][0]["curves"]
    assert clip["rotation_mode"] == "XYZ"
    for channel in clip["channels"]:
        assert channel["property"] in ("location", "rotation_euler", "scale")
        assert all(len(k) == 5 and k[4] in (0, 1, 2) for k in channel["keys"])
    if not CLI:
        pytest.skip("ANIMKIT_CLI is not set")
    out = subprocess.run([CLI, "curves", str(MSET), "--json", "--skeleton", "none"], check=True, capture_output=True)
    assert json.loads(out.stdout) == curves


def test_one_channel_replaced_reads_back_and_unedited_is_the_same_bytes(tmp_path):
    curves = animkit.curves(str(MSET), skeleton="none")
    same = animkit.curves_replace(str(MSET), curves, str(tmp_path / "same.mset"))
    assert same["identical"] and same["replaced"] == 0
    assert (tmp_path / "same.mset").read_bytes() == MSET.read_bytes()
    name = curves["clips"][0]["name"]
    channel = curves["clips"][0]["curves"]["channels"][0]
    channel["keys"][0][1] += 0.5
    report = animkit.curves_replace(str(MSET), {"clips": [{"name": name, "channels": [channel]}]}, str(tmp_path / "e.mset"))
    assert report["replaced"] == 1 and not report["identical"]
    back = animkit.curves(str(tmp_path / "e.mset"), skeleton="none")
    got = [c for c in back["clips"][0]["curves"]["channels"]
           if (c["joint"], c["property"], c["index"]) == (channel["joint"], channel["property"], channel["index"])]
    assert got[0]["keys"] == [[pytest.approx(v, rel=1e-6, abs=1e-7) for v in key] for key in channel["keys"]]


def test_a_malformed_edit_names_the_clip_and_channel(tmp_path):
    with pytest.raises(animkit.Error, match="clip 000_X, channel 0"):
        animkit.curves_replace(str(MSET), {"clips": [{"name": "000_X", "channels": [{"joint": 0}]}]},
                               str(tmp_path / "x.mset"))
