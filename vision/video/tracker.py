"""Per-table tracker: turns a stream of table readings into play events.

The tracker sees only :class:`~vision.table.reading.TableReading` values - from the real photo
pipeline or from rendered ground truth, it cannot tell - each with the time it was taken.
Hands and arms cover cards for seconds, detections flicker, so nothing is believed from one
frame: a face-up card in front of a player, or a new card at the end of his row, becomes an
event only once it has been seen over at least ``confirm_s`` seconds in at least
``min_frames`` readings. A card that vanishes is not taken back; evidence that is not
confirmed is forgotten after ``forget_s`` seconds without being seen.

Two kinds of evidence carry the play:

* a face-up card in front of seat X is X's play to the next trick he has not played yet
  (as long as his previous card still lies face up it is that card, seen again);
* a new card at position *k* of X's face-down row means X has turned his card of trick *k*,
  with the orientation read from it. A row also fills in a play that was never seen face up.
  Rows cannot run ahead of the play: nobody turns his card before every card of that trick
  is down, and a row card seen once and then not again as often is forgotten.

Nobody leads to the next trick before the last one is gathered: a card laid while another
player's card of the same trick still lies face up belongs to that trick (a row card that stood
for his play there was a ghost), and a player's new card, once the others have turned the last
trick and his own last card is out of sight, is his next play even if his row never showed the
last one (a hidden row must not stall his plays).

The order of the cards within a trick is the order in which they appeared; it is checked
against the leader the rules give (first leader from dealer/contract, then the previous trick's
winner). The winner comes from the rules when the cards and the trump are known, otherwise from
the orientations in the rows. One card turned the wrong way always leaves the rows
contradicting each other (two "won" cards, none, or partners disagreeing); rows that agree with
each other on another winner than the cards mean a face was misread, so the trick is revised
from the rows (a second ``trick_complete`` with ``winner_source="rows"``) instead of blaming
several players. Alerts are raised as soon as the evidence is confirmed: a card turned the
wrong way (before the rest of its trick when the trick's faces are settled, and withdrawn if
the trick's rows then agree with it), a revoke proven by a later card (not when the other
followers played the revoker's suit too and held the suit led: then the card led was misread),
a row with the wrong number of cards. When a video ends, row cards still waiting for a face
that no later frame can show are taken as they stand (``end_of_stream``). Once every trick of a
deal is in, faces never read are named where the rest of the deal and the rules leave one card
(:mod:`vision.deduce`), and their tricks are reported again with those seats ``deduced``; a
face read as its twin (the same rank in the other suit of its colour) is named back the same
way where the deck shows it, and revoke alerts the cards so named disprove are withdrawn.

A session holds many deals: when the table stays cleared the deal in progress is closed, kept
as a :class:`ClosedDeal` in ``closed_deals`` (its rows for the report), and the next one
begins. The dealer, first leader and contract given to the tracker are the facts of the deal
in progress when it starts (or is restored); the deals after it start without them - the
next deal has its own contract, and a trump carried over would name wrong winners.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vision.cards import Card, Suit
from vision.contract import Contract
from vision.deduce import deduce_unread
from vision.errors import TrickvisionError
from vision.games import Game, find_game
from vision.reconstruct import reconstruct
from vision.record import Observation, Orientation, RowEntry
from vision.seats import SEATS, Seat
from vision.table.reading import SeenCard, TableReading
from vision.video.events import (
    Alert,
    AlertWithdrawn,
    CardLaid,
    CardsTurned,
    DealFinished,
    Event,
    TrickComplete,
)
from vision.video.evidence import (
    SIDES,
    UNSET,
    Evidence,
    Play,
    SoftVotes,
    TrickState,
    agrees,
    cards_in,
    contested,
    majority,
    names,
    other_card,
    outvotes,
    plays_to_judge,
    read_both_ways,
    read_once,
    sureness,
    take_as,
    turn_time,
)

_SAME_CARD_GAP_S = 1.0  # a face read again within this time of the last sighting: same card
#: ... or within this time, when his row read whole in the same look does not hold that card
#: yet (a row is slow to show a turn - hands, a card missed - but not by a whole trick)
_TURN_LAG_S = 2.0
#: Before the deal's last trick, no row seen (while cards lie face up, or with none between
#: two tricks) is a new deal only after this many times ``new_deal_s``.
_PLAYING_NEW_DEAL_FACTOR = 5.0
#: A revoke is alerted only on a card read at least this often (and never as the suit led).
_REVOKE_MIN_READS = 2
#: A card turned against the winner its trick's faces name is checked as soon as it is read
#: again, before the other players have turned theirs, when every face of the trick was read
#: as its card at least this often and no card any reading named at a place would give the
#: trick to another player; otherwise it waits for the other rows to show that the rows
#: cannot all be right. (Live, four sets of 12 held-out videos - 6701, 10001, 10301, 10401:
#: alerts within 1 s of their moment 62 -> 76 of 90, none missed or standing false more,
#: 6 -> 7 raised and withdrawn; faces read only ever as one card: 74 of 90. Checked at the
#: turn itself, without the second reading: 76 of 90 with 9 withdrawn - cards read while still
#: being moved; with 2 readings instead of 3, no more within 1 s on 10001-10012, one more
#: withdrawn.)
_SETTLED_READS = 3
#: ... and the winner is looked at under at most this many ways of taking the faces' readings.
_SETTLED_MAX_READINGS = 64
#: A card read this often at a seat outweighs the same card read once in his earlier trick.
_OUTREAD_VOTES = 3
#: ... and a card read at a seat this many times as often as another player's play of a trick
#: already turned was read as it shows that play was misread.
_OUTREAD_FACTOR = 2
#: Naming unread faces from the rest of the deal rests on every other card being read right.
#: It is tried only for a deal with at most this many unread faces, and believed only when no
#: filling leaves more than this many row cards lying against the winners: over 96 recorded
#: videos it named 8 cards, 4 of them wrong - 3 in a deal with 8 unread faces (a revoke made
#: with one of them), 1 where a card misread elsewhere took the unread card's name (rows at
#: odds with the winners in 4 tricks); with these limits 3 named, all right. Since 2026-12-02
#: (last session) a lone row card at odds in a trick whose faces were all read (a row misread,
#: no sign of a face misread) is not counted, and 3 unread faces are tried: over 181 recorded
#: videos cards named 10 -> 14, all right (bridge 9402: 3 faces never read, 4 rows misread).
_DEDUCE_MAX_UNREAD = 3
_DEDUCE_MAX_MISFITS = 2
#: A face left unread because it read as a card another play was taken for is that card
#: when read so at least this often, and that play was also read as a card nobody played
#: (:meth:`TableTracker._settle_blocked_readings`).
_BLOCKED_MIN_READS = 2


@dataclass(frozen=True)
class ClosedDeal:
    """A deal of the session that is over: its number and its rows and plays as the tracker
    confirmed them."""

    deal: int
    observation: Observation


class TableTracker:
    """Follows one table through a session; ``update(reading, t) -> list[Event]``.

    ``fps`` is the rate at which readings arrive (used to turn ``confirm_s`` into a minimum
    number of readings). ``seats`` names the active seats (three-handed games; learned from the
    first trick when omitted); ``dealer``, ``first_leader`` and ``contract`` let the rules give
    the leader and the winner - without a contract the trump is inferred from tricks whose
    winner the rows show.
    """

    def __init__(
        self,
        game: str | Game,
        fps: float,
        *,
        seats: Sequence[Seat] | None = None,
        dealer: Seat | None = None,
        first_leader: Seat | None = None,
        contract: Contract | None = None,
        confirm_s: float = 0.3,
        forget_s: float = 5.0,
        new_deal_s: float = 2.0,
        unread_wait_s: float = 3.0,
        min_card_confidence: float = 0.5,
    ) -> None:
        self.game = find_game(game)
        if not (0 < fps <= 1000):
            raise TrickvisionError(f"fps must be in (0, 1000], got {fps}")
        if confirm_s < 0:
            raise TrickvisionError(f"confirm_s must be >= 0 seconds, got {confirm_s}")
        if forget_s <= confirm_s:
            raise TrickvisionError(
                f"forget_s must be greater than confirm_s ({confirm_s} s), got {forget_s}")
        if unread_wait_s < 0:
            raise TrickvisionError(f"unread_wait_s must be >= 0 seconds, got {unread_wait_s}")
        if new_deal_s <= 0:
            raise TrickvisionError(f"new_deal_s must be > 0 seconds, got {new_deal_s}")
        self.fps = float(fps)
        self.confirm_s = float(confirm_s)
        self.forget_s = float(forget_s)
        self.new_deal_s = float(new_deal_s)
        self.unread_wait_s = float(unread_wait_s)
        # at least two separate readings; more at high frame rates, where still frames count
        self.min_frames = max(2, math.ceil(confirm_s * fps / 4.0))
        self.min_card_confidence = min_card_confidence
        self.fixed_seats = tuple(sorted(seats)) if seats is not None else None
        if seats is not None and len(self.fixed_seats or ()) != self.game.n_players:
            raise TrickvisionError(
                f"{self.game.name} is played by {self.game.n_players} players, "
                f"got seats {' '.join(s.name for s in seats)}")
        self.dealer = dealer
        self.given_first_leader = first_leader
        self.contract = contract
        self.deal = 1
        #: the deals of this session that are over, oldest first
        self.closed_deals: list[ClosedDeal] = []
        self.faces_read = False
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Forget the deal in progress (the session's deal counter keeps running)."""
        if self.game.n_players == 4:
            self.seats: tuple[Seat, ...] | None = SEATS
        else:
            self.seats = self.fixed_seats
        self.tricks: dict[int, TrickState] = {}
        self.row_len: dict[Seat, int] = {s: 0 for s in SEATS}
        self._row_ev: dict[tuple[Seat, int], Evidence] = {}
        # orientation readings of confirmed row cards, from confirmation on (seat, trick)
        self._turn_votes: dict[tuple[Seat, int], Counter] = {}
        self._doubtful: set[tuple[Seat, int]] = set()  # a wrong turn not yet read surely
        self._doubtful_rows: set[int] = set()  # tricks whose rows disagree, not yet surely
        # row cards turned before the rest of their trick, to check against its faces' winner
        # once read again (:meth:`_check_early_turns`): their readings when they were turned
        self._early_turns: dict[tuple[Seat, int], Counter] = {}
        self._face_ev: dict[Seat, Evidence] = {}
        # faces read at a seat as a card another player's turned play was taken for, turned
        # away as misreadings until they outnumber that play's readings: (seat, card) -> them
        self._outread: dict[tuple[Seat, Card], Evidence] = {}
        # a face seen once at a seat while the other cards of its trick lay face up: his card
        # of that trick (None: unread) if the next trick begins without one confirmed
        # (seat, trick) -> (card, t)
        self._glimpses: dict[tuple[Seat, int], tuple[Card | None, float]] = {}
        self._row_read: dict[Seat, tuple[float, int]] = {}  # last fresh reading: (t, length)
        # when a fresh reading last showed his row whole and no longer than confirmed
        self._row_whole_t: dict[Seat, float] = {}
        self._row_grew_t: dict[Seat, float] = {}  # when his row's last card was confirmed
        self._short_alerted: dict[Seat, int] = {}  # cards missing from a row, already alerted
        self._long_alerted: set[Seat] = set()  # rows alerted as too long (by either rule)
        self._emitted: set[tuple] = set()
        self._reported: dict[int, TrickComplete] = {}  # each trick's last report
        # wrong-orientation alerts raised and not withdrawn: (seat, trick) -> the alert
        self._standing: dict[tuple[Seat, int], Alert] = {}
        self._empty_since: float | None = None  # no row seen since
        self._bare_since: float | None = None  # ... nor any card face up
        self._finished = False
        self._play_over = False  # every card of the deal is in (its end, or the video's)
        self._deduced = False  # the unread faces of the deal were named (as far as they can)
        if self.contract is not None:
            self.trumps: list[Suit | None] = [self.game.trump(self.contract)]
        else:
            self.trumps = list(self.game.trump_candidates())
        self.last_t = -math.inf
        self._fresh = True
        # the times of this fresh look and of the one before it: a face seen in the look
        # before this one was in sight all along, however long ago that look was
        self._look_t = -math.inf
        self._prev_look_t = -math.inf

    def _trick(self, k: int) -> TrickState:
        if k not in self.tricks:
            self.tricks[k] = TrickState(k)
        return self.tricks[k]

    def plays_of(self, seat: Seat) -> int:
        """How many tricks ``seat`` has played to (highest trick number with his card)."""
        return max((k for k, tr in self.tricks.items() if seat in tr.plays), default=0)

    @property
    def trump_known(self) -> bool:
        return len(self.trumps) == 1

    def _contract_for(self, trump: Suit | None) -> Contract:
        if self.contract is not None and self.game.trump(self.contract) == trump:
            return self.contract
        return self.game.contract_for_trump(trump)

    def _expected_leader(self, k: int) -> Seat | None:
        if k == 1:
            if self.given_first_leader is not None:
                return self.given_first_leader
            if self.seats is None:
                return None
            try:
                return self.game.first_leader(dealer=self.dealer, contract=self.contract,
                                              seats=self.seats)
            except (TrickvisionError, ValueError):
                return None
        prev = self.tricks.get(k - 1)
        return None if prev is None else prev.winner

    # ------------------------------------------------------------------ input
    def update(self, reading: TableReading, t: float, *, fresh: bool = True) -> list[Event]:
        """Take one reading at time ``t`` (seconds, non-decreasing); return new events.

        ``fresh=False`` says the reading is the last one again, for a frame the change gate
        found unchanged: it extends how long things have been seen, but does not vote again
        on what they are (a misreading must not win by being repeated).
        """
        out: list[Event] = []
        self._fresh = fresh
        self.last_t = max(self.last_t, t)
        if fresh and t > self._look_t:
            self._prev_look_t, self._look_t = self._look_t, t
        faceup, rows, unsure, stray = self._extract(reading)
        self._place_wandering_faces(faceup, stray)
        if not self.faces_read and any(c is not None for c in faceup.values()):
            self.faces_read = True  # faces are being read here: worth waiting for unread ones
        if self._check_new_deal(faceup, rows, t, out):
            return out
        for seat, (length, orients) in rows.items():
            if fresh:
                self._row_read[seat] = (t, length)
                if length == self.row_len[seat] and all(p in orients for p in range(1, length + 1)):
                    self._row_whole_t[seat] = t
            self._see_row(seat, length, orients, t, out, faceup.get(seat, UNSET))
        for seat in SEATS:
            # a face not seen for forget_s is forgotten; one never read, also when a face
            # shows there again: that is a new sighting, not more of the old one (preferans
            # 10603: an unread "face" in W's row, seen once as his hand turned his card, was
            # taken 5.25 s later, with his next face, for a card laid then - and every later
            # card of his stood a trick late). A face read as a card keeps its reading: it
            # is that card, wherever it lay meanwhile (l'hombre 10610: W's C4, read once in
            # the trick, then hidden by his row for 5.4 s)
            ev = self._face_ev.get(seat)
            if ev is not None and t - ev.last_t > self.forget_s and (
                    seat not in faceup or ev.best() is None):
                del self._face_ev[seat]
            if seat in faceup:
                self._see_faceup(seat, faceup[seat], t, out, unsure.get(seat, ()))
        for key in [k for k, ev in self._row_ev.items() if t - ev.last_t > self.forget_s]:
            del self._row_ev[key]
        self._advance(t, out)
        self._check_early_turns(out)
        self._withdraw_disproved(t, out)
        return out

    def _check_early_turns(self, out: list[Event]) -> None:
        """Check the row cards turned while others of their trick were not, once read again
        the same way: a card turned against the winner its trick's settled faces name
        (:meth:`_faces_settled`) is alerted then, not once the last player has turned his -
        live, that can be seconds later. (Read again: the readings that confirm a turn are
        often taken while the hand still moves the card, and the next one shows how it
        lies.) A card read otherwise since, or whose trick has been turned whole by then, is
        left to :meth:`_turned`, which weighs the rows together."""
        for (seat, k), then in sorted(self._early_turns.items(),
                                      key=lambda item: (item[0][1], item[0][0])):
            tr = self.tricks.get(k)
            if tr is None or tr.turned_done or seat not in tr.turned or tr.winner is None \
                    or tr.winner_source != "rules":
                del self._early_turns[(seat, k)]
                continue
            since = self._turn_votes.get((seat, k), Counter()) - then
            if not since:
                continue
            del self._early_turns[(seat, k)]
            if set(since) == {tr.turned[seat][0]}:
                self._check_orientation(tr, seat, out)

    def _place_wandering_faces(self, faceup: dict[Seat, Card | None],
                               stray: dict[Seat, Card]) -> None:
        """A face read before one player (or at a side where nobody sits, ``stray``) as the
        very card just seen, and not yet confirmed, before another - whose place shows no face
        now - is that card, placed at the wrong seat (a card laid toward the table's middle
        lies near two sides): it is moved back to the seat it was seen at first (one deck:
        one card, one place)."""
        for seat, card in [*faceup.items(), *stray.items()]:
            if card is None or (ev := self._face_ev.get(seat)) is not None and ev.best() == card:
                continue
            owners = [s for s, ev in self._face_ev.items()
                      if s != seat and s not in faceup and ev.best() == card]
            if len(owners) == 1:
                faceup.pop(seat, None)
                faceup[owners[0]] = card

    def _extract(self, reading: TableReading
                 ) -> tuple[dict[Seat, Card | None],
                            dict[Seat, tuple[int, dict[int, Orientation]]],
                            dict[Seat, tuple[tuple[Card, float], ...]],
                            dict[Seat, Card]]:
        """Per seat: the face-up card (None: not read for sure), the row (length and
        orientations by position), for a face not read the reader's candidates; and the
        faces read for sure at sides where nobody of this game sits."""
        faceup: dict[Seat, Card | None] = {}
        unsure: dict[Seat, tuple[tuple[Card, float], ...]] = {}
        stray: dict[Seat, Card] = {}

        def sure_card(sc: SeenCard) -> Card | None:
            """The face's card when read surely and in this game's deck."""
            card = sc.card if sc.card_confidence >= self.min_card_confidence else None
            return card if card is not None and self.game.in_deck(card) else None

        def see_face(seat: Seat, sc: SeenCard) -> None:
            faceup[seat] = sure_card(sc)
            if faceup[seat] is None:
                # a face named, if less surely than this tracker asks, gives no soft votes:
                # its candidates are only a grey picture's look-alikes of its card
                unsure[seat] = tuple((c, p) for c, p in sc.card_candidates
                                     if self.game.in_deck(c)) if sc.card is None else ()

        for seat, sc in reading.current_trick.items():
            if seat is None or not sc.face_up:
                continue
            if self.seats is not None and seat not in self.seats:
                if (card := sure_card(sc)) is not None:
                    stray[seat] = card
                continue
            see_face(seat, sc)
        rows: dict[Seat, tuple[int, dict[int, Orientation]]] = {}
        for seat, cards in reading.rows.items():
            if self.seats is not None and seat not in self.seats:
                continue
            orients: dict[int, Orientation] = {}
            # A face-up card inside a row shifts the positions after it: count face-down
            # cards only then (otherwise keep the reader's positions, which may have gaps
            # where a hand hides a card).
            renumber = any(sc.face_up for sc in cards)
            down = 0
            for i, sc in enumerate(cards):
                if sc.face_up and sc.card is None and sc.orientation in SIDES and (
                        seat in reading.current_trick
                        or any(not c.face_up for c in cards[i + 1:])
                        or (sc.shows_no_index and down > 0 and self._due_to_turn(seat, down + 1))):
                    # his card of the trick in progress lies before him already, or face-down
                    # cards laid after it cover it, or it lies where the card he has still to
                    # turn goes and shows no index at all: an unread "face" in his row is a
                    # row card taken for a face (a back's pattern)
                    pass
                elif sc.face_up:
                    # During play the rows lie face down; a face-up card "in a row" is the
                    # player's card of the trick in progress (a photo reader that sees no
                    # face-down card at all takes the first trick for face-up rows).
                    if seat not in faceup and (self.seats is None or seat in self.seats):
                        see_face(seat, sc)
                    continue
                down += 1
                pos = down if renumber or sc.row_position is None else sc.row_position
                orients[pos] = sc.orientation
            length = max(orients, default=0)
            rows[seat] = (length, orients)
        return faceup, rows, unsure, stray

    def _seats_in_play(self) -> tuple[Seat, ...]:
        """The seats given, or else those whose rows hold cards (in table order)."""
        return self.seats or tuple(s for s in SEATS if self.row_len[s])

    def _due_to_turn(self, seat: Seat, number: int) -> bool:
        """Whether trick ``number`` is complete, ``seat`` played to it and has not turned his
        card yet: his next row card is that one, face down."""
        tr = self.tricks.get(number)
        return tr is not None and tr.completed and seat in tr.plays and seat not in tr.turned

    # ------------------------------------------------------------------ new deal
    def _check_new_deal(self, faceup: dict, rows: dict, t: float, out: list[Event]) -> bool:
        # Rows only grow during a deal; all of them gone for a while means the cards were
        # gathered for the next deal (face-up cards may already be the new first trick).
        empty = all(length == 0 for length, _ in rows.values())
        started = any(self.row_len.values())
        if not (empty and started):
            self._empty_since = self._bare_since = None
            return False
        if self._empty_since is None:
            self._empty_since = t
        # ... but cards lying face up in front of the players before the deal is over are a
        # trick being played: the rows are out of sight, not gathered (a bridge video's rows
        # went unseen for 2 s after its first trick and the deal was cut there) - the time
        # counts from when no card lies face up any more, unless the rows stay unseen far
        # longer (an unfinished deal's cards gathered and the next one begun)
        if not self._finished and any(c is not None for c in faceup.values()):
            self._bare_since = None
        elif self._bare_since is None:
            self._bare_since = t
        # ... and before the deal's last trick a table bare of rows and faces for a moment
        # is a pause between tricks whose rows the camera does not see (plain backs on a
        # cloth of their colour: preferans 9304 was cut after its trick 6 so): only after
        # it does a bare table end the deal early; before, the rows' long absence alone
        bare = self._finished and self._bare_since is not None and \
            t - self._bare_since >= self.new_deal_s
        if not bare and t - self._empty_since < self.new_deal_s * _PLAYING_NEW_DEAL_FACTOR:
            return False
        if not self._finished:
            self._finish_deal(self._empty_since, out, cleared=True)
        self.closed_deals.append(ClosedDeal(self.deal, self.observation()))
        self.deal += 1
        # the facts given were the last deal's: the next one has its own dealer and contract
        self.dealer = self.given_first_leader = self.contract = None
        self.reset()
        return True

    # ------------------------------------------------------------------ rows
    def _see_row(self, seat: Seat, length: int, orients: dict[int, Orientation], t: float,
                 out: list[Event], face: object = UNSET) -> None:
        confirmed = self.row_len[seat]
        if length > confirmed:
            length, orients = self._without_inserted_card(seat, length, orients)
        elif length == confirmed:
            length, orients = self._with_missing_card(seat, length, orients)
        if self._fresh and length in (confirmed, confirmed + 1) and \
                all(p in orients for p in range(1, confirmed + 1)):
            self._vote_on_turned(seat, confirmed, orients, out)
        for pos in range(confirmed + 1, length + 1):
            key = (seat, pos)
            o = orients.get(pos)
            ev = self._row_ev.get(key)
            if ev is None:
                ev = self._row_ev[key] = Evidence(first_t=t, last_t=t)
                if o is not None:
                    ev.votes[o] += 1
            elif o is not None and self._fresh:
                ev.see(t, o)
            else:
                ev.see(t, fresh=self._fresh)
        if self._fresh and length >= confirmed:
            # The row is in view up to its known end and stops before these positions: a
            # card seen there earlier, as often as not seen since, was a hand or a card in
            # passing (it is seen afresh if it is really there).
            for key in [k for k in self._row_ev if k[0] == seat and k[1] > length]:
                ev = self._row_ev[key]
                ev.misses += 1
                if ev.misses >= ev.n:
                    del self._row_ev[key]
        self._confirm_row(seat, t, out, face)

    def _confirm_row(self, seat: Seat, t: float, out: list[Event],
                     face: object = UNSET, wait_for_faces: bool = True) -> None:
        """Confirm the row's new positions in order; a row only grows by persistent
        evidence. ``wait_for_faces=False``: a row card whose face was never seen need not
        wait ``unread_wait_s`` (the video has ended, no face can show any more)."""
        while True:
            pos = self.row_len[seat] + 1
            ev = self._row_ev.get((seat, pos))
            if ev is None:
                break
            pending = self.tricks.get(pos)
            play = pending.plays.get(seat) if pending is not None else None
            if play is not None and face is not UNSET and face is not None and \
                    face == majority(play):
                # his card of that trick still lies face up: not turned yet - a row card now
                # is a box counted twice (or a card the row strip found on the cloth): neither
                # the way it lies nor how long it has been seen says anything of his turn,
                # which is read from the looks after his card is gone
                ev.votes.clear()
                ev.first_t, ev.n = t, 1
                break
            if not self._persistent(ev) or not ev.decided():
                break
            if not self._trick_down(seat, pos):
                break  # nobody turns his card before the trick is complete
            if self.faces_read and (pending is None or seat not in pending.plays) and \
                    seat not in self._face_ev:
                if ev.first_t < self._row_grew_t.get(seat, -math.inf):
                    # seen since before his row's last card was confirmed: a card counted
                    # twice then, not his card of a trick played since - start it afresh
                    ev.first_t, ev.n = t, 1
                    break
                if ev.last_t - ev.first_t < self.unread_wait_s and wait_for_faces:
                    # faces are seen here, yet his card of that trick never was: a row card
                    # without one must last longer before it stands for a play
                    break
            if play is None and wait_for_faces and self._trick_in_play(pending, seat, t, face):
                # the trick is still being played and he has no play to it yet: a row card
                # now is a box counted twice, or his card turned before the others' - either
                # way it waits for them; the way it lay so far says nothing of his turn
                ev.votes.clear()
                break
            if face is not UNSET and (play is None or face is None) and \
                    pending is not None and any(s not in pending.turned
                                                for s in pending.plays if s != seat):
                # a face-up card before him (not read, or no play of his known yet) while
                # the others' cards of that trick still lie face up: his card of it, just
                # laid - the row card is that card counted twice, not a turn
                break
            best = ev.best()
            orientation = best if isinstance(best, Orientation) else Orientation.UNKNOWN
            del self._row_ev[(seat, pos)]
            self.row_len[seat] = pos
            self._row_grew_t[seat] = t
            self._turn_votes[(seat, pos)] = Counter(
                {o: n for o, n in ev.votes.items() if o in SIDES})
            self._on_turned(seat, pos, orientation, ev.first_t, t, out)

    def _trick_in_play(self, pending: TrickState | None, seat: Seat, t: float, face: object
                       ) -> bool:
        """True when the trick ``seat``'s next row card would belong to is still being
        played: he shows a face-up card and nobody has played to it yet (he is leading it),
        or another player's card of it lies face up now and is not turned."""
        if pending is None:
            return face is not UNSET
        return self._on_the_table(pending.number, seat, t)

    def _without_inserted_card(self, seat: Seat, length: int, orients: dict[int, Orientation]
                               ) -> tuple[int, dict[int, Orientation]]:
        """A reading longer than the confirmed row whose known part contradicts what was
        confirmed, and agrees once one card is left out, had a box between two row cards (a
        hand, a reflection, a card counted twice): read it without that card."""
        known = self._confirmed_row(seat)
        if len(orients) != length or not known:
            return length, orients  # gaps where a hand hides a card: positions are unsure
        seq = [orients[p] for p in range(1, length + 1)]
        if agrees(known, seq):
            return length, orients
        for j in range(len(known)):
            cand = seq[:j] + seq[j + 1:]
            if agrees(known, cand):
                return length - 1, {p + 1: o for p, o in enumerate(cand)}
        return length, orients

    def _with_missing_card(self, seat: Seat, length: int, orients: dict[int, Orientation]
                           ) -> tuple[int, dict[int, Orientation]]:
        """Once the next trick has begun, a reading as long as the confirmed row that
        contradicts it in two or more cards, and agrees once an unseen card is put back
        between two of its cards, had two row cards taken for one (a tight row): it shows the
        row one card longer, its last card being the new one. One card read the other way
        is a misreading, not a new card."""
        if length < 3 or len(orients) != length or length + 1 not in self.tricks:
            return length, orients
        known = self._confirmed_row(seat)
        seq = [orients[p] for p in range(1, length + 1)]
        unknown = Orientation.UNKNOWN
        if sum(a is not b and unknown not in (a, b) for a, b in zip(known, seq, strict=True)) < 2:
            return length, orients
        for j in range(length - 1):
            cand = seq[:j] + [unknown] + seq[j:]
            if agrees(known, cand):
                return length + 1, {p + 1: o for p, o in enumerate(cand)}
        return length, orients

    def _confirmed_row(self, seat: Seat) -> list[Orientation]:
        """The orientations of ``seat``'s confirmed row cards, in trick order."""
        return [self.tricks[k].turned[seat][0] if k in self.tricks
                and seat in self.tricks[k].turned else Orientation.UNKNOWN
                for k in range(1, self.row_len[seat] + 1)]

    def _trick_down(self, seat: Seat, k: int) -> bool:
        """True when every other player's card of trick ``k`` is down: seen face up, in his
        row, or being turned into it now (a card whose face was missed still counts)."""
        if self.seats is None:
            return True
        tr = self.tricks.get(k)
        return all((tr is not None and s in tr.plays) or self.row_len[s] >= k
                   or (s, k) in self._row_ev for s in self.seats if s != seat)

    def _persistent(self, ev: Evidence) -> bool:
        return ev.last_t - ev.first_t >= self.confirm_s - 1e-9 and ev.n >= self.min_frames

    def _on_turned(self, seat: Seat, pos: int, orientation: Orientation, t_seen: float,
                   t: float, out: list[Event]) -> None:
        if pos > self.game.hand_size:
            # a deal has no more tricks than cards in a hand: a longer row was misread (a box
            # counted twice, a stray card) - alerted, never a trick of its own
            self._check_row_lengths(seat, pos, t_seen, out)
            return
        tr = self._trick(pos)
        if seat not in tr.plays:
            # Played without our seeing it face up (or not yet confirmed): the row proves it.
            ev = self._face_ev.pop(seat, None)
            card = ev.best() if ev is not None else None
            t_play = ev.first_t if ev is not None else t_seen
            self._lay(seat, pos, card if isinstance(card, Card) else None, t_play, out,
                      votes=ev.votes if ev is not None else None, from_row=ev is None,
                      soft=ev.soft if ev is not None else None,
                      latest=ev.latest if ev is not None else None,
                      blocked=ev.blocked if ev is not None else None)
        else:
            ev = self._face_ev.get(seat)
            play = tr.plays[seat]
            if ev is not None and ev.first_t < t_seen - 1e-6 and \
                    ev.first_t <= max(play.last_seen, play.last_face) + 1e-6:
                # gathered while his previous card still lay face up: a misreading of that
                # card, not evidence of the next one (a card first seen after that one was
                # gone is his next card, even if his row was slow to show the turn)
                del self._face_ev[seat]
        tr.turned[seat] = (orientation, t_seen)
        self._check_row_lengths(seat, pos, t_seen, out)
        if tr.completed and tr.winner is not None and tr.winner_source == "rules":
            if self._rows_contradict_themselves(tr):
                self._check_orientation(tr, seat, out)
            elif self._faces_settled(tr):
                self._early_turns[(seat, pos)] = Counter(self._turn_votes.get((seat, pos), {}))

    def _vote_on_turned(self, seat: Seat, confirmed: int, orients: dict[int, Orientation],
                        out: list[Event]) -> None:
        """The cards of a row stay in view: every fresh reading that shows the whole
        confirmed row votes again on each card's orientation. A card confirmed one way and
        then read the other way at least three times, and in 67 % of its readings, was
        misread at first (the record takes the majority); a wrong turn held in doubt is
        alerted once it is sure."""
        for pos in range(1, confirmed + 1):
            o = orients[pos]
            tr = self.tricks.get(pos)
            if o not in SIDES or tr is None or seat not in tr.turned:
                continue
            votes = self._turn_votes.setdefault((seat, pos), Counter())
            votes[o] += 1
            best = votes.most_common(1)[0][0]
            current, t_seen = tr.turned[seat]
            if best is not current and outvotes(votes, best):
                tr.turned[seat] = (best, t_seen)
                if pos == self.row_len[seat] and tr.turned_done and \
                        tr.winner is not None and tr.winner_source == "rules" and \
                        self._rows_contradict_themselves(tr):
                    # turned unread, or taken the other way on the first readings (the hand
                    # still on it, or before it was turned at all), and read again and again
                    # the other way while it is still the last card of his row (bridge
                    # 10401: N's card read lost twice, then won ten times - a wrong turn
                    # never alerted): checked as any turn, now that it is read. Not a card
                    # later cards lie on: read the other way as the row grows over it, it
                    # raised two false alerts so (6711, 10305).
                    self._doubtful.add((seat, pos))
            if (seat, pos) in self._doubtful and tr.winner is not None:
                self._check_orientation(tr, seat, out)
            if pos in self._doubtful_rows:
                self._check_row_agreement(tr, out)

    def _sure_turn(self, seat: Seat, k: int, o: Orientation) -> bool:
        """The row card was read ``o`` every time (at least twice), or at least three times and
        in 67 % of its readings."""
        votes = self._turn_votes.get((seat, k))
        if not votes:
            return True  # nothing recorded (restored from the store): as confirmed
        if read_both_ways(votes, o):
            return False
        return (votes[o] >= 2 and votes[o] == sum(votes.values())) or outvotes(votes, o)

    def _check_row_lengths(self, seat: Seat, pos: int, t: float, out: list[Event]) -> None:
        if pos > self.game.hand_size and seat not in self._long_alerted:
            self._long_alerted.add(seat)  # once per row: each further box would say it again
            self._alert("row_length", seat, pos, t, out,
                        f"{seat}'s row has {pos} cards, more than the {self.game.hand_size} "
                        f"tricks of {self.game.name}")
        if self.seats is not None:
            others = [self.row_len[s] for s in self.seats if s != seat]
            # a row no longer than the tricks played is not ahead: the others are read short
            done = max((k for k, x in self.tricks.items()
                        if x.completed or len(x.plays) >= len(self.seats)), default=0)
            if others and pos >= max(others) + 2 and pos > done and \
                    seat not in self._long_alerted:
                # once: while the others stay behind, each further card would say it again
                self._long_alerted.add(seat)
                self._alert("row_length", seat, pos, t, out,
                            f"{seat}'s row has {pos} cards while the longest other row has "
                            f"{max(others)}")

    # ------------------------------------------------------------------ face-up cards
    def _see_faceup(self, seat: Seat, card: Card | None, t: float, out: list[Event],
                    candidates: Sequence[tuple[Card, float]] = ()) -> None:
        played = self.plays_of(seat)
        pending = played > self.row_len[seat]
        if pending and (card is not None or not self._next_trick_begun(seat, played)
                        or not self._gathered(seat, played, t)):
            # His last card is not turned yet: this is most likely that card, seen again; its
            # identity is the majority of all readings (a misreading is outvoted). Not a face
            # left unread once that card must have been gathered (his row read short) and
            # another player has laid to the next trick: that is his next card, and its
            # candidates are votes for it.
            last = self.tricks[played].plays[seat]
            # a face read once his unread card is gone with the others of its trick (the next
            # trick begun) is his next card, not that one read at last
            gone = last.card is None and card is not None and \
                t - last.last_seen > _SAME_CARD_GAP_S and self._gathered(seat, played, t)
            same = not gone and (card is None or last.card is None or card == last.card)
            if same:
                last.last_seen = max(last.last_seen, t)
            # another identity read where his card lay a moment ago is that card misread; one
            # read after it has been out of sight a while is his next card, not a vote
            self._soft_vote(last.soft, card, candidates)
            if card is not None and self._fresh and \
                    (same or self._seen_lately(last.last_seen, t)
                     or self._read_in_last_look(last, played, seat)) and \
                    (same or not self._held_by_another_play(played, seat, card)):
                before = majority(last)
                last.votes[card] += 1
                last.latest = card
                last.last_read = t
                if self.tricks[played].completed and majority(last) != before:
                    self._read_again(self.tricks[played], out)
                if last.card is None and not self.tricks[played].completed:
                    last.card = card  # read at last: it may prove an earlier revoke
                    self._check_revokes(seat, t, out)
            if not gone and (card is None or last.card is None or card == last.card):
                return
            if not gone and self._on_the_table(played, seat, t):
                # the other cards of the trick he last played to still lie face up: nobody
                # has gathered it, so the face at his place is still his card of it, misread
                # (no vote: its first readings named it) - not his next card
                last.last_face = t
                return
            if not gone and self._row_whole_t.get(seat) == t and \
                    t - last.last_seen <= _TURN_LAG_S:
                # seen a moment ago, and his row, read whole in this same look, does not hold
                # it yet: that card still lies face up before him, misread (nobody lays his
                # next card before turning his last one) - not his next card
                last.last_face = t
                return
        blocked: Card | None = None
        if card is not None and self._played_before(seat, card, played) and \
                not self._outreads_other_play(seat, card, played, t, out):
            if not self._new_face_misread(seat, card, played):
                return  # a misreading, or a played card seen in passing: not a new play
            # his next card, read as one gone before: a face left unread (the reading is
            # kept apart, for the end of the deal: _settle_blocked_readings)
            blocked, card = card, None
        if card is not None and played > self.row_len[seat] and \
                self.tricks[played].plays[seat].card == card:
            return
        ev = self._face_ev.get(seat)
        if ev is None:
            self._face_ev[seat] = ev = Evidence(first_t=t, last_t=t, votes=Counter([card]),
                                                 latest=card)
            if blocked is not None:
                ev.blocked[blocked] += 1
            self._note_glimpse(seat, card, t)
            self._soft_vote(ev.soft, card, candidates)
            return
        if self._fresh:
            ev.see(t, card)
            if blocked is not None:
                ev.blocked[blocked] += 1
            self._soft_vote(ev.soft, card, candidates)
        else:
            ev.see(t, fresh=False)
        if played > self.row_len[seat] and not self._gathered(seat, played, t):
            return  # a new card while the old one is not yet turned: wait for the row
        if not self._persistent(ev) or not ev.decided():
            return
        best = ev.best()
        if isinstance(best, Card) and self._played_before(seat, best, played):
            # read here before his previous play was known to be that card (it was taken for
            # another at first): those readings were of that card, not of a new one
            del ev.votes[best]
            return
        if best is None and self.faces_read and t - ev.first_t < self.unread_wait_s and \
                ev.soft.best(self._played_cards()) is None:
            # a face not read yet (a hand over it): wait a little for its identity - unless
            # the reader's hesitations over it already name one card of those not played
            # (bridge 10404: S's CQ, read SQ again and again - N's card of trick 7 - and
            # CQ as the other candidate, proved a revoke 3 s late)
            return
        weak = self._weak_earlier_play(seat, best, played) if isinstance(best, Card) else None
        if weak is not None:
            # one deck: he played this card once only. Read here again and again, it is
            # this play; his earlier play, read as it just once (or in a trick whose rows
            # deny it - then only if nothing else was read here), was misread
            old_trick, old_play = weak
            other = any(c is not None and c != best for c in ev.votes)
            if ev.votes[best] < _OUTREAD_VOTES or (other and not read_once(old_play)):
                return
            old_play.card = old_play.latest = None
            old_play.votes.clear()
            self._recomplete(old_trick, out)
        del self._face_ev[seat]
        card = best if isinstance(best, Card) else ev.soft.best(self._played_cards())
        if self._row_card_was_a_ghost(seat, t):
            self._replace_ghost_play(seat, card, ev, t, out)
            return
        k = self._upcoming(seat, played)
        glimpse = self._glimpses.get((seat, k))
        if glimpse is not None and card != glimpse[0] and self._gone_before(k, seat, ev.first_t):
            # first seen after the others' cards of trick k were gathered: his card of the
            # next trick; the face seen once beside them was his card of trick k
            self._lay_glimpsed(k, out, only=seat)
            k += 1
        self._lay(seat, k, card, ev.first_t, out, votes=ev.votes, soft=ev.soft,
                  latest=ev.latest, blocked=ev.blocked, last_read=ev.last_t)

    def _seen_lately(self, seen: float, t: float) -> bool:
        """True when something last seen at ``seen`` was seen within ``_SAME_CARD_GAP_S`` of
        ``t``, or in the look before the one at ``t``: recordings are looked at seconds apart
        at times (l'hombre 11012: N's CQ, read SQ in two looks, then CQ in the next two
        looks, 2.8 s later - those readings were not counted, and the SQ stood)."""
        return t - seen <= _SAME_CARD_GAP_S or self._in_last_look(seen)

    def _in_last_look(self, seen: float) -> bool:
        """True when something last seen at ``seen`` was seen in the look before this one
        (or in this one)."""
        return seen >= self._prev_look_t

    def _upcoming(self, seat: Seat, played: int) -> int:
        """The trick ``seat``'s next card goes to: after his last play (to trick ``played``)
        and after the last card of his row."""
        return max(played, self.row_len[seat]) + 1

    def _note_glimpse(self, seat: Seat, card: Card | None, t: float) -> None:
        """Keep a face read at ``seat`` beside the face-up cards of the trick his next card
        goes to: a face seen once (a hand over it the rest of the time) is still his play,
        read or not."""
        if not self._fresh:
            return
        k = self._upcoming(seat, self.plays_of(seat))
        tr = self.tricks.get(k)
        if tr is None or seat in tr.plays or (seat, k) in self._glimpses:
            return
        if any(s != seat and t - p.last_seen <= _SAME_CARD_GAP_S for s, p in tr.plays.items()):
            self._glimpses[(seat, k)] = (card, t)

    def _on_the_table(self, k: int, seat: Seat, t: float) -> bool:
        """True when another player's card of trick ``k``, not turned, was seen face up lately
        (:meth:`_seen_lately`): the trick still lies on the table."""
        tr = self.tricks.get(k)
        return tr is not None and any(
            s != seat and s not in tr.turned and self._seen_lately(p.last_seen, t)
            for s, p in tr.plays.items())

    def _read_in_last_look(self, play: Play, k: int, seat: Seat) -> bool:
        """True when ``seat``'s ``play`` to trick ``k`` was read in the look before this one
        (as another card, a vote), and so were the others' cards of that trick, not turned:
        the trick lies on the table as it did, and the face at his place is still his card
        (l'hombre 11012: N's CQ, read SQ at first, then CQ in four looks beside the others'
        cards)."""
        tr = self.tricks.get(k)
        return tr is not None and self._in_last_look(play.last_read) and any(
            s != seat and s not in tr.turned and self._in_last_look(p.last_seen)
            for s, p in tr.plays.items())

    def _gone_before(self, k: int, seat: Seat, t: float) -> bool:
        """True when the other players' cards of trick ``k`` were last seen face up well
        before ``t`` (the trick was gathered)."""
        tr = self.tricks.get(k)
        others = [p for s, p in tr.plays.items() if s != seat] if tr is not None else []
        return bool(others) and all(p.last_seen < t - _SAME_CARD_GAP_S for p in others)

    def _lay_glimpsed(self, k: int, out: list[Event], only: Seat | None = None) -> None:
        """Every card of trick ``k`` was played (the next trick has begun, or ``only``'s next
        card appeared after it was gathered): a player whose card of it was never confirmed
        played the face seen once beside its other cards."""
        tr = self.tricks.get(k)
        if tr is None or self.seats is None:
            return
        for seat in self.seats if only is None else (only,):
            glimpse = self._glimpses.get((seat, k))
            if seat in tr.plays or glimpse is None:
                continue
            card, t = glimpse
            if card is not None and self._played_before(seat, card, self.plays_of(seat)):
                continue
            ev = self._face_ev.get(seat)
            blocked = None
            if ev is not None and ev.first_t <= t:
                del self._face_ev[seat]  # that same sighting
                blocked = ev.blocked
            self._lay(seat, k, card, t, out, blocked=blocked)
            if seat in tr.plays:
                tr.plays[seat].last_seen = max(tr.plays[seat].last_seen, t)

    def _played_before(self, seat: Seat, card: Card, played: int) -> bool:
        """True when ``card``, newly seen at ``seat`` (whose last play is to trick
        ``played``), is a card already played: by him before (his card still pending counts
        only as itself); by another player to the trick he last played to (being gathered);
        or by another player to the trick his new card goes to (it lies face up there too);
        or - one deck - by another player to a trick already turned, read the same way every
        time then (a misreading here, or that card in passing). A play of the trick being
        gathered that was read as two cards (:func:`contested`) and last as another one does
        not count: this is more likely his new card, and that play its other card (settled
        by :meth:`_settle_contested_duplicates`); nor does a play of the trick his new card
        goes to that was laid as ``card`` but is read most often as another (preferans
        10603: S's SQ laid as CQ, then read SQ 4 times and CQ twice, kept W's CQ out of the
        trick)."""
        pending = played > self.row_len[seat]
        upcoming = self._upcoming(seat, played)

        def more_likely_another(k: int, p: Play) -> bool:
            """``p``, read as two cards, is more likely its other card than ``card``: read
            last as it (the trick being gathered), or most often (the next trick's)."""
            return (contested(p) and k == played and not pending and card != p.latest) or \
                (k == upcoming and len(p.votes) > 1 and majority(p) != card)

        for k, tr in self.tricks.items():
            for s, p in tr.plays.items():
                if s == seat:
                    if (k < played or not pending) and names(p, card) \
                            and not (k < played and self._weak_witness(tr, p)):
                        return True
                elif k in (played, upcoming) and names(p, card) \
                        and not more_likely_another(k, p):
                    return True
                elif tr.turned_done and majority(p) == card and len(p.votes) == 1 \
                        and p.votes[card] >= 2:
                    return True
        return False

    def _outreads_other_play(self, seat: Seat, card: Card, played: int, t: float,
                             out: list[Event]) -> bool:
        """True when ``card``, read at ``seat`` although another player's play of a trick
        already turned was taken for it, has now been read here so much more often than
        there that the other play was the misreading (one deck: a card in a row cannot show
        face up again). That play is made unread (its trick reported again) and the face here
        goes on as a new card."""
        if not self._fresh:
            return False
        earlier = [(tr, s, p) for tr in self.tricks.values() if tr.turned_done
                   for s, p in tr.plays.items() if s != seat and majority(p) == card]
        if len(earlier) != 1:
            return False
        tr, other_seat, p = earlier[0]
        seen = self._outread.get((seat, card))
        if seen is None:
            seen = self._outread[(seat, card)] = Evidence(first_t=t, last_t=t,
                                                           votes=Counter([card]), latest=card)
        else:
            seen.see(t, card)
        # a play read as two cards (contested) is that card only by its readings as it less
        # those as its other card (bridge 10407: W's CQ read SQ 8 times and CQ 6 held N's SQ
        # off until the next trick began)
        other = other_card(p, card)
        margin = p.votes[card] - (p.votes[other] if other is not None and contested(p) else 0)
        if seen.n < max(_OUTREAD_VOTES, _OUTREAD_FACTOR * margin):
            return False
        if (free := self._free_other_card(tr.number, other_seat, p, card)) is not None:
            take_as(p, card, free)  # its other card, as _settle_contested_duplicates does
        else:
            p.card = p.latest = None
            p.votes.clear()
        self._recomplete(tr, out)
        if self._played_before(seat, card, played):
            return False
        earlier_n = seen.n - 1  # the readings before this one, turned away until now
        ev = self._face_ev.get(seat)
        if ev is None:
            self._face_ev[seat] = Evidence(first_t=seen.first_t, last_t=t, n=earlier_n,
                                            votes=Counter({card: earlier_n}), latest=card)
        else:
            ev.first_t = min(ev.first_t, seen.first_t)
            ev.n += earlier_n
            ev.votes[card] += earlier_n
        del self._outread[(seat, card)]
        return True

    def _new_face_misread(self, seat: Seat, card: Card, played: int) -> bool:
        """True when ``card``, read at ``seat`` whose last card is already in his row, was
        played only to tricks turned already (by him or another player; to the trick he last
        played to, by another player's play read as that card alone): one deck, so the face
        is not that card but one lying at his place - his next card, misread. (His last card
        may still show while he turns it; a card of the next trick lies face up at another
        place; a play of his last trick read as two cards may be that card's, or the
        other's - :meth:`_settle_contested_duplicates` settles it.) Preferans 11302: W's CK, read
        three times at 1.00 nine seconds after trick 6 was turned, whose N's SK had been
        read CK, was dropped as N's card seen in passing."""
        if played > self.row_len[seat]:
            return False
        upcoming = self._upcoming(seat, played)
        gone = False
        for k, tr in self.tricks.items():
            for s, p in tr.plays.items():
                if not names(p, card):
                    continue
                if k > played or k == upcoming or not tr.turned_done or \
                        (k == played and (s == seat or contested(p))):
                    return False
                gone = True
        return gone

    def _weak_witness(self, tr: TrickState, play: Play) -> bool:
        """True when ``play``, of a trick already complete, is a weaker witness than the same
        card read again and again at the same seat later: it rests on one reading of its face
        (the others left it unread), or its trick's rows lie against the winner its faces
        gave in two rows or more (one card turned the wrong way puts one row at odds; two
        say a face was misread)."""
        if not tr.completed:
            return False
        if read_once(play):
            return True
        return tr.turned_done and tr.winner is not None and tr.winner_source == "rules" \
            and self._misfits(tr, tr.winner) >= 2

    def _weak_earlier_play(self, seat: Seat, card: Card, played: int
                           ) -> tuple[TrickState, Play] | None:
        """``seat``'s play before his last one taken for ``card`` on weak evidence
        (:meth:`_weak_witness`), if any."""
        for k, tr in self.tricks.items():
            p = tr.plays.get(seat)
            if p is not None and k < played and names(p, card) \
                    and self._weak_witness(tr, p):
                return tr, p
        return None

    def _soft_vote(self, soft: SoftVotes, card: Card | None,
                   candidates: Sequence[tuple[Card, float]]) -> None:
        """A fresh reading that left the face unread adds its candidates."""
        if card is None and self._fresh:
            soft.add(candidates)

    def _gathered(self, seat: Seat, k: int, t: float) -> bool:
        """True when ``seat``'s card of trick ``k``, not yet seen in his row, must have been
        gathered all the same (his row is hidden or not found): it has been out of sight for a
        while, and every other player has turned his card of that trick or one of them has
        already laid a card to the next trick - or shows a new card face up for it, which
        he would not before the trick was gathered (their rows may be hidden too: waiting
        for each other, none of the new cards would ever be laid)."""
        tr = self.tricks[k]
        if self.seats is None or t - tr.plays[seat].last_seen <= _SAME_CARD_GAP_S:
            return False
        others = [s for s in self.seats if s != seat]
        if all(self.row_len[s] >= k for s in others) or self._next_trick_begun(seat, k):
            return True
        return any(s in tr.plays and (ev := self._face_ev.get(s)) is not None
                   and self._persistent(ev) and isinstance(ev.best(), Card)
                   and ev.first_t > tr.plays[s].last_seen + _SAME_CARD_GAP_S for s in others)

    def _next_trick_begun(self, seat: Seat, k: int) -> bool:
        """True when another player has laid a card to trick ``k + 1``."""
        nxt = self.tricks.get(k + 1)
        return nxt is not None and any(s != seat for s in nxt.plays)

    def _row_card_was_a_ghost(self, seat: Seat, t: float) -> bool:
        """True when ``seat``'s last play stands only on his last row card (never seen face
        up) while another player's card of that trick still lies face up. Nobody leads to the
        next trick before the last one is gathered, so the face-up card now seen is his play
        to that trick and the row card was a ghost (a box counted twice, a hand)."""
        k = self.row_len[seat]
        tr = self.tricks.get(k)
        if tr is None or tr.completed or seat not in tr.plays or not tr.plays[seat].from_row:
            return False
        return any(s != seat and self.row_len[s] < k and t - p.last_seen <= _SAME_CARD_GAP_S
                   for s, p in tr.plays.items())

    def _replace_ghost_play(self, seat: Seat, card: Card | None, ev: Evidence, t: float,
                            out: list[Event]) -> None:
        """His play to the trick of his ghost row card is the face-up card; the row card is
        taken back (it is confirmed again when he really turns his card)."""
        k = self.row_len[seat]
        tr = self.tricks[k]
        known = Counter({c: n for c, n in ev.votes.items() if c is not None})
        tr.plays[seat] = Play(card=card, t=ev.first_t, votes=known, last_seen=t, soft=ev.soft,
                               latest=ev.latest, blocked=Counter(ev.blocked))
        tr.turned.pop(seat, None)
        self.row_len[seat] = k - 1
        self._emit(("laid", k, seat, "face"), CardLaid(t=ev.first_t, deal=self.deal, seat=seat,
                                                       card=card, trick=k), out)
        if card is not None:
            self._check_revokes(seat, t, out)

    def _lay(self, seat: Seat, k: int, card: Card | None, t: float, out: list[Event],
             votes: Counter | None = None, from_row: bool = False,
             soft: SoftVotes | None = None, latest: Card | None = None,
             blocked: Counter | None = None, last_read: float = -math.inf) -> None:
        """Lay ``seat``'s play to trick ``k``; ``last_read``: when its face evidence was last
        read (the play's readings as another card in the next look then still count as its
        votes, :meth:`_read_in_last_look`)."""
        if (self.seats is not None and seat not in self.seats) or k > self.game.hand_size:
            return  # not at this table, or a play after the last trick: a card seen again
        tr = self._trick(k)
        if seat in tr.plays:
            return
        known = Counter({c: n for c, n in (votes or Counter([card])).items() if c is not None})
        tr.plays[seat] = Play(card=card, t=t, votes=known, from_row=from_row,
                               soft=soft if soft is not None else SoftVotes(), latest=latest,
                               blocked=Counter(blocked or ()), last_read=last_read)
        if self.seats is None and len(tr.plays) >= self.game.n_players and k == 1:
            self.seats = tuple(sorted(tr.plays))
        self._emit(("laid", k, seat), CardLaid(t=t, deal=self.deal, seat=seat, card=card,
                                               trick=k), out)
        if card is not None:
            self._check_revokes(seat, t, out)
        if k > 1 and len(tr.plays) == 1:
            self._lay_glimpsed(k - 1, out)

    # ------------------------------------------------------------------ tricks
    def _advance(self, t: float, out: list[Event]) -> None:
        """Complete tricks in order, then turn them, then finish the deal."""
        if self.seats is None:
            return
        k = 1
        while k in self.tricks:
            tr = self.tricks[k]
            prev = self.tricks.get(k - 1)
            if prev is not None and not prev.completed:
                break
            if not tr.completed and len(tr.plays) >= len(self.seats):
                self._complete(tr, out)
                if not tr.completed:
                    # Winner unknown until the rows show it; a later trick waits for it -
                    # unless every player has played to the next trick already (a row read
                    # short may never show this one: it would hold up the rest of the deal)
                    nxt = self.tricks.get(k + 1)
                    if len(tr.turned) >= len(self.seats) or (
                            nxt is not None and len(nxt.plays) >= len(self.seats)):
                        self._complete(tr, out, force=True)
                    else:
                        break
            if tr.completed and not tr.turned_done and len(tr.turned) >= len(self.seats):
                self._turned(tr, out)
            if not tr.completed:
                break
            k += 1
        self._check_unturned(t, out)
        hand = self.game.hand_size
        last = self.tricks.get(hand)
        if last is not None and last.turned_done and not self._finished:
            self._finish_deal(max(o[1] for o in last.turned.values()), out)

    def _play_order(self, tr: TrickState) -> tuple[Seat | None, list[Seat], bool]:
        assert self.seats is not None
        expected = self._expected_leader(tr.number)
        by_time = sorted(tr.plays, key=lambda s: tr.plays[s].t)
        seen_first = by_time[0]
        t0 = tr.plays[seen_first].t
        tied = {s for s in by_time if abs(tr.plays[s].t - t0) < 1e-6}
        agrees = expected is None or expected in tied
        leader = expected if expected is not None else seen_first
        if expected is None and len(tied) > 1:
            # Several appeared at once: pick the one whose rules order fits the times best.
            def misfit(cand: Seat) -> int:
                order = self.game.play_order(cand, self.seats or ())
                return sum(1 for a, b in zip(order, order[1:], strict=False)
                           if tr.plays[a].t > tr.plays[b].t + 1e-6)
            leader = min(sorted(tied), key=misfit)
        return leader, self.game.play_order(leader, self.seats), agrees

    def _complete(self, tr: TrickState, out: list[Event], force: bool = False) -> None:
        """Emit ``tr`` as complete once its winner is known from the rules or from the rows;
        ``force``: complete it all the same, the winner unknown where neither proves one."""
        leader, order, agrees = self._play_order(tr)
        prev = self.tricks.get(tr.number - 1)
        if prev is not None and leader is not None:
            self._winner_from_next_lead(prev, leader, out)
        # the identity most often read while the card lay face up (it may have been
        # misread at first, when it was laid); a face never read for sure, from its candidates
        cards = [self._card_of(tr, s) for s in order]
        winner: Seat | None = None
        source = ""
        if all(c is not None for c in cards) and self.trump_known:
            winner = self._rules_winner(order, cards)
            source = "rules"
        elif len(tr.turned) >= len(self.seats or ()):
            winner = self._winner_from_rows(tr, order, cards)
            source = "rows"
            if winner is None and not force:
                return
        elif not force:
            return
        tr.leader, tr.winner, tr.winner_source, tr.completed = leader, winner, source, True
        tr.order_agrees = agrees
        t_done = max(p.t for p in tr.plays.values())
        if self._empty_since is not None and prev is not None and prev.winner is not None \
                and leader == prev.winner and not set(cards) & self._played_cards(before=tr.number):
            # a trick led by the last one's winner, with cards nobody played yet, goes on
            # with the deal while its rows are out of sight (plain backs on a cloth of their
            # colour): the wait for the cards gathered starts again
            self._empty_since = max(self._empty_since, t_done)
        self._report_trick(tr, ("complete", tr.number), t_done, order, cards, out, agrees)
        self._settle_contested_duplicates(tr, out)
        if source == "rules" and self._rows_contradict_themselves(tr):
            for seat in tr.turned:
                self._check_orientation(tr, seat, out)
        for seat in order:  # a face read only after it was laid may prove an earlier revoke
            self._check_revokes(seat, t_done, out)

    def _free_other_card(self, k: int, seat: Seat, play: Play, card: Card) -> Card | None:
        """The other card ``seat``'s contested play to trick ``k`` (:func:`contested`) was
        read as beside ``card``, when no other play of the deal was taken for it (one deck)."""
        if not contested(play):
            return None
        other = other_card(play, card)
        return None if other is None or other in self._played_cards(but=(k, seat)) else other

    def _settle_contested_duplicates(self, tr: TrickState, out: list[Event]) -> None:
        """One deck: a card of ``tr`` read the same way every time that an earlier trick's
        contested play (read as two cards, see :func:`contested`) was also taken for makes
        that play its other card - if no one else played that one. The earlier trick is
        emitted again (``trick_complete``, its winner by the rules when every card is known)."""
        for play in tr.plays.values():
            card = majority(play)
            if card is None or len(play.votes) != 1:
                continue
            for k, old in self.tricks.items():
                if k >= tr.number or not old.completed:
                    continue
                for s, p in old.plays.items():
                    if majority(p) != card or (other := self._free_other_card(k, s, p, card)) \
                            is None:
                        continue
                    take_as(p, card, other)
                    self._recomplete(old, out)

    def _recomplete(self, tr: TrickState, out: list[Event]) -> None:
        """Emit ``tr`` again after one of its cards changed."""
        if tr.leader is not None:
            # a trick gets its leader on completion (_play_order), once the seats are known
            assert self.seats is not None
            order = self.game.play_order(tr.leader, self.seats)
        else:
            order = list(tr.plays)
        cards = cards_in(tr, order)
        if all(c is not None for c in cards) and self.trump_known and tr.winner_source != "rows":
            tr.winner, tr.winner_source = self._rules_winner(order, cards), "rules"
        elif tr.winner_source == "rules" and self.seats is not None and \
                len(tr.turned) >= len(self.seats):
            # the faces no longer name the winner: the rows do, or nobody
            tr.winner, tr.winner_source = self._winner_from_rows(tr, order, cards), "rows"
        self._report_trick(tr, ("complete", tr.number, "card", tuple(cards), tr.winner),
                           max(p.t for p in tr.plays.values()), order, cards, out)

    def _rules_winner(self, order: list[Seat], cards: list[Card | None]) -> Seat | None:
        """Who won a trick whose cards (in ``order`` of play) are all known, by the rules
        under the trump inferred so far."""
        plays = [(s, c) for s, c in zip(order, cards, strict=True) if c is not None]
        return self.game.trick_winner(plays, self._contract_for(self.trumps[0]))

    def _report_trick(self, tr: TrickState, key: tuple, t: float, order: list[Seat],
                      cards: list[Card | None], out: list[Event], agrees: bool = True) -> None:
        """Emit ``trick_complete`` for ``tr`` as it stands (leader, winner and its source),
        once per ``key``: the first report, or a later one that corrects it."""
        report = TrickComplete(
            t=t, deal=self.deal, number=tr.number, leader=tr.leader, winner=tr.winner,
            cards=tuple((s, c) for s, c in zip(order, cards, strict=True)),
            winner_source=tr.winner_source or "unknown", order_agrees=agrees,
            deduced=tuple(s for s in order if s in tr.deduced))
        if self._emit(key, report, out):
            self._reported[tr.number] = report

    def _card_of(self, tr: TrickState, seat: Seat) -> Card | None:
        """The card ``seat`` played to ``tr``: the identity read most often; for a face never
        read for sure, the card the reader's candidates agreed on over several readings (one
        deck: never a card already played in this deal). Kept as the play's card, so that
        the report and the revoke checks see the same card as the trick."""
        play = tr.plays[seat]
        card = majority(play)
        if card is not None:
            return card
        card = play.soft.best(self._played_cards(but=(tr.number, seat)))
        if card is not None:
            play.card = card
        return card

    def _played_cards(self, but: tuple[int, Seat] | None = None,
                      before: int | None = None) -> set[Card]:
        """The cards known to be played in this deal (except the play ``but``; only in the
        tricks before trick ``before``)."""
        return {c for k, tr in self.tricks.items() if before is None or k < before
                for s, p in tr.plays.items()
                if (k, s) != but and (c := majority(p)) is not None}

    def _row_candidates(self, tr: TrickState, order: list[Seat]) -> list[Seat]:
        """The players whose win every row of ``tr`` shows (bridge: both of a side)."""
        won = {s for s, (o, _) in tr.turned.items() if o is Orientation.WON}
        lost = {s for s, (o, _) in tr.turned.items() if o is Orientation.LOST}
        candidates: list[Seat] = []
        for s in order:
            expect_won = self.game.winners(s, order)
            if all(x in won for x in expect_won) and not (set(order) - expect_won) - lost:
                candidates.append(s)
        return candidates

    def _winner_from_next_lead(self, prev: TrickState, leader: Seat,
                               out: list[Event]) -> None:
        """The winner of a trick leads the next one. A trick left without a winner - its
        rows name a side (bridge), a face was never read to tell the partners apart - is
        won by the partner who led the next trick; so is one whose rows, naming nobody,
        lie against that player in one row only (a face never read and a row misread: 3:1
        in bridge, two or no row won three-handed)."""
        if not prev.completed or prev.winner is not None or prev.leader is None or \
                self.seats is None or len(prev.turned) < len(self.seats):
            return
        order = self.game.play_order(prev.leader, self.seats)
        named = self._row_candidates(prev, order)
        if leader not in named and (named or self._misfits(prev, leader) > 1):
            return
        cards = cards_in(prev, order)
        prev.winner, prev.winner_source = leader, "rows"
        t_turn = turn_time(prev)
        self._report_trick(prev, ("complete", prev.number, "next lead"), t_turn, order, cards,
                           out)
        if leader not in named:
            self._name_odd_row(prev, t_turn, out)

    def _name_odd_row(self, tr: TrickState, t: float, out: list[Event]) -> None:
        """Rows that disagreed named nobody (a seatless alert); the next lead has named the
        winner since, so the one row at odds with him is the card turned wrong: the alert
        becomes his, as far as his readings are sure (:meth:`_check_orientation`)."""
        if ("alert", "wrong_orientation", None, tr.number) not in self._emitted or \
                tr.winner is None:
            return
        odd = self._misfit_seats(tr, tr.winner)
        if len(odd) != 1:
            return
        self._withdraw("wrong_orientation", None, tr.number, t, out,
                       f"{tr.winner} led trick {tr.number + 1}, so won trick {tr.number}: "
                       f"the row at odds is {odd[0]}'s")
        self._check_orientation(tr, odd[0], out)

    def _winner_from_rows(self, tr: TrickState, order: list[Seat],
                          cards: list[Card | None]) -> Seat | None:
        """The winner the orientations show; narrows the trump candidates when cards are known."""
        candidates = self._row_candidates(tr, order)
        if not candidates:
            return None
        if all(c is not None for c in cards):
            plays = [(s, c) for s, c in zip(order, cards, strict=True) if c is not None]
            fits = [tp for tp in self.trumps
                    if self.game.trick_winner(plays, self._contract_for(tp)) in candidates]
            if fits and len(fits) < len(self.trumps):
                self.trumps = fits
            winners = {self.game.trick_winner(plays, self._contract_for(tp)) for tp in fits}
            if len(winners) == 1:
                return winners.pop()
        elif len(candidates) > 1 and (side := plays_to_judge(order, cards, candidates)):
            winners = {self.game.trick_winner(side, self._contract_for(tp)) for tp in self.trumps}
            if len(winners) == 1 and (winner := winners.pop()) in candidates:
                return winner
        if len(candidates) == 1:
            return candidates[0]
        return None

    def _turned(self, tr: TrickState, out: list[Event]) -> None:
        tr.turned_done = True
        order = (self.game.play_order(tr.leader, self.seats)
                 if tr.leader is not None and self.seats is not None else sorted(tr.turned))
        orients = tuple((s, tr.turned[s][0]) for s in order if s in tr.turned)
        t_turn = turn_time(tr)
        if tr.winner_source == "rules" and tr.winner is not None:
            if self._rows_contradict_themselves(tr):
                self._take_contested_faces_by_rows(tr, order, out)
                for seat in order:
                    if seat in tr.turned:
                        self._check_orientation(tr, seat, out)
            else:
                withdrawn = self._withdraw_against_agreeing_rows(tr, t_turn, out)
                if not withdrawn and self._misfits(tr, tr.winner) and \
                        self._faces_unsure(tr) and not self._misfit_rows_doubtful(tr):
                    # Every row agrees on another winner. One card turned the wrong way cannot do
                    # that (it leaves two "won" cards, none, or partners disagreeing); a face read
                    # wrongly can - when one of them was read only once or as two cards. Faces
                    # each read alike again and again stand: then the rows were read off
                    # together (of 25 such revisions over the recorded videos 14 took a right
                    # trick's winner away; of the 8 that mended a misread face 5 had a card read
                    # once).
                    self._revise_from_rows(tr, order, out)
        self._emit(("turned", tr.number), CardsTurned(t=t_turn, deal=self.deal,
                                                      number=tr.number, orientations=orients),
                   out)
        if tr.winner_source != "rules":
            self._check_row_agreement(tr, out)

    def _take_contested_faces_by_rows(self, tr: TrickState, order: list[Seat],
                                      out: list[Event]) -> None:
        """A trick whose rows, all turned, cannot all be right and lie against the rules'
        winner in two or more rows, with a face read as two cards (:func:`contested`): when
        its other card gives a winner only one row lies against, that face is its other card
        (one card turned wrong puts one row at odds; two are a misreading). Bridge 10503: S's
        CQ read SQ 4 times and CQ 3 gave W the trick against three rows, and E's wrong turn
        went unalerted. The trick is reported again."""
        assert tr.winner is not None
        if not self._all_rows_read(tr) or self._misfits(tr, tr.winner) < 2:
            return
        cards = [c for c in cards_in(tr, order) if c is not None]
        if len(cards) != len(order):
            return
        choices = []
        for i, seat in enumerate(order):
            play = tr.plays[seat]
            if (other := self._free_other_card(tr.number, seat, play, cards[i])) is None:
                continue
            winner = self._rules_winner(order, [*cards[:i], other, *cards[i + 1:]])
            if winner is not None and self._misfits(tr, winner) == 1:
                choices.append((play, cards[i], other))
        if len(choices) != 1:
            return  # none, or several faces that could each be the misread one
        play, card, other = choices[0]
        take_as(play, card, other)
        self._recomplete(tr, out)

    def _withdraw_against_agreeing_rows(self, tr: TrickState, t: float,
                                        out: list[Event]) -> bool:
        """A card alerted at its own turn (its trick's faces settled, :meth:`_faces_settled`)
        whose trick's rows, all turned and read now, agree with each other: one card turned
        wrong leaves the rows at odds, so a face named the wrong winner, read alike again and
        again - the alert is withdrawn. True when one was."""
        assert tr.winner is not None
        if not self._all_rows_read(tr):
            return False
        alerted = [s for s in self._misfit_seats(tr, tr.winner)
                   if (s, tr.number) in self._standing]
        for seat in alerted:
            self._withdraw("wrong_orientation", seat, tr.number, t, out,
                           f"every row of trick {tr.number} agrees with {seat}'s: a face of "
                           f"the trick was misread, not his card turned wrong")
        return bool(alerted)

    def _all_rows_read(self, tr: TrickState) -> bool:
        """Every player's card of ``tr`` is turned and read won or lost."""
        return self.seats is not None and all(
            s in tr.turned and tr.turned[s][0] in SIDES for s in self.seats)

    def _misfit_rows_doubtful(self, tr: TrickState) -> bool:
        """True when a row lying against the rules' winner of ``tr`` is read a card off
        (:meth:`_row_shifted`): its cards there are its neighbours', and do not overrule the
        faces."""
        assert tr.winner is not None
        return any(self._row_shifted(seat, tr.number)
                   for seat in self._misfit_seats(tr, tr.winner))

    def _faces_settled(self, tr: TrickState) -> bool:
        """True when every card of the trick was seen face up, its card read at least
        :data:`_SETTLED_READS` times, and whatever card any reading named at each place, the
        rules give the trick to the same winner: that winner is as sure as the faces make it."""
        if tr.leader is None or tr.winner is None or self.seats is None:
            return False
        order = self.game.play_order(tr.leader, self.seats)
        named: list[list[Card]] = []
        for seat in order:
            play = tr.plays.get(seat)
            if play is None or play.from_row or not play.votes or \
                    max(play.votes.values()) < _SETTLED_READS:
                return False
            named.append([c for c in play.votes if c is not None])
        if math.prod(len(cards) for cards in named) > _SETTLED_MAX_READINGS:
            return False
        return all(self._rules_winner(order, list(cards)) == tr.winner
                   for cards in itertools.product(*named))

    @staticmethod
    def _faces_unsure(tr: TrickState) -> bool:
        """True when a card of the trick was read only once, or as two cards."""
        return any(read_once(p) or contested(p) for p in tr.plays.values())

    def _rows_contradict_themselves(self, tr: TrickState) -> bool:
        """True when the rows turned so far cannot all be right, whoever won the trick."""
        seats = self.seats or tuple(tr.turned)
        known = {s: o for s, (o, _) in tr.turned.items() if o is not Orientation.UNKNOWN}
        won = [s for s, o in known.items() if o is Orientation.WON]
        if self.game.partnership:
            for s, o in known.items():
                if s.partner in known and known[s.partner] is not o:
                    return True
            sides_won = {s.side for s in won}
            sides_lost = {s.side for s, o in known.items() if o is Orientation.LOST}
            if len(sides_won) > 1 or (len(sides_lost) > 1 and len(known) == len(seats)):
                return True
            return False
        if len(won) > 1:
            return True
        return len(known) == len(seats) and not won

    def _misfit_seats(self, tr: TrickState, winner: Seat) -> list[Seat]:
        """The seats whose row cards of the trick, turned so far, lie against ``winner``."""
        return [s for s, (o, _) in tr.turned.items()
                if o in SIDES and o is not self.game.orientation(s, winner)]

    def _misfits(self, tr: TrickState, winner: Seat) -> int:
        """How many of the trick's row cards, turned so far, lie against ``winner``."""
        return len(self._misfit_seats(tr, winner))

    def _revise_from_rows(self, tr: TrickState, order: list[Seat], out: list[Event]) -> None:
        cards = cards_in(tr, order)
        won = [s for s, (o, _) in tr.turned.items() if o is Orientation.WON]
        winner: Seat | None = None
        if not self.game.partnership and len(won) == 1:
            winner = won[0]
        elif won:
            side = {s.side for s in won}
            candidates = [s for s in order if s.side in side]
            # the partner whose card could win the trick under some trump left
            plays = plays_to_judge(order, cards, candidates)
            if plays is not None:
                fits = {self.game.trick_winner(plays, self._contract_for(tp))
                        for tp in self.game.trump_candidates()}
                candidates = [s for s in candidates if s in fits] or candidates
            winner = candidates[0] if len(candidates) == 1 else None
        tr.winner, tr.winner_source = winner, "rows"
        t_turn = turn_time(tr)
        self._report_trick(tr, ("complete", tr.number, "revised"), t_turn, order, cards, out)

    def _check_orientation(self, tr: TrickState, seat: Seat, out: list[Event]) -> None:
        assert tr.winner is not None
        o, t_seen = tr.turned[seat]
        if o is Orientation.UNKNOWN:
            return
        expected = self.game.orientation(seat, tr.winner)
        self._doubtful.discard((seat, tr.number))
        if o is not expected and not self._sure_turn(seat, tr.number, o):
            self._doubtful.add((seat, tr.number))  # wait for more readings of that card
        elif o is not expected and self._row_shifted(seat, tr.number):
            self._doubtful.add((seat, tr.number))  # the row is read a card off, not turned wrong
        elif o is not expected and self._misfits(tr, tr.winner) >= 2:
            # one card turned the wrong way leaves one row at odds with the rules' winner;
            # two or more are cards misread (or a face that named the wrong winner)
            self._doubtful.add((seat, tr.number))
        elif o is not expected:
            who = (f"{tr.winner.side}" if self.game.partnership else f"{tr.winner}")
            self._alert("wrong_orientation", seat, tr.number, t_seen, out,
                        f"{seat} turned trick {tr.number} as {o.value}, but {who} won it "
                        f"(should be {expected.value})")

    def _row_shifted(self, seat: Seat, upto: int) -> bool:
        """True when ``seat``'s row disagrees with the rules' winners at two or more of tricks
        1..``upto`` and every trick from the first disagreement on fits once the row is read
        one card later or earlier: a card of the row counted twice or missed before it, not
        cards turned the wrong way. With four or more disagreements one trick may stay
        unexplained (a real wrong turn in a row read a card off). (Letting the first
        disagreement itself go unexplained held back 3 true alerts in 5 recorded sets of
        videos.) A row read two cards off (two cards of a tight row never seen apart) is
        believed only once four of its cards disagree, as one card off with a real wrong
        turn in it would otherwise pass for it."""
        row: dict[int, Orientation] = {}
        want: dict[int, Orientation] = {}
        for k in range(1, upto + 1):
            tr = self.tricks.get(k)
            if tr is None or seat not in tr.turned:
                continue
            row[k] = tr.turned[seat][0]
            if tr.winner is not None and tr.winner_source == "rules":
                want[k] = self.game.orientation(seat, tr.winner)
        known = [k for k in want if row[k] in SIDES]
        wrong = [k for k in known if row[k] is not want[k]]
        if len(wrong) < 2:
            return False
        for shift in (-1, 1, -2, 2):
            if abs(shift) == 2 and len(wrong) < 4:
                break  # two cards off: only with more of the row to go by
            misfit = sum(row.get(k + shift) not in (want[k], Orientation.UNKNOWN, None)
                         for k in known if k >= wrong[0])
            if misfit == 0 or (misfit == 1 and len(wrong) >= 4):
                return True
        return False

    def _check_row_agreement(self, tr: TrickState, out: list[Event]) -> None:
        """Without a rules winner, the rows must at least agree with each other (partners
        both "won" agree, even when no face tells which of them took the trick); rows that
        disagree only through a card read unsurely wait for later readings of it."""
        won = [s for s, (o, _) in tr.turned.items() if o is Orientation.WON]
        t_seen = turn_time(tr)
        disagree = self._rows_contradict_themselves(tr)
        self._doubtful_rows.discard(tr.number)
        if disagree and not all(self._sure_turn(s, tr.number, o)
                                for s, (o, _) in tr.turned.items()
                                if o is not Orientation.UNKNOWN):
            self._doubtful_rows.add(tr.number)
        elif disagree and (found := self._odd_row_out(tr)) is not None:
            odd, side = found
            self._alert("wrong_orientation", odd, tr.number, t_seen, out,
                        f"{odd} turned trick {tr.number} as {tr.turned[odd][0].value}, but the "
                        f"other three rows show {side} won it")
        elif disagree:
            self._alert("wrong_orientation", None, tr.number, t_seen, out,
                        f"the rows disagree at trick {tr.number}: won by "
                        f"{' '.join(s.name for s in sorted(won)) or 'nobody'}")

    def _odd_row_out(self, tr: TrickState) -> tuple[Seat, str] | None:
        """Bridge, all four rows read: the one row whose card says another side won than the
        other three cards say - the card lying the wrong way, whoever of the side took the
        trick (one card turned wrong leaves exactly this) - and the side the three show; None
        for any other split."""
        if not self.game.partnership or self.seats is None or len(self.seats) != 4:
            return None
        said: dict[Seat, str] = {}
        for s, (o, _) in tr.turned.items():
            if o not in SIDES:
                return None
            said[s] = s.side if o is Orientation.WON else s.lho.side
        counts = Counter(said.values())
        if len(said) != 4 or sorted(counts.values()) != [1, 3]:
            return None
        odd = next(s for s, side in said.items() if counts[side] == 1)
        return odd, next(side for side, n in counts.items() if n == 3)

    def _check_unturned(self, t: float, out: list[Event]) -> None:
        """A seat still without its card of trick k in his row, seen short a while after
        trick k+1 was complete, whose card of trick k was still seen face up well after the
        others had turned theirs (a row not found, or read a card short, proves nothing by
        itself: rows of small, tightly stacked cards often are); once per card missing, not
        again for every later trick."""
        if self.seats is None:
            return
        for k, tr in self.tricks.items():
            nxt = self.tricks.get(k + 1)
            if not (tr.completed and nxt is not None and nxt.completed) or \
                    t - max(p.t for p in nxt.plays.values()) < self.unread_wait_s:
                continue
            for s in self.seats:
                seen_t, seen_len = self._row_read.get(s, (-math.inf, 0))
                missing = k - self.row_len[s]
                if missing > self._short_alerted.get(s, 0) and 0 < seen_len < k and \
                        t - seen_t <= _SAME_CARD_GAP_S and (s, k) not in self._row_ev and \
                        self._left_face_up(tr, s):
                    # one card left out is one alert: his row stays short from then on
                    self._short_alerted[s] = missing
                    self._alert("row_length", s, k, t, out,
                                f"{s} has not turned his card of trick {k} into his row "
                                f"({self.row_len[s]} cards) although trick {k + 1} is played")

    def _left_face_up(self, tr: TrickState, seat: Seat) -> bool:
        """True when ``seat``'s card of ``tr`` was still seen face up more than a moment after
        every other player had turned his card of that trick."""
        play = tr.plays.get(seat)
        others = [x[1] for s, x in tr.turned.items() if s != seat]
        every = self.seats is None or len(others) >= len(self.seats) - 1
        return play is not None and bool(others) and every and \
            play.last_seen > max(others) + _SAME_CARD_GAP_S

    def _check_revokes(self, seat: Seat, t: float, out: list[Event]) -> None:
        """A later card of the suit led proves a revoke in an earlier trick."""
        for k in sorted(k for k, tr in self.tricks.items() if seat in tr.plays):
            tr = self.tricks[k]
            if not tr.order_agrees:
                # the cards appeared in another order than the rules' leader gives: a card
                # taken from the next trick, or the leader misread - not one to accuse on
                # (over 96 recorded videos 6 false revokes and no true one lay in such tricks)
                continue
            proven = self._revoke_in(tr, seat)
            if proven is None or self._revoke_card_unsure(tr, seat, proven[1]):
                continue
            if self._led_card_misread(tr, seat, proven[0]):
                self._withdraw_revokes_in(tr, t, out)
                continue
            card, led = proven
            twin = card.twin
            # small faces of one colour are the reader's commonest confusion (a diamond read
            # as a heart): said, for the director to look at that card
            doubt = (f" - unless that was his {twin} read as {card} (a face of the same "
                     "colour and rank, not seen elsewhere in this deal)"
                     if twin.suit is led.suit and twin in self.game.deck
                     and twin not in self._played_cards() else "")
            self._alert("revoke", seat, k, t, out,
                        f"{seat} revoked in trick {k}: played {card} to {led} led, "
                        f"though his later cards show he could follow{doubt}")

    def _revoke_in(self, tr: TrickState, seat: Seat) -> tuple[Card, Card] | None:
        """``(his card, the card led)`` when ``seat``'s card in the completed trick ``tr`` is
        one he could not play under any trump still possible, his later cards showing what
        he held; None otherwise (or when the cards are not known)."""
        if not tr.completed or tr.leader is None or self.seats is None or seat == tr.leader \
                or tr.leader not in tr.plays:
            return None
        card, led = majority(tr.plays[seat]), majority(tr.plays[tr.leader])
        if card is None or led is None:
            return None
        # one deck: a later card that another play of the deal is read as too is misread
        # there or here, and proves nothing (bridge 10008: E's CJ read once as SJ, his card
        # of trick 1, "proved" a revoke)
        named = Counter(majority(p) for t2 in self.tricks.values() for p in t2.plays.values())
        later = [c for k, t2 in sorted(self.tricks.items()) if k > tr.number and seat in t2.plays
                 and (c := majority(t2.plays[seat])) is not None and named[c] == 1]
        if not later:
            return None
        # the rules look at the card led (suit, and its rank for l'hombre's matadors)
        if not self._shows_revoke(card, led, later):
            return None
        provers = [c for c in later if self._shows_revoke(card, led, [c])]
        if len(provers) == 1 and self._proves_another_revoke(seat, tr.number, provers[0]):
            # the one later card that shows it shows him revoking in another trick too: one
            # misread card (his SK read CK) is likelier than a player revoking twice
            # (preferans 11404: E's SK read CK "proved" his discards in tricks 3, 4 and 5
            # revokes, and N's true revoke of trick 5 was withdrawn as a misread lead)
            return None
        return card, led

    def _shows_revoke(self, card: Card, led: Card, later: Sequence[Card]) -> bool:
        """True when ``card``, played to ``led``, breaks the duty to follow under every trump
        still possible, given that its player held the ``later`` cards too."""
        hand = [card, *later]
        return all(card not in self.game.legal_cards(hand, [led], self._contract_for(tp))
                   for tp in self.trumps)

    def _proves_another_revoke(self, seat: Seat, k: int, later: Card) -> bool:
        """True when ``later``, a card of ``seat``'s, alone shows him revoking in a trick
        before it other than trick ``k``."""
        at = next((k2 for k2, t2 in self.tricks.items() if seat in t2.plays
                   and majority(t2.plays[seat]) == later), None)
        for k2, t2 in self.tricks.items():
            if k2 == k or at is None or k2 >= at or not t2.completed or t2.leader is None \
                    or t2.leader == seat or seat not in t2.plays or t2.leader not in t2.plays:
                continue
            card, led = majority(t2.plays[seat]), majority(t2.plays[t2.leader])
            if card is not None and led is not None and self._shows_revoke(card, led, [later]):
                return True
        return False

    def _revoke_card_unsure(self, tr: TrickState, seat: Seat, led: Card) -> bool:
        """True when ``seat``'s card said not to follow suit in ``tr`` was read only once, or
        was read as a card of the suit led too: too unsure to accuse a player on. (A card
        named from the reader's candidates has no votes; naming it took two readings
        already.) A reading as the card another player of the trick laid, read there far more
        often, does not count: one deck, so that was his card seen at this place as it was
        gathered (preferans 10603: S's DA, read 9 times, once as E's HA led - read 17 times -
        and the true revoke went unalerted)."""
        play = tr.plays[seat]
        reads = sum(play.votes.values())
        if 0 < reads < _REVOKE_MIN_READS:
            return True
        return any(c is not None and c.suit == led.suit
                   and not self._held_by_another_play(tr.number, seat, c, same_trick=True)
                   for c in play.votes)

    def _held_by_another_play(self, k: int, seat: Seat, card: Card, *,
                              same_trick: bool = False) -> bool:
        """True when a play of the deal other than ``seat``'s to trick ``k`` (of that trick
        only, with ``same_trick``) is ``card`` by most of its readings, read as it
        ``_OUTREAD_FACTOR`` times as often as his play was (and at least ``_OUTREAD_VOTES``
        times): one deck, so a reading of ``card`` at his place was that card seen in
        passing, no vote for his (bridge 10503: S's card of trick 13, named DJ from the
        reader's candidates, was then read once as E's HJ of trick 12 and taken for it)."""
        n = self.tricks[k].plays[seat].votes.get(card, 0)
        tricks = [(k, self.tricks[k])] if same_trick else list(self.tricks.items())
        return any(majority(p) == card and p.votes.get(card, 0) >= max(
            _OUTREAD_VOTES, _OUTREAD_FACTOR * n)
            for k2, tr in tricks for s, p in tr.plays.items() if (k2, s) != (k, seat))

    def _led_card_misread(self, tr: TrickState, seat: Seat, card: Card) -> bool:
        """True when the card led was most likely misread rather than ``seat`` revoking: it
        was read as a second card too (:func:`contested`), or every other follower of ``tr``
        played the suit of ``card`` too, and there are two of them or more (one revoke is
        rare, two in one trick far rarer) - until the deal's cards are all in: then one of
        them too must be shown by his later cards to have held the suit led. Followers void
        in the suit led may discard the revoker's suit (bridge 10710: N and E discarded
        clubs on W's D9, S revoked with C8 and played D4 next; his revoke went unalerted, and
        is now alerted at the deal's end)."""
        if tr.leader is None or contested(tr.plays[tr.leader]):
            return True
        others = [s for s in tr.plays if s not in (seat, tr.leader)]
        if any(self._sure_revoke_in(tr, s) for s in others):
            return True  # two players revoking in one trick: the card led was misread
        cards = [majority(tr.plays[s]) for s in others]
        if not others or not all(c is not None and c.suit == card.suit for c in cards):
            return False
        if len(others) < 2:
            return False
        # until the deal is over another follower's later cards may yet show the suit led
        return not self._play_over or any(self._revoke_in(tr, s) is not None for s in others)

    def _sure_revoke_in(self, tr: TrickState, seat: Seat) -> bool:
        """True when ``seat``'s card in ``tr`` shows a revoke read surely enough to accuse him
        on (:meth:`_revoke_card_unsure`). A second "revoke" resting on a card read once is
        that card misread, no proof that the card led was (bridge 6705: W's true revoke was
        withdrawn for N's SJ read once as CJ)."""
        proven = self._revoke_in(tr, seat)
        return proven is not None and not self._revoke_card_unsure(tr, seat, proven[1])

    # ------------------------------------------------------------------ deal end
    def _finish_deal(self, t: float, out: list[Event], cleared: bool = False) -> None:
        self._finished = True
        self._deduce_unread_faces(out)
        self._settle_by_reconstruction(out)
        self._withdraw_unsure(t, out)
        self._check_revokes_at_end(t, out)
        seats = self._seats_in_play()
        result: dict[str, int] = {side: 0 for side in self.game.sides(seats)} if seats else {}
        n = 0
        for k in sorted(self.tricks):
            tr = self.tricks[k]
            if tr.completed:
                n += 1
                if tr.winner is not None:
                    result[self.game.side(tr.winner)] = result.get(self.game.side(tr.winner),
                                                                   0) + 1
        if not cleared:
            for s in seats:
                if self.row_len[s] != self.game.hand_size:
                    self._alert("row_length", s, None, t, out,
                                f"{s}'s row has {self.row_len[s]} cards at the end of the deal, "
                                f"expected {self.game.hand_size}")
        self._emit(("deal",), DealFinished(t=t, deal=self.deal, tricks=n,
                                          result=tuple(result.items())), out)

    def end_of_stream(self, t: float) -> list[Event]:
        """The video ended at ``t``: what the rows showed persistently stands even where the
        face of that card was never seen (no later frame can show it any more), so a deal
        recorded to just after its last turn is not left a trick short."""
        out: list[Event] = []
        if self._finished:
            return out  # every trick of the deal is in: nothing is waiting
        for seat in self.seats or ():
            self._confirm_row(seat, t, out, wait_for_faces=False)
        self._advance(t, out)
        self._complete_last_trick(t, out)
        self._deduce_unread_faces(out)  # the last rows may never have shown: the play is in
        self._settle_by_reconstruction(out)
        self._withdraw_unsure(t, out)
        self._check_revokes_at_end(t, out)
        return out

    def _check_revokes_at_end(self, t: float, out: list[Event]) -> None:
        """Every card of the deal is in: the revokes held back because the card led might
        have been misread (:meth:`_led_card_misread`) are judged once more."""
        self._play_over = True
        for seat in self._seats_in_play():
            self._check_revokes(seat, t, out)

    def _complete_last_trick(self, t: float, out: list[Event]) -> None:
        """Every earlier trick is in and the last one has begun: each player has one card
        left and must play it, so the last trick stands, with the cards never seen unknown
        (and no winner unless the cards or rows prove one) - not missing from the record."""
        hand = self.game.hand_size
        last = self.tricks.get(hand)
        if self.seats is None or last is None or last.completed or not last.plays:
            return
        if not all((tr := self.tricks.get(k)) is not None and tr.completed
                   for k in range(1, hand)):
            return
        for seat in self.seats:
            if seat not in last.plays:
                last.plays[seat] = Play(card=None, t=t)  # never seen: unknown
        self._name_by_elimination(last)
        self._complete(last, out, force=True)

    def _name_by_elimination(self, last: TrickState) -> None:
        """Where the deal uses the whole deck (bridge), the one card of the last trick never
        seen is the one card of the deck not seen in the deal; with two or more unseen, which
        is whose is not known, and none is named."""
        unseen = [s for s in last.plays if self._card_of(last, s) is None]
        if len(unseen) != 1:
            return
        card = self._the_card_not_seen(self.tricks.values())
        if card is not None:
            last.plays[unseen[0]].card = card

    @property
    def _whole_deck(self) -> bool:
        """True when the deal plays out the whole deck (bridge): every card of it is some
        play's, so a card nobody was seen to play lies at a place left unread."""
        return len(self.game.deck) == self.game.hand_size * len(self.seats or ())

    def _the_card_not_seen(self, tricks: Iterable[TrickState]) -> Card | None:
        """The one card of the deck none of ``tricks``' plays is taken for, when the deal uses
        the whole deck (bridge) and all the others are, each once; else None."""
        if not self._whole_deck:
            return None
        known = [c for tr in tricks for s in tr.plays if (c := self._card_of(tr, s)) is not None]
        left = set(self.game.deck) - set(known)
        return left.pop() if len(known) == len(self.game.deck) - 1 and len(left) == 1 else None

    def _whole_deal(self) -> list[TrickState] | None:
        """The deal's tricks, first to last, once every one is complete with a play of every
        player; else None."""
        if self.seats is None:
            return None
        tricks = [self.tricks.get(k) for k in range(1, self.game.hand_size + 1)]
        done = [tr for tr in tricks if tr is not None and tr.completed
                and len(tr.plays) >= len(self.seats)]
        return done if len(done) == len(tricks) else None

    def _deduce_unread_faces(self, out: list[Event]) -> None:
        """Once every trick of the deal is in, name the faces never read from the rest of the
        deal (:func:`vision.deduce.deduce_unread`): the cards nobody was seen to play, put
        where the rows' winners and the duty to follow suit leave a single card. Each trick
        that gains a card is reported again, its named seats listed in ``deduced``; a place
        the ways that fit disagree on stays unread."""
        done = self._whole_deal()
        if self._deduced or done is None or not self.trump_known or any(
                tr.leader is None for tr in done):
            return
        self._deduced = True
        self._settle_blocked_readings(done, out)
        self._settle_twins(done, out)
        self._name_from_the_deal(done, out)
        self._name_the_one_unseen(done, out)
        self._lead_again(done, out)

    def _settle_by_reconstruction(self, out: list[Event]) -> None:
        """Once every trick of the deal is in: each trick as the reconstruction of the whole
        deal (:func:`vision.reconstruct.reconstruct` of :meth:`observation`, what
        ``report.json`` and the PBN say) settles it, where it names the winner and every card
        the tracker named, and differs from the trick's last report - reported again, so that
        the play record and the report agree. The reconstruction weighs every row and trick
        together: a winner misread early (a face taken for a higher card) makes the next
        leader wrong, which the tracker, trick by trick, does not undo (held-out bridge 6711:
        a jack read as a spade gave E trick 8, and the lead and win of 9 and 10; the rows and
        the rules of the whole deal give all three to N). A trick whose winner it leaves open, or a
        card the tracker named, keeps its report; so does one where it puts a card the
        tracker saw a player lay in another trick."""
        tricks = self._whole_deal()
        if tricks is None or self.seats is None:
            return
        report = reconstruct(self.observation())
        if len(report.tricks) != len(tricks) or report.issues_of("row_length"):
            return  # rows repaired or not aligned with the tricks: no trick-by-trick match
        laid: dict[Seat, set[Card]] = {}  # the cards each player was reported to lay
        for reported in self._reported.values():
            for seat, card in reported.cards:
                if card is not None:
                    laid.setdefault(seat, set()).add(card)
        for tr, settled in zip(tricks, report.tricks, strict=True):
            if settled.leader is None or settled.winner is None:
                continue
            order = self.game.play_order(settled.leader, self.seats)
            cards = [settled.cards.get(s) for s in order]
            said = self._reported.get(tr.number)
            before = dict(said.cards) if said is not None else {}
            if any(settled.cards.get(s) is None and before.get(s) is not None for s in order) or (
                    said is not None and (said.leader, said.winner, before)
                    == (settled.leader, settled.winner, settled.cards)):
                continue  # it leaves open a card the tracker named, or says the same
            if any(c != before.get(s) and c in laid.get(s, set())
                   for s in order if (c := settled.cards.get(s)) is not None):
                # it moves a card the tracker saw a player lay in another trick (his card of
                # this trick was reported as another, or unknown): his faces
                # came one trick at a time, in that order, and a row read a card off does
                # not reorder them (bridge 11610: N's D4 and HT of tricks 11 and 12 swapped)
                continue
            for seat, card in zip(order, cards, strict=True):
                play = tr.plays[seat]
                if card is None:
                    continue  # unread either way
                if before.get(seat) != card and not play.votes.get(card):
                    tr.deduced.add(seat)  # no reading showed it: the deal names it
                if majority(play) != card:
                    play.votes.clear()
                    play.latest, play.card = None, card
            tr.leader, tr.winner = settled.leader, settled.winner
            tr.winner_source = "rules" if settled.evidence == "cards" else "rows"
            self._report_trick(tr, ("complete", tr.number, "deal", tuple(cards), tr.winner),
                               max(p.t for p in tr.plays.values()), order, cards, out)

    def _settle_blocked_readings(self, done: list[TrickState], out: list[Event]) -> None:
        """One deck, settled once the deal is in. A face left unread because it was read as
        a card another play of the deal had been taken for (at least
        :data:`_BLOCKED_MIN_READS` such readings, :attr:`Play.blocked`) is that card after
        all, where that other play was also read as a card no play of the deal was taken
        for: that play is its other card (preferans 11005: N's CQ read SQ four times and CQ
        once; his SQ, five tricks later, read SQ twice and so left unread). So it is where
        that other play, taken for the card, shows a revoke the deal does not show without
        it: that play is then the card's twin, or unknown (:meth:`_as_twin_or_unknown`)."""
        named = {c for tr in done for s in tr.plays if (c := self._card_of(tr, s)) is not None}
        for tr in done:
            for seat, play in tr.plays.items():
                if not play.blocked or self._card_of(tr, seat) is not None:
                    continue
                card, n = play.blocked.most_common(1)[0]
                holders = [(old, q) for old in done for q in old.plays.values()
                           if q is not play and majority(q) == card]
                if n < _BLOCKED_MIN_READS or len(holders) != 1:
                    continue
                old, holder = holders[0]
                holder_seat = next(s for s, q in old.plays.items() if q is holder)
                other = other_card(holder, card)
                if other is not None and other not in named and self.game.in_deck(other):
                    take_as(holder, card, other)
                    named.add(other)
                    said = f"the card read as it in trick {old.number} {other}"
                elif self._revokes() - (without := self._revokes_without(holder)):
                    # taken for that card, the other play shows a revoke - its player's, or,
                    # as the card led, a follower's: the rules doubt it, and the face read as
                    # it here is taken (preferans 11302: N's SK read CK twice "revoked" in
                    # trick 6, W's CK, read three times at 1.00 a trick later, was left
                    # unread; preferans 11506: N's CJ led, read SJ, made S's C7 a revoke)
                    twin = self._as_twin_or_unknown(holder, card, named, without)
                    said = (f"{holder_seat}'s card of trick {old.number}, read as it, was "
                            + (str(twin) if twin is not None else "not"))
                else:
                    continue
                play.votes[card] += n
                play.card = play.latest = card
                for changed in sorted((old, tr), key=lambda x: x.number):
                    self._recomplete(changed, out)
                self._withdraw_revokes_undone(
                    f"{seat}'s card of trick {tr.number} was {card}, and {said}", out)
                for s in {seat, holder_seat}:
                    self._check_revokes(s, self.last_t, out)

    def _revokes(self) -> set[tuple[Seat, int]]:
        """Every (player, trick) whose card, as the plays are taken now, shows a revoke."""
        return {(seat, k) for k, tr in self.tricks.items() for seat in tr.plays
                if self._revoke_in(tr, seat) is not None}

    def _revokes_without(self, play: Play) -> set[tuple[Seat, int]]:
        """The deal's revokes (:meth:`_revokes`) were ``play`` unknown; ``play`` is left as it
        was. Those it alone shows - its own player's, in its trick or as a later card of a
        suit he did not follow, or a follower's, as the card led - are missing."""
        kept = (play.card, play.latest, Counter(play.votes))
        play.card = play.latest = None
        play.votes.clear()
        without = self._revokes()
        play.card, play.latest, play.votes = kept
        return without

    def _as_twin_or_unknown(self, play: Play, card: Card, named: set[Card],
                            without: set[tuple[Seat, int]]) -> Card | None:
        """``play``, taken for ``card`` but shown a revoke so, is the twin of ``card``
        (returned) where nobody was taken for that and it shows no revoke beyond ``without``
        (the deal's revokes with the play unknown); else it is left unknown (None)."""
        play.card = play.latest = None
        play.votes.clear()
        twin = card.twin
        if twin in named or not self.game.in_deck(twin):
            return None
        play.card = play.latest = twin
        if self._revokes() <= without:
            named.add(twin)
            return twin
        play.card = play.latest = None
        return None

    def _name_the_one_unseen(self, done: list[TrickState], out: list[Event]) -> None:
        """Where the deal uses the whole deck (bridge) and every card but one was read, each
        once, the face never read is the one card of the deck not seen - in whichever trick
        it lies (as :meth:`_name_by_elimination` names the last trick's). Asked only after
        the search by the rules (:meth:`_name_from_the_deal`) left it unnamed - it puts no
        card where it would break a rule, and it knows a face read as its twin - so no rule
        is asked here: a revoke made with that card is then shown, and alerted."""
        unseen = [(tr, s) for tr in done for s in tr.plays if self._card_of(tr, s) is None]
        card = self._the_card_not_seen(done) if len(unseen) == 1 else None
        if card is None:
            return
        tr, seat = unseen[0]
        play = tr.plays[seat]
        play.votes.clear()  # unread: the deck names it
        play.latest, play.card = None, card
        tr.deduced.add(seat)
        self._recomplete(tr, out)
        self._check_revokes(seat, self.last_t, out)

    def _name_from_the_deal(self, done: list[TrickState], out: list[Event]) -> None:
        """The search of :meth:`_deduce_unread_faces` over the deal's completed tricks."""
        assert self.seats is not None
        cards = {s: [self._card_of(tr, s) for tr in done] for s in self.seats}
        unread = sum(c is None for col in cards.values() for c in col)
        if not 0 < unread <= _DEDUCE_MAX_UNREAD:
            return
        read = {s: list(col) for s, col in cards.items()}
        for seat, i in [*self._twin_suspects(cards), *self._other_reading_suspects(done, cards)]:
            cards[seat][i] = None  # it or its twin, never seen, lies here: the rules say
        agreed: list[frozenset[Seat] | None] = []
        for i, tr in enumerate(done):
            assert tr.leader is not None  # every trick's leader is known (checked above)
            candidates = set(self._row_candidates(tr, self.game.play_order(tr.leader,
                                                                             self.seats)))
            nxt = done[i + 1].leader if i + 1 < len(done) else None
            if nxt in candidates:
                candidates = {nxt}  # the winner leads the next trick
            agreed.append(frozenset(candidates) if candidates else None)
        # a revoke alerted on a card now taken for its twin misread is no longer shown by
        # the cards read: the filling must not make it again for free
        revokes = frozenset((key[2], key[3] - 1) for key in self._emitted
                            if key[:2] == ("alert", "revoke") and key[3] is not None
                            and key[3] <= len(done) and cards[key[2]][key[3] - 1] is not None)
        first_leader = done[0].leader
        assert first_leader is not None  # every trick's leader is known (checked above)
        found = deduce_unread(self.game, self.seats, cards, first_leader,
                              self._contract_for(self.trumps[0]), agreed=agreed,
                              mismatches=lambda i, w: self._misfits(done[i], w),
                              allowed_revokes=revokes)
        # a lone row card at odds with the winner of a trick whose faces were all read is a
        # row misread, which says nothing of the faces; two or more in one trick may be a
        # face misread, which would make the unseen cards a wrong set
        lone = sum(1 for i, tr in enumerate(done)
                   if all(cards[s][i] is not None for s in self.seats) and tr.winner is not None
                   and self._misfits(tr, tr.winner) == 1)
        if found.status not in ("unique", "partial") or \
                found.floor - lone > _DEDUCE_MAX_MISFITS:
            return
        changed = {p: c for p, c in found.cards.items() if c != read[p[0]][p[1]]}
        for (seat, i), card in changed.items():
            play = done[i].plays[seat]
            play.votes.clear()  # unread, or read as its twin: the rules name it
            play.latest, play.card = None, card
            done[i].deduced.add(seat)
        if not changed:
            return
        for i in sorted({i for _, i in changed}):
            self._recomplete(done[i], out)
        named = ", ".join(f"{seat}'s card of trick {done[i].number} {card}"
                          for (seat, i), card in sorted(changed.items(),
                                                        key=lambda kv: (kv[0][1], kv[0][0])))
        self._withdraw_revokes_undone(f"named from the rest of the deal: {named}", out)

    def _read_again(self, tr: TrickState, out: list[Event]) -> None:
        """A card of the completed trick ``tr``, still face up, is now read more often as
        another card than as the one the trick was completed with: the trick is reported
        again, and where that changes its winner, the completed tricks after it are led
        again from the new winner where the times agree (:meth:`_lead_again`). (Bridge
        11706, live: W's DK read HK at first gave trick 2 to E, who was then taken to lead
        trick 3; read DK from then on, the trick stayed E's until the deal's end, and the
        wrong lead of trick 3 held back a true revoke alert for nine seconds.)"""
        winner = tr.winner
        self._recomplete(tr, out)
        if tr.winner == winner:
            return
        done = [tr]
        while (nxt := self.tricks.get(done[-1].number + 1)) is not None and nxt.completed:
            done.append(nxt)
        self._lead_again(done, out)

    def _lead_again(self, done: list[TrickState], out: list[Event]) -> None:
        """After cards were named again (at the deal's end, or a face read again while it lay
        face up): a trick whose winner changed makes another player the next trick's leader.
        Where the next trick's first card was seen at that player's place (the order of
        appearance agrees, as it did not with the old leader) and its cards are all known, it
        is led again from him and won by the rules; and so on down the deal. (Held-out
        bridge 9924: S's CQ read SQ, a trump, gave him trick 5 and the lead of 6 and 7; named
        back at the end, trick 5 went to W, but 6 and 7 kept S as leader and winner.)"""
        assert self.seats is not None
        if not self.trump_known:
            return  # no winner by the rules
        for prev, tr in zip(done, done[1:], strict=False):
            new = prev.winner
            if new is None or new == tr.leader or new not in tr.plays:
                continue
            if min(p.t for p in tr.plays.values()) < tr.plays[new].t - 1e-6:
                continue  # another player's card came first: the times do not name him
            order = self.game.play_order(new, self.seats)
            cards = cards_in(tr, order)
            if any(c is None for c in cards):
                continue
            tr.leader, tr.order_agrees = new, True
            tr.winner, tr.winner_source = self._rules_winner(order, cards), "rules"
            self._report_trick(tr, ("complete", tr.number, "lead", new, tuple(cards),
                                    tr.winner), max(p.t for p in tr.plays.values()),
                               order, cards, out)

    def _twin_suspects(self, cards: dict[Seat, list[Card | None]]) -> list[tuple[Seat, int]]:
        """Where the deal uses the whole deck: the places whose card's twin (same rank, other
        suit of its colour) nobody was seen to play - that card may have been the twin,
        misread, and the unread one the card read there."""
        if not self._whole_deck:
            return []
        seen = {c for col in cards.values() for c in col if c is not None}
        return [(seat, i) for seat, col in cards.items() for i, c in enumerate(col)
                if c is not None and c.twin in self.game.deck and c.twin not in seen]

    def _other_reading_suspects(self, done: list[TrickState],
                                cards: dict[Seat, list[Card | None]]) -> list[tuple[Seat, int]]:
        """Where the deal uses the whole deck: the places whose face was also read as a card
        nobody was seen to play - that card may lie there, and the card taken for it in
        another place left unread. (Bridge 11106: S's S2 of trick 7 read H2 four times and S2
        twice, his H2 of trick 8 never seen; S2, the one card not seen, was put in trick 8 as
        a revoke.)"""
        if not self._whole_deck:
            return []
        seen = {c for col in cards.values() for c in col if c is not None}
        return [(seat, i) for i, tr in enumerate(done) for seat, play in tr.plays.items()
                if cards[seat][i] is not None
                and any(c != cards[seat][i] and c not in seen and self.game.in_deck(c)
                        for c in play.votes)]

    def _settle_twins(self, done: list[TrickState], out: list[Event]) -> None:
        """A card read at two places of a deal whose twin - the same rank in the other suit
        of its colour, the reader's commonest confusion - was never seen: one of the two is
        that twin. It goes where the rules and the rows fit best (the tricks' winners against
        their rows and the next lead, no new revoke) - only where it fits well and the other
        way clearly worse: in a deal misread elsewhere too, the fit misleads."""
        where: dict[Card, list[tuple[int, Seat]]] = {}
        for i, tr in enumerate(done):
            for seat in tr.plays:
                card = self._card_of(tr, seat)
                if card is not None:
                    where.setdefault(card, []).append((i, seat))
        for card, places in where.items():
            twin = card.twin
            if len(places) != 2 or twin in where or not self.game.in_deck(twin):
                continue
            costs = [self._twin_cost(done, places, place, twin) for place in places]
            if min(costs) > _DEDUCE_MAX_MISFITS or max(costs) < min(costs) + 2:
                continue  # the deal fits badly either way (more misread), or alike
            i, seat = places[costs.index(min(costs))]
            play = done[i].plays[seat]
            play.votes.clear()  # read as a card played elsewhere: the rules name it
            play.latest, play.card = None, twin
            done[i].deduced.add(seat)
            self._recomplete(done[i], out)
            self._withdraw_revokes_undone(f"{seat}'s card of trick {done[i].number} was "
                                          f"{twin}, read as {card}", out)

    def _twin_cost(self, done: list[TrickState], places: list[tuple[int, Seat]],
                   place: tuple[int, Seat], twin: Card) -> int:
        """How badly the deal fits with ``twin`` at ``place`` (one of ``places``): rows lying
        against the winners of the two tricks, a winner who did not lead next (two), and a
        play that no longer follows suit while the player's later cards show he could (two)."""
        def card_at(i: int, seat: Seat) -> Card | None:
            return twin if (i, seat) == place else self._card_of(done[i], seat)

        cost = 0
        for i in sorted({i for i, _ in places}):
            tr = done[i]
            # the deal's seats and every trick's leader are known (_deduce_unread_faces checks them)
            assert tr.leader is not None and self.seats is not None
            order = self.game.play_order(tr.leader, self.seats)
            cards = [card_at(i, s) for s in order]
            winner = self._rules_winner(order, cards) if None not in cards else None
            if winner is None:
                continue
            cost += self._misfits(tr, winner)
            if i + 1 < len(done) and done[i + 1].leader not in (None, winner):
                cost += 2
            led = cards[0]
            for seat, card in zip(order[1:], cards[1:], strict=True):
                later = [c for j in range(i + 1, len(done)) if seat in done[j].plays
                         and (c := card_at(j, seat)) is not None]
                if card is None or led is None or not later:
                    continue
                hand = [card, *later]
                if all(card not in self.game.legal_cards(hand, [led], self._contract_for(tp))
                       for tp in self.trumps):
                    cost += 2
        return cost

    def _withdraw_revokes_in(self, tr: TrickState, t: float, out: list[Event]) -> None:
        """Withdraw the revoke alerts raised in ``tr`` once its card led is found misread."""
        led = majority(tr.plays[tr.leader]) if tr.leader in tr.plays else None
        for seat in tr.plays:
            if ("alert", "revoke", seat, tr.number) in self._emitted:
                self._withdraw("revoke", seat, tr.number, t, out,
                               f"{seat} did not revoke in trick {tr.number} after all: another "
                               f"player's cards break the same lead, so the card led ({led}) "
                               "was most likely misread")

    def _withdraw_revokes_undone(self, why: str, out: list[Event]) -> None:
        """Withdraw the revoke alerts the cards as now named no longer show."""
        for key in sorted((k for k in self._emitted if k[:2] == ("alert", "revoke")),
                          key=lambda k: (k[3], int(k[2]))):
            _, kind, seat, number = key
            tr = self.tricks.get(number)
            if tr is not None and self._revoke_in(tr, seat) is None:
                self._withdraw(kind, seat, number, self.last_t, out,
                               f"{seat} did not revoke in trick {number} after all: {why}")

    # ------------------------------------------------------------------ output
    def _alert(self, kind: str, seat: Seat | None, trick: int | None, t: float,
               out: list[Event], message: str) -> None:
        alert = Alert(t=t, deal=self.deal, alert=kind, seat=seat, trick=trick, message=message)
        if self._emit(("alert", kind, seat, trick), alert, out) and \
                kind == "wrong_orientation" and seat is not None and trick is not None:
            self._standing[(seat, trick)] = alert

    def _withdraw(self, kind: str, seat: Seat | None, trick: int, t: float, out: list[Event],
                  message: str) -> None:
        """Withdraw the alert ``kind`` of ``seat`` in ``trick`` (it may be raised again); a
        wrong-orientation one says how his row card lies from now on (for a resumed
        session, :meth:`restore`)."""
        lies = None
        if kind == "wrong_orientation":
            if seat is not None:  # only a seat's alert can stand
                self._standing.pop((seat, trick), None)
            tr = self.tricks.get(trick)
            lies = tr.turned[seat][0] if tr is not None and seat in tr.turned else None
        self._emitted.discard(("alert", kind, seat, trick))
        out.append(AlertWithdrawn(t=t, deal=self.deal, alert=kind, seat=seat, trick=trick,
                                  message=message, orientation=lies))

    def _withdraw_disproved(self, t: float, out: list[Event]) -> None:
        """Withdraw a wrong-orientation alert once the card lies as it should after all: its
        row card read the other way by later readings, or the trick's winner revised. (Of
        the false alerts over 72 recorded videos, 13 of 47 were so disproved before the end;
        no true one was.) The alert may be raised again if the readings turn back."""
        for (seat, k), alert in list(self._standing.items()):
            tr = self.tricks.get(k)
            if tr is None or tr.winner is None or seat not in tr.turned:
                continue
            o = tr.turned[seat][0]
            if o is self.game.orientation(seat, tr.winner):
                self._withdraw(alert.alert, seat, k, t, out,
                               f"{seat}'s card of trick {k} is read {o.value} after all, as it "
                               f"should lie - withdrawn: {alert.message}")

    def _withdraw_unsure(self, t: float, out: list[Event]) -> None:
        """At the deal's end, withdraw the wrong-orientation alerts whose row card the
        readings of the whole deal showed both ways again and again (:func:`read_both_ways`):
        too unsure to blame a player on. (Judged once, on all the readings: judged as they
        come, an alert would be withdrawn and raised again as the count swings.)"""
        for (seat, k), alert in list(self._standing.items()):
            tr = self.tricks.get(k)
            votes = self._turn_votes.get((seat, k))
            if tr is None or tr.winner is None or seat not in tr.turned or not votes or \
                    not read_both_ways(votes, tr.turned[seat][0]):
                continue
            expected = self.game.orientation(seat, tr.winner)
            self._withdraw(alert.alert, seat, k, t, out,
                           f"{seat}'s card of trick {k} was read {expected.value} in "
                           f"{votes[expected]} of {sum(votes.values())} looks: too unsure to "
                           f"blame him - withdrawn: {alert.message}")

    def _emit(self, key: tuple, event: Event, out: list[Event]) -> bool:
        """Emit ``event`` unless one under ``key`` was emitted already; True if emitted."""
        if key in self._emitted:
            return False
        self._emitted.add(key)
        out.append(event)
        return True

    # ------------------------------------------------------------------ resume
    def restore(self, events: Iterable[Event]) -> None:
        """Rebuild the state of the last deal from stored events (a restarted session).

        Events already stored are never emitted again; what was seen but not yet confirmed
        when the session stopped is simply seen again.
        """
        events = list(events)
        if not events:
            return
        last_deal = max(e.deal for e in events)
        self.deal = last_deal
        self.reset()
        for e in events:
            if e.deal != last_deal:
                continue
            if isinstance(e, CardLaid):
                tr = self._trick(e.trick)
                tr.plays[e.seat] = Play(card=e.card, t=e.t)
                self._emitted.add(("laid", e.trick, e.seat))
                if self.seats is None and e.trick == 1 and len(tr.plays) >= self.game.n_players:
                    self.seats = tuple(sorted(tr.plays))
            elif isinstance(e, TrickComplete):
                tr = self._trick(e.number)
                if ("complete", e.number) not in self._emitted:
                    tr.order_agrees = e.order_agrees  # the first report says it (see _complete)
                tr.leader, tr.winner, tr.completed = e.leader, e.winner, True
                tr.winner_source = e.winner_source
                tr.deduced = set(e.deduced)
                for s, c in e.cards:  # the trick's cards as last emitted are its cards
                    if s not in tr.plays:
                        tr.plays[s] = Play(card=c, t=e.t)
                    elif c is not None:
                        tr.plays[s].card = c
                if self.seats is None and len(e.cards) == self.game.n_players:
                    self.seats = tuple(sorted(s for s, _ in e.cards))
                self._emitted.add(("complete", e.number))
                self._reported[e.number] = e
                if e.winner_source == "rows" and tr.winner is not None:
                    cards = [c for _, c in e.cards]
                    if all(c is not None for c in cards):
                        plays = list(e.cards)
                        fits = [tp for tp in self.trumps if self.game.trick_winner(
                            plays, self._contract_for(tp)) == tr.winner]  # type: ignore[arg-type]
                        if fits:
                            self.trumps = fits
            elif isinstance(e, CardsTurned):
                tr = self._trick(e.number)
                for s, o in e.orientations:
                    tr.turned[s] = (o, e.t)
                    self.row_len[s] = max(self.row_len[s], e.number)
                tr.turned_done = True
                self._emitted.add(("turned", e.number))
            elif isinstance(e, DealFinished):
                self._finished = True
                self._emitted.add(("deal",))
            elif isinstance(e, Alert):
                self._emitted.add(("alert", e.alert, e.seat, e.trick))
                if e.alert == "wrong_orientation" and e.seat is not None and e.trick is not None:
                    self._standing[(e.seat, e.trick)] = e
            elif isinstance(e, AlertWithdrawn):
                self._emitted.discard(("alert", e.alert, e.seat, e.trick))
                if e.alert == "wrong_orientation" and e.seat is not None and \
                        e.trick is not None:
                    self._standing.pop((e.seat, e.trick), None)
                    withdrawn_in = self.tricks.get(e.trick)
                    if withdrawn_in is not None and withdrawn_in.winner is not None and \
                            e.seat in withdrawn_in.turned:
                        # the card lies as the withdrawal says (the turn's event gave its
                        # first reading); one stored without saying was read as it should lie
                        lies = e.orientation or self.game.orientation(e.seat, withdrawn_in.winner)
                        withdrawn_in.turned[e.seat] = (lies, withdrawn_in.turned[e.seat][1])
        self.last_t = max(e.t for e in events)

    # ------------------------------------------------------------------ summary
    def observation(self) -> Observation:
        """The deal in progress as the reconstruction's input: rows per seat in trick order,
        orientation as turned, card as most readings named it face up, and how sure that
        is (:func:`sureness`; a session resumed from its events no longer knows how many
        readings named its earlier cards, and weighs them alike)."""
        seats = self._seats_in_play()
        rows: dict[Seat, list[RowEntry]] = {s: [] for s in seats}
        for k in sorted(self.tricks):
            tr = self.tricks[k]
            for s in seats:
                if s not in tr.turned and s not in tr.plays:
                    continue
                if s not in tr.turned and not tr.completed:
                    continue
                o = tr.turned[s][0] if s in tr.turned else Orientation.UNKNOWN
                play = tr.plays.get(s)
                # the card the trick's events name: most of its readings, not the first
                card = majority(play) if play else None
                rows[s].append(RowEntry(orientation=o, card=card, confidence=1.0,
                                        card_confidence=None if play is None or card is None
                                        else sureness(play, card)))
        first = self.tricks[1].leader if 1 in self.tricks else None
        return Observation(game=self.game.name, rows=rows, dealer=self.dealer,
                           first_leader=(self.given_first_leader
                                         if self.given_first_leader is not None else first),
                           contract=self.contract)

    def completed_tricks(self) -> list[TrickState]:
        return [self.tricks[k] for k in sorted(self.tricks) if self.tricks[k].completed]


def deals_from_events(game: str | Game, events: Iterable[Event]) -> list[tuple[int, Observation]]:
    """Every deal of a stored session rebuilt from its events, ``(deal, observation)`` in
    order (the dealer and contract given to the session were not stored: trump and first
    leader are inferred from the tricks)."""
    events = list(events)
    out = []
    for n in sorted({e.deal for e in events}):
        tracker = TableTracker(game, 10.0)
        tracker.restore([e for e in events if e.deal == n])
        out.append((n, tracker.observation()))
    return out
