"""Russian preferans (Sochi / Leningrad / Rostov): three active players, 32 cards, clockwise."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from vision.cards import PIQUET_DECK, Card, Suit
from vision.contract import Contract, ContractKind
from vision.errors import InvalidSeatError
from vision.games.base import Game
from vision.seats import SEATS, Direction, Seat


class Preferans(Game):
    """Must follow suit; if void, must trump; only with neither, any card.

    The first trick is led by "first hand", the active player to the dealer's left, whatever
    the contract. In a four-handed game the dealer sits out and has no row. In raspasy the
    talon cards are assumed not to take part in the tricks (the default of the rules page).
    """

    name = "preferans"
    title = "Preferans"
    deck = PIQUET_DECK
    hand_size = 10
    n_players = 3
    direction = Direction.CLOCKWISE
    partnership = False
    contract_kinds = (ContractKind.TRICKS, ContractKind.MISERE, ContractKind.RASPASY)

    def active_seats(self, dealer: Seat | None = None, seats: Iterable[Seat] | None = None
                     ) -> tuple[Seat, ...]:
        """Three seats; with four named (four-handed game), the dealer's seat drops out."""
        if seats is None:
            if dealer is None:
                raise InvalidSeatError("preferans needs the active seats or the dealer")
            return tuple(s for s in SEATS if s != dealer)
        chosen = set(seats)
        if len(chosen) == 4:
            if dealer is None:
                raise InvalidSeatError("four-handed preferans needs the dealer, who sits out")
            chosen.discard(dealer)
        return super().active_seats(dealer, chosen)

    def legal_cards(self, hand: Iterable[Card], trick: Sequence[Card],
                    contract: Contract | None) -> tuple[Card, ...]:
        hand = tuple(hand)
        if not trick:
            return hand
        led = trick[0].suit
        follow = tuple(c for c in hand if c.suit == led)
        if follow:
            return follow
        trump = self.trump(contract)
        if trump is not None:
            trumps = tuple(c for c in hand if c.suit == trump)
            if trumps:
                return trumps
        return hand

    def contract_for_trump(self, trump: Suit | None, declarer: Seat | None = None) -> Contract:
        return Contract(trump=trump, declarer=declarer, kind=ContractKind.TRICKS)

    def random_contract(self, rng: random.Random, seats: Sequence[Seat],
                        dealer: Seat) -> Contract:
        roll = rng.random()
        if roll < 0.75:
            trump: Suit | None = rng.choice(
                (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS,
                 Suit.DIAMONDS, Suit.HEARTS, None))
            return Contract(trump=trump, declarer=rng.choice(tuple(seats)),
                            kind=ContractKind.TRICKS, level=rng.choice((6, 6, 6, 7, 7, 8, 9, 10)))
        if roll < 0.88:
            return Contract(trump=None, declarer=rng.choice(tuple(seats)),
                            kind=ContractKind.MISERE)
        return Contract(trump=None, declarer=None, kind=ContractKind.RASPASY)
