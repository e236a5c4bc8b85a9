"""Reconstruction: from each player's row of played cards to the tricks, winners and result.

The input is an ``Observation`` (for each seat its row in trick order, each position with an
orientation and, when seen, the card). The output is a ``Report``: for every trick its leader,
winner, cards and the evidence used; the result; and every contradiction found, as data.
Nothing here raises on an impossible table: duplicates, wrong row lengths, orientations that
disagree with each other or with the cards, and revokes all become ``Issue`` entries.

How it decides:

* Where every card of a trick and its leader are known, the game's rules decide the winner, and
  each orientation that disagrees is a ``wrong_orientation`` issue.
* Otherwise the orientations decide. When they disagree the trick stays undetermined and its
  candidates are listed (``orientation_conflict``), never silently guessed.
* An unread face of rows otherwise read gets a card when the rest of the deal leaves it only
  one (``vision.deduce``: the deck's unseen cards, the winners the rows show, follow suit).
* In face-up rows of the wrong length, the suits of each trick's other cards help say which
  card is extra or missing.
* Rows of the wrong length are repaired several ways (each repair one more hypothesis);
  among hypotheses that fit alike, the one whose repairs leave out less sure cards wins -
  repairs as dear as each other stay tied.
* When the trump suit or the first leader is not given, every possibility is played through and
  scored by how many orientations and follow-suit rules it contradicts; the best is used and
  reported with a confidence (ties that change a trick leave that trick undetermined).
"""

from __future__ import annotations

import enum
import itertools
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from vision.cards import Card, Suit
from vision.contract import Contract
from vision.deduce import deduce_unread
from vision.games import Game, find_game
from vision.record import Observation, Orientation, RowEntry
from vision.seats import SEATS, Seat

#: How much less likely a hypothesis becomes per contradiction it needs (log-odds units);
#: about a 5 % chance that any one orientation or card is misread.
EVIDENCE_WEIGHT = 3.0
#: Extra weight of a revoke (rare at a real table) in the inference score.
REVOKE_WEIGHT = 1.5

#: A trick whose faces, as a camera read them, give a winner that this many rows lie against,
#: while the rows agree on another, is taken as the rows say: one face misread is far likelier
#: than two players turning their cards the wrong way in one trick (one wrong turn costs one
#: row). Faces typed in are facts and always decide.
MISREAD_MISMATCHES = 2

#: Trying adjacent swaps starts at this many contradictions' worth of score, and a swap is
#: taken only when it removes at least this much (a single revoke scores 1.5, so a real revoke
#: is never explained away as a misplaced card).
SWAP_MIN_SCORE = 2.0
SWAP_MIN_GAIN = 2.0

#: Aligning a row of the wrong length with the other rows (a camera that sees one card twice
#: or misses one shifts every later card of that row): the cost of leaving one of its cards
#: out (plus up to ``ALIGN_DROP_SURE`` for a card read with full confidence), of a trick with
#: no card of that row, of a card that disagrees with the trick the other rows show, and of
#: one whose orientation could not be read. A drop and a gap together cost more than one
#: disagreeing card, so a single wrongly laid card is never explained away as a missing plus
#: an extra one.
ALIGN_DROP = 0.6
ALIGN_DROP_SURE = 0.2
ALIGN_GAP = 0.7
ALIGN_MISMATCH = 1.0
ALIGN_UNKNOWN = 0.15
#: Leaving out a card whose face was read costs this much more: a box between two cards of a
#: face-up row (an edge of each, no index) is the extra one far more often than a read card,
#: and a read card that did not follow suit (``ALIGN_OFF_SUIT``) must not give way to one.
ALIGN_DROP_READ = 0.5
#: A read card placed in a trick whose other read cards (two or more) are all of another
#: suit costs this much: most cards follow suit, so in face-up rows the suits show where a
#: row's cards belong.
ALIGN_OFF_SUIT = 0.3
#: Other alignments of a face-up row worth playing through: those that cost at most this
#: much more than the best (a misplaced suit or an unread card's place, not another gap or
#: misfit), at most this many per row, found within this many search steps.
ALIGN_ALTERNATIVE_MARGIN = 0.5
ALIGN_ALTERNATIVES = 8
ALIGN_SEARCH_STEPS = 4000
#: Each of them counts as dearer than the best by at least this (more than ``REPAIR_TIE``):
#: it is taken only when the play fits it better, never tied with the first for no reason.
ALIGN_ALTERNATIVE_PREMIUM = 0.1
#: Hypotheses that need as few contradictions as each other are told apart by what their
#: repairs of the rows cost at the alignment's prices (leaving out a sure or a read card
#: costs more than leaving out an unsure box): the cheaper one is taken when it is cheaper
#: by more than this; closer ones stay tied (and the tricks they disagree on undetermined).
REPAIR_TIE = 0.05
#: A deal still being played, its rows of two lengths a card apart: the length most rows
#: have is taken for the tricks played, the other tried too, and taken when its
#: contradictions and repairs together come to less by more than this (half a card left
#: out): two boxes for one card and a card missed are both common.
OTHER_LENGTH_COST = 0.3

#: A trick whose unread faces have candidates (cards the reader hesitated between) none of
#: which fits the play: weak evidence against the hypothesis (trump, leader) that needs it,
#: since the true card is usually among them.
CANDIDATE_MISS = 0.5
#: A candidate less than this share as likely as an unread face's likeliest one is not tried.
CANDIDATE_MIN_SHARE = 0.5
#: At most this many combinations of candidates are tried for one trick.
MAX_CANDIDATE_COMBINATIONS = 27
#: Unread faces are deduced from the rest of the deal only when at least this share of the
#: rows' places hold a read card (face-up rows; face-down rows leave nothing to deduce from).
DEDUCE_MIN_READ = 0.6
#: Combinations of cards tried for those faces, over all the hypotheses together (about
#: 30 microseconds each).
DEDUCE_BUDGET = 3000

WON, LOST, UNKNOWN = Orientation.WON, Orientation.LOST, Orientation.UNKNOWN


class IssueKind(enum.Enum):
    """What kind of contradiction an ``Issue`` reports."""

    ORIENTATION_CONFLICT = "orientation_conflict"
    ROW_LENGTH = "row_length"
    WRONG_ORIENTATION = "wrong_orientation"
    REVOKE = "revoke"
    DUPLICATE_CARD = "duplicate_card"
    UNKNOWN_CARD = "unknown_card"
    #: Extension: two adjacent cards of a row lie in the wrong order (found from the faces).
    OUT_OF_PLACE = "out_of_place"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Issue:
    """One contradiction: its kind, where (seat, 1-based trick; None when not one place)."""

    kind: IssueKind
    seat: Seat | None
    trick: int | None
    message: str
    #: For ``wrong_orientation``: how the card should lie.
    expected: Orientation | None = None
    #: For ``row_length``: the positions in the row as read (1-based) of the cards that seem
    #: not to belong to the play (seen twice, or not a card at all).
    positions: tuple[int, ...] = ()


@dataclass(frozen=True)
class TrickReport:
    """One trick as reconstructed.

    ``side`` is the unit that took the trick ('NS'/'EW' in bridge, the seat letter otherwise);
    it may be known while ``winner`` is not (bridge rows without faces). ``evidence`` says what
    decided it: 'cards' (the rules), 'orientation' (the rows), or 'none' (undetermined, see
    ``candidates``).
    """

    number: int
    leader: Seat | None
    winner: Seat | None
    side: str | None
    cards: dict[Seat, Card | None]
    orientations: dict[Seat, Orientation]
    evidence: str
    candidates: tuple[str, ...] = ()

    @property
    def determined(self) -> bool:
        return self.side is not None

    def play_order(self, game: Game, seats: tuple[Seat, ...]) -> list[Seat] | None:
        """Seats in the order they played, when the leader is known."""
        return game.play_order(self.leader, seats) if self.leader is not None else None


@dataclass(frozen=True)
class Inference:
    """A value that was given, inferred from the rows, or could not be told.

    ``value`` is a suit letter or 'NT' for the trump, a seat letter for the first leader.
    ``confidence`` is a rough probability (1.0 when given); ``alternatives`` maps the other
    candidates to theirs.
    """

    value: str | None
    source: str  # "given", "inferred" or "unknown"
    confidence: float | None = None
    alternatives: dict[str, float] = field(default_factory=dict)


