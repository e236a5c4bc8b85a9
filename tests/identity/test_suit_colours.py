"""One deck, one ink per suit (``vision.identity.suit_colours``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.cards import Card
from vision.identity.reader import IdentityResult
from vision.identity.suit_colours import (
    MAX_SPADE_REFERENCES,
    REFERENCE_CONFIDENCE,
    cards_to_measure,
    doubt_suit_colours,
    doubted_suits,
    index_inks,
    other_colour_candidates,
    redness,
)
from vision.synth.faces import render_face, sample_face_style

NAVY = (60, 35, 15)  # BGR: a "black" ink that is a dark blue
RED = (40, 20, 180)
BLUE = (170, 60, 20)  # a four-colour deck's diamonds


def style(**changes):  # noqa: ANN003, ANN201
    base = sample_face_style(np.random.default_rng(5))
    return replace(base, four_colour=False, jumbo=False, index_layout="stacked",
                   index_height=0.1, index_x=0.06, index_y=0.04, cast=(1.0, 1.0, 1.0),
                   wear=0.0, paper=(245, 245, 240), **changes)


def index_ink(image: np.ndarray, quad: np.ndarray, corner: str | None) -> np.ndarray | None:
    return index_inks(image, [quad], [corner])[0]


def face_and_quad(card: str, deck) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    face = render_face(Card.from_str(card), deck, (180, 252))
    h, w = face.shape[:2]
    return face, np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float)


def test_a_red_index_is_red_and_a_black_or_navy_one_is_not() -> None:
    deck = style(black=(20, 20, 20), red=RED)
    heart = redness(index_ink(*face_and_quad("H7", deck), "top-left"))
    spade = redness(index_ink(*face_and_quad("S7", deck), "top-left"))
    navy = redness(index_ink(*face_and_quad("C7", style(black=NAVY, red=RED)), "top-left"))
    assert heart > 0.3
    assert abs(spade) < 0.1
    assert navy < 0.0


def test_the_carrying_corner_is_measured_and_a_whole_card_view_gives_no_ink() -> None:
    face, quad = face_and_quad("H7", style(black=(20, 20, 20), red=RED))
    assert redness(index_ink(face, quad, "bottom-right")) > 0.3  # the turned second index
    assert index_ink(face, quad, "whole card") is None
    assert index_ink(face, quad, None) is None


def test_a_blank_corner_gives_no_ink() -> None:
    blank = np.full((252, 180, 3), 240, np.uint8)
    quad = np.array([[0, 0], [179, 0], [179, 251], [0, 251]], float)
    assert index_ink(blank, quad, "top-left") is None


def ink(redness_wanted: float) -> np.ndarray:
    """An ink ratio (B, G, R) of the given redness."""
    return np.array([0.2, 0.2, 0.2 + redness_wanted])


def cards(*names: str) -> list[Card]:
    return [Card.from_str(n) for n in names]


def test_a_diamond_in_the_spades_ink_is_doubted_where_the_deck_s_diamonds_are_red() -> None:
    named = cards("H2", "H3", "S2", "S3", "D4", "D5", "D6")
    inks = [ink(0.4), ink(0.4), ink(0.0), ink(0.0), ink(0.4), ink(0.35), ink(-0.02)]
    doubts = doubted_suits(named, [1.0] * 7, inks)
    assert doubts[:6] == [None] * 6
    assert doubts[6] is not None and "D6" in doubts[6] and "spades" in doubts[6]


def test_hearts_in_black_ink_are_doubted_and_black_suits_are_not_checked() -> None:
    named = cards("H2", "H3", "S2", "S3", "C4", "H5")
    inks = [ink(0.4), ink(0.4), ink(0.0), ink(0.0), ink(0.42), ink(0.01)]
    doubts = doubted_suits(named, [1.0] * 6, inks)
    assert doubts[:5] == [None] * 5
    assert doubts[5] is not None and "H5" in doubts[5]


def test_only_the_red_suits_and_the_surest_spades_are_measured() -> None:
    named = [*cards("H2", "D3", "C4"), None, *cards(*(f"S{r}" for r in "23456789"))]
    confidences = [0.95, 0.9, 1.0, 0.0, 0.999, 0.995, 1.0, 1.0, 1.0, 1.0, 1.0, 0.98]
    measured = cards_to_measure(named, confidences)
    assert measured[:4] == [True, True, False, False]
    # the six surest spades read at REFERENCE_CONFIDENCE or more: not the 0.995, not the 0.98
    assert MAX_SPADE_REFERENCES == 6 and REFERENCE_CONFIDENCE == 0.99
    assert measured[4:] == [True, False, True, True, True, True, True, False]


def test_a_four_colour_deck_s_diamonds_are_not_doubted() -> None:
    named = cards("H2", "H3", "S2", "S3", "D4", "D5", "D6")
    blue = np.array(BLUE, float) / 255.0
    inks = [ink(0.4), ink(0.4), ink(0.0), ink(0.0), blue, blue, blue]
    assert redness(blue) < 0.0
    assert doubted_suits(named, [1.0] * 7, inks) == [None] * 7


@pytest.mark.parametrize("why", ["too few references", "grey picture", "unsure references"])
def test_without_clear_references_nothing_is_doubted(why: str) -> None:
    named = cards("H2", "H3", "S2", "S3", "D4")
    inks = [ink(0.4), ink(0.4), ink(0.0), ink(0.0), ink(0.0)]
    confidences = [1.0] * 5
    if why == "too few references":
        named, inks, confidences = named[1:], inks[1:], confidences[1:]
    elif why == "grey picture":
        inks = [ink(0.0)] * 5
    else:
        confidences = [0.95] * 4 + [1.0]
    assert doubted_suits(named, confidences, inks) == [None] * len(named)


def test_a_doubted_face_is_offered_in_the_two_suits_of_its_ink() -> None:
    assert other_colour_candidates(Card.from_str("D7"), 0.9) == (
        (Card.from_str("S7"), 0.45), (Card.from_str("C7"), 0.45))
    assert [str(c) for c, _ in other_colour_candidates(Card.from_str("CQ"), 1.0)] == ["HQ", "DQ"]


def test_black_cards_misread_as_diamonds_are_doubted_even_where_they_outnumber_the_true() -> None:
    named = cards("H2", "H3", "S2", "S3", "D4", "D5", "D6", "D7")
    inks = [ink(0.4), ink(0.4), ink(0.0), ink(0.0), ink(0.4), ink(0.01), ink(-0.02), ink(0.0)]
    doubts = doubted_suits(named, [1.0] * 8, inks)
    assert doubts[:5] == [None] * 5
    assert all(d is not None for d in doubts[5:])


def test_a_photo_s_club_named_a_diamond_is_left_unread_with_its_black_twins_offered() -> None:
    # one deck whose "black" is a dark blue, six upright cards side by side on a green cloth
    deck = style(black=NAVY, red=RED)
    truth = ["H2", "H3", "S2", "S3", "C7", "D5"]
    named = ["H2", "H3", "S2", "S3", "D7", "D5"]  # the club taken for a diamond
    faces = [render_face(Card.from_str(c), deck, (120, 168)) for c in truth]
    photo = np.full((200, 130 * len(faces) + 10, 3), (40, 90, 30), np.uint8)
    quads = []
    for i, face in enumerate(faces):
        x = 10 + 130 * i
        photo[16:184, x:x + 120] = face
        quads.append(np.array([[x, 16], [x + 119, 16], [x + 119, 183], [x, 183]], float))
    results = [IdentityResult(Card.from_str(c), 1.0, None, "top-left") for c in named]
    out = doubt_suit_colours(photo, np.stack(quads), results)
    assert [r.card for r in out[:4]] == [r.card for r in results[:4]]
    assert out[5] == results[5]
    assert out[4].card is None and "D7" in (out[4].reason or "")
    assert [str(c) for c, _ in out[4].candidates] == ["S7", "C7"]


def test_without_enough_named_faces_the_results_are_returned_as_they_are() -> None:
    results = [IdentityResult(Card.from_str("D7"), 1.0, None, "top-left"), IdentityResult(
        None, 0.2, "card too small: 14 px wide")]
    photo = np.zeros((50, 50, 3), np.uint8)
    assert doubt_suit_colours(photo, np.zeros((2, 4, 2)), results) is results
