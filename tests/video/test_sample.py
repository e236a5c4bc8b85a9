"""The committed sample video and its ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "samples" / "video"
VIDEO = SAMPLE / "lhombre-sample.mp4"
TRUTH = SAMPLE / "lhombre-sample.truth.json"
MODELS = Path(__file__).resolve().parents[2] / "models"


def test_sample_is_small_and_complete():
    assert VIDEO.stat().st_size < 3_000_000
    truth = json.loads(TRUTH.read_text())
    assert truth["game"] == "lhombre" and len(truth["tricks"]) == 9
    kinds = [e["kind"] for e in truth["events"]]
    assert kinds.count("trick_complete") == 9 and kinds.count("deal_finished") == 1
    assert {e["alert"] for e in truth["events"] if e["kind"] == "alert"} == {
        "revoke", "wrong_orientation"}


def test_video_on_the_sample_with_reference_analyser(tmp_path, capsys):  # type: ignore[no-untyped-def]
    rc = main(["video", str(VIDEO), "--analyzer", "truth", "--truth", str(TRUTH),
               "--out", str(tmp_path), "--quiet"])
    assert rc == 0, capsys.readouterr().err
    score = json.loads((tmp_path / "summary.json").read_text())["score"]
    assert score["tricks_right"] == 9 and score["invented"] == []
    assert score["alerts_found"] == 2 and score["alerts_missed"] == []


@pytest.mark.slow
@pytest.mark.skipif(not (MODELS / "detector.onnx").exists(), reason="no shipped detector")
def test_video_on_the_sample_with_the_shipped_models(tmp_path, capsys):  # type: ignore[no-untyped-def]
    """Done-when of the video issue: the real models reproduce the sample's play."""
    rc = main(["video", str(VIDEO), "--truth", str(TRUTH), "--out", str(tmp_path),
               "--quiet"])
    out = capsys.readouterr()
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert rc in (0, 1), out.err
    score = summary["score"]
    assert score["missed"] == [] and score["invented"] == [], score
    assert score["tricks_right"] == 9, score  # every card and every winner
    report = json.loads((tmp_path / "report.json").read_text())
    truth = json.loads(TRUTH.read_text())
    assert [t["winner"] for t in report["tricks"]] == [t["winner"] for t in truth["tricks"]]


def test_a_three_player_video_read_as_bridge_says_why_no_trick_completed(tmp_path, capsys):  # type: ignore[no-untyped-def]
    frames = SAMPLE / "lhombre-sample.frames.jsonl.gz"
    rc = main(["video", str(VIDEO), "--analyzer", "truth", "--truth-frames", str(frames),
               "--out", str(tmp_path), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 0
    assert "game not given" in err
    assert "no trick completed" in err and "3 seats" in err and "--game" in err
    rc = main(["video", str(VIDEO), "--analyzer", "truth", "--truth-frames", str(frames),
               "--game", "lhombre", "--out", str(tmp_path / "lhombre"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 0 and "no trick completed" not in err and "game not given" not in err