@dataclass
class Report:
    """Everything reconstruction found. ``issues`` is empty for a clean, consistent table."""

    game: str
    seats: tuple[Seat, ...]
    rows: dict[Seat, list[RowEntry]]
    tricks: list[TrickReport]
    result: dict[str, int]
    undetermined: list[int]
    issues: list[Issue]
    #: How ``result`` was counted: ``"tricks"`` - trick by trick, the undetermined ones left
    #: out; ``"rows"`` - where tricks are undetermined, the won cards of the rows read whole
    #: (what a director counts), when the tricks settled one by one fit those counts.
    result_basis: str = "tricks"
    dealer: Seat | None = None
    contract: Contract | None = None
    first_leader: Seat | None = None
    trump: Inference = field(default_factory=lambda: Inference(None, "unknown"))
    leader: Inference = field(default_factory=lambda: Inference(None, "unknown"))
    #: Each player's original hand, when his whole row was seen face up.
    hands: dict[Seat, tuple[Card, ...]] | None = None
    #: The cards of the deck in nobody's hand (the talon in preferans and l'hombre), when
    #: every hand is known.
    talon: tuple[Card, ...] | None = None
    #: False while the deal is still being played (all rows shorter than a hand, equal).
    complete: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is contradictory and every trick is determined."""
        return not self.issues and not self.undetermined

    def issues_of(self, kind: IssueKind | str) -> list[Issue]:
        k = IssueKind(kind) if isinstance(kind, str) else kind
        return [i for i in self.issues if i.kind is k]

    def trick(self, number: int) -> TrickReport:
        return self.tricks[number - 1]


# ---------------------------------------------------------------------------------------------
# working records


@dataclass
class _Step:
    leaders: frozenset[Seat]
    winner: Seat | None
    winners: frozenset[Seat]  # seats that may have taken the trick (for the next leader)
    side: str | None
    evidence: str
    candidates: tuple[str, ...]
    mismatches: list[tuple[Seat, Orientation]]
    revokes: list[Issue]
    #: Unread faces settled by the rules: the only candidates that fit the play.
    filled: dict[Seat, Card] = field(default_factory=dict)


@dataclass
class _Grid:
    """The rows as aligned for one hypothesis (the rows as read, or with one repair)."""

    cards: dict[Seat, list[Card | None]]
    orients: dict[Seat, list[Orientation]]
    n_tricks: int
    trick_cards: list[dict[Seat, Card | None]]
    trick_orients: list[dict[Seat, Orientation]]
    verdicts: list[_Verdict]
    #: Per seat and position, the candidates of an unread face (empty where there are none),
    #: and the same per trick.
    candidates: dict[Seat, list[tuple[Card, ...]]]
    trick_candidates: list[dict[Seat, tuple[Card, ...]]]
    #: What was changed in the rows as read, each (kind, seat, 1-based position): "gap" (a
    #: card is missing there), "extra" (the card there is not part of the play), "swap" (the
    #: cards at position and position + 1 were laid in the wrong order).
    repairs: tuple[tuple[str, Seat, int], ...] = ()
    #: What the gaps and left-out cards of this alignment cost (``ALIGN_*`` prices), the
    #: rows as read with their short rows' gaps at the end and long rows' last cards out.
    repair_cost: float = 0.0
    #: The number of cards every row was taken to hold.
    target: int = 0
    #: Steps already worked out on this grid: (trump, contract, trick, leaders) -> result.
    memo: dict[tuple[Suit | None, Contract, int, frozenset[Seat]], tuple[_Step, float]] = \
        field(default_factory=dict, repr=False, compare=False)


class _Hesitation(tuple[Card, ...]):  # noqa: SLOT001 - a tuple of cards with one attribute more
    """The candidates of an unread face worth playing through (a tuple of cards, as the
    grids carry them), keeping what the reader said of the face (``read``: its candidates
    with their probabilities, cards read elsewhere included), which weighs the fillings of
    the whole deal (``vision.deduce``)."""

    read: tuple[tuple[Card, float], ...]

    def __new__(cls, cards: Any, read: tuple[tuple[Card, float], ...]) -> _Hesitation:
        self = super().__new__(cls, cards)
        self.read = tuple(read)
        return self


@dataclass
class _Chain:
    trump: Suit | None
    first: frozenset[Seat]
    steps: list[_Step]
    score: float
    grid: _Grid
    contract: Contract
    #: What each step added to the score.
    points: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class _Verdict:
    """What the orientations alone say about one trick."""

    winners: frozenset[Seat]  # seats that may have won, consistent with the orientations
    conflict: bool
    dissenter: Seat | None  # the one row that disagrees, when it is clear which


def _trump_name(trump: Suit | None) -> str:
    return "NT" if trump is None else trump.value


# ---------------------------------------------------------------------------------------------


def _totals_from_rows(game: Game, seats: tuple[Seat, ...], rows: dict[Seat, list[RowEntry]],
                      n: int) -> tuple[dict[str, int], tuple[Seat, ...]] | None:
    """Each side's tricks as its players' rows count them - the won cards of a row read whole
    (``n`` cards, every one won or lost) - and the seats counted; None when the rows do not
    give every side. A partnership's count needs both partners' rows, agreeing (one row alone
    may hold a card counted twice), and one side may be the tricks the other leaves if no row
    of it read whole counts otherwise; three players each need their own row read whole (on
    225 held-out photos, a player's count left by the others' rows was wrong 2 times in 5)."""
    whole = {s: r for s, r in rows.items()
             if s in seats and len(r) == n and all(e.orientation in (WON, LOST) for e in r)}
    won = {s: sum(e.orientation is WON for e in r) for s, r in whole.items()}
    totals: dict[str, int] = {}
    used: list[Seat] = []
    for side in game.sides(seats):
        members = [s for s in seats if game.side(s) == side]
        counts = {won[s] for s in members if s in won}
        if len(members) == sum(s in won for s in members) and len(counts) == 1:
            totals[side] = counts.pop()
            used += members
        elif len(counts) > 1:
            return None  # partners' rows read whole disagree
    missing = [side for side in game.sides(seats) if side not in totals]
    if len(missing) == 1 and game.partnership:
        totals[missing[0]] = n - sum(totals.values())  # what the agreeing partners leave
    if len(totals) != len(game.sides(seats)) or sum(totals.values()) != n or \
            min(totals.values()) < 0 or any(k != totals[game.side(s)] for s, k in won.items()):
        return None  # (a row read whole counting otherwise than its side's total: no count)
    return {side: totals[side] for side in game.sides(seats)}, tuple(sorted(used))


def reconstruct(observation: Observation) -> Report:
    """Reconstruct the play from an observation; contradictions become ``Report.issues``."""
    return _Reconstruction(observation).run()


#: What the choice of hypothesis gives: trump, first leader, the chain, contract, leader.
_Choice = tuple[Inference, Inference, _Chain, "Contract | None", "Seat | None"]


class _Reconstruction:
    def __init__(self, obs: Observation) -> None:
        if any(not isinstance(k, Seat) for k in obs.rows):  # e.g. {"N": [...]} from Python
            obs = replace(obs, rows={Seat.from_str(str(k)) if isinstance(k, str) else Seat(k): v
                                     for k, v in obs.rows.items()})
        self.obs = obs
        self.game = find_game(obs.game)
        self.issues: list[Issue] = []
        self.notes: list[str] = []
        #: Unread faces the rest of the deal named: (seat, trick index) -> card.
        self.deduced: dict[tuple[Seat, int], Card] = {}
        #: Of those, the ones named as the likeliest of several that fit (``vision.deduce``,
        #: ``Deduction.likely``): (seat, trick index) -> the share of the fits' weight.
        self.likely: dict[tuple[Seat, int], float] = {}
        #: The hypotheses as good as the chosen one (they leave tricks undetermined).
        self._ties: list[_Chain] = []
        #: Faces read by a camera (with a confidence) can be misread; faces typed in cannot.
        self.faces_read = any(e.card_confidence is not None
                              for row in obs.rows.values() for e in row)

    # ----------------------------------------------------------------------------- set-up
    def _active_seats(self) -> tuple[Seat, ...]:
        g, obs = self.game, self.obs
        present = [s for s in SEATS if s in obs.rows]
        if g.n_players == 4:
            for s in SEATS:
                if s not in obs.rows:
                    self.issues.append(Issue(IssueKind.ROW_LENGTH, s, None,
                                             f"{s}: no row was seen"))
            return SEATS
        chosen = list(present)
        for s in [s for s in present if not obs.rows[s]]:  # an empty fourth row: no player
            if len(chosen) > 3:
                chosen.remove(s)
        if len(chosen) > 3 and obs.dealer in chosen and g.name == "preferans":
            chosen.remove(obs.dealer)
            self.issues.append(Issue(
                IssueKind.ROW_LENGTH, obs.dealer, None,
                f"{obs.dealer}: the dealer sits out in four-handed preferans but has a row of "
                f"{len(obs.rows[obs.dealer])} cards; ignored"))
        if len(chosen) > 3:
            # the longest rows are the players'; of rows as long, the surer (a box on some
            # clutter on the empty side is read less surely than a player's card)
            def sureness(s: Seat) -> float:
                sure = [1.0 if e.confidence is None else e.confidence for e in obs.rows[s]]
                return sum(sure) / len(sure) if sure else 0.0
            chosen.sort(key=lambda s: (-len(obs.rows[s]), -sureness(s)))
            for s in chosen[3:]:
                self.issues.append(Issue(
                    IssueKind.ROW_LENGTH, s, None,
                    f"{s}: {g.name} has three players but four rows were seen; "
                    f"this row ({len(obs.rows[s])} cards) is ignored"))
            chosen = chosen[:3]
        if len(chosen) < 3:
            fill = [s for s in SEATS if s not in chosen and s != obs.dealer]
            fill += [s for s in SEATS if s not in chosen and s not in fill]
            for s in fill[: 3 - len(chosen)]:
                chosen.append(s)
                self.issues.append(Issue(IssueKind.ROW_LENGTH, s, None,
                                         f"{s}: no row was seen"))
        return tuple(sorted(chosen))

    def run(self) -> Report:
        g, obs = self.game, self.obs
        seats = self._active_seats()
        self.seats = seats
        self.orders = {s: g.play_order(s, seats) for s in seats}
        rows = {s: list(obs.rows.get(s, [])) for s in seats}
        lengths = {s: len(rows[s]) for s in seats}
        longest = max(lengths.values()) if lengths else 0

        # cards: unknown and duplicate cards
        cards: dict[Seat, list[Card | None]] = {}
        places: dict[Card, list[tuple[Seat, int]]] = {}
        for s in seats:
            col: list[Card | None] = []
            for pos, e in enumerate(rows[s], 1):
                c = e.card
                if c is not None and not g.in_deck(c):
                    self.issues.append(Issue(IssueKind.UNKNOWN_CARD, s, pos,
                                             f"{s} trick {pos}: {c} is not in the {g.name} deck"))
                    c = None
                if c is not None:
                    places.setdefault(c, []).append((s, pos))
                col.append(c)
            cards[s] = col
        first_seen = self._duplicates(places, rows, cards)
        orients = {s: [e.orientation for e in rows[s]] for s in seats}
        cands: dict[Seat, list[tuple[Card, ...]]] = {
            s: [self._plausible(e.candidates, first_seen) if cards[s][i] is None else ()
                for i, e in enumerate(rows[s])] for s in seats}

        # row lengths
        complete = obs.complete
        counts = Counter(lengths.values())
        if complete is None:
            # a full hand in a row, or nearly (rows of several lengths, one a card short of
            # it) - where another row is near it too: one row alone that long among short
            # ones has picked up cards that are not its own (the deal is still being played)
            ranked = sorted(lengths.values(), reverse=True)
            second = ranked[1] if len(ranked) > 1 else longest
            complete = (longest >= g.hand_size or len(counts) > 1
                        and longest >= g.hand_size - 1) and second >= g.hand_size - 2
        if complete:
            target = g.hand_size
        else:
            top = max(counts.values()) if counts else 0
            # rows of equal length outvote the others; between equally many, the shorter
            # (a camera sees a card twice more often than it misses one)
            target = min(n for n, k in counts.items() if k == top) if counts else 0
        self.n_tricks = min(longest, g.hand_size)
        chosen = self._choose_chain(self._grids(cards, orients, cands,
                                                [s for s in seats if lengths[s] != target
                                                 and s in obs.rows], target))
        if not complete:
            chosen = self._other_length(chosen, target, lengths, cards, orients, cands)
        trump_info, leader_info, chain, contract, first_leader = chosen
        target = chain.grid.target
        wrong_length = [s for s in seats if lengths[s] != target and s in obs.rows]
        chain = self._try_swaps(chain, contract)
        chain = self._try_shift(chain, cards, orients, cands, wrong_length, target)
        self._length_issues(chain, wrong_length, lengths, target, bool(complete))
        tricks, undetermined = self._tricks_from(chain)
        self._orientation_issues(chain, tricks)
        for i, st in enumerate(chain.steps):
            if len(st.revokes) >= 2:
                # two players at once not following the card led: that card was misread far
                # more likely than two revokes in one trick (no one is accused)
                who = " and ".join(str(r.seat) for r in st.revokes)
                self.notes.append(f"trick {i + 1}: {who} would both have revoked; the card led "
                                  "was more likely misread")
                continue
            self.issues.extend(st.revokes)

        result = {side: 0 for side in g.sides(seats)}
        for t in tricks:
            if t.side is not None:
                result[t.side] += 1
        basis = "tricks"
        counted = _totals_from_rows(g, seats, obs.rows, len(tricks)) if undetermined else None
        if counted is not None and all(counted[0][k] >= n for k, n in result.items()):
            # the tricks settled one by one fit the counts: the undetermined ones are shared
            # out as the rows read whole say, each trick's winner still left open
            result, basis = counted[0], "rows"
            self.notes.append(
                "the result counts the won cards of the rows read whole ("
                + " ".join(str(s) for s in counted[1]) + "); trick"
                + ("s " if len(undetermined) > 1 else " ") + ", ".join(map(str, undetermined))
                + " could not be settled one by one")

        for (s, i), card in sorted(self.deduced.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if i >= len(tricks) or tricks[i].cards.get(s) != card:  # undone by a tie
                continue
            if (s, i) in self.likely:
                self.notes.append(
                    f"{s} trick {i + 1}: face not read for sure; {card} is the likeliest of the "
                    f"cards left that fit the rest of the play ({100 * self.likely[s, i]:.0f} % "
                    f"by the reader's candidates)")
            else:
                self.notes.append(f"{s} trick {i + 1}: face not read; {card} is the only card "
                                  f"left that fits the rest of the play")
        played = self._with_settled_faces(chain, tricks)
        hands = self._hands(played) if complete else None
        talon = None
        if hands is not None:
            held = {c for h in hands.values() for c in h}
            talon = tuple(c for c in g.deck if c not in held)
        order = {k: i for i, k in enumerate(IssueKind)}
        self.issues.sort(key=lambda i: (i.trick if i.trick is not None else 0,
                                        order[i.kind], i.seat if i.seat is not None else -1))
        return Report(
            game=g.name, seats=seats, rows={s: list(obs.rows.get(s, [])) for s in seats},
            tricks=tricks, result=result, result_basis=basis, undetermined=undetermined,
            issues=self.issues,
            dealer=obs.dealer, contract=contract, first_leader=first_leader,
            trump=trump_info, leader=leader_info, hands=hands, talon=talon,
            complete=bool(complete),
            notes=self.notes)

    def _duplicates(self, places: dict[Card, list[tuple[Seat, int]]],
                    rows: dict[Seat, list[RowEntry]], cards: dict[Seat, list[Card | None]]
                    ) -> dict[Card, tuple[Seat, int]]:
        """Where each read card counts as seen. A card read at several places is a
        ``duplicate_card`` issue at each but one: the surest camera reading (else the first
        seen) keeps it; another camera reading of it is far more often the misread one (or a
        box between two cards, reading its neighbour) and counts as unread, so the rules may
        still name that face. Cards typed in are kept as given."""
        def sureness(place: tuple[Seat, int]) -> float:
            p = rows[place[0]][place[1] - 1].card_confidence
            return -1.0 if p is None else p

        seen: dict[Card, tuple[Seat, int]] = {}
        for card, where in places.items():
            keep = max(where, key=sureness)  # the first of equally sure ones
            seen[card] = keep
            for s, pos in where:
                if (s, pos) == keep:
                    continue
                message = f"{s} trick {pos}: {card} was already seen at {keep[0]} trick {keep[1]}"
                if rows[s][pos - 1].card_confidence is not None:
                    cards[s][pos - 1] = None
                    message = (f"{s} trick {pos}: {card} read here and, surer, at {keep[0]} "
                               f"trick {keep[1]}; this face counts as unread")
                self.issues.append(Issue(IssueKind.DUPLICATE_CARD, s, pos, message))
        return seen

    def _plausible(self, candidates: tuple[tuple[Card, float], ...],
                   seen: dict[Card, tuple[Seat, int]]) -> _Hesitation:
        """The candidates of an unread face worth playing through: in the deck, not read
        elsewhere, and at least ``CANDIDATE_MIN_SHARE`` as likely as the likeliest of them (the
        rules must not prefer a card the reader all but ruled out - a wrongly laid card would
        then pass unseen)."""
        kept = [(c, p) for c, p in candidates if self.game.in_deck(c) and c not in seen]
        top = max((p for _, p in kept), default=0.0)
        return _Hesitation((c for c, p in kept if p >= CANDIDATE_MIN_SHARE * top), candidates)

    def _other_length(self, chosen: _Choice, target: int, lengths: dict[Seat, int],
                      cards: dict[Seat, list[Card | None]],
                      orients: dict[Seat, list[Orientation]],
                      cands: dict[Seat, list[tuple[Card, ...]]]) -> _Choice:
        """A deal still being played whose rows differ in length by a card: the rows taken
        to hold a card more or less than most of them do, when that explains them better -
        fewer contradictions and repairs together, by more than ``OTHER_LENGTH_COST``."""
        def total(choice: _Choice) -> float:
            return choice[2].score + choice[2].grid.repair_cost

        best, kept = chosen, (self._ties, self.deduced, self.likely)
        for t in sorted({n for n in lengths.values()
                         if abs(n - target) == 1 and 0 < n <= self.game.hand_size}):
            self._ties, self.deduced, self.likely = [], {}, {}
            other = self._choose_chain(self._grids(
                cards, orients, cands, [s for s in self.seats if lengths[s] != t
                                        and s in self.obs.rows], t))
            if total(other) + OTHER_LENGTH_COST < total(best):
                best, kept = other, (self._ties, self.deduced, self.likely)
        self._ties, self.deduced, self.likely = kept
        return best

    # ----------------------------------------------------------------------------- grids
    def _grid(self, cards: dict[Seat, list[Card | None]], orients: dict[Seat, list[Orientation]],
              cands: dict[Seat, list[tuple[Card, ...]]],
              repairs: tuple[tuple[str, Seat, int], ...] = (), n: int | None = None,
              repair_cost: float = 0.0, *, target: int) -> _Grid:
        n = self.n_tricks if n is None else n
        # positions past the last trick are not part of the play (and must not count as
        # cards still held when looking for revokes)
        cards = {s: col[:n] for s, col in cards.items()}
        orients = {s: col[:n] for s, col in orients.items()}
        cands = {s: col[:n] for s, col in cands.items()}
        weak = self._realigned(target)
        tricks = [self._trick(cards, orients, cands, i, weak) for i in range(n)]
        return _Grid(cards=cards, orients=orients, n_tricks=n,
                     trick_cards=[t[0] for t in tricks], trick_orients=[t[1] for t in tricks],
                     verdicts=[t[3] for t in tricks], candidates=cands,
                     trick_candidates=[t[2] for t in tricks], repairs=repairs,
                     repair_cost=repair_cost, target=target)

    def _trick(self, cards: dict[Seat, list[Card | None]],
               orients: dict[Seat, list[Orientation]], cands: dict[Seat, list[tuple[Card, ...]]],
               i: int, weak: frozenset[Seat]
               ) -> tuple[dict[Seat, Card | None], dict[Seat, Orientation],
                          dict[Seat, tuple[Card, ...]], _Verdict]:
        """Trick ``i`` of rows aligned so: its cards, orientations, the candidates of its
        unread faces (where there are some) and what the orientations say of it."""
        seats = self.seats
        tc = {s: (cards[s][i] if i < len(cards[s]) else None) for s in seats}
        to = {s: (orients[s][i] if i < len(orients[s]) else UNKNOWN) for s in seats}
        tk = {s: cands[s][i] for s in seats if i < len(cands.get(s, ())) and cands[s][i]}
        return tc, to, tk, self._verdict(to, weak)

    def _grids(self, cards: dict[Seat, list[Card | None]],
               orients: dict[Seat, list[Orientation]], cands: dict[Seat, list[tuple[Card, ...]]],
               wrong_length: list[Seat], target: int) -> list[_Grid]:
        """The rows as read, and for a row one card short or long, every way to realign it."""
        base_cards, base_orients, base_cands = dict(cards), dict(orients), dict(cands)
        for s in wrong_length:  # the rows as read: a short row's gap is at its end
            if len(cards[s]) == target - 1:
                base_cards[s] = cards[s] + [None]
                base_orients[s] = orients[s] + [UNKNOWN]
                base_cands[s] = cands[s] + [()]
        # what the rows as read leave out: a short row's last tricks, a long row's last cards
        left_out = sum(ALIGN_GAP * max(target - len(cards[s]), 0) + sum(
            self._drop_cost(s, k, cards[s]) for k in range(target, len(cards[s])))
            for s in wrong_length)
        # a long row's cards past the tricks the rows are taken to hold play no trick
        n = min(target, self.n_tricks)
        base = self._grid(base_cards, base_orients, base_cands, repair_cost=left_out,
                          target=target, n=n)
        grids = [base]
        # every single repair of one row: only where one row is wrong (with several, one
        # repair leaves the others wrong; the alignment below repairs them all at once)
        for s in wrong_length if len(wrong_length) == 1 else []:
            row = cards[s]
            if not row or target > self.game.hand_size:
                continue
            if len(row) == target - 1:
                base.repairs += (("gap", s, len(row) + 1),)
                for p in range(len(row)):
                    c2, o2, k2 = dict(cards), dict(orients), dict(cands)
                    c2[s] = row[:p] + [None] + row[p:]
                    o2[s] = orients[s][:p] + [UNKNOWN] + orients[s][p:]
                    k2[s] = cands[s][:p] + [()] + cands[s][p:]
                    grids.append(self._grid(c2, o2, k2, (("gap", s, p + 1),), n=n,
                                            repair_cost=ALIGN_GAP, target=target))
            elif len(row) == target + 1:
                base.repairs += (("extra", s, len(row)),)
                for p in range(len(row) - 1):
                    c2, o2, k2 = dict(cards), dict(orients), dict(cands)
                    c2[s] = row[:p] + row[p + 1:]
                    o2[s] = orients[s][:p] + orients[s][p + 1:]
                    k2[s] = cands[s][:p] + cands[s][p + 1:]
                    grids.append(self._grid(c2, o2, k2, (("extra", s, p + 1),), n=n,
                                            repair_cost=self._drop_cost(s, p, row),
                                            target=target))
        # with several wrong rows, the first one aligned has little to go by: each of them
        # goes first once (the others then follow it)
        for first in wrong_length if len(wrong_length) > 1 else [None]:
            for aligned in self._aligned_grids(cards, orients, cands, wrong_length, target,
                                               first):
                if all(g.repairs != aligned.repairs for g in grids):
                    grids.append(aligned)
        return grids

    def _aligned_grids(self, cards: dict[Seat, list[Card | None]],
                       orients: dict[Seat, list[Orientation]],
                       cands: dict[Seat, list[tuple[Card, ...]]], wrong_length: list[Seat],
                       target: int, first: Seat | None = None, alternatives: bool = True
                       ) -> list[_Grid]:
        """Every row of the wrong length aligned with the rows of the right one.

        Each wrong row in turn (``first``, else the least wrong, first) is matched against
        what the rows already aligned say about each trick, leaving out the cards (and
        leaving empty the tricks) that make it fit best - any number of them, in any rows,
        where ``_grids``'s exhaustive repairs stop at one card in one row.

        The first grid is that alignment. Where a row whose faces were read could be aligned
        nearly as well in another way (a missing card of a run of like cards, whose faces
        then fall into other tricks), each such way, with the other rows as aligned, follows
        as a grid of its own, its repairs dearer by what it costs more: the orientations can
        hardly tell them apart, the play through the rules can - it is taken only when the
        play fits it better.
        """
        n = min(target, self.game.hand_size)
        if not wrong_length or n <= 0:
            return []
        confidence = {s: [e.confidence for e in self.obs.rows.get(s, [])] for s in self.seats}
        refs = {s: orients[s] for s in self.seats if len(orients.get(s, ())) == target}
        ref_cards = {s: cards[s] for s in refs}
        order = sorted(wrong_length, key=lambda s: (s != first, abs(len(orients[s]) - target), s))
        new_cards = {s: list(cards[s][:n]) for s in self.seats}
        new_orients = {s: list(orients[s][:n]) for s in self.seats}
        new_cands = {s: list(cands[s][:n]) for s in self.seats}
        done: dict[Seat, tuple[list[int | None], list[int]]] = {}

        def evidence(s: Seat) -> tuple[list[Orientation | None], list[Suit | None]]:
            others = {r: col for r, col in refs.items() if r != s}
            expected = [self._expected(s, i, others) for i in range(n)]
            suits = [_common_suit([col[i] for r, col in ref_cards.items() if r != s
                                   and i < len(col)]) for i in range(n)]
            return expected, suits

        def place(s: Seat, places: list[int | None]) -> None:
            new_cards[s] = [cards[s][k] if k is not None else None for k in places]
            new_orients[s] = [orients[s][k] if k is not None else UNKNOWN for k in places]
            new_cands[s] = [cands[s][k] if k is not None else () for k in places]

        # Every row is aligned with the rows already aligned (with nothing to go by, the
        # first keeps its surest cards), then each once more with all the others.
        for s in order + [s for s in order if len(order) > 1]:
            expected, suits = evidence(s)
            places, dropped = done[s] = _align(orients[s], confidence[s], expected,
                                               cards[s], suits)
            place(s, places)
            refs[s] = new_orients[s]
            ref_cards[s] = new_cards[s]

        def grid(worse: float = 0.0) -> _Grid:
            repairs: list[tuple[str, Seat, int]] = []
            cost = worse
            for s in order:
                places, dropped = done[s]
                repairs += [("extra", s, k + 1) for k in dropped]
                repairs += [("gap", s, i + 1) for i, k in enumerate(places) if k is None]
                cost += sum(self._drop_cost(s, k, cards[s]) for k in dropped)
                cost += ALIGN_GAP * sum(k is None for k in places)
            return self._grid(new_cards, new_orients, new_cands, tuple(repairs), n=n,
                              repair_cost=cost, target=target)

        grids = [grid()]
        seen = {_grid_content(grids[0])}
        for s in order if alternatives else []:
            if all(c is None for c in cards[s]):
                continue  # face down: the orientations are all there is to align by
            best = done[s]
            expected, suits = evidence(s)
            for worse, places, dropped in _align_alternatives(
                    orients[s], confidence[s], expected, cards[s], suits):
                done[s] = (places, dropped)
                place(s, places)
                g = grid(max(worse, ALIGN_ALTERNATIVE_PREMIUM))
                if _grid_content(g) not in seen:
                    seen.add(_grid_content(g))
                    grids.append(g)
            done[s] = best
            place(s, best[0])
        return grids

    def _drop_cost(self, seat: Seat, k: int, row: list[Card | None]) -> float:
        """The alignment's price of leaving out ``seat``'s card at index ``k`` (``row``: its
        faces as counted)."""
        entries = self.obs.rows.get(seat, [])
        confidence = entries[k].confidence if k < len(entries) else None
        return _drop_cost(confidence, row[k] if k < len(row) else None)

    def _expected(self, seat: Seat, i: int, refs: dict[Seat, list[Orientation]]
                  ) -> Orientation | None:
        """How ``seat``'s card of trick ``i`` should lie by what the rows in ``refs`` say of
        the trick (the same reading as :meth:`_verdict`); None when they do not tell
        (unread, disagreeing, or not enough rows)."""
        shown = {s: refs[s][i] if s != seat and s in refs and i < len(refs[s]) else UNKNOWN
                 for s in self.seats}
        verdict = self._verdict(shown)
        if verdict.conflict:
            return None
        wants = {self.game.orientation(seat, w) for w in verdict.winners}
        return wants.pop() if len(wants) == 1 else None

    def _try_swaps(self, chain: _Chain, contract: Contract | None) -> _Chain:
        """Exchange two adjacent cards of a row when that removes several contradictions."""
        if contract is None:
            contract = self.game.contract_for_trump(chain.trump)
        for _ in range(2):
            if chain.score < SWAP_MIN_SCORE:
                break
            grid = chain.grid
            # the hypothesis played under the contract the swaps are tried with
            base = chain if chain.contract == contract else \
                self._run_chain(grid, chain.trump, chain.first, contract)
            found: list[tuple[float, _Grid]] = []
            for s in self.seats:
                row = grid.cards[s]
                for p in range(min(len(row), grid.n_tricks) - 1):
                    if row[p] is None or row[p + 1] is None:
                        continue
                    g2 = self._swapped(grid, s, p)
                    found.append((self._swapped_score(base, g2, p)
                                  if g2.n_tricks == grid.n_tricks else
                                  self._run_chain(g2, chain.trump, chain.first, contract).score,
                                  g2))
            if not found:
                break
            best_score, best = min(found, key=lambda f: f[0])
            if chain.score - best_score < SWAP_MIN_GAIN or \
                    sum(score == best_score for score, _ in found) > 1:
                break
            chain = self._run_chain(best, chain.trump, chain.first, contract)
        return chain

    def _try_shift(self, chain: _Chain, cards: dict[Seat, list[Card | None]],
                   orients: dict[Seat, list[Orientation]],
                   cands: dict[Seat, list[tuple[Card, ...]]], wrong_length: list[Seat],
                   target: int) -> _Chain:
        """Face-up rows of the right length aligned with the others too, when that removes
        several contradictions the rows as read leave: a box between two cards and a card
        the camera missed keep a row's length but shift the cards between them by a trick."""
        if chain.score < SWAP_MIN_SCORE or len(chain.first) != 1:
            return chain
        faced = [s for s in self.seats if s not in wrong_length and
                 sum(c is not None for c in cards[s]) >= 3]
        if not faced:
            return chain
        grids = self._aligned_grids(cards, orients, cands, wrong_length + faced, target,
                                    alternatives=False)
        grid = grids[0] if grids else None
        if grid is None or not any(r[1] in faced for r in grid.repairs):
            return chain
        shifted = self._run_chain(grid, chain.trump, chain.first, chain.contract)
        if chain.score - shifted.score < SWAP_MIN_GAIN:
            return chain
        self._ties = []  # the hypotheses as good as the rows as read are worse than this
        return shifted

    def _length_issues(self, chain: _Chain, wrong_length: list[Seat], lengths: dict[Seat, int],
                       target: int, complete: bool) -> None:
        g = self.game
        tied = [c for c in self._ties] + [chain]
        for s in wrong_length:
            n = lengths[s]
            what = "a full hand" if complete else "the other rows"
            if n > g.hand_size:
                what = f"a hand of {g.hand_size}"
            msg = f"{s}: row has {n} card{'s' if n != 1 else ''}, expected {target} ({what})"
            own = [r for r in chain.grid.repairs if r[1] == s and r[0] in ("gap", "extra")]
            places = sorted({r[2] for c in tied for r in c.grid.repairs
                             if r[1] == s and r[0] in ("gap", "extra")})
            kind = "missing" if n < target else "extra"
            trick = None
            positions: tuple[int, ...] = ()
            if len(own) > 1 and places == sorted({r[2] for r in own}):
                extra = sorted(r[2] for r in own if r[0] == "extra")
                positions = tuple(extra)
                gaps = sorted(r[2] for r in own if r[0] == "gap")
                parts = []
                if extra:
                    parts.append(f"the card{'s' if len(extra) > 1 else ''} at position"
                                 f"{'s' if len(extra) > 1 else ''} "
                                 f"{', '.join(map(str, extra))} seem{'' if len(extra) > 1 else 's'}"
                                 " to be extra")
                if gaps:
                    parts.append(f"the card{'s' if len(gaps) > 1 else ''} of trick"
                                 f"{'s' if len(gaps) > 1 else ''} {', '.join(map(str, gaps))} "
                                 f"seem{'' if len(gaps) > 1 else 's'} to be missing")
                msg += "; " + " and ".join(parts) + " (the rest of the row then fits the play)"
            elif len(places) == 1:
                trick = places[0]
                where = (f"the card of trick {trick} seems to be missing" if kind == "missing"
                         else f"the card at position {trick} seems to be extra")
                if kind == "extra" and all(r[0] == "extra" for r in own):
                    positions = (trick,)
                msg += f"; {where} (the rest of the row then fits the play)"
            elif places:
                msg += f"; the {kind} card is at one of positions " + \
                       ", ".join(map(str, places))
            self.issues.append(Issue(IssueKind.ROW_LENGTH, s, trick, msg, positions=positions))
        moved = sorted({r[1] for r in chain.grid.repairs
                        if r[0] in ("gap", "extra") and r[1] not in wrong_length})
        for s in moved:  # a face-up row of the right length that fits only shifted
            extra = sorted(r[2] for r in chain.grid.repairs if r[1] == s and r[0] == "extra")
            gaps = sorted(r[2] for r in chain.grid.repairs if r[1] == s and r[0] == "gap")
            ss = "s" if len(extra) > 1 else ""
            gs = "s" if len(gaps) > 1 else ""
            self.issues.append(Issue(
                IssueKind.OUT_OF_PLACE, s, gaps[0] if gaps else None,
                f"{s}: the card{ss} at position{ss} {', '.join(map(str, extra))} "
                f"seem{'' if ss else 's'} not to belong to the play and the card{gs} of "
                f"trick{gs} {', '.join(map(str, gaps))} to be missing - the row has the "
                f"right length, but its cards fit the play only so", positions=tuple(extra)))
        for kind, s, p in chain.grid.repairs:
            if kind == "swap":
                c = chain.grid.cards[s]
                self.issues.append(Issue(
                    IssueKind.OUT_OF_PLACE, s, p,
                    f"{s} trick {p}: {c[p]} and {c[p - 1]} lie in the wrong order in the row; "
                    f"the play fits with {c[p - 1]} in trick {p} and {c[p]} in trick {p + 1}"))

    # ----------------------------------------------------------------------------- evidence
    def _realigned(self, target: int) -> frozenset[Seat]:
        """The rows read with a length other than ``target``: where they hold a card is the
        alignment's guess, so what they show of a trick is the weakest evidence there."""
        return frozenset(s for s in self.seats if len(self.obs.rows.get(s, ())) != target)

    def _verdict(self, orient: dict[Seat, Orientation],
                 weak: frozenset[Seat] = frozenset()) -> _Verdict:
        seats = self.seats
        if self.game.partnership:
            votes: dict[str, list[Seat]] = {"NS": [], "EW": []}
            for s, o in orient.items():
                if o is UNKNOWN:
                    continue
                won_side = s.side if o is WON else ("EW" if s.side == "NS" else "NS")
                votes[won_side].append(s)
            if votes["NS"] and votes["EW"]:
                a, b = votes["NS"], votes["EW"]
                dissenter = None
                if len(a) == 1 and len(b) >= 3:
                    dissenter = a[0]
                elif len(b) == 1 and len(a) >= 3:
                    dissenter = b[0]
                if dissenter is not None:  # three rows against one: the three carry the trick
                    side = "EW" if dissenter in a else "NS"
                    return _Verdict(frozenset(s for s in seats if s.side == side), True,
                                    dissenter)
                return _Verdict(frozenset(seats), True, dissenter)
            for side in ("NS", "EW"):
                if votes[side]:
                    return _Verdict(frozenset(s for s in seats if s.side == side), False, None)
            return _Verdict(frozenset(seats), False, None)
        won = [s for s in seats if orient[s] is WON]
        unknown = [s for s in seats if orient[s] is UNKNOWN]
        if len(won) == 1:
            return _Verdict(frozenset(won), False, None)
        doubtful = [s for s in seats if s in weak and orient[s] is not UNKNOWN]
        if not unknown and len(doubtful) == 1:
            # one trick-taker too many or none at all, and one of the readings comes from a
            # row whose alignment is a guess: that one is wrong, the others carry the trick
            odd = doubtful[0]
            rest = [s for s in won if s != odd] if orient[odd] is WON else won + [odd]
            if len(rest) == 1:
                return _Verdict(frozenset(rest), True, odd)
        if len(won) > 1:
            return _Verdict(frozenset(won), True, None)
        if unknown:
            return _Verdict(frozenset(unknown), False, None)
        return _Verdict(frozenset(seats), True, None)

    def _mismatches(self, grid: _Grid, i: int, winner: Seat) -> list[tuple[Seat, Orientation]]:
        g = self.game
        out = []
        for s, o in grid.trick_orients[i].items():
            if o is UNKNOWN:
                continue
            want = g.orientation(s, winner)
            if o is not want:
                out.append((s, want))
        return out

    # ----------------------------------------------------------------------------- chains
    def _run_chain(self, grid: _Grid, trump: Suit | None, first: frozenset[Seat],
                   contract: Contract) -> _Chain:
        """Play the rows through under one hypothesis; the score counts contradictions.

        Steps are memoised by (trick, possible leaders): hypotheses that differ only in the
        first leader usually meet after a trick or two and then share the rest of the work.
        """
        memo = grid.memo
        steps: list[_Step] = []
        points: list[float] = []
        leaders = first
        for i in range(grid.n_tricks):
            key = (trump, contract, i, leaders)
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = self._step(grid, i, leaders, trump, contract)
            steps.append(hit[0])
            points.append(hit[1])
            leaders = hit[0].winners
        return _Chain(trump, first, steps, sum(points), grid, contract, points)

    def _swapped(self, grid: _Grid, s: Seat, p: int) -> _Grid:
        """``grid`` with the cards of ``s``'s row at ``p`` and ``p + 1`` exchanged, as
        :meth:`_grid` builds it (only the two tricks are worked out again)."""
        def swap(col: list[Any]) -> list[Any]:
            return col[:p] + [col[p + 1], col[p]] + col[p + 2:]

        c2, o2, k2 = dict(grid.cards), dict(grid.orients), dict(grid.candidates)
        c2[s], o2[s], k2[s] = swap(grid.cards[s]), swap(grid.orients[s]), swap(grid.candidates[s])
        repairs = grid.repairs + (("swap", s, p + 1),)
        if grid.n_tricks != self.n_tricks:
            return self._grid(c2, o2, k2, repairs, repair_cost=grid.repair_cost,
                              target=grid.target)
        trick_cards, trick_orients = list(grid.trick_cards), list(grid.trick_orients)
        verdicts, trick_cands = list(grid.verdicts), list(grid.trick_candidates)
        weak = self._realigned(grid.target)
        for i in (p, p + 1):
            trick_cards[i], trick_orients[i], trick_cands[i], verdicts[i] = \
                self._trick(c2, o2, k2, i, weak)
        return _Grid(cards=c2, orients=o2, n_tricks=grid.n_tricks, trick_cards=trick_cards,
                     trick_orients=trick_orients, verdicts=verdicts, candidates=k2,
                     trick_candidates=trick_cands, repairs=repairs,
                     repair_cost=grid.repair_cost, target=grid.target)

    def _swapped_score(self, chain: _Chain, grid: _Grid, p: int) -> float:
        """The score of ``chain``'s hypothesis on ``grid``, which differs from the chain's
        only in tricks ``p`` and ``p + 1`` (two cards of a row exchanged).

        The tricks before them play as in the chain (a trick depends on its own cards, its
        leaders, and the set of cards each row still holds); from the first trick after
        them that is led as in the chain, so does the rest.
        """
        old = chain.steps
        leaders = chain.first if p == 0 else old[p - 1].winners
        score = sum(chain.points[:p])
        for i in range(p, grid.n_tricks):
            if i >= p + 2 and leaders == old[i - 1].winners:
                return score + sum(chain.points[i:])
            step, points = self._step(grid, i, leaders, chain.trump, chain.contract)
            score += points
            leaders = step.winners
        return score

    def _step(self, grid: _Grid, i: int, leaders: frozenset[Seat], trump: Suit | None,
              contract: Contract) -> tuple[_Step, float]:
        """One trick under one hypothesis: its verdict and how many contradictions it costs."""
        g = self.game
        orders = self.orders
        score = 0.0
        tc = grid.trick_cards[i]
        complete = all(c is not None for c in tc.values())
        verdict = grid.verdicts[i]
        revokes: list[Issue] = []
        step: _Step
        if complete:
            options: dict[Seat, tuple[Seat, list[tuple[Seat, Orientation]]]] = {}
            for ld in leaders:
                order = orders[ld]
                cs = [tc[s] for s in order]
                w = order[g.winning_index(cs, trump)]  # type: ignore[arg-type]
                options[ld] = (w, self._mismatches(grid, i, w))
            best = min(len(m) for _, m in options.values())
            kept = [ld for ld, (_, m) in options.items() if len(m) == best]
            if len(kept) < len(options):
                leaders = frozenset(kept)
            winners = frozenset(options[ld][0] for ld in kept)
            sides = {g.side(w) for w in winners}
            shown = self._by_orientation(leaders, verdict, revokes) \
                if self.faces_read and best >= MISREAD_MISMATCHES else None
            if shown is not None and shown.side is not None:
                # the rows agree on a winner that two or more of them would have to lie
                # against: one face misread, not two players turning their cards wrong
                step = shown
            elif len(winners) == 1:
                w = next(iter(winners))
                step = _Step(leaders, w, winners, g.side(w), "cards", (),
                             options[kept[0]][1], revokes)
            elif len(sides) == 1:
                side = next(iter(sides))
                step = _Step(leaders, None, winners, side, "cards", (),
                             options[kept[0]][1], revokes)
            else:
                step = _Step(leaders, None, winners, None, "none",
                             tuple(sorted(sides)), [], revokes)
            score += best
        elif len(leaders) == 1 and grid.trick_candidates[i]:
            leader = next(iter(leaders))
            filled, taker, missed = self._settle_faces(grid, i, leader, trump, contract)
            if taker is not None:
                step = _Step(leaders, taker, frozenset((taker,)), g.side(taker), "cards", (), [],
                             revokes, filled)
            else:
                step = self._by_orientation(leaders, verdict, revokes)
                score += CANDIDATE_MISS if missed else 0.0
                if verdict.conflict:
                    score += 1
        else:
            step = self._by_orientation(leaders, verdict, revokes)
            if verdict.conflict:
                score += 1
        if len(leaders) == 1:
            revokes.extend(self._revokes(grid, i, next(iter(leaders)), contract,
                                         {**tc, **step.filled}))
            score += REVOKE_WEIGHT * len(revokes)
        return step, score

    def _by_orientation(self, leaders: frozenset[Seat], verdict: _Verdict,
                        revokes: list[Issue]) -> _Step:
        """A trick not every card of which is known: the orientations decide, if they agree."""
        g = self.game
        sides = {g.side(w) for w in verdict.winners}
        if (not verdict.conflict or verdict.dissenter is not None) and len(sides) == 1:
            side = next(iter(sides))
            winner = next(iter(verdict.winners)) if len(verdict.winners) == 1 else None
            return _Step(leaders, winner, verdict.winners, side, "orientation", (), [], revokes)
        return _Step(leaders, None, verdict.winners, None, "none",
                     tuple(s for s in g.sides(self.seats) if s in sides), [], revokes)

    def _settle_faces(self, grid: _Grid, i: int, leader: Seat, trump: Suit | None,
                      contract: Contract) -> tuple[dict[Seat, Card], Seat | None, bool]:
        """The unread faces of trick ``i`` settled by the rules, the winner they give, and
        whether no combination fits.

        Every combination of the candidates of the trick's unread faces is played out: the
        winner the cards give must be the one every orientation shows, and no card may be a
        revoke. Exactly one combination fitting, the others ruled out, settles the faces;
        several leave them unread (the orientations still decide the trick); none at all is
        evidence against this trump or leader, the true cards being usually among the
        candidates.
        """
        g = self.game
        tc = grid.trick_cards[i]
        unread = [s for s in self.seats if tc[s] is None]
        options = [grid.trick_candidates[i].get(s, ()) for s in unread]
        if not unread or not all(options) or \
                math.prod(len(o) for o in options) > MAX_CANDIDATE_COMBINATIONS:
            return {}, None, False
        order = self.orders[leader]
        fits: list[tuple[dict[Seat, Card], Seat]] = []
        tried = 0
        for combo in itertools.product(*options):
            if len(set(combo)) < len(combo):
                continue
            tried += 1
            full = {**tc, **dict(zip(unread, combo, strict=True))}
            w = order[g.winning_index([full[s] for s in order], trump)]  # type: ignore[misc]
            if self._mismatches(grid, i, w) or self._revokes(grid, i, leader, contract, full):
                continue
            fits.append((dict(zip(unread, combo, strict=True)), w))
            if len(fits) > 1:
                return {}, None, False
        if not fits:
            return {}, None, True
        # one fitting combination settles the faces only when the rules ruled others out
        if tried == 1:
            return {}, None, False
        return fits[0][0], fits[0][1], False

    def _revokes(self, grid: _Grid, i: int, leader: Seat, contract: Contract,
                 tc: dict[Seat, Card | None] | None = None) -> list[Issue]:
        g = self.game
        tc = grid.trick_cards[i] if tc is None else tc
        lead = tc[leader]
        if lead is None:
            return []
        out = []
        trump = g.trump(contract)
        led_suit = g.follow_suit(lead, trump)
        for s in self.orders[leader][1:]:
            c = tc[s]
            if c is None or g.follow_suit(c, trump) == led_suit:
                continue  # following suit is always allowed
            later = [x for x in grid.cards[s][i + 1:] if x is not None]
            if not later:
                continue
            legal = g.legal_cards((c, *later), (lead,), contract)
            if c in legal:
                continue
            shown = sorted((x for x in legal if x != c), reverse=True)
            proof = shown[0] if shown else None
            where = ""
            if proof is not None:
                pos = grid.cards[s].index(proof, i + 1) + 1
                where = f" but still held {proof} (played at trick {pos})"
            must = "follow suit"
            if proof is not None and g.follow_suit(proof, trump) != led_suit:
                must = "trump"
            out.append(Issue(
                IssueKind.REVOKE, s, i + 1,
                f"{s} trick {i + 1}: played {c} to {leader}'s lead of {lead}{where}; "
                f"he had to {must}"))
        return out

    def _first_candidates(self) -> tuple[frozenset[Seat], str]:
        g, obs = self.game, self.obs
        if obs.first_leader is not None and obs.first_leader in self.seats:
            return frozenset((obs.first_leader,)), "given"
        try:
            first = g.first_leader(dealer=obs.dealer, contract=obs.contract, seats=self.seats)
        except (ValueError, KeyError):
            return frozenset(self.seats), "unknown"
        return frozenset((first,)), "given"

    def _choose_chain(self, grids: list[_Grid]
                      ) -> tuple[Inference, Inference, _Chain, Contract | None, Seat | None]:
        g, obs = self.game, self.obs
        if obs.contract is not None:
            trumps: tuple[Suit | None, ...] = (g.trump(obs.contract),)
            trump_given = True
        else:
            trumps = g.trump_candidates()
            trump_given = False
        firsts, first_source = self._first_candidates()
        if obs.first_leader is not None and obs.first_leader not in self.seats:
            self.notes.append(f"first leader {obs.first_leader} has no row; ignored")
        any_cards = any(c is not None for tc in grids[0].trick_cards for c in tc.values())
        if not any_cards:
            trumps = trumps[:1]

        declarer = obs.contract.declarer if obs.contract is not None else None
        chains: list[_Chain] = []
        if len(firsts) == 1 or not any_cards:
            first_sets = [firsts]
        else:
            first_sets = [frozenset((s,)) for s in sorted(firsts)]
        for tr in trumps:
            contract = obs.contract if trump_given else g.contract_for_trump(tr, declarer)
            assert contract is not None
            for fs in first_sets:
                for grid in grids:
                    chains.append(self._run_chain(grid, tr, fs, contract))
        chains = self._with_deduced_faces(chains)

        best = _best(chains)
        weights = [math.exp(-EVIDENCE_WEIGHT * (c.score - best.score)) for c in chains]
        total = sum(weights)

        def infer(key, source_if_single: str) -> Inference:  # type: ignore[no-untyped-def]
            shares: dict[str, float] = {}
            for c, w in zip(chains, weights, strict=True):
                k = key(c)
                shares[k] = shares.get(k, 0.0) + w / total
            if len(shares) == 1:
                value = next(iter(shares))
                if source_if_single == "given":
                    return Inference(value, "given", 1.0)
                return Inference(None, "unknown")
            top = key(best)
            if not any_cards or max(shares.values()) - min(shares.values()) < 1e-9:
                return Inference(None, "unknown", None,
                                 {k: round(v, 3) for k, v in shares.items()})
            return Inference(top, "inferred", round(shares[top], 3),
                             {k: round(v, 3) for k, v in shares.items() if k != top})

        trump_info = infer(lambda c: _trump_name(c.trump), "given" if trump_given else "x")
        if len(first_sets) == 1:
            f = next(iter(firsts)) if len(firsts) == 1 else None
            leader_info = (Inference(f.name, first_source, 1.0) if f is not None
                           else Inference(None, "unknown"))
        else:
            leader_info = infer(lambda c: next(iter(c.first)).name, "x")
        if trump_given:
            contract = obs.contract
        elif trump_info.value is not None:
            contract = g.contract_for_trump(best.trump, declarer)
        else:
            contract = None

        # Hypotheses as good as the best one that disagree about a trick make it undetermined.
        ties = [c for c in _tied(chains, best) if c is not best]
        self._ties = ties
        first_leader: Seat | None = None
        if len(best.first) == 1 and all(c.first == best.first for c in ties):
            first_leader = next(iter(best.first))
        return trump_info, leader_info, best, contract, first_leader

    def _with_deduced_faces(self, chains: list[_Chain]) -> list[_Chain]:
        """The hypotheses played again with the unread faces the whole deal leaves one card
        for (``vision.deduce``): the places that every way of filling them, under every best
        hypothesis (trump, first leader), fills alike. Unchanged when the best hypotheses
        need different alignments of the rows or the search is too wide to finish."""
        best = _best(chains)
        grid = best.grid
        tied = _tied(chains, best)
        n = grid.n_tricks
        rows = {s: list(grid.cards[s][:n]) + [None] * (n - len(grid.cards[s])) for s in self.seats}
        places = [(s, i) for s in self.seats for i in range(n)]
        read = sum(rows[s][i] is not None for s, i in places)
        if any(c.grid is not grid or len(c.first) != 1 for c in tied) or not places or \
                read < DEDUCE_MIN_READ * len(places) or read == len(places):
            return chains
        found = []
        budget = DEDUCE_BUDGET
        weighed = {(s, i): h.read for s in self.seats for i, h in enumerate(grid.candidates[s][:n])
                   if rows[s][i] is None and isinstance(h, _Hesitation) and h.read}
        for c in tied:
            d = deduce_unread(
                self.game, self.seats, rows, next(iter(c.first)), c.contract,
                agreed=[None if v.conflict else v.winners for v in grid.verdicts],
                mismatches=lambda i, w: len(self._mismatches(grid, i, w)),
                allowed_revokes=frozenset((r.seat, r.trick - 1) for st in c.steps
                                          for r in st.revokes if r.seat is not None and r.trick),
                budget=budget, candidates=weighed)
            budget -= d.tried
            if d.status == "too wide" or (d.status == "several" and d.cost == d.floor
                                          and not d.likely):
                return chains  # out of time, or nothing any hypothesis could agree on
            if d.status != "none":
                found.append(d)
        cheapest = min((d.cost for d in found), default=0)
        found = [d for d in found if d.cost == cheapest]
        if not found:
            return chains
        filling = found[0].named()
        for d in found[1:]:
            names = d.named()
            filling = {p: card for p, card in filling.items() if names.get(p) == card}
        if not filling:
            return chains
        likely = {p: min(d.likely[p][1] for d in found if p in d.likely)
                  for p in filling if any(p in d.likely for d in found)}
        for (s, i), card in filling.items():
            rows[s][i] = card
        filled = self._grid(rows, grid.orients, grid.candidates, grid.repairs, n=n,
                            repair_cost=grid.repair_cost, target=grid.target)
        self.deduced, self.likely = filling, likely
        return [self._run_chain(filled, c.trump, c.first, c.contract) if c.grid is grid else c
                for c in chains]

    # ----------------------------------------------------------------------------- output
    def _tricks_from(self, chain: _Chain) -> tuple[list[TrickReport], list[int]]:
        g = self.game
        tricks: list[TrickReport] = []
        undetermined: list[int] = []
        ties = [c for c in self._ties if len(c.steps) == len(chain.steps) and (
                c.grid.repairs == chain.grid.repairs
                or not any(r[0] == "swap" for r in chain.grid.repairs))]
        for i, st in enumerate(chain.steps):
            winner, side, evidence, candidates = st.winner, st.side, st.evidence, st.candidates
            leader = next(iter(st.leaders)) if len(st.leaders) == 1 else None
            cards = {**chain.grid.trick_cards[i], **st.filled}
            for other in ties:
                ot = other.steps[i]
                if ot.side != side:
                    sides = {x for x in (side, ot.side) if x is not None}
                    sides |= set(candidates) | set(ot.candidates)
                    winner, side, evidence = None, None, "none"
                    candidates = tuple(s for s in g.sides(self.seats) if s in sides)
                elif ot.winner != winner:
                    winner = None
                if len(ot.leaders) != 1 or next(iter(ot.leaders)) != leader:
                    leader = None
                for s, c in {**other.grid.trick_cards[i], **ot.filled}.items():
                    if c != cards[s]:
                        cards[s] = None
            if side is None:
                undetermined.append(i + 1)
            tricks.append(TrickReport(
                number=i + 1, leader=leader, winner=winner, side=side,
                cards=cards, orientations=dict(chain.grid.trick_orients[i]),
                evidence=evidence, candidates=candidates))
        return tricks, undetermined

    def _orientation_issues(self, chain: _Chain, tricks: list[TrickReport]) -> None:
        for st, t in zip(chain.steps, tricks, strict=True):
            if t.evidence == "cards":
                who = t.winner.name if t.winner is not None else t.side
                for s, want in st.mismatches:
                    self.issues.append(Issue(
                        IssueKind.WRONG_ORIENTATION, s, t.number,
                        f"{s} trick {t.number}: card lies {_other(want)} but"
                        f" the cards say {who} took the trick; it should lie {want.value}",
                        expected=want))
                continue
            v = chain.grid.verdicts[t.number - 1]
            if t.evidence == "orientation" and all(c is not None for c in t.cards.values()):
                self.notes.append(
                    f"trick {t.number}: the cards as read would give the trick to another "
                    f"{'side' if self.game.partnership else 'player'} than the rows, which "
                    "agree - a face was more likely misread than two cards turned the wrong way")
            if v.conflict:
                shown = " ".join(f"{s}:{o.value}" for s, o in t.orientations.items())
                cand = " or ".join(t.candidates) if t.candidates else "?"
                extra = f"; {v.dissenter}'s card is the odd one out" if v.dissenter else ""
                if t.side is not None and v.dissenter is not None:
                    cand = f"{t.side}, as the other three rows say"
                self.issues.append(Issue(
                    IssueKind.ORIENTATION_CONFLICT, v.dissenter, t.number,
                    f"trick {t.number}: rows disagree ({shown}); won by {cand}{extra}"))

    def _with_settled_faces(self, chain: _Chain, tricks: list[TrickReport]
                            ) -> dict[Seat, list[Card | None]]:
        """The rows' cards with the faces the rules settled (each one noted)."""
        cards = {s: list(col) for s, col in chain.grid.cards.items()}
        for st, t in zip(chain.steps, tricks, strict=True):
            for s, c in st.filled.items():
                if t.cards.get(s) != c:
                    continue  # an equally good hypothesis settles it otherwise
                cards[s][t.number - 1] = c
                others = [x for x in chain.grid.trick_candidates[t.number - 1].get(s, ())
                          if x != c]
                maybe = " or ".join(map(str, [c, *others])) if others else f"perhaps {c}"
                self.notes.append(f"{s} trick {t.number}: face not read for sure ({maybe}); "
                                  f"{c} is the one that fits the play")
        return cards

    def _hands(self, cards: dict[Seat, list[Card | None]]
               ) -> dict[Seat, tuple[Card, ...]] | None:
        g = self.game
        if any(len(cards[s]) != g.hand_size for s in self.seats):
            return None
        known = [c for s in self.seats for c in cards[s] if c is not None]
        if len(set(known)) != len(known):
            return None
        missing = [(s, i) for s in self.seats for i, c in enumerate(cards[s]) if c is None]
        if missing:
            seen = set(known)
            unseen = [c for c in g.deck if c not in seen]
            if not (g.n_players == 4 and len(missing) == 1 and len(unseen) == 1):
                return None
            s, i = missing[0]
            self.notes.append(f"{s} trick {i + 1}: card not seen; it must be {unseen[0]}, "
                              f"the only card of the deck not seen")
            filled = {s2: list(col) for s2, col in cards.items()}
            filled[s][i] = unseen[0]
            cards = filled
        return {s: tuple(sorted((c for c in cards[s] if c is not None), reverse=True))
                for s in self.seats}


