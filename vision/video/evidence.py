"""What the table tracker believes, and how sure it is: readings counted as votes.

A face-up card, a row card's orientation, a play's identity: the tracker never takes one
reading for the truth. Each is an :class:`Evidence` (when first and last seen, how often, what
it was read as) until it is confirmed, and a confirmed play (:class:`Play`) keeps counting the
readings of its face, so that a misreading is outvoted and a card read two ways can be told
(:func:`contested`). :class:`TrickState` is one trick as the tracker holds it. The helpers here
are the rules for reading those votes; the tracker (:mod:`vision.video.tracker`) decides what
they mean for the play.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from vision.cards import Card
from vision.record import Orientation
from vision.seats import Seat

#: "no vote given" (a sighting that says nothing of what the thing is)
UNSET = object()
#: A face never read for sure is named from the reader's hesitations (its candidates, summed
#: over fresh readings) only when this many readings offered candidates ...
_SOFT_MIN_READINGS = 2
#: ... the best card's mean probability over them is at least this ...
_SOFT_MIN_MEAN_P = 0.5
#: ... and it outweighs the runner-up by this factor.
_SOFT_MARGIN = 2.0
#: A row card confirmed one way is taken the other way once later readings say so this many
#: times and with this share of all its readings (0.67 against 0.6, 2/3 exactly, 0.7, 0.75
#: and 0.85 on 62 replayed videos: the fewest row cards wrong and false alerts together).
_REVISE_VOTES = 3
_REVISE_SHARE = 0.67
#: the two ways a row card can be read to lie
SIDES = (Orientation.WON, Orientation.LOST)
#: A face read as a second card at least this share as often as its first is too unsure to
#: prove a revoke on (0.5 on 110 replayed videos: 8 of 265 false alerts fewer, no true one
#: lost; with the revoker's own card checked too 12 fewer, one true revoke lost).
_CONTESTED_SHARE = 0.5
#: A row card read the other way this often and in this share of all its readings is not
#: read surely enough to blame a player on: its wrong-orientation alert is held, or withdrawn
#: at the deal's end. Over 156 recorded videos the cards of the 102 true alerts standing at the
#: end were read the other way 7 times at most (30 % of their readings at most); 31 of the 96
#: false ones' cards 10 times or more, in 20-60 % of their readings. Set at 10 first, the
#: fresh check set 9301-9312 then had a true alert's card read the other way 10 times of 39:
#: 12 keeps it (and 2 false alerts of the 156).
_UNSURE_AGAINST_VOTES = 12
_UNSURE_AGAINST_SHARE = 0.2


@dataclass
class SoftVotes:
    """The reader's candidates for a face it could not name, summed over fresh readings."""

    p: dict[Card, float] = field(default_factory=dict)
    readings: int = 0

    def add(self, candidates: Sequence[tuple[Card, float]]) -> None:
        if candidates:
            self.readings += 1
            for card, prob in candidates:
                self.p[card] = self.p.get(card, 0.0) + prob

    def best(self, excluded: set[Card]) -> Card | None:
        """The card the readings point to, or None when they are too few or too split."""
        if self.readings < _SOFT_MIN_READINGS:
            return None
        ranked = sorted(((p, c) for c, p in self.p.items() if c not in excluded),
                        key=lambda pc: pc[0], reverse=True)
        if not ranked or ranked[0][0] < _SOFT_MIN_MEAN_P * self.readings:
            return None
        if len(ranked) > 1 and ranked[0][0] < _SOFT_MARGIN * ranked[1][0]:
            return None
        return ranked[0][1]


@dataclass
class Evidence:
    """Observations of one thing not yet believed: when first/last seen, how often, what."""

    first_t: float
    last_t: float
    n: int = 1
    votes: Counter = field(default_factory=Counter)
    misses: int = 0  # fresh readings that should have shown it and did not
    soft: SoftVotes = field(default_factory=SoftVotes)
    latest: Card | None = None  # the card the latest reading named
    #: cards this face was read as that another play of the deal was already taken for (one
    #: deck: those readings name no card here, but may prove that play misread)
    blocked: Counter = field(default_factory=Counter)

    def see(self, t: float, vote: object = UNSET, *, fresh: bool = True) -> None:
        """One more sighting at ``t``; only a fresh reading counts toward ``n`` (a frame the
        gate found unchanged repeats the last reading, which may be the one bad one)."""
        self.last_t = max(self.last_t, t)
        if fresh:
            self.n += 1
        if vote is not UNSET:
            self.votes[vote] += 1
            if isinstance(vote, Card):
                self.latest = vote

    def _known(self) -> list[tuple[object, int]]:
        return sorted(((v, n) for v, n in self.votes.items()
                       if v is not None and v is not Orientation.UNKNOWN),
                      key=lambda kv: kv[1], reverse=True)

    def best(self) -> object:
        """The most frequent known vote (None when nothing known was read)."""
        known = self._known()
        return known[0][0] if known else None

    def decided(self) -> bool:
        """True unless two known values are tied for the most votes (wait for another look)."""
        known = self._known()
        return len(known) < 2 or known[0][1] > known[1][1]


