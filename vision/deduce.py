"""Naming the faces the camera could not read, from the rest of the deal.

A face-up row whose card at some position could not be read still holds a card of the deck,
and only cards nobody else was seen to play are left for it. When the rows are turned over,
most of the deck is read, and the rules then often leave a single way to put the unseen cards
into the unread places: each trick must be won by the player its rows show, and nobody may
have failed to follow suit while a card of that suit was still in his row. This module
searches every such way (trick by trick, in the order of play) and names a place's card only
when every way that fits puts the same card there - a deduction, not a guess; places the
fitting ways disagree on, no fit at all, or too much to search leave the faces unread.

Where several fillings fit alike, the reader's hesitations can still tell them apart: given
each unread place's candidates (the cards the reader hesitated between, with its
probabilities), every fitting filling is weighed by how likely the reader makes its cards, and
a place whose card is the same in fillings holding at least :data:`LIKELY_SHARE` of the weight
is named as *likely* - reported apart from the cards the rules alone leave.

What it rests on: the cards read elsewhere (one misread can make it name a wrong card) and
the rules having been kept by the unread cards (a revoke made with a card nobody could read
is not found - the search prefers the fillings without one).

It depends on the game's rules only; the reconstruction supplies what the rows say.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from vision.cards import Card, Suit
from vision.contract import Contract
from vision.games import Game
from vision.seats import Seat

#: At most this many unread places are filled at once (beyond it the search is too wide to
#: finish in a fraction of a second, and the answer is rarely unique anyway).
MAX_UNREAD = 8
#: At most this many combinations of cards are tried in all before giving up.
NODE_BUDGET = 4000
#: A place is named as likely when fillings putting the same card there hold this share of
#: the weight of all the fillings that fit.
LIKELY_SHARE = 0.8
#: The weight a card the reader did not name among an unread place's candidates keeps (a
#: candidate weighs this plus the reader's probability). The reader's candidates are far
#: from calibrated - of unread faces whose likeliest candidate it gave at 0.8-0.9, about half
#: were that card - but among the few cards the rules leave a place they mostly decide it.
#: Chosen with LIKELY_SHARE on the face-up photos of four evaluation sets (seeds 7.3e9,
#: 7.31e9, 7.87e9, 7.88e9 with held-out decks): 23 faces named, none wrong; 0.02 / 0.8 named
#: 28 with 1 wrong, 0.1 / 0.9 only 6.
CANDIDATE_FLOOR = 0.05
#: At most this many fillings are weighed; beyond it nothing is named as likely.
MAX_FILLINGS = 2000


@dataclass(frozen=True)
class Deduction:
    """What the search found. ``status``: 'unique' (one way fits), 'partial' (several fit,
    but all put the same cards in some places), 'several' (no place is the same in all),
    'none' (no way fits: the hypothesis or a read card is wrong), or 'too wide' (too many
    places or combinations to try). ``cards[(seat, trick index)]``: the places every fitting
    way fills alike (all of them when 'unique')."""

    status: str
    cards: dict[tuple[Seat, int], Card] = field(default_factory=dict)
    #: Rows the fitting ways make lie wrong (on tricks the rows disagree on), and the fewest
    #: any filling could (so 'several' at ``floor`` cannot improve under another hypothesis).
    cost: int = 0
    floor: int = 0
    #: Combinations tried (a measure of how hard the search was).
    tried: int = 0
    #: Places the fitting ways do not all fill alike but mostly do, weighed by the reader's
    #: candidates: (card, its share of the weight). Empty without candidates.
    likely: dict[tuple[Seat, int], tuple[Card, float]] = field(default_factory=dict)

    def named(self) -> dict[tuple[Seat, int], Card]:
        """Every place this deduction names: filled alike by every way that fits, or likely."""
        return {**{p: card for p, (card, _) in self.likely.items()}, **self.cards}


def deduce_unread(game: Game, seats: Sequence[Seat], cards: dict[Seat, list[Card | None]],
                  first: Seat, contract: Contract, *,
                  agreed: Sequence[frozenset[Seat] | None],
                  mismatches: Callable[[int, Seat], int],
                  allowed_revokes: frozenset[tuple[Seat, int]] = frozenset(),
                  budget: int = NODE_BUDGET,
                  candidates: Mapping[tuple[Seat, int], Sequence[tuple[Card, float]]] | None = None,
                  ) -> Deduction:
    """What the rules say of the ``None`` places in ``cards`` (per seat, trick order).

    ``agreed[i]``: the seats the rows of trick ``i`` agree may have won it (None when the rows
    disagree: then any winner is allowed, at the cost of ``mismatches(i, winner)`` rows that
    lie the other way). A filling must give every trick a winner its rows allow and may not
    add a revoke (``allowed_revokes``: the (seat, trick index) revokes the read cards show
    anyway); of those left, the ones that make the fewest rows lie wrong count.
    ``candidates[(seat, trick index)]``: an unread place's candidates and the reader's
    probabilities, to weigh fillings that fit alike (``Deduction.likely``).
    """
    n = min((len(col) for col in cards.values()), default=0)
    unread = [(s, i) for i in range(n) for s in seats if cards[s][i] is None]
    if not unread:
        return Deduction("unique")
    if len(unread) > MAX_UNREAD:
        return Deduction("too wide")
    read = {c for col in cards.values() for c in col if c is not None}
    unseen = [c for c in game.deck if c not in read]
    if len(unseen) < len(unread):
        return Deduction("none")
    weighed = candidates is not None and any(p in candidates for p in unread)
    search = _Search(game, tuple(seats), {s: list(col[:n]) for s, col in cards.items()}, n,
                     contract, agreed, mismatches, allowed_revokes, budget, keep=weighed)
    search.run(first, unseen)
    if search.exhausted:
        return Deduction("too wide", tried=search.tried)
    if search.count == 0:
        return Deduction("none", floor=search.floor, tried=search.tried)
    status = "unique" if search.count == 1 else "partial" if search.common else "several"
    likely = {}
    if candidates is not None and weighed and search.count > 1 and \
            len(search.fillings) == search.count:
        likely = _likely(search.fillings, candidates, search.common)
    return Deduction(status, dict(search.common), int(search.best_cost), search.floor,
                     search.tried, likely)


def _likely(fillings: list[dict[tuple[Seat, int], Card]],
            candidates: Mapping[tuple[Seat, int], Sequence[tuple[Card, float]]],
            common: Mapping[tuple[Seat, int], Card]) -> dict[tuple[Seat, int], tuple[Card, float]]:
    """The places not filled alike whose card holds :data:`LIKELY_SHARE` of the fillings'
    weight, each filling weighing the product of its cards' :func:`_weight` at its places."""
    weights = []
    for filling in fillings:
        w = 1.0
        for place, card in filling.items():
            w *= _weight(candidates.get(place), card)
        weights.append(w)
    total = sum(weights)
    if total <= 0:
        return {}
    out = {}
    for place in fillings[0]:
        if place in common:
            continue
        mass: dict[Card, float] = {}
        for filling, w in zip(fillings, weights, strict=True):
            mass[filling[place]] = mass.get(filling[place], 0.0) + w
        card, m = max(mass.items(), key=lambda kv: kv[1])
        if m >= LIKELY_SHARE * total:
            out[place] = (card, m / total)
    return out


