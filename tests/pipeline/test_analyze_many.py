"""``trickvision analyze`` on several photos or a folder: the models loaded once, one line per
photo, an unusable photo reported and skipped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vision.cli import main
from vision.models import model_exists

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"

pytestmark = pytest.mark.skipif(not model_exists("detector"), reason="detector not shipped")


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """A folder of a session's photos: two tables and a file that is no picture."""
    folder = tmp_path / "session"
    folder.mkdir()
    shutil.copy(SAMPLES / "demo_bridge_end.jpg", folder / "table1.jpg")
    shutil.copy(SAMPLES / "preferans_end_1.jpg", folder / "table2.jpg")
    (folder / "table3.jpg").write_text("a note, saved with the wrong name")
    (folder / "notes.txt").write_text("not a picture: left out of the folder's photos")
    return folder


def test_a_folder_is_read_photo_by_photo(session, tmp_path, capsys):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    code = main(["analyze", str(session), "--out", str(out), "--no-faces"])
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines()]
    assert [Path(x["photo"]).name for x in lines] == ["table1.jpg", "table2.jpg", "table3.jpg"]
    one, two, bad = lines
    assert one["game"] == "bridge" and one["result"] == {"NS": 6, "EW": 7}
    assert two["game"] == "preferans" and sum(two["result"].values()) == 10
    assert bad["exit"] == 2 and "not an image" in bad["error"]
    assert "table3.jpg" in captured.err  # said on standard error too
    for stem in ("table1", "table2"):  # each readable photo has its files
        assert (out / f"{stem}.annotated.jpg").is_file()
        assert json.loads((out / f"{stem}.report.json").read_text())["result"]
    assert code == 1  # a photo was unusable (or had problems): not all consistent


def test_several_photos_in_text_and_the_worst_exit_code(session, tmp_path, capsys):  # type: ignore[no-untyped-def]
    code = main(["analyze", str(session / "table2.jpg"), str(session / "table1.jpg"),
                 "--out", "", "--format", "text", "--no-faces"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(str(session / "table2.jpg") + ": preferans, ")
    assert lines[1].startswith(str(session / "table1.jpg") + ": bridge, NS 6, EW 7")
    assert code in (0, 1)
    # nothing readable at all: unusable input
    assert main(["analyze", str(session / "table3.jpg"), str(tmp_path / "nope.jpg"),
                 "--out", ""]) == 2


def test_bad_batches_are_refused_up_front(session, tmp_path, capsys):  # type: ignore[no-untyped-def]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["analyze", str(empty)]) == 2
    assert "folder without pictures" in capsys.readouterr().err
    assert main(["analyze", str(session), "--format", "pbn"]) == 2
    assert "one photo at a time" in capsys.readouterr().err
    twin = tmp_path / "other"
    twin.mkdir()
    shutil.copy(session / "table1.jpg", twin / "table1.jpg")
    assert main(["analyze", str(session / "table1.jpg"), str(twin / "table1.jpg"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "overwrite" in capsys.readouterr().err
    assert main(["analyze", str(session), "--contract", "9Q", "--out", ""]) == 2
    assert capsys.readouterr().err.count("9Q") == 1  # said once, not for every photo


def test_played_out_tells_the_reconstruction_the_deal_is_over(capsys):  # type: ignore[no-untyped-def]
    # a photo in the middle of play: without the option the deal is taken as unfinished;
    # with it, short rows would be misreads, and the trick still lying in the middle is
    # pointed out
    photo = str(SAMPLES / "bridge_mid_1.jpg")
    assert main(["analyze", photo, "--game", "bridge", "--out", ""]) == 0
    assert json.loads(capsys.readouterr().out)["complete"] is False
    main(["analyze", photo, "--game", "bridge", "--out", "", "--played-out"])
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is True
    assert any("--played-out given" in n for n in report["photo"]["notes"])
