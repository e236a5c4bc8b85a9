"""The annotated picture: outlines, labels, and problems in red."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.detect.detections import Detections
from vision.pipeline import PhotoAnalyzer
from vision.record import Orientation
from vision.render.annotate import RED, annotate

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"


class TruthDetector:
    def __init__(self, truth: dict) -> None:
        self.cards = [c for c in truth["cards"] if c["visible_fraction"] >= 0.1]

    def detect(self, image: np.ndarray) -> Detections:
        return Detections(np.array([c["quad"] for c in self.cards]),
                          np.full(len(self.cards), 0.9),
                          np.array([int(c["face_up"]) for c in self.cards]))


def _red_pixels(img: np.ndarray) -> int:
    return int(np.all(img == np.array(RED, np.uint8), axis=-1).sum())


def test_annotation_marks_every_card_and_problems_in_red():
    truth = json.loads((SAMPLES / "demo_bridge_end.json").read_text())
    image = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth), identity_reader=False)
    reading, report = analyzer.analyze(image)
    clean = annotate(image, reading, report)
    assert clean.shape == image.shape and clean.dtype == np.uint8
    assert (clean != image).any(axis=-1).mean() > 0.01
    assert not report.issues and _red_pixels(clean) == 0
    # turn one card over the wrong way: the rows now conflict at that trick -> red
    card = reading.rows[next(iter(reading.rows))][3]
    card.orientation = (
        Orientation.LOST if card.orientation is Orientation.WON else Orientation.WON
    )
    report = analyzer.reconstruct(reading)
    assert report.issues
    marked = annotate(image, reading, report)
    assert _red_pixels(marked) > 100


def test_annotation_of_an_empty_reading_says_so():
    from vision.table.reading import TableReading

    image = np.zeros((200, 300, 3), np.uint8)
    out = annotate(image, TableReading(image_size=(300, 200)), None)
    assert out.shape == image.shape and out.any()


def test_cards_a_row_length_issue_names_as_extra_are_outlined_in_red():
    from dataclasses import replace

    from vision.reconstruct import Issue, IssueKind

    truth = json.loads((SAMPLES / "demo_bridge_end.json").read_text())
    image = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth), identity_reader=False)
    reading, report = analyzer.analyze(image)
    seat = next(iter(reading.rows))
    card = reading.rows[seat][5]
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.polylines(mask, [np.round(card.quad).astype(np.int32).reshape(-1, 1, 2)], True, 255, 1)
    before = annotate(image, reading, report)
    assert _red_pixels(before) == 0
    report = replace(report, issues=[Issue(IssueKind.ROW_LENGTH, seat, None, "row too long",
                                           positions=(6,))])
    after = annotate(image, reading, report)
    red = np.all(after == np.array(RED, np.uint8), axis=-1)
    assert red[mask > 0].mean() > 0.5  # the outline of the named card is red


def test_a_row_total_under_the_header_moves_to_the_rows_other_side():
    from vision.render.annotate import _text_box, total_labels
    from vision.seats import Seat

    truth = json.loads((SAMPLES / "demo_bridge_end.json").read_text())
    image = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth), identity_reader=False)
    reading, _ = analyzer.analyze(image)
    size = (image.shape[1], image.shape[0])
    free = total_labels(size, reading, {}, 0.5, 2)
    text, at = free[Seat.N]
    assert text.startswith("N: ") and "13 cards" in text
    north_top = min(float(c.quad[:, 1].min()) for c in reading.rows[Seat.N])
    assert at[1] < north_top  # the top row's total sits above it, toward the image edge
    header = _text_box(size, text, at, 0.6, weight=1)[2]  # a header over exactly that place
    moved = total_labels(size, reading, {}, 0.5, 2, avoid=header)
    assert moved[Seat.N][1][1] > north_top  # now below the row, on its inner side
    assert {s: v for s, v in moved.items() if s is not Seat.N} == \
        {s: v for s, v in free.items() if s is not Seat.N}
