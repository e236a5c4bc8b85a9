"""Contract bridge: four players in two partnerships, 52 cards, clockwise."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from vision.cards import BRIDGE_DECK, Suit
from vision.contract import Contract, ContractKind
from vision.errors import TrickvisionError
from vision.games.base import Game
from vision.seats import SEATS, Direction, Seat


class Bridge(Game):
    """Follow suit if able, else any card; highest trump, else highest of the suit led, wins.

    "won" in a row means won by the player's partnership (Law 65).
    """

    name = "bridge"
    title = "Bridge"
    deck = BRIDGE_DECK
    hand_size = 13
    n_players = 4
    direction = Direction.CLOCKWISE
    partnership = True
    contract_kinds = (ContractKind.TRICKS,)

    def active_seats(self, dealer: Seat | None = None, seats: Iterable[Seat] | None = None
                     ) -> tuple[Seat, ...]:
        """Always all four sides."""
        return SEATS

    def first_leader(self, *, dealer: Seat | None, contract: Contract | None,
                     seats: Sequence[Seat]) -> Seat:
        """The declarer's left-hand opponent."""
        if contract is None or contract.declarer is None:
            raise TrickvisionError("bridge: the first leader follows from the declarer, "
                                   "which is not known")
        return contract.declarer.lho

    def random_contract(self, rng: random.Random, seats: Sequence[Seat],
                        dealer: Seat) -> Contract:
        trump: Suit | None = rng.choice((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS,
                                         None))
        level = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7))
        return Contract(trump=trump, declarer=rng.choice(SEATS), kind=ContractKind.TRICKS,
                        level=level)
