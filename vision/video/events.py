"""What the tracker reports: frozen event values, each with the time it happened.

Every event carries ``t``, the time in seconds (media time for a file, session time for a
camera) at which the evidence for it first appeared - not the time it was confirmed, which
is later by the persistence the tracker waits for. Events are plain values: ``to_dict`` and
``event_from_dict`` round-trip them through JSON, which is how the store keeps them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from vision.cards import Card
from vision.errors import TrickvisionError
from vision.record import Orientation
from vision.seats import Seat

#: The alert kinds the tracker raises as play goes on.
ALERT_KINDS: tuple[str, ...] = ("wrong_orientation", "revoke", "row_length")


@dataclass(frozen=True)
class Event:
    """Base of all events: ``deal`` counts deals seen in one session (1-based)."""

    t: float
    deal: int = 1

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "t": round(self.t, 3), "deal": self.deal}
        d.update(self._fields_to_dict())
        return d

    def _fields_to_dict(self) -> dict[str, Any]:
        return {}

    def describe(self) -> str:
        """One line for a person watching the table."""
        return f"{self.t:8.2f}s  {self.kind}"


def _seat_cards(pairs: tuple[tuple[Seat, Card | None], ...]) -> list[list[str | None]]:
    return [[str(s), None if c is None else str(c)] for s, c in pairs]


@dataclass(frozen=True)
class CardLaid(Event):
    """A card was laid face up in front of ``seat`` as its play to trick ``trick``.

    A play first known only from the player's row (``card`` None) is announced again, with
    its identity, when his face-up card shows that row card was a ghost; the later event wins.
    """

    seat: Seat = Seat.N
    card: Card | None = None
    trick: int = 1

    kind: ClassVar[str] = "card_laid"

    def _fields_to_dict(self) -> dict[str, Any]:
        return {"seat": str(self.seat), "card": None if self.card is None else str(self.card),
                "trick": self.trick}

    def describe(self) -> str:
        card = "??" if self.card is None else str(self.card)
        return f"{self.t:8.2f}s  trick {self.trick:2d}  {self.seat} plays {card}"


@dataclass(frozen=True)
class TrickComplete(Event):
    """Every active seat has played to trick ``number``.

    ``cards`` lists (seat, card) in order of play from ``leader``; ``winner`` is the seat that
    won by the rules (or, where the cards or trump are unknown, by the rows' orientations);
    ``winner_source`` says which (``"rules"`` or ``"rows"``). ``order_agrees`` is False when the
    order in which the cards appeared does not start with the leader the rules give. A trick
    may be reported again: a report with ``winner_source="rows"`` corrects the first when
    every row agrees on another winner than the cards as read; one with other cards when a
    card read as two was settled by a later trick (the other card played there). The last
    report of a trick is the one that holds. ``deduced`` names the seats whose card no
    reading showed: named at the end of the deal from the cards nobody was seen to play and
    the rules (reported again with them).
    """

    number: int = 1
    leader: Seat | None = None
    winner: Seat | None = None
    cards: tuple[tuple[Seat, Card | None], ...] = ()
    winner_source: str = "rules"
    order_agrees: bool = True
    deduced: tuple[Seat, ...] = ()

    kind: ClassVar[str] = "trick_complete"

    def _fields_to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": None if self.leader is None else str(self.leader),
            "winner": None if self.winner is None else str(self.winner),
            "cards": _seat_cards(self.cards),
            "winner_source": self.winner_source,
            "order_agrees": self.order_agrees,
        } | ({"deduced": [str(s) for s in self.deduced]} if self.deduced else {})

    def describe(self) -> str:
        cards = " ".join(f"{s}:{'??' if c is None else c}{'*' if s in self.deduced else ''}"
                         for s, c in self.cards)
        note = "  (* named from the rest of the deal)" if self.deduced else ""
        return (f"{self.t:8.2f}s  trick {self.number:2d}  complete  {cards}  "
                f"won by {self.winner if self.winner is not None else '?'}{note}")


@dataclass(frozen=True)
class CardsTurned(Event):
    """The cards of trick ``number`` were turned face down into the rows."""

    number: int = 1
    orientations: tuple[tuple[Seat, Orientation], ...] = ()

    kind: ClassVar[str] = "cards_turned"

    def _fields_to_dict(self) -> dict[str, Any]:
        return {"number": self.number,
                "orientations": [[str(s), o.value] for s, o in self.orientations]}

    def describe(self) -> str:
        o = " ".join(f"{s}:{o.value}" for s, o in self.orientations)
        return f"{self.t:8.2f}s  trick {self.number:2d}  turned    {o}"


@dataclass(frozen=True)
class DealFinished(Event):
    """All tricks of the deal are in the rows. ``result`` maps seat or side to tricks taken."""

    tricks: int = 0
    result: tuple[tuple[str, int], ...] = ()

    kind: ClassVar[str] = "deal_finished"

    def _fields_to_dict(self) -> dict[str, Any]:
        return {"tricks": self.tricks, "result": {k: v for k, v in self.result}}

    def describe(self) -> str:
        r = " ".join(f"{k}:{v}" for k, v in self.result)
        return f"{self.t:8.2f}s  deal {self.deal} finished after {self.tricks} tricks  {r}"


@dataclass(frozen=True)
class _AlertFields(Event):
    """What an alert and its withdrawal both carry: the kind, the seat, the trick, a message."""

    alert: str = "row_length"
    seat: Seat | None = None
    trick: int | None = None
    message: str = ""

    def _fields_to_dict(self) -> dict[str, Any]:
        return {"alert": self.alert, "seat": None if self.seat is None else str(self.seat),
                "trick": self.trick, "message": self.message}


@dataclass(frozen=True)
class Alert(_AlertFields):
    """An irregularity seen as it happens: ``alert`` is one of :data:`ALERT_KINDS`."""

    kind: ClassVar[str] = "alert"

    def __post_init__(self) -> None:
        if self.alert not in ALERT_KINDS:
            raise TrickvisionError(
                f"invalid alert kind: {self.alert!r} (expected one of {', '.join(ALERT_KINDS)})"
            )

    def describe(self) -> str:
        return f"{self.t:8.2f}s  ALERT {self.alert}: {self.message}"


@dataclass(frozen=True)
class AlertWithdrawn(_AlertFields):
    """An alert raised earlier no longer holds: later readings show the card lies as it
    should after all (a row card misread at first), or read it both ways too often to blame
    anyone, or the cards named at the deal's end undo a revoke (``message`` says which). The
    alert stays in the record, this event after it says it was withdrawn; one raised again
    later is a new alert. ``orientation``: for a wrong-orientation alert, how the row card
    lies in the record from now on."""

    alert: str = "wrong_orientation"
    orientation: Orientation | None = None

    kind: ClassVar[str] = "alert_withdrawn"

    def _fields_to_dict(self) -> dict[str, Any]:
        d = super()._fields_to_dict()
        if self.orientation is not None:
            d["orientation"] = self.orientation.value
        return d

    def describe(self) -> str:
        return f"{self.t:8.2f}s  alert withdrawn ({self.alert}): {self.message}"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (CardLaid, TrickComplete, CardsTurned, DealFinished, Alert, AlertWithdrawn)
}


def _opt_seat(x: Any) -> Seat | None:
    return None if x is None else Seat.from_str(x)


def _opt_card(x: Any) -> Card | None:
    return None if x is None else Card.from_str(x)


def tricks_reported(events: Iterable[Event]) -> int:
    """How many tricks ``events`` report complete: a trick reported again (corrected) is
    still one trick."""
    return len({(e.deal, e.number) for e in events if isinstance(e, TrickComplete)})


def event_from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event written by :meth:`Event.to_dict`."""
    try:
        kind = d["kind"]
        t = float(d["t"])
        deal = int(d.get("deal", 1))
        if kind == "card_laid":
            return CardLaid(t=t, deal=deal, seat=Seat.from_str(d["seat"]),
                            card=_opt_card(d["card"]), trick=int(d["trick"]))
        if kind == "trick_complete":
            return TrickComplete(
                t=t, deal=deal, number=int(d["number"]), leader=_opt_seat(d["leader"]),
                winner=_opt_seat(d["winner"]),
                cards=tuple((Seat.from_str(s), _opt_card(c)) for s, c in d["cards"]),
                winner_source=str(d.get("winner_source", "rules")),
                order_agrees=bool(d.get("order_agrees", True)),
                deduced=tuple(Seat.from_str(s) for s in d.get("deduced", ())),
            )
        if kind == "cards_turned":
            return CardsTurned(
                t=t, deal=deal, number=int(d["number"]),
                orientations=tuple((Seat.from_str(s), Orientation(o))
                                   for s, o in d["orientations"]),
            )
        if kind == "deal_finished":
            return DealFinished(t=t, deal=deal, tricks=int(d["tricks"]),
                                result=tuple((str(k), int(v)) for k, v in d["result"].items()))
        if kind in ("alert", "alert_withdrawn"):
            fields: dict[str, Any] = dict(
                t=t, deal=deal, alert=str(d["alert"]), seat=_opt_seat(d["seat"]),
                trick=None if d["trick"] is None else int(d["trick"]),
                message=str(d.get("message", "")))
            if kind == "alert":
                return Alert(**fields)
            lies = d.get("orientation")
            return AlertWithdrawn(**fields, orientation=None if lies is None
                                  else Orientation(lies))
    except (KeyError, TypeError, ValueError) as exc:
        raise TrickvisionError(f"invalid event record {d!r}: {exc}") from None
    raise TrickvisionError(
        f"invalid event kind {d.get('kind')!r} (expected one of {', '.join(EVENT_TYPES)})"
    )


__all__ = [
    "ALERT_KINDS", "Alert", "AlertWithdrawn", "CardLaid", "CardsTurned", "DealFinished",
    "EVENT_TYPES", "Event", "TrickComplete", "event_from_dict",
]
