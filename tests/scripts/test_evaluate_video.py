"""``scripts/evaluate_video.py --live`` reads a video as ``trickvision watch`` reads a camera and
measures each alert's delay to the frame that raised it."""

from __future__ import annotations

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
