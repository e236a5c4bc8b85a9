"""Rows counted again along their length: the strip's count and readings taken into a row."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detect.strips import RowStrip, strip_frame
from vision.record import Orientation
from vision.seats import Seat
from vision.table.reading import SeenCard, TableReading
from vision.table.recount import match_along, recount_rows

WON, LOST, UNKNOWN = Orientation.WON, Orientation.LOST, Orientation.UNKNOWN


def _quad(cx: float, across: bool) -> np.ndarray:
    hx, hy = (28, 40) if across else (40, 28)
    return np.array([[cx - hx, 300 - hy], [cx + hx, 300 - hy], [cx + hx, 300 + hy],
                     [cx - hx, 300 + hy]], dtype=np.float64)


def _reading(xs: list[float], readings: list[Orientation]) -> TableReading:
    cards = [SeenCard(quad=_quad(x, o is WON), face_up=False, confidence=0.9, seat=Seat.S,
                      row_position=k, orientation=o, orientation_confidence=0.9)
             for k, (x, o) in enumerate(zip(xs, readings, strict=True), 1)]
    return TableReading(cards=list(cards), rows={Seat.S: list(cards)}, image_size=(800, 600))


def _strip(reading: TableReading, xs: list[float], across: list[float]) -> RowStrip:
    frame = strip_frame(np.stack([c.quad for c in reading.rows[Seat.S]]))
    points = np.array([[x, 300.0] for x in xs]).reshape(-1, 2)
    return RowStrip(frame=frame, along=frame.to_strip(points), points=points,
                    score=np.full(len(xs), 0.9), across=np.array(across))


def test_match_along_pairs_nearest_first_within_tolerance():
    assert match_along(np.array([0.0, 10.0, 50.0]), np.array([11.0, 1.0]), 5.0) == {1: 0, 0: 1}
    assert match_along(np.array([0.0]), np.array([9.0]), 5.0) == {}
    assert match_along(np.zeros(0), np.array([1.0]), 5.0) == {}


def test_a_box_with_no_card_of_its_own_is_set_aside():
    # a phantom at 130 between real cards at 100 and 160 (30 px is 0.375 of a long side)
    reading = _reading([100, 130, 160, 220], [WON, LOST, LOST, WON])
    phantom = reading.rows[Seat.S][1]
    recount_rows(reading, [_strip(reading, [100, 160, 220], [0.95, 0.05, 0.95])], [Seat.S])
    row = reading.rows[Seat.S]
    assert [c.orientation for c in row] == [WON, LOST, WON]
    assert [c.row_position for c in row] == [1, 2, 3]
    assert phantom.seat is None and phantom.row_position is None
    assert any(c is phantom for c in reading.cards)
    assert phantom.orientation is UNKNOWN
    assert any("row S counted again" in n and "4 -> 3" in n for n in reading.notes)


def test_a_box_on_a_close_second_peak_of_the_strip_is_kept_but_such_a_peak_adds_no_card():
    # a card laid a sixth of a card beside the next: the strip's plain peaks merge the two,
    # its close second peak (score dipping between them) confirms the detector's box
    reading = _reading([100, 153, 160, 220], [WON, LOST, WON, LOST])
    close = reading.rows[Seat.S][1]
    strip = _strip(reading, [100, 160, 220], [0.95, 0.95, 0.05])
    x = strip.frame.to_strip(np.array([[153.0, 300.0], [300.0, 300.0]]))
    strip = replace(strip, close_along=x, close_score=np.array([0.97, 0.97]),
                    close_across=np.array([0.03, 0.03]))
    recount_rows(reading, [strip], [Seat.S])
    row = reading.rows[Seat.S]
    assert [c.orientation for c in row] == [WON, LOST, WON, LOST]
    assert row[1] is close and close.seat is Seat.S
    assert not reading.notes  # no box set aside, and no card at the close peak at 300


def test_a_missed_card_is_added_where_the_strip_sees_it_read_as_the_strip_reads_it():
    reading = _reading([100, 160, 280], [WON, LOST, LOST])
    recount_rows(reading, [_strip(reading, [100, 160, 220, 280], [0.9, 0.1, 0.97, 0.1])],
                 [Seat.S])
    row = reading.rows[Seat.S]
    assert len(row) == 4 and [c.row_position for c in row] == [1, 2, 3, 4]
    added = row[2]
    assert added.orientation is WON and any(c is added for c in reading.cards)
    assert np.allclose(added.quad.mean(axis=0), [220, 300])
    # lies across the row: its long side runs up and down like the other won card's
    sides = np.abs(added.quad[2] - added.quad[0])
    assert sides[1] > sides[0]
    assert "1 card(s) the detector missed added" in reading.notes[-1]


def test_an_unsure_strip_reading_adds_an_unknown_card():
    reading = _reading([100, 160, 280], [WON, LOST, LOST])
    recount_rows(reading, [_strip(reading, [100, 160, 220, 280], [0.9, 0.1, 0.55, 0.1])],
                 [Seat.S])
    assert reading.rows[Seat.S][2].orientation is UNKNOWN


def test_a_weak_peak_adds_or_fills_in_no_reading_however_sure_its_across():
    # the strip is sure of the ways (0.99 / 0.01) but its peaks there are low (0.45)
    reading = _reading([100, 160, 280], [WON, UNKNOWN, LOST])
    strip = _strip(reading, [100, 160, 220, 280], [0.9, 0.01, 0.99, 0.1])
    strip = replace(strip, score=np.array([0.9, 0.45, 0.45, 0.9]))
    recount_rows(reading, [strip], [Seat.S])
    row = reading.rows[Seat.S]
    assert len(row) == 4
    assert row[1].orientation is UNKNOWN and row[2].orientation is UNKNOWN
    # the same peaks 0.9 high read both
    reading = _reading([100, 160, 280], [WON, UNKNOWN, LOST])
    recount_rows(reading, [_strip(reading, [100, 160, 220, 280], [0.9, 0.01, 0.99, 0.1])],
                 [Seat.S])
    assert [c.orientation for c in reading.rows[Seat.S]] == [WON, LOST, WON, LOST]


def test_a_confirmed_box_keeps_its_reading_and_an_unknown_one_takes_the_strips_when_sure():
    reading = _reading([100, 160, 220, 280], [WON, UNKNOWN, LOST, UNKNOWN])
    recount_rows(reading, [_strip(reading, [100, 160, 220, 280], [0.95, 0.99, 0.85, 0.9])],
                 [Seat.S])
    # the strip's 0.9 adds a card as won, but does not overrule an unknown box's own doubt;
    # its unsure 0.85 against a box read lost leaves that box's reading
    assert [c.orientation for c in reading.rows[Seat.S]] == [WON, WON, LOST, UNKNOWN]
    assert reading.notes == []  # no row changed its length


def test_a_box_the_strip_is_sure_lies_the_other_way_is_left_unknown():
    reading = _reading([100, 160, 220], [WON, LOST, LOST])
    recount_rows(reading, [_strip(reading, [100, 160, 220], [0.02, 0.95, 0.5])], [Seat.S])
    row = reading.rows[Seat.S]
    # two looks that disagree: neither is taken, the other rows settle those tricks
    assert [c.orientation for c in row] == [UNKNOWN, UNKNOWN, LOST]
    assert row[0].orientation_confidence == 0.0 and row[2].orientation_confidence == 0.9


def test_a_strip_far_off_the_rows_count_is_not_believed():
    reading = _reading([100, 160, 220], [WON, LOST, LOST])
    xs = [100 + 15 * k for k in range(8)]
    recount_rows(reading, [_strip(reading, xs, [0.5] * 8)], [Seat.S])
    assert len(reading.rows[Seat.S]) == 3 and reading.notes == []


def test_a_row_longer_than_a_hand_lets_the_strip_set_aside_every_box_beyond_it():
    # a tight l'hombre row (a hand of 9): 14 boxes, the strip finds 9 cards - 5 fewer, more
    # than a strip is otherwise believed, but 5 boxes beyond the hand cannot be cards
    xs = [100 + 30 * k for k in range(14)]
    cards = [100 + 45 * k for k in range(9)]
    strip_says = [0.05] * 9

    def boxes() -> TableReading:
        return _reading(xs, [LOST] * len(xs))

    reading = boxes()
    recount_rows(reading, [_strip(reading, cards, strip_says)], [Seat.S])
    assert len(reading.rows[Seat.S]) == 14  # the hand's size not given: not believed
    reading = boxes()
    recount_rows(reading, [_strip(reading, cards, strip_says)], [Seat.S], hand_size=9)
    assert len(reading.rows[Seat.S]) == 9
    assert any("14 -> 9" in n for n in reading.notes)
    # a strip that counts more than a hand is no better than the boxes
    reading = boxes()
    recount_rows(reading, [_strip(reading, xs[:10], [0.05] * 10)], [Seat.S], hand_size=9)
    assert len(reading.rows[Seat.S]) == 14


def test_a_strip_counting_what_every_other_row_holds_is_believed_even_far_off_its_boxes():
    # West's row: the detector boxed 5 of its 9 cards; North and East hold 9 each
    def table() -> TableReading:
        reading = _reading([100 + 60 * k for k in range(5)], [LOST] * 5)
        west = reading.rows.pop(Seat.S)
        reading.rows[Seat.W] = west
        for seat in (Seat.N, Seat.E):
            reading.rows[seat] = [replace(west[0], seat=seat, row_position=k)
                                  for k in range(1, 10)]
        return reading

    reading = table()
    west = reading.rows[Seat.W]
    frame = strip_frame(np.stack([c.quad for c in west]))
    points = np.array([[100.0 + 30 * k, 300.0] for k in range(9)])
    strip = RowStrip(frame=frame, along=frame.to_strip(points), points=points,
                     score=np.full(9, 0.9), across=np.full(9, 0.05))
    recount_rows(reading, [strip], [Seat.W])
    assert len(reading.rows[Seat.W]) == 9
    assert any("row W counted again" in n and "5 -> 9" in n for n in reading.notes)
    # one other row of another length: the strip is not believed
    reading = table()
    reading.rows[Seat.E] = reading.rows[Seat.E][:8]
    recount_rows(reading, [strip], [Seat.W])
    assert len(reading.rows[Seat.W]) == 5


def test_a_box_moves_along_its_row_onto_the_strips_peak():
    # boxes at 100, 160, 220; the strip finds the cards' centres at 100, 172, 214
    reading = _reading([100, 160, 220], [WON, LOST, WON])
    middle, last = reading.rows[Seat.S][1], reading.rows[Seat.S][2]
    middle.face_up = True
    before = [c.quad.copy() for c in reading.rows[Seat.S]]
    recount_rows(reading, [_strip(reading, [100, 172, 214], [0.95, 0.05, 0.95])], [Seat.S])
    moved = [c.quad - b for c, b in zip(reading.rows[Seat.S], before, strict=True)]
    assert np.allclose(moved[0], 0.0, atol=0.5)
    assert np.allclose(moved[1], [[12.0, 0.0]] * 4, atol=0.5)  # face up ...
    assert np.allclose(moved[2], [[-6.0, 0.0]] * 4, atol=0.5)  # ... or face down
    assert reading.rows[Seat.S][1] is middle and reading.rows[Seat.S][2] is last
    assert [c.row_position for c in reading.rows[Seat.S]] == [1, 2, 3]


def test_a_strip_that_finds_no_card_at_all_leaves_the_row_as_boxed():
    # a one-card row whose strip was cut along something else: no peak anywhere
    reading = _reading([100], [LOST])
    card = reading.rows[Seat.S][0]
    recount_rows(reading, [_strip(reading, [], [])], [Seat.S], hand_size=13)
    assert reading.rows[Seat.S] == [card] and card.seat is Seat.S
    assert card.orientation is LOST and reading.notes == []
