"""What one image shows of the table: every card seen, assigned to seats and rows.

This is the hand-over between the photo pipeline (detector, geometry, rows, identity reader)
and everything that consumes one frame: the photo report and the video tracker.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.cards import Card
from vision.record import Orientation
from vision.seats import Seat

#: How an unread face's ``unreadable_reason`` begins when no corner of it showed an index:
#: the corners are covered or blank - or the "face" is a card back the detector took for one.
NO_INDEX = "no index visible"


@dataclass
class SeenCard:
    """One detected card.

    ``quad`` is the full card rectangle in image pixels, shape (4, 2), in the card's own order
    (top-left, top-right, bottom-right, bottom-left; quad[0]->quad[1] is a short edge).
    """

    quad: np.ndarray
    face_up: bool
    confidence: float
    seat: Seat | None = None
    row_position: int | None = None  # 1-based position in its seat's row; None if not in a row
    orientation: Orientation = Orientation.UNKNOWN
    orientation_confidence: float = 0.0
    card: Card | None = None
    card_confidence: float = 0.0
    unreadable_reason: str | None = None  # why a face-up card could not be read
    #: For a face read as unsure: the cards it may be, with their probability; for a face
    #: named in a grey picture, it and its look-alikes (:mod:`vision.identity.grey`).
    card_candidates: tuple[tuple[Card, float], ...] = ()

    @property
    def shows_no_index(self) -> bool:
        """A face-up card the reader saw no index on at all (and no candidate for)."""
        return self.face_up and self.card is None and not self.card_candidates and \
            (self.unreadable_reason or "").startswith(NO_INDEX)


@dataclass
class TableReading:
    """All cards of one image, grouped: rows per seat (in trick order) and the current trick."""

    cards: list[SeenCard] = field(default_factory=list)
    rows: dict[Seat, list[SeenCard]] = field(default_factory=dict)
    current_trick: dict[Seat, SeenCard] = field(default_factory=dict)
    image_size: tuple[int, int] = (0, 0)  # (width, height)
    notes: list[str] = field(default_factory=list)
