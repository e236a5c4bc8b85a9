"""PBN 2.1 (Portable Bridge Notation): read and write played bridge deals.

``loads``/``dumps`` (and ``load``/``dump`` for files) in the ``json`` style. A ``PbnGame``
keeps its tags in order and the Play section as tricks in the fixed seat columns PBN uses
(starting from the opening leader, clockwise; ``None`` for a card written ``-``), so a file in
the export layout this module writes reads back and writes out byte for byte.

``game_from_report`` turns a bridge reconstruction into a game; ``PbnGame.to_observation``
turns a played deal into the rows a camera would have seen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO

from vision.cards import RANKS_HIGH_TO_LOW, SUITS, Card, Rank, Suit
from vision.contract import Contract, ContractKind
from vision.errors import PbnDecodeError, TrickvisionError
from vision.games import find_game
from vision.record import Observation, Orientation, RowEntry
from vision.seats import SEATS, Seat

HEADER = ("% PBN 2.1", "% EXPORT")
#: The mandatory tag set in export order; the Play tag and its section follow.
MTS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
       "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_CONTRACT = re.compile(r"^([1-7])(S|H|D|C|NT)(X{0,2})$")


def _unescape(v: str) -> str:
    return v.replace('\\"', '"').replace("\\\\", "\\")


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


@dataclass
class PbnGame:
    """One game of a PBN file: ordered tags, raw sections, and the Play section's tricks."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    #: Lines of non-Play sections (e.g. Auction), keyed by the tag that opens them.
    sections: dict[str, list[str]] = field(default_factory=dict)
    #: Tricks of the Play section, each in the fixed column order from the opening leader.
    play: list[list[Card | None]] | None = None
    #: ``%`` comment lines written before this game.
    comments: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ tags
    def tag(self, name: str) -> str | None:
        for k, v in self.tags:
            if k == name:
                return v
        return None

    def set_tag(self, name: str, value: str) -> None:
        for i, (k, _) in enumerate(self.tags):
            if k == name:
                self.tags[i] = (name, value)
                return
        self.tags.append((name, value))

    # ------------------------------------------------------------------ derived values
    @property
    def opening_leader(self) -> Seat | None:
        v = self.tag("Play")
        return _seat_or_none(v)

    @property
    def declarer(self) -> Seat | None:
        return _seat_or_none(self.tag("Declarer"))

    @property
    def dealer(self) -> Seat | None:
        return _seat_or_none(self.tag("Dealer"))

    @property
    def contract(self) -> Contract | None:
        """The contract (``None`` when unknown or passed out)."""
        text = (self.tag("Contract") or "").strip().upper()
        m = _CONTRACT.match(text)
        if not m:
            return None
        trump = None if m.group(2) == "NT" else Suit(m.group(2))
        return Contract(trump=trump, declarer=self.declarer, kind=ContractKind.TRICKS,
                        level=int(m.group(1)))

    @property
    def deal(self) -> dict[Seat, tuple[Card, ...] | None]:
        """Each seat's hand from the Deal tag (``None`` for a hand written ``-``)."""
        text = self.tag("Deal")
        if text is None:
            return {s: None for s in SEATS}
        return parse_deal(text)

    def tricks(self) -> list[tuple[Seat | None, dict[Seat, Card | None]]]:
        """(leader, card per seat) for each trick of the Play section, leaders by the rules."""
        first = self.opening_leader
        if self.play is None or first is None:
            return []
        game = find_game("bridge")
        contract = self.contract
        fill = self._unplayed_from_deal()
        out: list[tuple[Seat | None, dict[Seat, Card | None]]] = []
        leader: Seat | None = first
        for row in self.play:
            cards = {first.clockwise(j): c for j, c in enumerate(row)}
            out.append((leader, cards))
            known = {s: (c if c is not None else fill.get(s)) for s, c in cards.items()}
            if leader is None or any(c is None for c in known.values()):
                leader = None
                continue
            order = game.play_order(leader, SEATS)
            leader = game.trick_winner([(s, known[s]) for s in order], contract)  # type: ignore[misc]
        return out

    def _unplayed_from_deal(self) -> dict[Seat, Card]:
        """A card written ``-`` in the Play section, when the Deal tag says what it was.

        Only for a seat with exactly one such card: his hand minus the cards he played.
        """
        if self.play is None or self.opening_leader is None or self.tag("Deal") is None:
            return {}
        first = self.opening_leader
        out: dict[Seat, Card] = {}
        for s, hand in self.deal.items():
            if hand is None:
                continue
            j = (s - first) % 4
            col = [row[j] for row in self.play]
            if col.count(None) == 1 and len(col) == len(hand):
                rest = set(hand) - {c for c in col if c is not None}
                if len(rest) == 1:
                    out[s] = rest.pop()
        return out

    def to_observation(self) -> Observation:
        """The rows the players would have laid: faces and orientations from the play."""
        game = find_game("bridge")
        rows: dict[Seat, list[RowEntry]] = {s: [] for s in SEATS}
        tricks = self.tricks()
        contract = self.contract
        for i, (leader, cards) in enumerate(tricks):
            winner = None
            if leader is not None and all(c is not None for c in cards.values()):
                order = game.play_order(leader, SEATS)
                winner = game.trick_winner([(s, cards[s]) for s in order],  # type: ignore[misc]
                                           contract)
            elif i + 1 < len(tricks):
                winner = tricks[i + 1][0]
            for s in SEATS:
                o = game.orientation(s, winner) if winner is not None else Orientation.UNKNOWN
                rows[s].append(RowEntry(orientation=o, card=cards[s]))
        return Observation(game="bridge", rows=rows, dealer=self.dealer,
                           first_leader=self.opening_leader, contract=contract,
                           complete=len(tricks) == game.hand_size or None)