def _best(chains: list[_Chain]) -> _Chain:
    """The hypothesis with the fewest contradictions; among those, the cheapest repairs."""
    return min(chains, key=lambda c: (c.score, c.grid.repair_cost))


def _tied(chains: list[_Chain], best: _Chain) -> list[_Chain]:
    """The hypotheses (``best`` among them) as good as ``best``: as few contradictions, and
    repairs not dearer by more than :data:`REPAIR_TIE`."""
    return [c for c in chains if c.score == best.score
            and c.grid.repair_cost <= best.grid.repair_cost + REPAIR_TIE]


def _common_suit(cards: list[Card | None]) -> Suit | None:
    """The suit of all the read cards among ``cards``, when there are two or more."""
    suits = {c.suit for c in cards if c is not None}
    return suits.pop() if len(suits) == 1 and sum(c is not None for c in cards) >= 2 else None


def _drop_cost(confidence: float | None, face: Card | None) -> float:
    """The alignment's price of leaving a row's card out: dearer the surer its orientation
    was read, and dearer still when its face was read."""
    sure = 0.5 if confidence is None else min(max(float(confidence), 0.0), 1.0)
    return ALIGN_DROP + ALIGN_DROP_SURE * sure + (ALIGN_DROP_READ if face is not None else 0.0)


