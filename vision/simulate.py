"""Seeded random deals played legally, turned into the rows a camera would see.

``simulate_deal`` is the source of ground truth for the renderer, the video simulator and the
property tests: it deals, plays with a simple policy, lays every card into its player's row with
the right orientation, and can inject the irregularities reconstruction must catch.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from vision.cards import Card
from vision.contract import Contract, ContractKind
from vision.errors import TrickvisionError
from vision.games import Game, find_game
from vision.record import Observation, Orientation, RowEntry
from vision.seats import SEATS, Seat

#: Irregularities ``simulate_deal`` can inject.
IRREGULARITIES = ("wrong_orientation", "short_row", "long_row", "out_of_place", "revoke")


@dataclass(frozen=True)
class PlayedTrick:
    """One completed trick: ``plays`` are (seat, card) in order of play."""

    number: int
    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat

    def card_of(self, seat: Seat) -> Card | None:
        for s, c in self.plays:
            if s == seat:
                return c
        return None


@dataclass(frozen=True)
class SimulatedDeal:
    """A simulated deal: the truth (hands, tricks) and the rows as laid (with irregularities)."""

    game: str
    dealer: Seat
    seats: tuple[Seat, ...]
    contract: Contract
    first_leader: Seat
    hands: dict[Seat, tuple[Card, ...]]
    tricks: list[PlayedTrick]
    rows: dict[Seat, list[RowEntry]]
    current_trick: tuple[tuple[Seat, Card], ...] = ()
    applied: list[dict[str, Any]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every trick of the deal has been played."""
        return len(self.tricks) == find_game(self.game).hand_size

    def result(self) -> dict[str, int]:
        """Tricks taken per side (bridge) or per player, from the true play."""
        g = find_game(self.game)
        out = {side: 0 for side in g.sides(self.seats)}
        for t in self.tricks:
            out[g.side(t.winner)] += 1
        return out

    def observation(self, with_cards: bool = True, *, with_contract: bool = True,
                    with_dealer: bool = True, with_first_leader: bool = True) -> Observation:
        """The rows as a camera would report them (faces only when ``with_cards``)."""
        rows = {
            seat: [RowEntry(orientation=e.orientation, card=e.card if with_cards else None)
                   for e in entries]
            for seat, entries in self.rows.items()
        }
        return Observation(
            game=self.game,
            rows=rows,
            dealer=self.dealer if with_dealer else None,
            first_leader=self.first_leader if with_first_leader else None,
            contract=self.contract if with_contract else None,
            complete=self.complete,
        )


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def _choose_seats(game: Game, rng: random.Random, dealer: Seat | None,
                  seats: tuple[Seat, ...] | None) -> tuple[Seat, tuple[Seat, ...]]:
    """Pick the dealer and the active seats (three-handed games: any three sides)."""
    if game.n_players == 4:
        return (dealer if dealer is not None else rng.choice(SEATS)), SEATS
    if seats is not None:
        named = tuple(sorted(set(seats)))
        if dealer is None:
            dealer = rng.choice(named)
        if len(named) == 4 and game.name == "preferans":
            return dealer, game.active_seats(dealer, named)
        return dealer, game.active_seats(dealer, named)
    if game.name == "preferans" and rng.random() < 0.25:
        dealer = dealer if dealer is not None else rng.choice(SEATS)
        return dealer, tuple(s for s in SEATS if s != dealer)
    if dealer is None:
        dealer = rng.choice(SEATS)
    out = rng.choice(tuple(s for s in SEATS if s != dealer))
    return dealer, tuple(s for s in SEATS if s != out)


def _choose(rng: random.Random, cards: tuple[Card, ...], trick: list[Card], game: Game,
            contract: Contract) -> Card:
    """A simple policy: often the highest or lowest legal card, otherwise any legal card."""
    roll = rng.random()
    if roll < 0.5 or len(cards) == 1:
        return rng.choice(cards)
    trump = game.trump(contract)
    key = sorted(cards, key=lambda c: (game.is_trump(c, trump), game.power(c, trump), c))
    return key[-1] if roll < 0.75 else key[0]