def _weight(candidates: Sequence[tuple[Card, float]] | None, card: Card) -> float:
    """How likely the reader makes ``card`` at a place with these ``candidates`` (1 for every
    card where it named none: no evidence either way)."""
    if not candidates:
        return 1.0
    return CANDIDATE_FLOOR + sum(p for c, p in candidates if c == card)


class _Search:
    """Depth-first, trick by trick; a branch ends as soon as it breaks a rule or costs more
    than the best filling found."""

    def __init__(self, game: Game, seats: tuple[Seat, ...], cards: dict[Seat, list[Card | None]],
                 n: int, contract: Contract, agreed: Sequence[frozenset[Seat] | None],
                 mismatches: Callable[[int, Seat], int],
                 allowed: frozenset[tuple[Seat, int]], budget: int, keep: bool = False) -> None:
        """``keep``: keep every filling of the least cost (to be weighed), instead of only
        the places they all fill alike."""
        self.game, self.seats, self.cards, self.n = game, seats, cards, n
        self.contract, self.trump = contract, game.trump(contract)
        self.agreed, self.mismatches, self.allowed = agreed, mismatches, allowed
        self.budget = budget
        self.filled: set[tuple[Seat, int]] = set()
        #: The last unread place of each seat's row (-1: the row was read whole).
        self.last_unread = {s: max((i for i, c in enumerate(cards[s]) if c is None), default=-1)
                            for s in seats}
        #: The fewest rows any filling must make lie wrong (the tricks the rows disagree on).
        self.floor = sum(min(mismatches(i, w) for w in seats)
                         for i in range(n) if agreed[i] is None)
        self.leaders: list[Seat] = [seats[0]] * n
        #: How many fillings cost ``best_cost``, and the places they all fill alike.
        self.count = 0
        self.common: dict[tuple[Seat, int], Card] = {}
        self.keep = keep
        self.fillings: list[dict[tuple[Seat, int], Card]] = []
        self.best_cost = float("inf")
        self.tried = 0
        self.exhausted = False
        #: Each card's suit for following (a trump belongs to the trump suit), the suits each
        #: row as read still plays from each trick on, and the suits each player has shown
        #: void in on the way to the current trick.
        self.suit = {c: game.follow_suit(c, self.trump) for c in game.deck}
        self.later_suits = {s: [{self.suit[c] for c in cards[s][i:] if c is not None}
                                for i in range(n + 1)] for s in seats}
        self.voids: dict[Seat, list[Suit]] = {s: [] for s in seats}
        #: Whether the first card of a hand (the rest of a row) may be played to a lead.
        self.legal: dict[tuple[Card | None, tuple[Card | None, ...]], bool] = {}

    def run(self, first: Seat, unseen: list[Card]) -> None:
        self._trick(0, first, frozenset(unseen), 0)

    def _done(self) -> bool:
        """Out of budget, or nothing left to learn: fillings as cheap as any can be already
        disagree about every place."""
        return self.exhausted or (self.count > 1 and not self.common and not self.keep
                                  and self.best_cost <= self.floor)

    def _trick(self, i: int, leader: Seat, left: frozenset[Card], cost: int) -> None:
        if self._done() or cost > self.best_cost:
            return
        if i == self.n:
            filling = {p: self.cards[p[0]][p[1]] for p in self.filled}
            if cost < self.best_cost:
                self.best_cost, self.count = cost, 1
                self.common = filling  # type: ignore[assignment]
                self.fillings = []
            else:
                self.count += 1
                self.common = {p: c for p, c in self.common.items() if filling[p] == c}
            if self.keep and len(self.fillings) < MAX_FILLINGS:
                self.fillings.append(filling)  # type: ignore[arg-type]
            return
        g, cards = self.game, self.cards
        self.leaders[i] = leader
        order = g.play_order(leader, self.seats)
        holes = [s for s in order if cards[s][i] is None]
        for combo in itertools.permutations(sorted(left), len(holes)):
            self.tried += 1
            if self.tried > self.budget:
                self.exhausted = True
                return
            if any(self.suit[c] in self.voids[s] for s, c in zip(holes, combo, strict=True)):
                continue  # a suit the player had shown he no longer held
            for s, c in zip(holes, combo, strict=True):
                cards[s][i] = c
                self.filled.add((s, i))
            winner = order[g.winning_index([cards[s][i] for s in order],  # type: ignore[misc]
                                           self.trump)]
            agreed = self.agreed[i]
            voids = self._new_voids(i, order)
            if (agreed is None or winner in agreed) and voids is not None and \
                    self._no_new_revoke(i):
                extra = self.mismatches(i, winner) if agreed is None else 0
                for s, suit in voids:
                    self.voids[s].append(suit)
                self._trick(i + 1, winner, left - set(combo), cost + extra)
                for s, _ in voids:
                    self.voids[s].pop()
            for s in holes:
                cards[s][i] = None
                self.filled.discard((s, i))
            if self._done():
                return

    def _new_voids(self, i: int, order: list[Seat]) -> list[tuple[Seat, Suit]] | None:
        """The players who did not follow trick ``i``'s plain-suit lead (from then on they hold
        none of it, in every game here), or None when one of them still plays that suit
        later in his row as read. A trump lead is left to the full check (l'hombre's
        matadors need not follow it)."""
        lead = self.cards[order[0]][i]
        if lead is None or self.game.is_trump(lead, self.trump):
            return []
        led = self.suit[lead]
        out = []
        for s in order[1:]:
            if self.suit[self.cards[s][i]] == led or (s, i) in self.allowed:  # type: ignore
                continue
            if led in self.later_suits[s][i + 1]:
                return None
            out.append((s, led))
        return out

    def _no_new_revoke(self, i: int) -> bool:
        """Whether the plays whose rows are now known in full up to trick ``i`` break no
        follow-suit rule the read cards alone do not already break. Each (seat, trick) is
        checked once: at its trick if the seat's row holds nothing unread after it, else when
        its last unread place is filled."""
        for s in self.seats:
            last = self.last_unread[s]
            if last > i:
                continue
            tricks = range(i + 1) if last == i else (i,)
            for j in tricks:
                if not self._legal(s, j):
                    return False
        return True

    def _legal(self, s: Seat, j: int) -> bool:
        leader = self.leaders[j]
        if s == leader or (s, j) in self.allowed:
            return True
        row = self.cards[s]
        lead = self.cards[leader][j]
        hand = tuple(row[j:])
        key = (lead, hand)
        legal = self.legal.get(key)
        if legal is None:
            assert lead is not None and None not in hand
            legal = self.legal[key] = hand[0] in self.game.legal_cards(
                hand, (lead,), self.contract)  # type: ignore[arg-type]
        return legal