def _align_table(orients: list[Orientation], confidence: list[float | None],
                 expected: list[Orientation | None], cards: list[Card | None] | None,
                 suits: list[Suit | None] | None
                 ) -> tuple[list[list[float]], list[list[str]], list[list[float]], list[float]]:
    """The edit-distance table of :func:`_align`: the least cost of reaching each (cards
    placed, tricks filled), the move that reached it, and the prices of placing each card
    in each trick and of leaving each card out."""
    n, m = len(orients), len(expected)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    move = [[""] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    faces = (list(cards[:n]) if cards is not None else []) + [None] * n
    drop = [_drop_cost(c, faces[k]) for k, c in
            enumerate(list(confidence[:n]) + [None] * (n - len(confidence)))]
    want = suits if suits is not None else [None] * m
    match = [[(ALIGN_UNKNOWN if o is UNKNOWN else
               (0.0 if e is None or o is e else ALIGN_MISMATCH))
              + (ALIGN_OFF_SUIT if faces[k] is not None and w is not None
                 and faces[k].suit is not w else 0.0)  # type: ignore[union-attr]
              for e, w in zip(expected, want, strict=True)]
             for k, o in enumerate(orients)]
    for k in range(n + 1):
        row, nxt = cost[k], cost[k + 1] if k < n else None
        for i in range(m + 1):
            here = row[i]
            if here == inf:
                continue
            if nxt is not None:
                if i < m and here + match[k][i] < nxt[i + 1]:
                    nxt[i + 1] = here + match[k][i]
                    move[k + 1][i + 1] = "match"
                if here + drop[k] < nxt[i]:
                    nxt[i] = here + drop[k]
                    move[k + 1][i] = "drop"
            if i < m and here + ALIGN_GAP < row[i + 1]:
                row[i + 1] = here + ALIGN_GAP
                move[k][i + 1] = "gap"
    return cost, move, match, drop


def _align(orients: list[Orientation], confidence: list[float | None],
           expected: list[Orientation | None], cards: list[Card | None] | None = None,
           suits: list[Suit | None] | None = None) -> tuple[list[int | None], list[int]]:
    """Best monotone matching of a row's cards to the tricks' expected orientations (and,
    where the faces were read, to the suit the trick's other cards share: ``suits``).

    Returns, per trick, the index of the row card placed there (None: a gap) and the indexes
    of the cards left out. Edit distance: each card is matched, dropped or each trick left
    empty, at the ``ALIGN_*`` costs.
    """
    _, move, _, _ = _align_table(orients, confidence, expected, cards, suits)
    n, m = len(orients), len(expected)
    places: list[int | None] = [None] * m
    dropped: list[int] = []
    k, i = n, m
    while k or i:
        step = move[k][i]
        if step == "match":
            k, i = k - 1, i - 1
            places[i] = k
        elif step == "drop":
            k -= 1
            dropped.append(k)
        else:
            i -= 1
    return places, sorted(dropped)


def _align_alternatives(orients: list[Orientation], confidence: list[float | None],
                        expected: list[Orientation | None], cards: list[Card | None],
                        suits: list[Suit | None]
                        ) -> list[tuple[float, list[int | None], list[int]]]:
    """The alignments of :func:`_align` that cost at most ``ALIGN_ALTERNATIVE_MARGIN`` more
    than the best, cheapest first, at most ``ALIGN_ALTERNATIVES`` of them (the best itself
    among them), each with what it costs more than the best."""
    cost, _, match, drop = _align_table(orients, confidence, expected, cards, suits)
    n, m = len(orients), len(expected)
    limit = cost[n][m] + ALIGN_ALTERNATIVE_MARGIN + 1e-9
    found: list[tuple[float, list[int | None], list[int]]] = []
    budget = [ALIGN_SEARCH_STEPS]

    def walk(k: int, i: int, acc: float, places: list[int | None], dropped: list[int]) -> None:
        # backwards from the end; every step keeps the whole path within the limit
        budget[0] -= 1
        if budget[0] < 0:
            return
        if k == 0 and i == 0:
            found.append((acc, list(places), sorted(dropped)))
            return
        if k and i and cost[k - 1][i - 1] + match[k - 1][i - 1] + acc <= limit:
            places[i - 1] = k - 1
            walk(k - 1, i - 1, acc + match[k - 1][i - 1], places, dropped)
            places[i - 1] = None
        if k and cost[k - 1][i] + drop[k - 1] + acc <= limit:
            dropped.append(k - 1)
            walk(k - 1, i, acc + drop[k - 1], places, dropped)
            dropped.pop()
        if i and cost[k][i - 1] + ALIGN_GAP + acc <= limit:
            walk(k, i - 1, acc + ALIGN_GAP, places, dropped)

    walk(n, m, 0.0, [None] * m, [])
    found.sort(key=lambda f: f[0])
    return [(max(0.0, c - cost[n][m]), p, d) for c, p, d in found[:ALIGN_ALTERNATIVES]]


def _grid_content(grid: _Grid) -> tuple[object, ...]:
    """What a grid says (its cards and orientations per seat): two alignments that place a
    row's gap at different cards of a run of like ones say the same."""
    return tuple((s, tuple(grid.cards[s]), tuple(grid.orients[s])) for s in sorted(grid.cards))


def _other(o: Orientation) -> str:
    return "lost" if o is WON else "won"


__all__ = ["Inference", "Issue", "IssueKind", "Report", "TrickReport", "reconstruct"]
