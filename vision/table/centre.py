"""Where the middle of the table lies, for a camera that does not move.

One photo's cards place the table's centre only roughly: early in a deal every row is one or
two cards near its player's left, and a duplicate box makes a short row look longer, so the
estimate slides toward one side and a card goes to the neighbouring seat. A fixed camera sees
the same table all session, so the centre is learnt from the readings whose rows are long
enough and then held. Two opposite rows of (nearly) equal length are point-symmetric about the
middle - each starts at its own player's left - so the mean of their midpoints is the centre.
Until such a reading has been seen, the middle of the image stands in: the overhead camera
looks at the middle of the table.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from vision.seats import Seat
from vision.table.geometry import TableFrame
from vision.table.reading import TableReading

_OPPOSITE = ((Seat.N, Seat.S), (Seat.W, Seat.E))


class FixedTableCentre:
    """The table's centre in image pixels, learnt over a session (median of the last ``keep``
    estimates from readings whose opposite rows have at least ``min_row`` cards each)."""

    def __init__(self, frame: TableFrame | None = None, *, min_row: int = 3,
                 keep: int = 25) -> None:
        self.frame = frame or TableFrame()
        self.min_row = min_row
        self.estimates: deque[np.ndarray] = deque(maxlen=keep)

    def estimate(self, reading: TableReading) -> np.ndarray | None:
        """This reading's own estimate (image pixels), or None when no opposite rows fit."""
        mids = []
        for a, b in _OPPOSITE:
            ra, rb = reading.rows.get(a, []), reading.rows.get(b, [])
            if min(len(ra), len(rb)) < self.min_row or abs(len(ra) - len(rb)) > 1:
                continue
            pa = self.frame.to_table(np.array([c.quad.mean(axis=0) for c in ra]))
            pb = self.frame.to_table(np.array([c.quad.mean(axis=0) for c in rb]))
            mids.append((pa.mean(axis=0) + pb.mean(axis=0)) / 2)
        if not mids:
            return None
        return self.frame.to_image(np.mean(mids, axis=0))

    def update(self, reading: TableReading) -> None:
        found = self.estimate(reading)
        if found is not None:
            self.estimates.append(found)

    def value(self, image_size: tuple[int, int]) -> np.ndarray:
        """The learnt centre, or the middle of an image of ``image_size`` (width, height)."""
        if self.estimates:
            return np.median(np.array(self.estimates), axis=0)
        return np.array([image_size[0] / 2, image_size[1] / 2], dtype=np.float64)
