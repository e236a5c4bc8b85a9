"""Danish l'hombre: three players, 40 cards, nine each, play counter-clockwise.

Trump order (black trump suit, 11 trumps): spadille (SA), manille (2 of trumps), basta (CA),
K Q J 7 6 5 4 3. Red trump suit (12 trumps): spadille, manille (7 of trumps), basta, punto
(ace of trumps), K Q J 2 3 4 5 6. Plain suits: black K Q J 7 6 5 4 3 2, red K Q J A 2 3 4 5 6 7.
Spadille and basta always belong to the trump suit, so a trump game has no black ace in a
plain suit. Nolo games have no trump; black suits then rank K Q J 7 6 5 4 3 2 A.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from vision.cards import LHOMBRE_DECK, Card, Rank, Suit
from vision.contract import Contract, ContractKind
from vision.games.base import Game
from vision.seats import Direction, Seat

R = Rank
SPADILLE = Card(Suit.SPADES, Rank.ACE)
BASTA = Card(Suit.CLUBS, Rank.ACE)

# Orders from highest to lowest; power = len(order) - index.
_BLACK_PLAIN = (R.KING, R.QUEEN, R.JACK, R.SEVEN, R.SIX, R.FIVE, R.FOUR, R.THREE, R.TWO)
_RED_PLAIN = (R.KING, R.QUEEN, R.JACK, R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX, R.SEVEN)
_BLACK_NOLO = _BLACK_PLAIN + (R.ACE,)
_RED_NOLO = _RED_PLAIN


def _powers(order: tuple[Rank, ...]) -> dict[Rank, int]:
    return {r: len(order) - i for i, r in enumerate(order)}


_BLACK_PLAIN_P = _powers(_BLACK_PLAIN)
_RED_PLAIN_P = _powers(_RED_PLAIN)
_BLACK_NOLO_P = _powers(_BLACK_NOLO)
_RED_NOLO_P = _powers(_RED_NOLO)


def trump_order(trump: Suit) -> tuple[Card, ...]:
    """All trumps of a trump suit, highest first."""
    if trump.is_black:
        return (SPADILLE, Card(trump, R.TWO), BASTA) + tuple(
            Card(trump, r) for r in (R.KING, R.QUEEN, R.JACK, R.SEVEN, R.SIX, R.FIVE, R.FOUR,
                                     R.THREE))
    return (SPADILLE, Card(trump, R.SEVEN), BASTA, Card(trump, R.ACE)) + tuple(
        Card(trump, r) for r in (R.KING, R.QUEEN, R.JACK, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX))


_TRUMP_POWERS: dict[Suit, dict[Card, int]] = {
    s: {c: 100 + len(trump_order(s)) - i for i, c in enumerate(trump_order(s))}
    for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
}


def manille(trump: Suit) -> Card:
    """The second-highest trump: the 2 of a black trump suit, the 7 of a red one."""
    return Card(trump, R.TWO if trump.is_black else R.SEVEN)


def matadors(trump: Suit) -> tuple[Card, ...]:
    """Spadille, manille and basta: the trumps with the privilege of not being forced."""
    return (SPADILLE, manille(trump), BASTA)


class Lhombre(Game):
    """Must follow suit (by the suit a card belongs to); never obliged to trump.

    Matador privilege: spadille, manille and basta need not be played to a trump lead by a
    lower trump. So a player must play a trump to a trump lead unless every trump he holds is a
    matador that outranks the card led; a lower matador is forced when a higher one is led and
    it is its holder's only trump.
    """

    name = "lhombre"
    title = "L'hombre"
    deck = LHOMBRE_DECK
    hand_size = 9
    n_players = 3
    direction = Direction.COUNTER_CLOCKWISE
    partnership = False
    contract_kinds = (ContractKind.TRICKS, ContractKind.NOLO, ContractKind.NOLO_OUVERT)

    def follow_suit(self, card: Card, trump: Suit | None) -> Suit:
        if trump is not None and (card == SPADILLE or card == BASTA):
            return trump
        return card.suit

    def power(self, card: Card, trump: Suit | None) -> int:
        if trump is None:
            table = _BLACK_NOLO_P if card.suit.is_black else _RED_NOLO_P
            return table[card.rank]
        tp = _TRUMP_POWERS[trump].get(card)
        if tp is not None:
            return tp
        return (_BLACK_PLAIN_P if card.suit.is_black else _RED_PLAIN_P)[card.rank]

    def legal_cards(self, hand: Iterable[Card], trick: Sequence[Card],
                    contract: Contract | None) -> tuple[Card, ...]:
        """Follow suit (trumps count as one suit), with the matador privilege on a trump lead."""
        hand = tuple(hand)
        follow = super().legal_cards(hand, trick, contract)
        trump = self.trump(contract)
        if not trick or trump is None or self.follow_suit(trick[0], trump) != trump:
            return follow
        led_power = self.power(trick[0], trump)
        privileged = set(matadors(trump))
        forced = [c for c in follow if c not in privileged or self.power(c, trump) < led_power]
        return follow if forced else hand

    def trump_candidates(self) -> tuple[Suit | None, ...]:
        return (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, None)

    def contract_for_trump(self, trump: Suit | None, declarer: Seat | None = None) -> Contract:
        if trump is None:
            return Contract(trump=None, declarer=declarer, kind=ContractKind.NOLO)
        return Contract(trump=trump, declarer=declarer, kind=ContractKind.TRICKS)

    def random_contract(self, rng: random.Random, seats: Sequence[Seat],
                        dealer: Seat) -> Contract:
        declarer = rng.choice(tuple(seats))
        if rng.random() < 0.85:
            return Contract(trump=rng.choice((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS,
                                              Suit.CLUBS)), declarer=declarer,
                            kind=ContractKind.TRICKS)
        kind = rng.choice((ContractKind.NOLO, ContractKind.NOLO, ContractKind.NOLO_OUVERT))
        return Contract(trump=None, declarer=declarer, kind=kind)
