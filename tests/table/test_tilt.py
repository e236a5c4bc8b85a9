"""A photo taken at an angle, levelled from its own cards' sizes and shapes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.table.geometry import Calibration, TableFrame
from vision.table.rows import RowReader, measure
from vision.table.tilt import CARD_PROPORTION, level_from_cards

from .conftest import BRIDGE, LONG, SHORT, make_table

SIZE = (1920, 1080)


def _camera(tilt_deg: float, direction_deg: float = 100.0, focal: float = 1.1) -> np.ndarray:
    """The table seen by a pinhole camera tilted ``tilt_deg`` from straight down, shrunk so
    that it stays in the picture (as the renderer frames it)."""
    f = focal * SIZE[0]
    k = np.array([[f, 0, SIZE[0] / 2], [0, f, SIZE[1] / 2], [0, 0, 1.0]])
    phi = np.radians(direction_deg)
    r, _ = cv2.Rodrigues(np.array([np.cos(phi), np.sin(phi), 0.0]) * np.radians(tilt_deg))
    shrink = np.array([[0.7, 0, 0.15 * SIZE[0]], [0, 0.7, 0.15 * SIZE[1]], [0, 0, 1.0]])
    return shrink @ k @ r @ np.linalg.inv(k)


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    flat = pts.reshape(-1, 2)
    q = np.column_stack([flat, np.ones(len(flat))]) @ h.T
    return (q[:, :2] / q[:, 2:]).reshape(pts.shape)


def _rows(reading) -> dict:  # type: ignore[no-untyped-def]
    letter = {"won": "W", "lost": "L", "unknown": "?"}
    return {s: "".join(letter[c.orientation.value] for c in r) for s, r in reading.rows.items()}


@pytest.mark.parametrize("tilt", [25.0, 40.0])
def test_a_tilted_table_is_levelled_from_its_cards(tilt):
    quads, _ = make_table(BRIDGE)
    seen = _project(_camera(tilt), quads)
    h = level_from_cards(seen, SIZE).homography
    assert h is not None
    levelled = measure(_project(h, seen))
    # every card again the same size and the true proportion
    assert np.allclose(levelled.aspect, LONG / SHORT, rtol=0.03)
    assert np.std(np.log(levelled.long_len)) < 0.02
    frame = TableFrame(calibration=Calibration(homography=h))
    reading = RowReader(frame).read(seen, np.zeros(len(seen), bool), np.ones(len(seen)))
    assert _rows(reading) == BRIDGE


def test_at_40_degrees_the_rows_need_it():
    quads, _ = make_table(BRIDGE)
    seen = _project(_camera(40.0), quads)
    # foreshortened along the camera's direction, won and lost cards look alike
    assert measure(seen).aspect.min() < 1.15
    reading = RowReader().read(seen, np.zeros(len(seen), bool), np.ones(len(seen)))
    assert _rows(reading) != BRIDGE


def test_a_photo_from_straight_above_is_left_alone():
    quads, _ = make_table(BRIDGE)
    assert level_from_cards(quads, SIZE).homography is None
    assert level_from_cards(quads[:5], SIZE).homography is None  # too few cards to judge


def test_cards_nearly_all_lying_one_way_are_not_squared():
    # a face-up bridge table of 2026-12-02 (rendered, camera tilted 20 degrees) whose cards
    # all lie the same way but four: squaring the many made them "alike" (aspect 1.01)
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("bridge", "faceup", 9_960_000_015, image_size=(1280, 720),
                              tilt_deg=20.0)
    seen = np.array([c["quad"] for c in scene.truth["cards"] if c["visible_fraction"] >= 0.1])
    h = level_from_cards(seen, (1280, 720)).homography
    assert h is not None
    aspect = np.median(measure(_project(h, seen)).aspect)
    assert CARD_PROPORTION[0] <= aspect <= CARD_PROPORTION[1]
    assert abs(aspect - 1.40) < 0.03  # the renderer's card: 88 x 63