def _seat_or_none(v: str | None) -> Seat | None:
    if v is None or v.strip().upper() not in ("N", "E", "S", "W"):
        return None
    return Seat[v.strip().upper()]


# ---------------------------------------------------------------------------------- hands


def format_hand(hand: Iterable[Card] | None) -> str:
    """``AKQ.T98.-.5432`` style: suits S H D C, ranks high to low; ``-`` for no hand."""
    if hand is None:
        return "-"
    cards = set(hand)
    return ".".join("".join(r.letter for r in RANKS_HIGH_TO_LOW if Card(s, r) in cards)
                    for s in SUITS)


def format_deal(hands: dict[Seat, tuple[Card, ...] | None], first: Seat = Seat.N) -> str:
    return f"{first.name}:" + " ".join(format_hand(hands.get(first.clockwise(i)))
                                      for i in range(4))


def parse_deal(text: str, lineno: int | None = None, source: str = "<pbn>"
               ) -> dict[Seat, tuple[Card, ...] | None]:
    """Hands from a Deal tag value (``N:`` then four hands clockwise, ``-`` for unknown)."""
    t = text.strip()
    if len(t) < 2 or t[1] != ":" or t[0].upper() not in "NESW":
        raise PbnDecodeError(f"Deal {text!r}: expected 'N:' then four hands", lineno,
                             source)
    first = Seat[t[0].upper()]
    parts = t[2:].split()
    if len(parts) != 4:
        raise PbnDecodeError(f"Deal {text!r}: expected four hands, found {len(parts)}", lineno,
                             source)
    out: dict[Seat, tuple[Card, ...] | None] = {}
    for i, part in enumerate(parts):
        seat = first.clockwise(i)
        if part == "-":
            out[seat] = None
            continue
        suits = part.split(".")
        if len(suits) != 4:
            raise PbnDecodeError(f"Deal: hand {part!r} of {seat}: expected four suits "
                                 f"separated by '.'", lineno, source)
        cards = []
        for suit, ranks in zip(SUITS, suits, strict=True):
            for ch in ranks:
                if ch == "-":
                    continue
                try:
                    cards.append(Card(suit, Rank.from_str(ch)))
                except TrickvisionError:
                    raise PbnDecodeError(f"Deal: hand {part!r} of {seat}: bad rank {ch!r}",
                                         lineno, source) from None
        out[seat] = tuple(sorted(cards, reverse=True))
    return out


# ---------------------------------------------------------------------------------- reading


