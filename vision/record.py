"""What the camera saw: each seat's row of played cards, in trick order.

An ``Observation`` may hold an impossible situation (wrong lengths, conflicting orientations,
duplicate cards); reconstruction reports those as issues rather than refusing the input.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from vision.cards import Card
from vision.contract import Contract
from vision.seats import Seat


class Orientation(enum.Enum):
    """How a card in a row lies relative to its player."""

    WON = "won"  # short side toward the player (long axis points at him)
    LOST = "lost"  # long side toward the player
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class RowEntry:
    """One position of a row: orientation, the card if seen, and how sure the reading is."""

    orientation: Orientation = Orientation.UNKNOWN
    card: Card | None = None
    confidence: float | None = None
    card_confidence: float | None = None
    polygon: tuple[tuple[float, float], ...] | None = None
    #: For a face that could not be read for sure: the cards it may be, with the reader's
    #: probability. The reconstruction takes one only when the rules leave no other. A face
    #: read as a card may carry them too (its look-alikes in a grey picture): they count only
    #: where its reading does not (a card read surer elsewhere).
    candidates: tuple[tuple[Card, float], ...] = ()


@dataclass
class Observation:
    """Input to reconstruction: the game, what is known of the deal, and the rows."""

    game: str
    rows: dict[Seat, list[RowEntry]] = field(default_factory=dict)
    dealer: Seat | None = None
    first_leader: Seat | None = None
    contract: Contract | None = None
    #: True when the deal is over (short rows are then wrong), False while it is still being
    #: played, None to let reconstruction decide from the row lengths.
    complete: bool | None = None
