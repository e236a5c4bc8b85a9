"""Tracing a lone card's rectangle against the cloth, for boxes that sit turned off it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.identity.crops import canonical_quad
from vision.identity.outline import trace_lone_card


def _rect(cx: float, cy: float, w: float, h: float, degrees: float) -> np.ndarray:
    t = math.radians(degrees)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2 @ rot.T + (cx, cy)


def _table(card: np.ndarray | None, cloth=(40, 110, 30)) -> np.ndarray:  # noqa: ANN001
    rng = np.random.default_rng(3)
    image = np.empty((240, 320, 3), np.uint8)
    image[:] = cloth
    image = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    if card is not None:
        cv2.fillConvexPoly(image, card.round().astype(np.int32), (235, 240, 245))
        cv2.circle(image, tuple(int(v) for v in card.mean(axis=0)), 6, (40, 40, 200), -1)
    return image


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    a, b = canonical_quad(a), canonical_quad(b)
    return min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).max()) for k in range(4))


def test_a_box_turned_off_its_card_is_traced_back_onto_it() -> None:
    card = _rect(160, 120, 50, 72, 17)
    box = _rect(163, 118, 50, 72, 17 + 32)  # the detector's box, 32 degrees off
    traced = trace_lone_card(_table(card), box)
    assert traced is not None
    assert _gap(traced, card) < 2.5 < _gap(box, card)


def test_a_dark_cloth_and_a_card_across_the_picture_edge_are_handled() -> None:
    card = _rect(160, 120, 44, 64, -70)
    assert _gap(trace_lone_card(_table(card, cloth=(30, 20, 90)), _rect(160, 120, 44, 64, -40)),
                card) < 2.5
    edge = _rect(300, 120, 50, 72, 0)
    assert trace_lone_card(_table(edge), edge) is None  # partly out of the picture


def test_nothing_card_like_traces_nothing() -> None:
    assert trace_lone_card(_table(None), _rect(160, 120, 50, 72, 0)) is None
    strip = np.array([[0, 100], [320, 100], [320, 140], [0, 140]], np.float64)  # a long edge
    assert trace_lone_card(_table(strip), _rect(160, 120, 50, 72, 90)) is None
