"""Boxes whose uncovered part shows the cloth are ghosts; real row cards are not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.support import cloth_ghosts


def _box(cx: float, cy: float, w: float = 48, h: float = 72) -> np.ndarray:
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                     [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]], dtype=np.float64)


def _table(back=(150, 140, 20), cloth=(120, 130, 210), seed=0):  # BGR colours
    rng = np.random.default_rng(seed)
    image = np.empty((240, 420, 3), dtype=np.uint8)
    image[:] = cloth
    noise = rng.integers(-12, 13, size=image.shape)
    image = np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    # a row of four cards, each covering part of the one before
    quads = [_box(100 + 30 * k, 120) for k in range(4)]
    for q in quads:
        cv2.fillConvexPoly(image, np.rint(q).astype(np.int32), back)
        cv2.polylines(image, [np.rint(q).astype(np.int32)], True, (40, 40, 40), 1)
    return image, quads


def test_a_box_past_the_end_of_the_row_is_a_ghost():
    image, quads = _table()
    ghost = _box(100 + 30 * 3 + 24, 120)  # pushed half a card past the last one, onto cloth
    boxes = np.stack(quads + [ghost])
    face_up = np.zeros(len(boxes), dtype=bool)
    conf = np.array([0.9, 0.9, 0.9, 0.9, 0.5])
    assert cloth_ghosts(image, boxes, face_up, conf).tolist() == [False] * 4 + [True]


def test_the_real_row_has_no_ghost():
    image, quads = _table()
    boxes = np.stack(quads)
    got = cloth_ghosts(image, boxes, np.zeros(4, dtype=bool), np.full(4, 0.8))
    assert not got.any()


def test_backs_the_colour_of_the_cloth_are_not_judged():
    """When the cards look like the cloth, nothing can be told apart: no box is dropped."""
    image, quads = _table(back=(122, 131, 208))
    ghost = _box(100 + 30 * 3 + 24, 120)
    boxes = np.stack(quads + [ghost])
    got = cloth_ghosts(image, boxes, np.zeros(5, dtype=bool), np.array([0.9] * 4 + [0.5]))
    assert not got.any()


def test_a_ghost_beside_a_face_up_card():
    image, quads = _table()
    card = _box(210, 50)
    cv2.fillConvexPoly(image, np.rint(card).astype(np.int32), (235, 235, 235))
    beside = card + np.array([0.0, 36.0])  # half a card further, onto the cloth
    boxes = np.stack(quads + [card, beside])
    face_up = np.array([False] * 4 + [True, True])
    conf = np.array([0.9] * 4 + [0.97, 0.55])
    assert cloth_ghosts(image, boxes, face_up, conf).tolist() == [False] * 5 + [True]
