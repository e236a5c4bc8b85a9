"""A fixed camera's deck inks, learnt per suit, name the suit of a pip card read wrong."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import Card
from vision.identity.deck_inks import MIN_SAMPLES, DeckInks, face_ink
from vision.table.reading import SeenCard, TableReading

#: BGR inks of a four-colour deck
FOUR = {"H": (40, 40, 200), "D": (200, 90, 30), "C": (40, 150, 40), "S": (40, 40, 40)}
TWO = {"H": (40, 40, 200), "D": (40, 40, 200), "C": (40, 40, 40), "S": (40, 40, 40)}


def table_with(faces: list[tuple[str, float, tuple[int, int, int]]]) -> tuple[np.ndarray,
                                                                             TableReading]:
    """A cloth with one 32 x 50 px face-up card per (card, confidence, ink): white paper,
    five pips in the ink; the reading that names each as given."""
    image = np.full((120, 60 * len(faces) + 20, 3), (30, 70, 20), np.uint8)
    cards = []
    for k, (name, confidence, ink) in enumerate(faces):
        x0, y0 = 20 + 60 * k, 30
        cv2.rectangle(image, (x0, y0), (x0 + 31, y0 + 49), (235, 235, 235), -1)
        for dx, dy in ((9, 10), (22, 10), (16, 25), (9, 40), (22, 40)):
            cv2.circle(image, (x0 + dx, y0 + dy), 3, ink, -1)
        quad = np.array([[x0, y0], [x0 + 31, y0], [x0 + 31, y0 + 49], [x0, y0 + 49]], float)
        cards.append(SeenCard(quad=quad, face_up=True, confidence=0.9,
                              card=Card.from_str(name), card_confidence=confidence))
    return image, TableReading(cards=cards, image_size=(image.shape[1], image.shape[0]))


def taught(deck: dict[str, tuple[int, int, int]]) -> DeckInks:
    inks = DeckInks()
    sure = [(f"{suit}{rank}", 0.99, deck[suit]) for suit in "HDCS" for rank in "2345"]
    inks.check(*table_with(sure[:MIN_SAMPLES * 4]))
    return inks


def named_after(inks: DeckInks, faces: list[tuple[str, float, tuple[int, int, int]]]
                ) -> list[str]:
    """The cards ``faces`` (card, confidence, ink) are named after ``inks`` checked them."""
    image, reading = table_with(faces)
    inks.check(image, reading)
    return [str(c.card) for c in reading.cards]


def test_the_print_of_a_face_gives_its_ink() -> None:
    image, reading = table_with([("D5", 0.9, FOUR["D"]), ("C5", 0.9, FOUR["C"])])
    blue, green = (face_ink(image, c.quad) for c in reading.cards)
    assert blue is not None and green is not None
    assert int(np.argmax(blue)) == 0 and int(np.argmax(green)) == 1  # B, G
    flat = np.array([[10, 10], [40, 10], [40, 10], [10, 10]], float)
    assert face_ink(image, flat) is None
    assert face_ink(np.full_like(image, 200), reading.cards[0].quad) is None  # no print


def test_a_blue_diamond_read_as_a_club_is_named_a_diamond_in_a_four_colour_deck() -> None:
    inks = taught(FOUR)
    image, reading = table_with([("C7", 0.8, FOUR["D"]), ("S8", 0.97, FOUR["D"]),
                                 ("C9", 0.8, FOUR["C"]), ("C6", 0.8, FOUR["S"])])
    inks.check(image, reading)
    # a face printed grey is not renamed a spade: it may be a faint or blurred coloured one
    assert [str(c.card) for c in reading.cards] == ["D7", "D8", "C9", "C6"]
    assert inks.renamed == 2


def test_a_two_colour_deck_renames_nothing_between_its_red_suits() -> None:
    inks = taught(TWO)
    image, reading = table_with([("H7", 0.8, TWO["D"]), ("D8", 0.8, TWO["H"])])
    inks.check(image, reading)
    assert [str(c.card) for c in reading.cards] == ["H7", "D8"]
    assert inks.renamed == 0


def test_nothing_is_renamed_before_the_deck_is_learnt_nor_a_court_by_pip_inks() -> None:
    image, reading = table_with([("C7", 0.8, FOUR["D"])])
    fresh = DeckInks()
    fresh.check(image, reading)
    assert str(reading.cards[0].card) == "C7"
    inks = taught(FOUR)
    image, reading = table_with([("CQ", 0.8, FOUR["D"])])
    inks.check(image, reading)
    assert str(reading.cards[0].card) == "CQ"


def test_a_deck_known_in_part_renames_nothing() -> None:
    """Only the diamonds' red learnt so far: a red face read as a spade may be a heart."""
    inks = DeckInks()
    inks.check(*table_with([(f"{s}{r}", 0.99, TWO[s]) for s in "DCS" for r in "2345"]))
    image, reading = table_with([("S7", 0.8, TWO["H"])])
    inks.check(image, reading)
    assert str(reading.cards[0].card) == "S7"


