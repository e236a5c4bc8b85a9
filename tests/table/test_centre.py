"""A fixed camera's table centre: learnt from opposite rows, then used to place the cards."""

from __future__ import annotations

import numpy as np

from vision.seats import Seat
from vision.table.centre import FixedTableCentre
from vision.table.rows import RowReader

from .conftest import CENTRE, LONG, card_quad, make_table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _read(quads: np.ndarray, face_up: np.ndarray | None = None, **kw):  # type: ignore[no-untyped-def]
    face_up = np.zeros(len(quads), bool) if face_up is None else face_up
    return RowReader(players=kw.pop("players", None)).read(
        quads, face_up, np.full(len(quads), 0.9), image_size=(1920, 1080), **kw)


def test_middle_of_the_image_until_rows_are_long_enough():
    centre = FixedTableCentre()
    assert np.allclose(centre.value((1920, 1080)), (960, 540))
    quads, _ = make_table({N: "WL", E: "LW", S: "LL", W: "WW"})
    centre.update(_read(quads))
    assert centre.estimates == type(centre.estimates)(maxlen=centre.estimates.maxlen)
    assert np.allclose(centre.value((1280, 720)), (640, 360))


def test_learnt_from_opposite_rows_of_a_table_off_the_image_centre():
    offset = np.array([70.0, -45.0])
    quads, _ = make_table({N: "WLLWL", E: "LWWLW", S: "WLLWL", W: "LWWLW"})
    centre = FixedTableCentre()
    centre.update(_read(quads + offset))
    assert np.allclose(centre.value((1920, 1080)), CENTRE + offset, atol=1.0)


def test_rows_of_unequal_length_teach_nothing():
    quads, _ = make_table({N: "WLLWLWL", E: "LW", S: "LWL", W: "W"})
    assert FixedTableCentre().estimate(_read(quads)) is None


def test_a_card_being_played_in_front_of_a_row_is_not_in_the_row():
    quads, _ = make_table({N: "W", E: "L", S: "W"})
    stray = card_quad(CENTRE + np.array([420.0 - 1.6 * LONG, 0.0]), np.array([1.0, 0.0]))
    quads = np.concatenate([quads, stray[None]])
    reading = _read(quads, players=3, table_centre=CENTRE)
    assert {s: len(r) for s, r in reading.rows.items()} == {N: 1, E: 1, S: 1}
    assert reading.cards[-1].seat is None
    assert any("outside the rows" in note for note in reading.notes)


def test_cards_gathered_near_the_middle_stay_out_of_the_rows():
    quads, _ = make_table({N: "L", E: "W", S: "L"})
    pile = [card_quad(CENTRE + np.array([40.0, -120.0 + 25 * k]), np.array([0.0, 1.0]))
            for k in range(4)]
    quads = np.concatenate([quads, np.array(pile)])
    reading = _read(quads, players=3, table_centre=CENTRE)
    assert {s: len(r) for s, r in reading.rows.items()} == {N: 1, E: 1, S: 1}
    assert all(c.seat is None for c in reading.cards[3:])


def test_a_sure_face_up_card_with_unsure_boxes_beside_it_is_the_trick_card():
    """A fixed camera's small cards draw the odd ghost box beside a face-up card: one sure
    box and only unsure others are that card alone, not an exposed hand."""
    quads, _ = make_table({N: "WLL", E: "LWL", S: "LLW"})
    card = card_quad(CENTRE + np.array([0.0, 150.0]), np.array([0.0, 1.0]))
    ghosts = [card + np.array([0.0, 0.5 * LONG]), card - np.array([0.0, 0.5 * LONG])]
    quads = np.concatenate([quads, card[None], np.array(ghosts)])
    n = len(quads)
    face_up = np.zeros(n, bool)
    face_up[-3:] = True
    conf = np.full(n, 0.9)
    conf[-3:] = (0.97, 0.52, 0.5)
    reader = RowReader(players=3)
    reading = reader.read(quads, face_up, conf, image_size=(1920, 1080), table_centre=CENTRE)
    assert reading.current_trick[S] is reading.cards[n - 3]
    assert reading.cards[n - 2].seat is None and reading.cards[n - 1].seat is None
    # as sure as the card itself, they would be an exposed hand: all three left out
    conf[-3:] = (0.97, 0.95, 0.93)
    reading = reader.read(quads, face_up, conf, image_size=(1920, 1080), table_centre=CENTRE)
    assert S not in reading.current_trick