def simulate_deal(game: str | Game, *, seed: int | random.Random, dealer: Seat | None = None,
                  seats: tuple[Seat, ...] | None = None, contract: Contract | None = None,
                  n_tricks: int | None = None, irregularities: Iterable[str] = ()
                  ) -> SimulatedDeal:
    """Deal, play legally (up to ``n_tricks`` complete tricks) and lay out the rows.

    ``irregularities`` (any of ``IRREGULARITIES``) are injected into the play (``revoke``) or
    into the rows as laid; ``SimulatedDeal.applied`` says where.
    """
    g = find_game(game)
    rng = _rng(seed)
    wanted = list(irregularities)
    for kind in wanted:
        if kind not in IRREGULARITIES:
            raise TrickvisionError(
                f"unknown irregularity {kind!r} (expected one of {', '.join(IRREGULARITIES)})")
    dealer, active = _choose_seats(g, rng, dealer, seats)
    if contract is None:
        contract = g.random_contract(rng, active, dealer)
    if n_tricks is None:
        n_tricks = g.hand_size
    if not 0 <= n_tricks <= g.hand_size:
        raise TrickvisionError(f"n_tricks must be 0..{g.hand_size}, got {n_tricks}")
    first = g.first_leader(dealer=dealer, contract=contract, seats=active)

    deck = list(g.deck)
    rng.shuffle(deck)
    hands = {s: tuple(sorted(deck[i * g.hand_size:(i + 1) * g.hand_size]))
             for i, s in enumerate(active)}
    left = {s: list(h) for s, h in hands.items()}
    applied: list[dict[str, Any]] = []

    revoke_at = -1
    if "revoke" in wanted:
        revoke_at = rng.randrange(0, max(1, min(n_tricks, g.hand_size - 1)))

    tricks: list[PlayedTrick] = []
    leader = first
    current: tuple[tuple[Seat, Card], ...] = ()
    for number in range(1, g.hand_size + 1):
        partial = number > n_tricks
        order = g.play_order(leader, active)
        stop = rng.randrange(0, len(order)) if partial else len(order)
        plays: list[tuple[Seat, Card]] = []
        for seat in order[:stop]:
            so_far = [c for _, c in plays]
            legal = g.legal_cards(left[seat], so_far, contract)
            card = None
            if number - 1 >= revoke_at >= 0 and not partial and so_far:
                illegal = tuple(c for c in left[seat] if c not in legal)
                if illegal:
                    card = rng.choice(illegal)
                    applied.append({"kind": "revoke", "seat": seat.name, "trick": number})
                    revoke_at = -1
            if card is None:
                card = _choose(rng, legal, so_far, g, contract)
            left[seat].remove(card)
            plays.append((seat, card))
        if partial:
            current = tuple(plays)
            break
        winner = g.trick_winner(plays, contract)
        tricks.append(PlayedTrick(number, leader, tuple(plays), winner))
        leader = winner

    rows: dict[Seat, list[RowEntry]] = {s: [] for s in active}
    for t in tricks:
        for seat, card in t.plays:
            rows[seat].append(RowEntry(orientation=g.orientation(seat, t.winner), card=card,
                                       confidence=1.0, card_confidence=1.0))

    dealt = {c for h in hands.values() for c in h}
    spare = [c for c in g.deck if c not in dealt]
    for kind in wanted:
        if kind == "revoke":
            continue
        _inject(kind, rng, rows, active, spare, g, applied)

    return SimulatedDeal(game=g.name, dealer=dealer, seats=tuple(active), contract=contract,
                         first_leader=first, hands=hands, tricks=tricks, rows=rows,
                         current_trick=current, applied=applied)


def _flip(o: Orientation) -> Orientation:
    return {Orientation.WON: Orientation.LOST, Orientation.LOST: Orientation.WON}.get(o, o)


def _inject(kind: str, rng: random.Random, rows: dict[Seat, list[RowEntry]],
            active: tuple[Seat, ...], spare: list[Card], g: Game,
            applied: list[dict[str, Any]]) -> None:
    """Change the rows as laid: flip, drop, add or swap a card."""
    candidates = [s for s in active if rows[s]]
    if kind == "long_row":
        seat = rng.choice(active)
        pos = rng.randrange(0, len(rows[seat]) + 1)
        card = rng.choice(spare) if spare else rng.choice(
            [e.card for s in active for e in rows[s] if e.card is not None] or list(g.deck))
        rows[seat].insert(pos, RowEntry(orientation=rng.choice((Orientation.WON,
                                                                 Orientation.LOST)),
                                        card=card, confidence=1.0, card_confidence=1.0))
        applied.append({"kind": kind, "seat": seat.name, "trick": pos + 1})
        return
    if kind == "out_of_place":
        candidates = [s for s in active if len(rows[s]) >= 2]
    if not candidates:
        return
    seat = rng.choice(candidates)
    row = rows[seat]
    if kind == "wrong_orientation":
        pos = rng.randrange(len(row))
        e = row[pos]
        row[pos] = RowEntry(orientation=_flip(e.orientation), card=e.card,
                            confidence=e.confidence, card_confidence=e.card_confidence)
    elif kind == "short_row":
        pos = rng.randrange(len(row))
        del row[pos]
    elif kind == "out_of_place":
        pos = rng.randrange(len(row) - 1)
        row[pos], row[pos + 1] = row[pos + 1], row[pos]
    else:  # pragma: no cover - validated by the caller
        raise TrickvisionError(f"unknown irregularity {kind!r}")
    applied.append({"kind": kind, "seat": seat.name, "trick": pos + 1})


__all__ = ["IRREGULARITIES", "PlayedTrick", "SimulatedDeal", "simulate_deal", "ContractKind"]