def test_a_four_colour_deck_names_a_diamond_read_as_a_club_before_any_club_was_learnt() -> None:
    """Its red hearts and blue diamonds learnt, the deck is a four-colour one: a blue face read
    as a club is a diamond though no club was yet read surely (the seventh session's bridge
    10806: N's DA read as CA took E's CA from him, and four tricks went wrong after it)."""
    inks = DeckInks()
    inks.check(*table_with([(f"{s}{r}", 0.99, FOUR[s]) for s in "HDS" for r in "2345"]))
    assert named_after(inks, [("CA", 0.99, FOUR["D"]), ("C9", 0.8, FOUR["C"]),
                              ("H6", 0.8, FOUR["D"]), ("D4", 0.8, FOUR["S"])]) == [
        "DA", "C9", "D6", "D4"]


def test_a_two_colour_deck_whose_red_suits_were_learnt_a_little_apart_renames_nothing() -> None:
    """Both red suits learnt red, if at slightly different shades (a few sure faces only):
    still a two-colour deck, where a red face read as a club may be either red suit."""
    deeper = (30, 20, 170)
    inks = DeckInks()
    inks.check(*table_with([(f"H{r}", 0.99, TWO["H"]) for r in "2345"]
                           + [(f"D{r}", 0.99, deeper) for r in "2345"]))
    assert named_after(inks, [("C7", 0.8, deeper), ("S8", 0.8, TWO["H"])]) == ["C7", "S8"]
    assert inks.renamed == 0


def test_courts_learnt_apart_name_a_court_of_the_suit_never_read_surely() -> None:
    """A four-colour deck whose diamond courts are all misread (bridge 10806: DJ, DQ, DK read
    SJ, SQ, CK): the other three suits' courts are learnt, and a court far from all three
    is a diamond. A court near its own suit's ink keeps its name, and no face is renamed a
    spade."""
    inks = taught(FOUR)
    inks.check(*table_with([(f"{s}{r}", 0.99, FOUR[s]) for s in "HCS" for r in "JQKJ"]))
    assert named_after(inks, [("SQ", 0.99, FOUR["D"]), ("CK", 0.99, FOUR["D"]),
                              ("CJ", 0.8, FOUR["C"]), ("HK", 0.8, FOUR["S"])]) == [
        "DQ", "DK", "CJ", "HK"]


def test_a_two_colour_deck_renames_no_court() -> None:
    inks = taught(TWO)
    inks.check(*table_with([(f"{s}{r}", 0.99, TWO[s]) for s in "HCS" for r in "JQKJ"]))
    assert named_after(inks, [("CQ", 0.99, TWO["D"]), ("SK", 0.99, TWO["H"])]) == ["CQ", "SK"]
