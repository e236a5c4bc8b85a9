"""A row reader's rows counted again along their length (:mod:`vision.detect.strips`).

The row reader builds each row from the boxes the detector found; the row-strip network reads
the same row as one strip and says where its cards' centres lie and which way each lies. The
strip's count is taken: a box with no centre of the strip near it is set aside (a card seen
twice) - unless a close second peak of the strip lies at it (two cards laid a sixth of a card
apart, which the plain peaks merge; such a peak keeps a box but never adds a card) - and a
centre with no box near it becomes a card (one the detector missed), read won or
lost by the strip. A box the strip confirms keeps its own reading, takes the strip's where
its own was unknown and the strip is sure, and is left unknown where the strip is sure of the
opposite. Each change of a row's length is said in the reading's notes. A box the strip
confirms is moved along the row onto the strip's peak, which places the card more closely
than the detector does (before a face-up card's face is read).

Measured end to end in ``models/row_strip.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.detect.strips import LONG_SIDE_PX, RowStrip
from vision.record import Orientation
from vision.seats import Seat
from vision.table.reading import SeenCard, TableReading
from vision.table.rows import measure

#: A box and a strip centre are the same card when they lie less than this many long sides
#: apart along the row.
SAME_CARD = 0.35
#: A card the strip adds is read won (lost) when its across-the-row probability is at least
#: (at most) this (1 - this); in between it is unknown.
ACROSS_SURE = 0.8
#: A box the strip confirms but whose own reading was unknown takes the strip's reading only
#: when the strip is this sure: on 180 tuning photos (seeds 7e9+, the float model) 96.7 /
#: 80.0 % of totals exact (normal / hard) against 92.5 / 73.3 % leaving them unknown, with 8 /
#: 37 confident errors against 6 / 34 (0.8 gave more confident errors for the same totals on
#: the held-out photos).
FILL_SURE = 0.97
#: A box the strip confirms whose own reading the strip contradicts at this sureness is left
#: unknown: two looks that disagree, and the other rows settle that trick. On the 180 tuning
#: photos (seeds 7e9+) confident errors fell from 8 / 32 to 4 / 17 (normal / hard) and hard
#: totals exact rose 78.3 -> 81.7 % (0.8: 4 / 16, the same totals; 0.97: 6 / 20, normal 97.5
#: %); taking the strip's reading instead where it is 99 % sure gave 10 / 22 and two wrong
#: totals the report did not flag. The fixed camera's tuning videos (7901-7912, 8001-8012)
#: came out alike: 248 of 256 tricks either way, alerts 42 against 41 of 45, 3 false
#: against 2.
DISAGREE_SURE = 0.9
#: A card the strip adds or fills in is read won or lost only when its peak is at least this
#: high as well (the row reader's own least confidence, ``RowSettings.min_confidence``).
WEAKEST_READING = 0.6
#: A strip counting more than this many cards more or fewer than the row's boxes is not
#: believed (a strip cut along a row that is not one, e.g. two rows taken for one) - unless
#: the row has more boxes than a hand holds: every box beyond the hand is surely not a card of
#: its own, so the strip may set that many more aside, as long as it counts no more than a
#: hand (a tight face-up bridge row of 17 boxes, 13 cards, whose strip found the 13).
MOST_CHANGED = 3


def most_changed(boxes: int, counted: int, hand_size: int | None) -> int:
    """How many cards a strip that counted ``counted`` may change in a row of ``boxes``."""
    if hand_size is None or counted > hand_size:
        return MOST_CHANGED
    return MOST_CHANGED + max(0, boxes - hand_size)


def match_along(boxes: np.ndarray, centres: np.ndarray, tolerance: float) -> dict[int, int]:
    """Box index -> centre index, nearest pairs first, each used once, within ``tolerance``."""
    if len(boxes) == 0 or len(centres) == 0:
        return {}
    gaps = np.abs(np.asarray(boxes, dtype=np.float64)[:, None]
                  - np.asarray(centres, dtype=np.float64)[None, :])
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for flat in np.argsort(gaps, axis=None):
        i, j = divmod(int(flat), gaps.shape[1])
        if gaps[i, j] > tolerance:
            break
        if i in pairs or j in used:
            continue
        pairs[i] = j
        used.add(j)
    return pairs


def _new_card(strip: RowStrip, k: int, row: list[SeenCard], seat: Seat,
              sure: float = ACROSS_SURE) -> SeenCard:
    """A card at the strip's ``k``-th centre, as large as the row's cards, lying across the
    row or along it as the strip reads it (at ``sure``)."""
    cards = measure(np.stack([c.quad for c in row]))
    short, long = float(np.median(cards.short_len)), float(np.median(cards.long_len))
    across = float(strip.across[k])
    long_axis = strip.frame.normal if across >= 0.5 else strip.frame.direction
    short_axis = np.array([-long_axis[1], long_axis[0]])
    centre = strip.points[k]
    half_l, half_s = 0.5 * long * long_axis, 0.5 * short * short_axis
    quad = np.array([centre - half_l - half_s, centre - half_l + half_s,
                     centre + half_l + half_s, centre + half_l - half_s])
    orientation, confidence = strip_reading(float(strip.across[k]), float(strip.score[k]), sure)
    face_up = sum(c.face_up for c in row) * 2 > len(row)
    return SeenCard(quad=quad, face_up=face_up, confidence=float(strip.score[k]), seat=seat,
                    orientation=orientation, orientation_confidence=confidence)


def strip_reading(across: float, score: float, threshold: float) -> tuple[Orientation, float]:
    """The reading the strip gives a card it adds or fills in: :func:`across_orientation`,
    left unknown where the peak is under :data:`WEAKEST_READING`."""
    orientation, sure = across_orientation(across, score, threshold)
    return (orientation if sure >= WEAKEST_READING else Orientation.UNKNOWN), sure


def across_orientation(across: float, score: float, threshold: float = ACROSS_SURE
                       ) -> tuple[Orientation, float]:
    """Won, lost or unknown for a strip centre whose across-the-row probability is
    ``across`` and whose peak is ``score`` high, and how sure."""
    sure = float(min(abs(2.0 * across - 1.0), score))
    if across >= threshold:
        return Orientation.WON, sure
    if across <= 1.0 - threshold:
        return Orientation.LOST, sure
    return Orientation.UNKNOWN, sure


def _confirm_box(card: SeenCard, across: float, score: float) -> None:
    """A box the strip confirms: its unknown reading filled where the strip is sure, its
    own reading left unknown where the strip is sure of the opposite."""
    if card.orientation is Orientation.UNKNOWN:
        orientation, confidence = strip_reading(across, score, FILL_SURE)
        if orientation is not Orientation.UNKNOWN:
            card.orientation, card.orientation_confidence = orientation, confidence
    else:
        orientation, _ = across_orientation(across, score, DISAGREE_SURE)
        if orientation not in (Orientation.UNKNOWN, card.orientation):
            card.orientation, card.orientation_confidence = Orientation.UNKNOWN, 0.0


def _move_to_peak(card: SeenCard, strip: RowStrip, offset: float) -> None:
    """A row card's box moved along its row onto the strip's peak (``offset`` strip pixels
    away): the strip places a card along its row about three times as closely as the
    detector's box (95th percentile 0.04 against 0.12 long sides off on 1,082 face-up row
    cards, seeds 7.3e9; 0.04 against 0.11 on 1,048 face-down ones, seeds 7.2e9). A face is
    read from the box's corners, and every box is the card's ``polygon`` in the report."""
    card.quad = card.quad + (offset / strip.frame.scale) * strip.frame.direction


def recount_rows(reading: TableReading, strips: Sequence[RowStrip],
                 seats: Sequence[Seat], hand_size: int | None = None) -> None:
    """Revise ``reading``'s rows of ``seats`` (in place) by their strips (same order);
    ``hand_size``: the most cards a row can hold (the game's hand), when known.

    A strip that changes its row by more than :func:`most_changed` is still taken when it
    counts what every other row (two or more) holds once counted again: the rows of a deal
    grow together, one card a trick. The cards it adds then take its reading only at
    :data:`FILL_SURE`: a strip that found that many cards the boxes did not is no surer of
    their ways (hard face-up l'hombre 7301000014: 4 added, one lost at 0.11 across that was
    won), and the other rows settle those tricks.
    """
    doubted = []
    for seat, strip in zip(seats, strips, strict=True):
        row = reading.rows.get(seat)
        if not row or len(strip.along) == 0:
            # a strip that finds no card at all where boxes are was cut along something else
            # (every such strip on 360 tuning photos emptied a row that held 1-2 cards)
            continue
        if abs(len(strip.along) - len(row)) > most_changed(len(row), len(strip.along),
                                                           hand_size):
            doubted.append((seat, strip))
            continue
        _recount_row(reading, seat, strip)
    for seat, strip in doubted:
        others = [len(cards) for s, cards in reading.rows.items() if s != seat and cards]
        if len(others) >= 2 and set(others) == {len(strip.along)}:
            _recount_row(reading, seat, strip, FILL_SURE)


def _recount_row(reading: TableReading, seat: Seat, strip: RowStrip,
                 sure: float = ACROSS_SURE) -> None:
    """One row revised by its strip (see the module's docstring); a card it adds is read
    won or lost at ``sure``."""
    row = reading.rows[seat]
    along = strip.frame.to_strip(np.stack([c.quad.mean(axis=0) for c in row]))
    pairs = match_along(along, strip.along, SAME_CARD * LONG_SIDE_PX)
    matched = set(pairs.values())
    for i, k in pairs.items():
        _confirm_box(row[i], float(strip.across[k]), float(strip.score[k]))
        _move_to_peak(row[i], strip, float(strip.along[k]) - float(along[i]))
    # a box the plain peaks leave alone, on a close second peak: a card of its own
    alone = [i for i in range(len(row)) if i not in pairs]
    close = match_along(along[alone], strip.close_along, SAME_CARD * LONG_SIDE_PX)
    confirmed = {alone[a] for a in close}
    for a, m in close.items():
        _confirm_box(row[alone[a]], float(strip.close_across[m]), float(strip.close_score[m]))
    dropped = [c for i, c in enumerate(row) if i not in pairs and i not in confirmed]
    added = [(float(strip.along[k]), _new_card(strip, k, row, seat, sure))
             for k in range(len(strip.along)) if k not in matched]
    if not dropped and not added:
        return
    # a box moved onto its peak lies where the strip puts it: order it so
    keep = [(float(strip.along[pairs[i]]) if i in pairs else float(along[i]), c)
            for i, c in enumerate(row) if i in pairs or i in confirmed] + added
    keep.sort(key=lambda item: item[0])
    for card in dropped:  # no card of its own: neither in a row nor read
        card.seat, card.row_position = None, None
        card.orientation, card.orientation_confidence = Orientation.UNKNOWN, 0.0
    reading.cards.extend(c for _, c in added)
    reading.rows[seat] = [c for _, c in keep]
    for position, (_, card) in enumerate(keep, 1):
        card.row_position = position
    said = []
    if dropped:
        said.append(f"{len(dropped)} box(es) with no card of their own set aside")
    if added:
        said.append(f"{len(added)} card(s) the detector missed added")
    reading.notes.append(
        f"row {seat.name} counted again along its length: {len(row)} -> {len(keep)} cards "
        f"({'; '.join(said)})")