def loads(text: str, source: str = "<pbn>") -> list[PbnGame]:
    """Parse the games of a PBN text; raises ``PbnDecodeError`` with the line number."""
    games: list[PbnGame] = []
    game: PbnGame | None = None
    comments: list[str] = []
    section: str | None = None  # name of the tag whose section is being read
    play_tokens: list[tuple[str, int]] = []
    play_done = False

    def finish_play() -> None:
        nonlocal play_tokens
        assert game is not None
        rows: list[list[Card | None]] = []
        cur: list[Card | None] = []
        for tok, ln in play_tokens:
            if tok == "-":
                cur.append(None)
            else:
                try:
                    cur.append(Card.from_str(tok))
                except TrickvisionError:
                    raise PbnDecodeError(f"Play: {tok!r} is not a card", ln, source) from None
            if len(cur) == 4:
                rows.append(cur)
                cur = []
        if cur:
            raise PbnDecodeError("Play: the last trick has fewer than four cards",
                                 play_tokens[-1][1], source)
        game.play = rows
        play_tokens = []

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if section == "Play" and not play_done:
            if stripped.startswith("["):
                raise PbnDecodeError("Play section not closed with '*'", lineno, source)
            for tok in stripped.split():
                if tok == "*":
                    play_done = True
                    break
                play_tokens.append((tok, lineno))
            if play_done:
                finish_play()
                section = None
            continue
        if not stripped:
            if game is not None:
                games.append(game)
                game = None
            section = None
            continue
        if stripped.startswith("%"):
            if game is not None:
                games.append(game)
                game = None
            comments.append(line)
            continue
        if stripped.startswith("["):
            m = _TAG.match(stripped)
            if not m:
                raise PbnDecodeError(f"malformed tag {stripped!r} (expected [Name \"value\"])",
                                     lineno, source)
            if game is None:
                game = PbnGame(comments=comments)
                comments = []
            name, value = m.group(1), _unescape(m.group(2))
            if game.tag(name) is not None:
                raise PbnDecodeError(f"tag {name} appears twice in one game", lineno, source)
            game.tags.append((name, value))
            if name == "Play":
                if _seat_or_none(value) is None and value not in ("", "?"):
                    raise PbnDecodeError(f"Play {value!r}: expected a seat N, E, S or W",
                                         lineno, source)
                section = "Play"
                play_done = False
            elif name == "Deal":
                parse_deal(value, lineno, source)  # validate early, with the line number
                section = name
            else:
                section = name
            continue
        if game is None or section is None:
            raise PbnDecodeError(f"unexpected text {stripped!r} outside a game", lineno, source)
        game.sections.setdefault(section, []).append(line)
    if section == "Play" and not play_done:
        raise PbnDecodeError("Play section not closed with '*'", None, source)
    if game is not None:
        games.append(game)
    return games


def load(fp: IO[str], source: str | None = None) -> list[PbnGame]:
    return loads(fp.read(), source or str(getattr(fp, "name", "<pbn>")))


# ---------------------------------------------------------------------------------- writing


def dumps(games: Iterable[PbnGame]) -> str:
    """The PBN text of ``games``; a file without comments gets the export header."""
    games = list(games)
    out: list[str] = []
    for i, g in enumerate(games):
        if i > 0:
            out.append("")
        comments = g.comments if (g.comments or i > 0) else list(HEADER)
        out.extend(comments)
        for name, value in g.tags:
            out.append(f'[{name} "{_escape(value)}"]')
            if name == "Play" and g.play is not None:
                for row in g.play:
                    out.append(" ".join("-" if c is None else str(c) for c in row))
                out.append("*")
            out.extend(g.sections.get(name, []))
    return "\n".join(out) + "\n"


def dump(games: Iterable[PbnGame], fp: IO[str]) -> None:
    fp.write(dumps(games))


def game_from_report(report, event: str = "") -> PbnGame:  # type: ignore[no-untyped-def]
    """A PBN game from a bridge ``Report``: deal, declarer, contract, play and result."""
    if report.game != "bridge":
        raise TrickvisionError(f"PBN export is for bridge, not {report.game}")
    c = report.contract
    dealer = report.dealer
    hands = report.hands or {}
    if c is not None and c.level is not None and c.kind is ContractKind.TRICKS:
        contract = f"{c.level}{'NT' if c.trump is None else c.trump.value}"
    else:
        contract = "?"
    declarer = c.declarer if c is not None else None
    leader = report.tricks[0].leader if report.tricks else None
    if leader is None:
        leader = report.first_leader
    if declarer is None and leader is not None:
        declarer = leader.rho
    result = "?"
    if declarer is not None and report.complete and not report.undetermined:
        result = str(report.result.get(declarer.side, 0))
    g = PbnGame()
    for name in MTS:
        value = "?"
        if name == "Event":
            value = event or "trickvision reconstruction"
        elif name == "Dealer":
            value = dealer.name if dealer is not None else "?"
        elif name == "Deal":
            value = format_deal({s: hands.get(s) for s in SEATS},
                                dealer if dealer is not None else Seat.N)
        elif name == "Declarer":
            value = declarer.name if declarer is not None else "?"
        elif name == "Contract":
            value = contract
        elif name == "Result":
            value = result
        g.tags.append((name, value))
    if leader is not None and report.tricks:
        g.tags.append(("Play", leader.name))
        g.play = [[t.cards.get(leader.clockwise(j)) for j in range(4)] for t in report.tricks]
    return g


__all__ = ["MTS", "PbnGame", "dump", "dumps", "format_deal", "format_hand", "game_from_report",
           "load", "loads", "parse_deal"]
