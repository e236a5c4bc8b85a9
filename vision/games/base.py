"""The rules every trick-taking game here shares, with hooks the three games override.

A ``Game`` is stateless: it answers questions about cards, seats and tricks under a contract.
Subclasses set class attributes (deck, hand size, direction) and override the few rules that
differ (which cards are trumps, how cards rank, what a player must play).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

from vision.cards import Card, Suit
from vision.contract import Contract, ContractKind
from vision.errors import InvalidSeatError, TrickvisionError
from vision.record import Orientation
from vision.seats import SEATS, Direction, Seat

#: Contract kinds that are played without a trump suit whatever ``Contract.trump`` says.
NO_TRUMP_KINDS = frozenset(
    {ContractKind.MISERE, ContractKind.NOLO, ContractKind.NOLO_OUVERT, ContractKind.RASPASY}
)

Play = tuple[Seat, Card]


class Game:
    """Base class of the rule sets; see ``vision.games.bridge`` etc. for the real ones."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    deck: ClassVar[tuple[Card, ...]] = ()
    hand_size: ClassVar[int] = 0
    n_players: ClassVar[int] = 4
    direction: ClassVar[Direction] = Direction.CLOCKWISE
    #: True when "won" in a row means won by the player's side (bridge), not by the player.
    partnership: ClassVar[bool] = False
    #: Contract kinds this game knows.
    contract_kinds: ClassVar[tuple[ContractKind, ...]] = (ContractKind.TRICKS,)

    # ------------------------------------------------------------------ seats and turns
    def next_seat(self, seat: Seat, seats: Sequence[Seat]) -> Seat:
        """The active seat that plays after ``seat``."""
        return self.direction.next(seat, tuple(seats))

    def play_order(self, leader: Seat, seats: Sequence[Seat]) -> list[Seat]:
        """The active seats in the order they play to a trick led by ``leader``."""
        if leader not in seats:
            raise InvalidSeatError(f"leader {leader} is not among the active seats {_names(seats)}")
        return self.direction.order_from(leader, tuple(seats))

    def active_seats(self, dealer: Seat | None = None, seats: Iterable[Seat] | None = None
                     ) -> tuple[Seat, ...]:
        """The seats that hold cards, in N E S W order."""
        if seats is None:
            if self.n_players == 4:
                return SEATS
            raise InvalidSeatError(f"{self.name} needs the three active seats to be named")
        chosen = tuple(sorted(set(seats)))
        if len(chosen) != self.n_players:
            raise InvalidSeatError(
                f"{self.name} is played by {self.n_players} players, got seats {_names(chosen)}"
            )
        return chosen

    def first_leader(self, *, dealer: Seat | None, contract: Contract | None,
                     seats: Sequence[Seat]) -> Seat:
        """Who leads the first trick: by default the player after the dealer in the direction of
        play (preferans: the dealer's left, "first hand"; l'hombre: his right, "forhand")."""
        if dealer is None:
            raise TrickvisionError(f"{self.name}: the first leader follows from the dealer, "
                                   "which is not known")
        return self.direction.next(dealer, tuple(seats))

    def side(self, seat: Seat) -> str:
        """The unit that wins tricks: ``'NS'``/``'EW'`` in bridge, the seat's letter otherwise."""
        return seat.side if self.partnership else seat.name

    def sides(self, seats: Sequence[Seat]) -> list[str]:
        """Every unit that can win tricks, in N E S W order."""
        out: list[str] = []
        for s in sorted(seats):
            if self.side(s) not in out:
                out.append(self.side(s))
        return out

    def winners(self, winner: Seat, seats: Sequence[Seat]) -> frozenset[Seat]:
        """The seats whose card lies "won" when ``winner`` takes the trick."""
        if self.partnership:
            return frozenset(s for s in seats if s.side == winner.side)
        return frozenset((winner,))

    def orientation(self, seat: Seat, winner: Seat) -> Orientation:
        """How ``seat`` lays his card when ``winner`` takes the trick."""
        if self.partnership:
            return Orientation.WON if seat.side == winner.side else Orientation.LOST
        return Orientation.WON if seat == winner else Orientation.LOST

    # ------------------------------------------------------------------ cards
    def __init__(self) -> None:
        self._deck_set = frozenset(self.deck)

    def in_deck(self, card: Card) -> bool:
        return card in self._deck_set

    def trump(self, contract: Contract | None) -> Suit | None:
        """The trump suit under ``contract`` (None: no trump)."""
        if contract is None or contract.kind in NO_TRUMP_KINDS:
            return None
        return contract.trump

    def follow_suit(self, card: Card, trump: Suit | None) -> Suit:
        """The suit a card counts as for following suit (l'hombre moves black aces to trump)."""
        return card.suit

    def power(self, card: Card, trump: Suit | None) -> int:
        """Strength of a card within its ``follow_suit``; higher beats lower."""
        return int(card.rank)

    def is_trump(self, card: Card, trump: Suit | None) -> bool:
        return trump is not None and self.follow_suit(card, trump) == trump

    def trick_winner(self, plays: Sequence[Play], contract: Contract | None) -> Seat:
        """The seat that takes a trick; ``plays`` are (seat, card) in order of play."""
        return plays[self.winning_index([c for _, c in plays], self.trump(contract))][0]

    def winning_index(self, cards: Sequence[Card], trump: Suit | None) -> int:
        """Index of the winning card among ``cards`` in play order."""
        led = self.follow_suit(cards[0], trump)
        best = 0
        best_key = (False, 0)
        for i, c in enumerate(cards):
            suit = self.follow_suit(c, trump)
            if trump is not None and suit == trump:
                key = (True, self.power(c, trump))
            elif suit == led:
                key = (False, self.power(c, trump))
            else:
                continue
            if i == 0 or key > best_key:
                best, best_key = i, key
        return best

    def legal_cards(self, hand: Iterable[Card], trick: Sequence[Card],
                    contract: Contract | None) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to a trick holding ``trick`` so far."""
        hand = tuple(hand)
        if not trick:
            return hand
        trump = self.trump(contract)
        led = self.follow_suit(trick[0], trump)
        follow = tuple(c for c in hand if self.follow_suit(c, trump) == led)
        return follow or hand

    # ------------------------------------------------------------------ contracts
    def trump_candidates(self) -> tuple[Suit | None, ...]:
        """The trump suits a contract can have (None = no trump), for inference."""
        return (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, None)

    def contract_for_trump(self, trump: Suit | None, declarer: Seat | None = None) -> Contract:
        """A contract with this trump (no-trump games use this game's no-trump kind)."""
        return Contract(trump=trump, declarer=declarer, kind=ContractKind.TRICKS)

    def random_contract(self, rng: random.Random, seats: Sequence[Seat],
                        dealer: Seat) -> Contract:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"find_game({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def _names(seats: Iterable[Seat]) -> str:
    return " ".join(s.name for s in seats) or "(none)"
