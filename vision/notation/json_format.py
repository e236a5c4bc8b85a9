"""The JSON formats (schema 1): observations in, reports out, one object or JSON Lines.

An observation::

    {"schema": 1, "game": "bridge", "dealer": "N", "first_leader": "E",
     "contract": {"trump": "S", "declarer": "N", "kind": "tricks", "level": 4},
     "rows": {"N": [{"orientation": "won", "card": "SA"}, ...], "E": [...], ...}}

``dealer``, ``first_leader``, ``contract`` and ``complete`` are optional, and so is ``card``
in a row entry. Every error names the source, and where it applies the seat and the 1-based
position in the row, and raises ``ObservationFormatError`` (a ``TrickvisionError``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vision.cards import BRIDGE_DECK, Card, Suit
from vision.contract import Contract, ContractKind
from vision.errors import InputFileError, ObservationFormatError, TrickvisionError
from vision.games import GAMES, find_game
from vision.record import Observation, Orientation, RowEntry
from vision.seats import Seat

SCHEMA = 1
#: A row longer than this many hands is not a table but a broken input.
MAX_ROW_FACTOR = 2

_ORIENTATIONS = {o.value: o for o in Orientation}
_CARDS = {str(c): c for c in BRIDGE_DECK}  # fast path for the usual spelling
_SEAT_NAMES = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}


def _seat(value: Any, where: str) -> Seat:
    if isinstance(value, str) and value.strip().upper() in _SEAT_NAMES:
        return _SEAT_NAMES[value.strip().upper()]
    raise ObservationFormatError(f"{where}: unknown seat {value!r} (expected N, E, S or W)")


def contract_from_dict(d: Any, where: str) -> Contract:
    """``{"trump": "S"|"H"|"D"|"C"|"NT", "declarer": "S", "kind": "tricks", "level": 4}``."""
    if not isinstance(d, dict):
        raise ObservationFormatError(f"{where}: contract must be an object, got {d!r}")
    kind_text = d.get("kind", "tricks")
    try:
        kind = ContractKind(str(kind_text).lower())
    except ValueError:
        raise ObservationFormatError(
            f"{where}: unknown contract kind {kind_text!r} (expected one of "
            f"{', '.join(k.value for k in ContractKind)})") from None
    trump_text = d.get("trump", "NT")
    trump: Suit | None
    if trump_text is None or str(trump_text).strip().upper() in ("NT", "N", "NONE", ""):
        trump = None
    else:
        try:
            trump = Suit.from_str(str(trump_text))
        except TrickvisionError:
            raise ObservationFormatError(
                f"{where}: unknown trump {trump_text!r} (expected S, H, D, C or NT)") from None
    declarer = d.get("declarer")
    level = d.get("level")
    if level is not None and (not isinstance(level, int) or isinstance(level, bool)):
        raise ObservationFormatError(f"{where}: contract level must be an integer, got {level!r}")
    return Contract(trump=trump,
                    declarer=None if declarer is None else _seat(declarer, f"{where}: declarer"),
                    kind=kind, level=level)


def contract_to_dict(c: Contract) -> dict[str, Any]:
    out: dict[str, Any] = {"trump": "NT" if c.trump is None else c.trump.value,
                           "declarer": None if c.declarer is None else c.declarer.name,
                           "kind": c.kind.value}
    if c.level is not None:
        out["level"] = c.level
    return out


def _entry(e: Any, where: str) -> RowEntry:
    if isinstance(e, str):  # compact form: "won", "lost", "unknown"
        e = {"orientation": e}
    if not isinstance(e, dict):
        raise ObservationFormatError(
            f"{where}: expected an object like {{\"orientation\": \"won\", \"card\": \"SA\"}}, "
            f"got {e!r}")
    o_text = e.get("orientation", "unknown")
    o = _ORIENTATIONS.get(str(o_text).lower()) if o_text is not None else Orientation.UNKNOWN
    if o is None:
        raise ObservationFormatError(
            f"{where}: orientation {o_text!r} (expected 'won', 'lost' or 'unknown')")
    card_text = e.get("card")
    card = None
    if card_text is not None:
        card = _CARDS.get(card_text) if isinstance(card_text, str) else None
    if card is None and card_text is not None:
        try:
            card = Card.from_str(card_text)
        except TrickvisionError as exc:
            raise ObservationFormatError(f"{where}: {exc}") from None
    conf = e.get("confidence")
    cconf = e.get("card_confidence")
    for name, v in (("confidence", conf), ("card_confidence", cconf)):
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool)):
            raise ObservationFormatError(f"{where}: {name} must be a number, got {v!r}")
    return RowEntry(orientation=o, card=card,
                    confidence=None if conf is None else float(conf),
                    card_confidence=None if cconf is None else float(cconf),
                    candidates=_candidates(e.get("candidates"), where))


def _candidates(value: Any, where: str) -> tuple[tuple[Card, float], ...]:
    """``[{"card": "S5", "p": 0.95}, ...]`` -> ((Card, p), ...); absent -> ()."""
    if value is None:
        return ()
    expected = 'a list like [{"card": "S5", "p": 0.95}]'
    if not isinstance(value, list):
        raise ObservationFormatError(f"{where}: candidates must be {expected}, got {value!r}")
    out = []
    for item in value:
        p = item.get("p") if isinstance(item, dict) else None
        text = item.get("card") if isinstance(item, dict) else None
        if not isinstance(text, str) or not isinstance(p, (int, float)) or isinstance(p, bool) \
                or not 0.0 <= p <= 1.0:
            raise ObservationFormatError(
                f"{where}: candidate {item!r}: expected {{\"card\": \"S5\", \"p\": 0.95}} "
                "with p between 0 and 1")
        try:
            out.append((Card.from_str(text), float(p)))
        except TrickvisionError as exc:
            raise ObservationFormatError(f"{where}: candidate {item!r}: {exc}") from None
    return tuple(out)


def observation_from_dict(d: Any, source: str = "<observation>") -> Observation:
    """Parse an observation object; raises ``ObservationFormatError`` naming what is wrong."""
    if not isinstance(d, dict):
        raise ObservationFormatError(f"{source}: expected a JSON object, got {type(d).__name__}")
    schema = d.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise ObservationFormatError(
            f"{source}: unsupported schema {schema!r} (this version reads schema {SCHEMA})")
    game_name = d.get("game")
    if not isinstance(game_name, str):
        raise ObservationFormatError(
            f"{source}: missing \"game\" (expected one of {', '.join(GAMES)})")
    try:
        game = find_game(game_name)
    except TrickvisionError as exc:
        raise ObservationFormatError(f"{source}: {exc}") from None
    rows_in = d.get("rows")
    if not isinstance(rows_in, dict):
        raise ObservationFormatError(
            f"{source}: \"rows\" must be an object mapping seats (N E S W) to lists of cards")
    limit = MAX_ROW_FACTOR * game.hand_size
    rows: dict[Seat, list[RowEntry]] = {}
    for key, entries in rows_in.items():
        seat = _seat(key, f"{source}: rows")
        if seat in rows:
            raise ObservationFormatError(f"{source}: seat {seat} has two rows")
        if not isinstance(entries, list):
            raise ObservationFormatError(f"{source}: seat {seat}: row must be a list")
        if len(entries) > limit:
            raise ObservationFormatError(
                f"{source}: seat {seat}, position {limit + 1}: row has {len(entries)} cards; a "
                f"{game.name} hand has {game.hand_size} (at most {limit} accepted)")
        rows[seat] = [_entry(e, f"{source}: seat {seat}, position {i}")
                      for i, e in enumerate(entries, 1)]
    dealer = d.get("dealer")
    first = d.get("first_leader")
    contract = d.get("contract")
    complete = d.get("complete")
    if complete is not None and not isinstance(complete, bool):
        raise ObservationFormatError(f"{source}: \"complete\" must be true or false")
    return Observation(
        game=game.name,
        rows=rows,
        dealer=None if dealer is None else _seat(dealer, f"{source}: dealer"),
        first_leader=None if first is None else _seat(first, f"{source}: first_leader"),
        contract=None if contract is None else contract_from_dict(contract, f"{source}: contract"),
        complete=complete,
    )


def _entry_to_dict(e: RowEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"orientation": e.orientation.value,
                           "card": None if e.card is None else str(e.card)}
    if e.confidence is not None:
        out["confidence"] = round(e.confidence, 4)
    if e.card_confidence is not None:
        out["card_confidence"] = round(e.card_confidence, 4)
    if e.candidates:
        out["candidates"] = candidates_to_list(e.candidates)
    return out


def candidates_to_list(candidates: tuple[tuple[Card, float], ...]) -> list[dict[str, Any]]:
    """((Card, p), ...) -> ``[{"card": "S5", "p": 0.95}, ...]`` (inverse of reading them)."""
    return [{"card": str(c), "p": round(p, 4)} for c, p in candidates]


def _rows_to_dict(rows: dict[Seat, list[RowEntry]]) -> dict[str, list[dict[str, Any]]]:
    return {s.name: [_entry_to_dict(e) for e in rows[s]] for s in sorted(rows)}


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON object of an observation (inverse of ``observation_from_dict``)."""
    out: dict[str, Any] = {"schema": SCHEMA, "game": obs.game}
    if obs.dealer is not None:
        out["dealer"] = obs.dealer.name
    if obs.first_leader is not None:
        out["first_leader"] = obs.first_leader.name
    if obs.contract is not None:
        out["contract"] = contract_to_dict(obs.contract)
    if obs.complete is not None:
        out["complete"] = obs.complete
    out["rows"] = _rows_to_dict(obs.rows)
    return out


