"""The look-alike suits of a greyscale picture (``vision.identity.grey``) and what the
reconstruction makes of them."""

from __future__ import annotations

from dataclasses import replace

from vision.cards import Card, Suit
from vision.identity.grey import GREY_CONFUSIONS, grey_alternatives
from vision.reconstruct import reconstruct
from vision.record import Observation
from vision.simulate import simulate_deal


def test_a_grey_face_keeps_its_own_card_first_then_the_same_rank_in_look_alike_suits() -> None:
    assert grey_alternatives(Card.from_str("C7"), 0.934567) == (
        (Card.from_str("C7"), 0.9346), (Card.from_str("D7"), 0.9))
    assert [c for c, _ in grey_alternatives(Card.from_str("SQ"), 1.0)] == [
        Card.from_str("SQ"), Card.from_str("CQ"), Card.from_str("HQ")]
    for suit, others in GREY_CONFUSIONS.items():
        assert others and all(o is not suit and 0 < p < 1 for o, p in others)


def _grey_duplicate(seed: int, alternatives: bool) -> tuple[Card, Card | None]:
    """A whole bridge deal read face up in grey: one diamond read as its club twin, less
    surely than the club itself, and another face left unread. The true diamond and what the
    reconstruction names at its place."""
    d = simulate_deal("bridge", seed=seed)
    rows = {s: [replace(e, card_confidence=0.99) for e in row] for s, row in d.rows.items()}
    seat, i = next((s, i) for s, row in rows.items() for i, e in enumerate(row)
                   if e.card is not None and e.card.suit is Suit.DIAMONDS and 2 <= i <= 10)
    true = rows[seat][i].card
    assert true is not None
    club = Card(Suit.CLUBS, true.rank)
    rows[seat][i] = replace(rows[seat][i], card=club, card_confidence=0.93,
                            candidates=grey_alternatives(club, 0.93) if alternatives else ())
    other = d.seats[(d.seats.index(seat) + 1) % 4]
    rows[other][(i + 3) % 13] = replace(rows[other][(i + 3) % 13], card=None,
                                        card_confidence=None)
    report = reconstruct(Observation("bridge", rows, first_leader=d.first_leader,
                                     contract=d.contract))
    return true, report.tricks[i].cards.get(seat)


def test_a_face_read_as_a_card_seen_surer_elsewhere_is_named_its_grey_look_alike() -> None:
    # the club is read surer elsewhere, so this face counts as unread; with another face
    # unread too the rules alone leave two cards for two places (seeds 1 and 2 among these),
    # and its look-alikes say which one lies here
    for seed in range(12):
        true, named = _grey_duplicate(seed, alternatives=True)
        assert named == true, seed


def test_without_look_alikes_the_rules_alone_leave_such_a_face_open() -> None:
    # what the look-alikes add: the same deals, the face read without them
    assert [_grey_duplicate(seed, alternatives=False)[1] is None for seed in (1, 2)] == [
        True, True]
