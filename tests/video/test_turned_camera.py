"""A fixed camera mounted turned against ``--south``: said once, with the angle that reads it."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from vision.detect.detections import Detections
from vision.synth.scene import render_game_scene
from vision.video.pipeline import PhotoAnalyzerAdapter


class _Truth:
    def __init__(self, cards: list[dict]) -> None:
        self.cards = [c for c in cards if c["visible_fraction"] >= 0.2]

    def detect(self, image):  # type: ignore[no-untyped-def]
        return Detections(np.array([c["quad"] for c in self.cards]), np.full(len(self.cards), 0.9),
                          np.array([int(c["face_up"]) for c in self.cards]))


@pytest.fixture(scope="module")
def turned_table():  # type: ignore[no-untyped-def]
    # the renderer's own camera roll of this scene is 3 degrees: 20 more makes about 23
    return render_game_scene("bridge", "end", 9_000_000_003, image_size=(1280, 720),
                             roll_deg=20.0)


def _warnings(scene, caplog, south="bottom"):  # type: ignore[no-untyped-def]
    adapter = PhotoAnalyzerAdapter("bridge", detector=_Truth(scene.truth["cards"]),
                                   identity_reader=False, south=south)
    with caplog.at_level(logging.WARNING, logger="trickvision"):
        for k in range(8):
            adapter.analyse(scene.image, k / 8, k / 8)
    return [r.getMessage() for r in caplog.records if "turned" in r.getMessage()]


def test_a_turned_camera_is_told_once_which_south_reads_it(turned_table, caplog):  # type: ignore[no-untyped-def]
    said = _warnings(turned_table, caplog)
    assert len(said) == 1
    angle = int(said[0].split("--south ")[1].split(" ")[0])
    assert 20 <= angle <= 26 and "clockwise" in said[0]
    caplog.clear()
    assert _warnings(turned_table, caplog, south=str(angle)) == []  # given: nothing to say
    # and with it every row is read as it lies (won / lost, in order) from the rectangles given
    # (counted again along its length, South's row also shows the card that lies all but
    # hidden under its neighbours, which the rectangles leave out)
    adapter = PhotoAnalyzerAdapter("bridge", detector=_Truth(turned_table.truth["cards"]),
                                   identity_reader=False, south=str(angle), row_strips=False)
    reading = adapter.analyse(turned_table.image, 0.0, 0.0)
    letter = {"won": "W", "lost": "L", "unknown": "?"}
    truth: dict[str, str] = {}
    for c in sorted(turned_table.truth["cards"], key=lambda c: c["row_position"] or 0):
        if c["row_position"] is not None and c["visible_fraction"] >= 0.2:
            truth[c["seat"]] = truth.get(c["seat"], "") + letter[c["orientation"]]
    assert {s.name: "".join(letter[c.orientation.value] for c in row)
            for s, row in reading.rows.items()} == truth


def test_a_straight_camera_is_told_nothing(caplog):  # type: ignore[no-untyped-def]
    scene = render_game_scene("bridge", "end", 9_000_000_003, image_size=(1280, 720))
    assert _warnings(scene, caplog) == []