def _inference_to_dict(inf: Any) -> dict[str, Any]:
    return {"value": inf.value, "source": inf.source, "confidence": inf.confidence,
            "alternatives": dict(inf.alternatives)}


def report_to_dict(report: Any) -> dict[str, Any]:
    """The JSON object of a ``vision.reconstruct.Report``."""

    def name(s: Seat | None) -> str | None:
        return None if s is None else s.name

    return {
        "schema": SCHEMA,
        "game": report.game,
        "seats": [s.name for s in report.seats],
        "dealer": name(report.dealer),
        "contract": None if report.contract is None else contract_to_dict(report.contract),
        "first_leader": name(report.first_leader),
        "inferred": {"trump": _inference_to_dict(report.trump),
                     "first_leader": _inference_to_dict(report.leader)},
        "complete": report.complete,
        "rows": _rows_to_dict(report.rows),
        "tricks": [
            {
                "number": t.number,
                "leader": name(t.leader),
                "winner": name(t.winner),
                "side": t.side,
                "cards": {s.name: (None if c is None else str(c)) for s, c in t.cards.items()},
                "orientations": {s.name: o.value for s, o in t.orientations.items()},
                "evidence": t.evidence,
                "candidates": list(t.candidates),
            }
            for t in report.tricks
        ],
        "result": dict(report.result),
        "result_basis": report.result_basis,
        "undetermined": list(report.undetermined),
        "issues": [
            {"kind": i.kind.value, "seat": name(i.seat), "trick": i.trick, "message": i.message,
             **({"expected": i.expected.value} if i.expected is not None else {}),
             **({"positions": list(i.positions)} if i.positions else {})}
            for i in report.issues
        ],
        "hands": None if report.hands is None else {
            s.name: [str(c) for c in h] for s, h in report.hands.items()},
        "talon": None if report.talon is None else [str(c) for c in report.talon],
        "notes": list(report.notes),
    }


