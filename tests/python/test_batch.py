"""convert() and convert_folder() against `animkit convert`: the same files, byte for
byte, and the same report but for the timings."""

import json
import shutil
import threading

import pytest

from animkit_support import SAMPLES, animkit, cli


def tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def without_timings(report):
    report = dict(report)
    report.pop("seconds")
    report["files"] = [{k: v for k, v in f.items() if k != "seconds"} for f in report["files"]]
    return report


@pytest.fixture
def dump(tmp_path):
    """The samples plus a file no format claims and a damaged one, as a game dump."""
    root = tmp_path / "dump"
    shutil.copytree(SAMPLES, root)
    (root / "notes.txt").write_text("not an animation\n")
    damaged = (SAMPLES / "edf_canm/soldier5.canm").read_bytes()
    (root / "edf_canm/broken.canm").write_bytes(damaged[: len(damaged) // 2])
    return root


@pytest.mark.parametrize("to", ["glb", "json"])
def test_convert_folder_equals_the_cli(dump, tmp_path, to):
    cli_out, py_out = tmp_path / "cli", tmp_path / "py"
    result = cli("convert", dump, cli_out, "--to", to, "-j", "2", "--skeleton", "auto", "--report",
                 tmp_path / "report.json", "-q", check=False)
    assert result.returncode == 1  # the damaged file fails, the run goes on
    expected = json.loads((tmp_path / "report.json").read_text())

    calls = []
    report = animkit.convert_folder(dump, py_out, to=to, jobs=2, skeleton="auto", progress=calls.append)
    assert tree(py_out) == tree(cli_out)
    expected["output"] = str(py_out)
    assert without_timings(report) == without_timings(expected)
    assert report["failed"] == 1 and report["converted"] > 10

    assert len(calls) == report["converted"] + report["skipped"] + report["failed"]
    assert [c["done"] for c in calls] == list(range(1, len(calls) + 1))
    assert {c["last"]["path"] for c in calls} == {f["path"] for f in report["files"]}


def test_progress_runs_on_the_batchs_threads_and_its_exception_stops_the_run(dump, tmp_path):
    threads = set()

    def progress(p):
        threads.add(threading.get_ident())  # the GIL was released: a worker thread runs Python here
        if p["done"] == 3:
            raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        animkit.convert_folder(dump, tmp_path / "out", jobs=2, progress=progress)
    assert threads and threading.get_ident() not in threads


def test_skeleton_map_as_pairs_equals_the_map_file(tmp_path):
    rules = [("edf_canm/*.canm", "edf_canm/soldier.mdb"), ("kh2_bar/*.anb", "kh2_bar/ex00.mdlx")]
    map_file = tmp_path / "skeletons.map"
    map_file.write_text("".join(f"{a} = {s}\n" for a, s in rules))
    a = animkit.convert_folder(SAMPLES, tmp_path / "a", jobs=1, skeleton_map=rules)
    b = animkit.convert_folder(SAMPLES, tmp_path / "b", jobs=1, skeleton_map=map_file)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    assert without_timings(a)["files"] == without_timings(b)["files"]
    by_path = {f["path"]: f for f in a["files"]}
    assert by_path["edf_canm/soldier5.canm"]["skeleton"] == "edf_canm/soldier.mdb"
    with pytest.raises(animkit.Error):
        animkit.convert_folder(SAMPLES, tmp_path / "c", skeleton_map=[("[oops", "x")])


def test_convert_equals_the_cli(tmp_path):
    source = SAMPLES / "kh2_bar/p_ex00.mset"
    cli("convert", source, tmp_path / "cli.glb", "--skeleton", "auto")
    report = animkit.convert(source, tmp_path / "py.glb", skeleton="auto")
    assert (tmp_path / "py.glb").read_bytes() == (tmp_path / "cli.glb").read_bytes()
    assert report["input_format"] == "kh2-bar" and report["output_format"] == "gltf"
    assert report["skeleton"].endswith("ex00.mdlx")
    assert report["written"] == [{"path": str(tmp_path / "py.glb"), "bytes": (tmp_path / "py.glb").stat().st_size}]
    # Options as keywords: a PS1 ANM with another Euler order, as --euler gives it.
    cli("convert", SAMPLES / "psx_anm/dance.anm", tmp_path / "cli.gltf", "--euler", "zyx")
    animkit.convert(SAMPLES / "psx_anm/dance.anm", tmp_path / "py.gltf", euler="zyx")
    assert (tmp_path / "py.gltf").read_bytes() == (tmp_path / "cli.gltf").read_bytes()
    with pytest.raises(animkit.Error, match="refusing to write over"):
        animkit.convert(source, source)
