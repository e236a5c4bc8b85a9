"""What a greyscale picture hides: the suits a monochrome camera's faces are taken for.

Without colour the reader mixes suits whose symbols look alike in grey, and it does so for a
whole deck at once - in some decks every diamond comes out a club - so the same rank is read
twice and the real card of it never. The reconstruction counts the less sure of two such
readings as unread (:mod:`vision.reconstruct`); the alternatives below tell it which cards
that face most likely is, so the rules can name it instead of choosing among every card left.

Counted on the 30 deals of the grey face-up tuning set (``scripts/evaluate.py --stages
faceup --grey --seed-base 7300000000``, rendered at the renderer's own photo size; the
identity reader of 2026-12-07): of the faces named wrong with the rank right, a club was a
diamond 28 times (a heart 2, a spade 1), a spade a club 13 and a
heart 9, a diamond a club 9, a heart a spade 2. The weights are those shares, at most 0.9
(a face named is never sure to be misread).
"""

from __future__ import annotations

from vision.cards import Card, Suit

#: Per suit read in a grey picture: the suits the face, when misread, most often really has,
#: with their share of those misreadings.
GREY_CONFUSIONS: dict[Suit, tuple[tuple[Suit, float], ...]] = {
    Suit.CLUBS: ((Suit.DIAMONDS, 0.9),),
    Suit.DIAMONDS: ((Suit.CLUBS, 0.9),),
    Suit.SPADES: ((Suit.CLUBS, 0.59), (Suit.HEARTS, 0.41)),
    Suit.HEARTS: ((Suit.SPADES, 0.9),),
}


def grey_alternatives(card: Card, confidence: float) -> tuple[tuple[Card, float], ...]:
    """The cards a face read as ``card`` in a grey picture may be: itself (at the reader's
    ``confidence``) first, then the same rank in the suits grey faces are taken for."""
    others = tuple((Card(suit, card.rank), share) for suit, share in GREY_CONFUSIONS[card.suit])
    return ((card, round(float(confidence), 4)), *others)
