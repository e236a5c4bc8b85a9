"""``scripts/evaluate_video.py --live`` reads a video as ``trickvision watch`` reads a camera and
measures each alert's delay to the frame that raised it."""

from __future__ import annotations

import json

import pytest

from .script_module import REPO, load

script = load("evaluate_video")
SAMPLE = REPO / "datasets" / "samples" / "video" / "lhombre-sample.mp4"


@pytest.mark.slow
@pytest.mark.skipif(not (REPO / "models" / "detector.onnx").exists(), reason="no shipped detector")
def test_the_sample_read_live_gives_its_play_and_each_alerts_delay() -> None:
    summary = script.analyse_live(SAMPLE)
    score = summary["score"]
    assert score["missed"] == [] and score["invented"] == [] and score["tricks_right"] == 9
    found = score["alerts_true"] - len(score["alerts_missed"])
    assert found == 2 and score["alerts_extra"] == []
    # one delay per alert found, each from the true moment to a later frame
    assert len(score["alert_delays_s"]) == found
    assert all(0.0 < d < 3.0 for d in score["alert_delays_s"]), score["alert_delays_s"]
    assert summary["analysed"] > 0


def test_live_reading_takes_every_frame_so_sampling_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        script.main(["--live", "--sample-fps", "10", "--n", "0"])
    assert exc.value.code == 2
    assert "--sample-fps does not apply" in capsys.readouterr().err


def test_chosen_seeds_must_be_whole_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        script.main(["--seeds", "11134,eleven"])
    assert exc.value.code == 2
    assert "--seeds: expected whole numbers" in capsys.readouterr().err


def test_chosen_seeds_are_scored_in_place_of_a_range(
        monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    seen: list[int] = []

    def fake_render(data, seed, fps):  # type: ignore[no-untyped-def]
        seen.append(seed)
        return tmp_path / f"held-bridge-{seed}.mp4"

    score = {"tricks_true": 13, "tricks_found": 13, "tricks_right": 12, "alerts_true": 2,
             "missed": [], "invented": [], "alerts_missed": [], "alerts_extra": [],
             "alerts_withdrawn": []}
    monkeypatch.setattr(script, "render", fake_render)
    thorough: list[bool] = []

    def fake_analyse(video, out, sample_fps, reads_thoroughly):  # type: ignore[no-untyped-def]
        thorough.append(reads_thoroughly)
        return {"score": score, "analysed": 1, "wall_s": 0.1}

    monkeypatch.setattr(script, "analyse", fake_analyse)
    out = tmp_path / "total.json"
    assert script.main(["--seeds", "11142,11134", "--data", str(tmp_path),
                        "--out", str(out)]) == 0
    assert seen == [11142, 11134] and thorough == [False, False]
    assert script.main(["--seeds", "11142", "--data", str(tmp_path), "--thorough"]) == 0
    assert thorough[-1] is True
    total = json.loads(out.read_text())
    assert total["tricks_right"] == 24 and len(total["videos"]) == 2