@dataclass
class Play:
    card: Card | None
    t: float  # when it appeared
    votes: Counter = field(default_factory=Counter)
    last_seen: float = -math.inf  # when it was last seen face up as itself
    # when a face was last read at his place as another card while the rest of its trick
    # still lay face up (a misreading of this card, not his next one)
    last_face: float = -math.inf
    # when a reading at his place last counted as a vote for this card (misread or not)
    last_read: float = -math.inf
    from_row: bool = False  # known only from his row: never seen face up
    soft: SoftVotes = field(default_factory=SoftVotes)
    latest: Card | None = None  # the card the latest reading named
    blocked: Counter = field(default_factory=Counter)  # see Evidence.blocked


def agrees(known: list[Orientation], read: list[Orientation]) -> bool:
    """A row reading fits the confirmed row: no card read the other way (unknowns fit)."""
    return all(a is Orientation.UNKNOWN or b is Orientation.UNKNOWN or a is b
               for a, b in zip(known, read, strict=False))


def outvotes(votes: Counter, o: Orientation) -> bool:
    """``o`` holds at least ``_REVISE_VOTES`` readings and ``_REVISE_SHARE`` of them all."""
    return votes[o] >= _REVISE_VOTES and votes[o] >= _REVISE_SHARE * sum(votes.values())


def read_both_ways(votes: Counter, o: Orientation) -> bool:
    """The row card, taken to lie ``o``, was read the other way at least
    ``_UNSURE_AGAINST_VOTES`` times and in ``_UNSURE_AGAINST_SHARE`` of its readings: its
    reading is not to blame a player on."""
    against = sum(n for x, n in votes.items() if x in SIDES and x is not o)
    return against >= _UNSURE_AGAINST_VOTES and against >= _UNSURE_AGAINST_SHARE * sum(
        votes.values())


def plays_to_judge(order: list[Seat], cards: list[Card | None], candidates: list[Seat]
                    ) -> list[tuple[Seat, Card]] | None:
    """The plays that decide which of the ``candidates`` (partners whose rows say their side
    won) took a trick: all of them when every card was read; else the card led and the
    candidates' own cards (the other side's cards lost anyway); None when one of those was
    never read."""
    plays = list(zip(order, cards, strict=True))
    if any(c is None for _, c in plays):
        plays = [(s, c) for s, c in plays if s == order[0] or s in candidates]
    if any(c is None for _, c in plays):
        return None
    return [(s, c) for s, c in plays if c is not None]


def contested(play: Play) -> bool:
    """The face was read as a second card at least ``_CONTESTED_SHARE`` as often as its
    first (a club taken for a spade now and then)."""
    counts = sorted(play.votes.values(), reverse=True)
    return len(counts) > 1 and counts[1] >= _CONTESTED_SHARE * counts[0]


def majority(play: Play) -> Card | None:
    """The identity read most often while the card lay face up. A tie goes to the latest
    reading's card: a card is first seen under the hand laying it, later whole."""
    if not play.votes:
        return play.card
    best, n = play.votes.most_common(1)[0]
    if play.latest is not None and play.votes.get(play.latest, 0) == n:
        return play.latest
    if play.card is not None and play.votes.get(play.card, 0) == n:
        return play.card
    return best


def sureness(play: Play, card: Card) -> float:
    """How sure the tracker is that ``play`` is ``card``, for the reconstruction: the share
    of its readings that named it, with one reading for and one against added (a face read
    as a card four times of four is surer than one read once; a card no reading named -
    the rules or the deck named it - gets 0.5). Where one card was read at two places, the
    reconstruction keeps the surer and leaves the other to the rules."""
    return (play.votes.get(card, 0) + 1) / (sum(play.votes.values()) + 2)


def names(play: Play, card: Card) -> bool:
    """True when ``play`` was taken for ``card`` (as laid, or by most of its readings)."""
    return card in (play.card, majority(play))


def read_once(play: Play) -> bool:
    """True when ``play``'s face rests on one reading at most (the others left it unread)."""
    return sum(play.votes.values()) <= 1


def other_card(play: Play, card: Card | None) -> Card | None:
    """The card ``play``'s face was read as most often after ``card`` (None: no other)."""
    return next((c for c, _ in play.votes.most_common() if c not in (None, card)), None)


def take_as(play: Play, misread: Card, card: Card) -> None:
    """``play``'s readings as ``misread`` were misreadings: it is ``card``."""
    del play.votes[misread]
    play.card = play.latest = card


@dataclass
class TrickState:
    number: int
    plays: dict[Seat, Play] = field(default_factory=dict)
    turned: dict[Seat, tuple[Orientation, float]] = field(default_factory=dict)
    leader: Seat | None = None
    winner: Seat | None = None
    winner_source: str = ""
    completed: bool = False
    turned_done: bool = False
    order_agrees: bool = True  # the cards appeared in the order the rules' leader gives
    deduced: set[Seat] = field(default_factory=set)  # cards named from the rest of the deal


def cards_in(tr: TrickState, order: Sequence[Seat]) -> list[Card | None]:
    """``tr``'s cards in ``order`` as most of their readings name them (None: no play)."""
    return [majority(tr.plays[s]) if s in tr.plays else None for s in order]


def turn_time(tr: TrickState) -> float:
    """When the last of ``tr``'s cards seen turned into the rows was turned."""
    return max(x[1] for x in tr.turned.values())
