"""Hand-made tables following contract 1 (South at the bottom, rows from each player's left)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.seats import Seat

SHORT, LONG = 60.0, 88.0
CENTRE = np.array([960.0, 540.0])
TOWARD = {Seat.S: (0, 1), Seat.N: (0, -1), Seat.W: (-1, 0), Seat.E: (1, 0)}


def card_quad(centre: np.ndarray, long_dir: np.ndarray) -> np.ndarray:
    """Corners TL TR BR BL of a card whose long axis is ``long_dir`` (unit)."""
    long_dir = np.asarray(long_dir, float) / np.linalg.norm(long_dir)
    across = np.array([-long_dir[1], long_dir[0]])
    hl, hs = LONG / 2, SHORT / 2
    c = np.asarray(centre, float)
    return np.array([c - across * hs - long_dir * hl, c + across * hs - long_dir * hl,
                     c + across * hs + long_dir * hl, c - across * hs + long_dir * hl])


def make_row(seat: Seat, pattern: str, *, distance: float = 420.0, overlap: float = 0.5,
             spin: float = 0.0) -> list[np.ndarray]:
    """Quads of a row of 'W'/'L' cards, first card at the player's left."""
    v = np.array(TOWARD[seat], float)
    u = np.array([v[1], -v[0]])  # along the row, player's left -> right
    extents = [SHORT if ch == "W" else LONG for ch in pattern]
    total = sum(e * (1 - overlap) for e in extents[:-1]) + extents[-1]
    lead = -total / 2
    quads = []
    for k, ch in enumerate(pattern):
        if k:
            lead += (1 - overlap) * extents[k - 1]
        centre = CENTRE + v * distance + u * (lead + extents[k] / 2)
        direction = v if ch == "W" else u
        a = np.radians(spin * ((-1) ** k))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quads.append(card_quad(centre, rot @ direction))
    return quads


def make_table(patterns: dict[Seat, str], **kw) -> tuple[np.ndarray, list[tuple[Seat, int, str]]]:
    quads, truth = [], []
    for seat, pattern in patterns.items():
        row = make_row(seat, pattern, **kw)
        quads += row
        truth += [(seat, k + 1, ch) for k, ch in enumerate(pattern)]
    return np.array(quads), truth


def draw(quads: np.ndarray, size: tuple[int, int] = (1920, 1080)) -> np.ndarray:
    """A plain picture of the cards in order (later on top), white border on a dark back."""
    import cv2

    img = np.full((size[1], size[0], 3), (40, 90, 40), np.uint8)
    for q in quads:
        pts = np.round(q).astype(np.int32)
        cv2.fillConvexPoly(img, pts, (250, 250, 250))
        inner = q.mean(axis=0) + (q - q.mean(axis=0)) * 0.85
        cv2.fillConvexPoly(img, np.round(inner).astype(np.int32), (60, 40, 160))
    return img


BRIDGE = {
    Seat.N: "WLLWWLWLLWWLW",
    Seat.E: "LWWLLWLWWLLWL",
    Seat.S: "WLLWWLWLLWWLW",
    Seat.W: "LWWLLWLWWLLWL",
}


@pytest.fixture
def bridge_table():
    return make_table(BRIDGE)
