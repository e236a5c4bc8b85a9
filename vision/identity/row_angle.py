"""Face-up row cards turned to their row's own direction before a second reading.

Players lay a row's cards nearly parallel: each long side runs along the row (a lost trick)
or across it (a won one), a few degrees either way. A face-up row card's box that the
detector and the fit to the cloth's edges left turned far from its neighbours has most often
cut the corner index out of its crop: on the tuning photos of seeds 7.3e9 the boxes the
reader read right were 1.0 degree off their card in the median (5 at the 90th percentile),
while 19 of the 46 cards of 45 px and more it left unread were 10 to 90 degrees off. Such a
card is read again from its box turned, about its centre, to the nearer of its row's two
directions (the neighbours' long sides, taken modulo a right angle).

Chosen on the face-up tuning photos (``scripts/evaluate.py --n 30 --n-hard 15 --stages
faceup``), face-up row cards named right / wrong, normal and hard, turned beyond 3 / 6 / 10
degrees against not at all: seeds 7.3e9 1,000 / 20, 994 / 19, 989 / 19 against 972 / 19 (hard
300 / 10, 297 / 10, 296 / 9 against 293 / 9); seeds 7.31e9 at 3 and 6 degrees 1,008 / 23 and
1,004 / 22 against 984 / 20 (hard 266 / 23 and 262 / 21 against 251 / 19; the figures without
the turn on 7.31e9 are the session before's, on the same code - 7.3e9's came out the same).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.table.geometry import quarter_turn
from vision.table.rows import measure

#: A box turned more than this from its row's direction (degrees) is read again turned to it
#: (the reader reads most boxes within 5 degrees of their card).
MIN_TURN_DEGREES = 3.0
#: Neighbours whose long sides give the row's direction: at least this many.
MIN_NEIGHBOURS = 2


def long_axes_degrees(quads: np.ndarray) -> np.ndarray:
    """The direction of each card box's long side, in degrees modulo 180 (image coordinates)."""
    axis = measure(quads).long_axis
    return np.degrees(np.arctan2(axis[:, 1], axis[:, 0])) % 180.0


def long_axis_degrees(quad: np.ndarray) -> float:
    """:func:`long_axes_degrees` of one box."""
    return float(long_axes_degrees(np.asarray(quad).reshape(1, 4, 2))[0])


def row_direction(angles: Sequence[float]) -> float | None:
    """The row's direction modulo 90 degrees from its cards' long sides (along or across it):
    the median of each angle's difference from the direction they share
    (:func:`~vision.table.geometry.quarter_turn`), so that a few boxes far off do not move
    it. None without :data:`MIN_NEIGHBOURS` angles."""
    if len(angles) < MIN_NEIGHBOURS:
        return None
    mean = quarter_turn(np.radians(np.asarray(angles, dtype=np.float64)))[0] % 90.0
    off = (np.asarray(angles) - mean + 45.0) % 90.0 - 45.0
    return float((mean + np.median(off)) % 90.0)


def turned_to_row(quad: np.ndarray, direction: float, own: float | None = None
                  ) -> np.ndarray | None:
    """``quad`` turned about its centre onto the nearer of ``direction`` and ``direction`` +
    90 degrees, or None when it lies within :data:`MIN_TURN_DEGREES` of it already; ``own``:
    its long side's direction where the caller has it (:func:`long_axes_degrees`)."""
    own = long_axis_degrees(quad) if own is None else own
    turn = (direction - own + 45.0) % 90.0 - 45.0
    if abs(turn) <= MIN_TURN_DEGREES:
        return None
    a = math.radians(turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    return (q - centre) @ rot.T + centre


def row_turns(quads: np.ndarray, rows: Sequence[object], todo: Sequence[int]
              ) -> dict[int, np.ndarray]:
    """For the cards ``todo`` (indices into ``quads``), the boxes turned to their row's
    direction where they lie far from it; ``rows[i]`` names card ``i``'s row (None: in no
    row). The direction comes from the row's other cards."""
    members: dict[object, list[int]] = {}
    for i, row in enumerate(rows):
        if row is not None:
            members.setdefault(row, []).append(i)
    angles = long_axes_degrees(quads) if len(quads) else np.zeros(0)
    out = {}
    for i in todo:
        if rows[i] is None:
            continue
        others = [float(angles[j]) for j in members[rows[i]] if j != i]
        direction = row_direction(others)
        if direction is None:
            continue
        turned = turned_to_row(quads[i], direction, float(angles[i]))
        if turned is not None:
            out[i] = turned
    return out
