"""The real photo pipeline's row reader on video frames (detector replaced by the truth).

No model is needed: the card rectangles come from the sample's ground truth, everything after
detection (table geometry, rows, current trick, orientation) is the shipped code, and the
tracker must follow the deal from it. Faces are not read here, so winners come from the rows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detect.detections import Detections
from vision.pipeline import PhotoAnalyzer
from vision.seats import Seat
from vision.synth.video import read_frame_truth
from vision.video.events import CardsTurned, TrickComplete
from vision.video.gate import ChangeGate
from vision.video.options import contract_from_truth, load_truth
from vision.video.pipeline import PhotoAnalyzerAdapter, VideoPipeline
from vision.video.sources import VideoFileSource
from vision.video.tracker import TableTracker

BASE = Path(__file__).resolve().parents[2] / "datasets" / "samples" / "video" / "lhombre-sample"


class _TruthDetector:
    """Card rectangles of the frame being analysed, from the per-frame ground truth."""

    imgsz = 640

    def __init__(self) -> None:
        self.frames = read_frame_truth(f"{BASE}.frames.jsonl.gz")
        self.index = 0

    def detect(self, image):  # type: ignore[no-untyped-def]
        cards = [c for c in self.frames[self.index] if c["visible_fraction"] >= 0.2]
        quads = np.array([c["quad"] for c in cards], float).reshape(-1, 4, 2)
        return Detections(quads=quads, confidence=np.ones(len(cards)),
                          class_id=np.array([int(c["face_up"]) for c in cards]))


class _Adapter(PhotoAnalyzerAdapter):
    def __init__(self, detector: _TruthDetector) -> None:
        # the rows as the true rectangles give them: counted again along their length (which
        # the video path does), South's last two won cards, laid almost one on the other,
        # are taken for one and tricks 8 and 9 are lost here (models/row_strip.md, "Limits")
        self.inner = PhotoAnalyzer(game="lhombre", detector=detector, identity_reader=False,
                                   row_strips=False)
        self.detector = detector

    def analyse(self, image, t, pos):  # type: ignore[no-untyped-def]
        self.detector.index = int(round(pos * 8))
        return self.inner.read(image)


def test_row_reader_on_video_frames_follows_the_deal():
    truth = load_truth(f"{BASE}.truth.json")
    tracker = TableTracker("lhombre", 8.0, dealer=Seat.S, seats=(Seat.N, Seat.E, Seat.S),
                           contract=contract_from_truth(truth["contract"]))
    pipeline = VideoPipeline(_Adapter(_TruthDetector()), tracker, gate=ChangeGate())
    events = pipeline.run(VideoFileSource(f"{BASE}.mp4"))
    done = {e.number: e for e in events if isinstance(e, TrickComplete)}
    turned = {e.number: e for e in events if isinstance(e, CardsTurned)}
    assert sorted(done) == list(range(1, 10)) and sorted(turned) == list(range(1, 10))
    true_winners = {t["number"]: t["winner"] for t in truth["tricks"]}
    # trick 9 has two "won" cards (South's is wrong): without faces it stays undetermined
    for k in range(1, 9):
        assert done[k].winner is not None and done[k].winner.name == true_winners[k], k
    assert done[9].winner is None


MODELS = Path(__file__).resolve().parents[2] / "models"


def _sample_play_with_true_rectangles():
    """The sample video with true card rectangles and the shipped identity reader."""
    from vision.video.compare import score_events
    from vision.video.options import truth_events

    truth = load_truth(f"{BASE}.truth.json")
    detector = _TruthDetector()
    analyzer = _Adapter(detector)
    analyzer.inner = PhotoAnalyzer(game="lhombre", detector=detector,  # faces read
                                   row_strips=False)
    tracker = TableTracker("lhombre", 8.0, dealer=Seat.S, seats=(Seat.N, Seat.E, Seat.S),
                           contract=contract_from_truth(truth["contract"]))
    events = VideoPipeline(analyzer, tracker, gate=ChangeGate()).run(
        VideoFileSource(f"{BASE}.mp4"))
    return truth, events, score_events(truth_events(truth), events)


@pytest.mark.skipif(not (MODELS / "identity.onnx").exists(), reason="no shipped identity model")
def test_shipped_identity_model_never_misreads_the_sample_play():
    """Truth rectangles, the shipped identity reader for the faces: every trick found, no
    face read wrong (a face may stay unread), every winner that is given is right."""
    truth, events, score = _sample_play_with_true_rectangles()
    assert score.missed == [] and score.invented == []
    done = {e.number: e for e in events if isinstance(e, TrickComplete)}
    true_cards = {(t["number"], seat): card for t in truth["tricks"] for seat, card in t["plays"]}
    for number, trick in done.items():
        for seat, card in trick.cards:
            assert card is None or str(card) == true_cards[(number, seat.name)], (number, seat)
    winners = {t["number"]: t["winner"] for t in truth["tricks"]}
    given = [n for n, e in done.items() if e.winner is not None]
    assert len(given) >= 8, score.summary()
    assert all(done[n].winner.name == winners[n] for n in given), score.summary()


@pytest.mark.skipif(not (MODELS / "identity.onnx").exists(), reason="no shipped identity model")
def test_shipped_identity_model_reads_the_sample_play():
    """Truth rectangles, the shipped identity reader: the play is reproduced (every trick and
    winner; a face the reader leaves unread costs that trick's card only)."""
    truth, events, score = _sample_play_with_true_rectangles()
    done = {e.number: e for e in events if isinstance(e, TrickComplete)}
    assert all(done[t["number"]].winner is not None for t in truth["tricks"])
    assert all(done[t["number"]].winner.name == t["winner"] for t in truth["tricks"])
    assert score.tricks_right >= 8, score.summary()
    assert score.alerts_missed == [] and score.alerts_extra == [], score.summary()


@pytest.mark.skipif(not (MODELS / "detector_video.onnx").exists(), reason="no video detector")
def test_the_camera_uses_its_own_detector_and_photos_keep_theirs() -> None:
    adapter = PhotoAnalyzerAdapter("lhombre")
    assert adapter.inner.detector.path.name == "detector_video.onnx"
    assert PhotoAnalyzer(game="lhombre").detector.path.name == "detector.onnx"


@pytest.mark.skipif(not (MODELS / "detector.onnx").exists(), reason="no shipped detector")
def test_without_a_video_detector_the_camera_falls_back_to_the_photo_one(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch) -> None:
    for name in ("detector.onnx", "detector.sha256"):
        (tmp_path / name).symlink_to(MODELS / name)
    monkeypatch.setenv("TRICKVISION_MODELS", str(tmp_path))
    adapter = PhotoAnalyzerAdapter("lhombre", identity_reader=False)
    assert adapter.inner.detector.path.name == "detector.onnx"