# ------------------------------------------------------------------------------- files


def loads_observations(text: str, source: str = "<input>") -> Iterator[Observation]:
    """Observations from the text of a JSON document (one object or a list) or JSON Lines."""
    stripped = text.strip()
    if not stripped:
        raise ObservationFormatError(f"{source}: empty input (expected a JSON observation)")
    try:
        doc = json.loads(stripped)
    except json.JSONDecodeError as first_error:
        if not _looks_like_json_lines(stripped):
            raise ObservationFormatError(
                f"{source}: not valid JSON: {first_error.msg} (line {first_error.lineno}, "
                f"column {first_error.colno})") from None
        yield from _json_lines(text, source)
        return
    if isinstance(doc, list):
        for i, item in enumerate(doc, 1):
            yield observation_from_dict(_unwrap(item), f"{source}[{i}]")
    else:
        yield observation_from_dict(_unwrap(doc), source)


def _unwrap(doc: Any) -> Any:
    """A synthetic scene's ground truth (``{"image": ..., "observation": {...}}``) reads as
    the observation it carries."""
    if isinstance(doc, dict) and "rows" not in doc and isinstance(doc.get("observation"), dict):
        return doc["observation"]
    return doc


def _looks_like_json_lines(text: str) -> bool:
    """True when the first line is a whole JSON object on its own (JSON Lines)."""
    first = text.split("\n", 1)[0].strip()
    if "\n" not in text or not first.startswith("{"):
        return False
    try:
        return isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        return False


def _json_lines(text: str, source: str) -> Iterator[Observation]:
    loads = json.loads
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{lineno}"
        try:
            doc = loads(line)
        except json.JSONDecodeError as exc:
            raise ObservationFormatError(
                f"{where}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        yield observation_from_dict(_unwrap(doc), where)


def read_observations(path: str | Path) -> Iterator[Observation]:
    """Observations from a file (``-`` is standard input): JSON or JSON Lines."""
    if str(path) == "-":
        import sys

        return loads_observations(sys.stdin.read(), "<stdin>")
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a directory, expected a JSON file") from None
    except UnicodeDecodeError:
        raise InputFileError(f"{path}: not a text file (expected JSON)") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read: {exc.strerror}") from None
    return loads_observations(text, str(path))


def load_observation(path: str | Path) -> Observation:
    """Exactly one observation from a JSON file."""
    obs = list(read_observations(path))
    if len(obs) != 1:
        raise ObservationFormatError(f"{path}: expected one observation, found {len(obs)}")
    return obs[0]


__all__ = [
    "SCHEMA", "contract_from_dict", "contract_to_dict", "load_observation",
    "loads_observations", "observation_from_dict", "observation_to_dict", "read_observations",
    "report_to_dict",
]
