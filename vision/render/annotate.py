"""Draw a table reading onto its photo, so a director can check it without reading JSON.

Every card is outlined in its seat's colour and labelled ``W3`` / ``L3`` (won / lost, trick 3)
or ``?3`` (orientation unknown); face-up cards also show the card read (``SA``). Each row
gets its player's total, the trick in progress is marked ``trick``, and everything the
reconstruction found wrong - conflicting orientations, rows of the wrong length, wrongly
oriented cards, revokes - is drawn in red.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.record import Orientation
from vision.seats import Seat
from vision.table.reading import SeenCard, TableReading

#: BGR colours per seat; red is kept for problems.
SEAT_COLOURS: dict[Seat, tuple[int, int, int]] = {
    Seat.N: (255, 170, 40),
    Seat.E: (60, 200, 60),
    Seat.S: (230, 90, 230),
    Seat.W: (0, 210, 250),
}
RED = (0, 0, 255)
WHITE = (255, 255, 255)
GREY = (160, 160, 160)
ORANGE = (0, 140, 255)


def annotate(image: np.ndarray, reading: TableReading, report: Any | None = None) -> np.ndarray:
    """A copy of ``image`` (BGR uint8) with the reading and the report's findings drawn on."""
    canvas = np.ascontiguousarray(image.copy())
    if canvas.ndim == 2:
        canvas = cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR)
    if canvas.dtype != np.uint8:
        canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    h, w = canvas.shape[:2]
    scale = max(h, w) / 1600.0
    thick = max(1, int(round(2 * scale)))
    font = 0.45 * max(scale, 0.6)

    bad_cards: set[tuple[Seat, int]] = set()
    bad_rows: dict[Seat, list[str]] = {}
    if report is not None:
        for issue in getattr(report, "issues", []):
            kind = issue.kind.value if hasattr(issue.kind, "value") else str(issue.kind)
            for position in getattr(issue, "positions", ()):
                bad_cards.add((issue.seat, int(position)))  # a card that seems extra
            if issue.seat is not None and issue.trick is not None:
                bad_cards.add((issue.seat, int(issue.trick)))
            elif issue.trick is not None:
                for seat in reading.rows:
                    bad_cards.add((seat, int(issue.trick)))
            if issue.seat is not None and issue.trick is None:
                bad_rows.setdefault(issue.seat, []).append(kind.replace("_", " "))

    # loose cards first, then rows and trick on top
    for card in reading.cards:
        if card.seat is None:
            _outline(canvas, card, GREY, thick)
    for seat, row in reading.rows.items():
        colour = SEAT_COLOURS.get(seat, WHITE)
        for card in row:
            problem = (seat, card.row_position or 0) in bad_cards
            _outline(canvas, card, RED if problem else colour, thick * (2 if problem else 1))
    for seat, row in reading.rows.items():
        for card in row:
            problem = (seat, card.row_position or 0) in bad_cards
            _label(canvas, card, _card_text(card), RED if problem else _label_colour(card), font)
    for seat, card in reading.current_trick.items():
        _outline(canvas, card, SEAT_COLOURS.get(seat, WHITE), thick)
        text = f"trick {seat.name}" + (f" {card.card}" if card.card is not None else "")
        _label(canvas, card, text, WHITE, font)

    lines = _header_lines(reading, report)
    header = _header_box((w, h), lines, font, thick)
    _seat_totals(canvas, reading, bad_rows, font, thick, avoid=header)
    _header(canvas, lines, font, thick)
    return canvas


def _card_text(card: SeenCard) -> str:
    mark = {Orientation.WON: "W", Orientation.LOST: "L"}.get(card.orientation, "?")
    text = f"{mark}{card.row_position}"
    if card.card is not None:
        text += f" {card.card}"
    elif card.face_up:
        text += " ?"
    return text


def _label_colour(card: SeenCard) -> tuple[int, int, int]:
    if card.orientation is Orientation.UNKNOWN:
        return ORANGE
    return WHITE


def _outline(canvas: np.ndarray, card: SeenCard, colour: tuple[int, int, int], thick: int) -> None:
    pts = np.round(np.asarray(card.quad)).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(canvas, [pts], True, colour, thick, cv2.LINE_AA)


def _label(canvas: np.ndarray, card: SeenCard, text: str, colour: tuple[int, int, int],
           font: float) -> None:
    cx, cy = np.asarray(card.quad).mean(axis=0)
    _text(canvas, text, (int(cx), int(cy)), colour, font, centred=True)


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in image pixels


def _text_box(size: tuple[int, int], text: str, at: tuple[int, int], font: float, *,
              centred: bool = False, weight: int = 1) -> tuple[int, int, Box]:
    """Where :func:`_text` puts ``text`` on an image of ``size`` (w, h): its baseline origin
    and the box its black background covers."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, weight)
    x, y = at
    if centred:
        x, y = x - tw // 2, y + th // 2
    w, h = size
    x = int(np.clip(x, 2, max(2, w - tw - 2)))
    y = int(np.clip(y, th + 2, max(th + 2, h - base - 2)))
    return x, y, (x - 2, y - th - 2, x + tw + 2, y + base)


def _text(canvas: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int],
          font: float, *, centred: bool = False, weight: int = 1) -> None:
    h, w = canvas.shape[:2]
    x, y, (x0, y0, x1, y1) = _text_box((w, h), text, at, font, centred=centred, weight=weight)
    cv2.rectangle(canvas, (x0, y0), (x1, y1), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font, colour, weight, cv2.LINE_AA)


def _overlap(a: Box, b: Box | None) -> bool:
    return b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _seat_totals(canvas: np.ndarray, reading: TableReading, bad_rows: dict[Seat, list[str]],
                 font: float, thick: int, avoid: Box | None = None) -> None:
    h, w = canvas.shape[:2]
    for seat, (text, at) in total_labels((w, h), reading, bad_rows, font, thick,
                                         avoid).items():
        colour = RED if bad_rows.get(seat) else WHITE
        _text(canvas, text, at, colour, font * 1.2, weight=max(1, thick // 2))


def total_labels(size: tuple[int, int], reading: TableReading,
                 bad_rows: dict[Seat, list[str]], font: float, thick: int,
                 avoid: Box | None = None) -> dict[Seat, tuple[str, tuple[int, int]]]:
    """Each row's total (``"N: 5 won / 13 cards"``, problems appended) and where it goes on
    an image of ``size`` (w, h): on the row's outer side (toward the image edge), or on its
    inner side where the outer one would lie under the ``avoid`` box (the header's lines
    at the top left)."""
    w, h = size
    out: dict[Seat, tuple[str, tuple[int, int]]] = {}
    for seat, row in reading.rows.items():
        if not row:
            continue
        won = sum(c.orientation is Orientation.WON for c in row)
        unknown = sum(c.orientation is Orientation.UNKNOWN for c in row)
        text = f"{seat.name}: {won} won / {len(row)} cards"
        if unknown:
            text += f", {unknown} unknown"
        problems = bad_rows.get(seat, [])
        if problems:
            text += " - " + ", ".join(sorted(set(problems)))
        quads = np.stack([c.quad for c in row])
        centre = quads.reshape(-1, 2).mean(axis=0)
        lo, hi = quads.reshape(-1, 2).min(axis=0), quads.reshape(-1, 2).max(axis=0)
        dx, dy = centre[0] - w / 2, centre[1] - h / 2
        below = abs(dy) / h >= abs(dx) / w and dy > 0
        under = (int(lo[0]), int(hi[1] + 28 * font / 0.45))
        over = (int(lo[0]), int(lo[1] - 10))
        at = under if below else over
        weight = max(1, thick // 2)
        if _overlap(_text_box(size, text, at, font * 1.2, weight=weight)[2], avoid):
            at = over if below else under
        out[seat] = (text, at)
    return out


def _header_lines(reading: TableReading, report: Any | None) -> list[str]:
    """The lines written at the top left: result, undetermined tricks, problems, notes."""
    lines = []
    if report is not None:
        result = getattr(report, "result", {}) or {}
        if result:
            by_rows = getattr(report, "result_basis", "tricks") == "rows"
            lines.append("tricks: " + "  ".join(f"{k} {v}" for k, v in result.items())
                         + ("  (won cards of the whole rows)" if by_rows else ""))
        undetermined = getattr(report, "undetermined", []) or []
        if undetermined:
            lines.append("undetermined tricks: " + ", ".join(str(t) for t in undetermined))
        issues = getattr(report, "issues", []) or []
        for issue in issues[:6]:
            lines.append(f"! {issue.message}")
        if len(issues) > 6:
            lines.append(f"! ... and {len(issues) - 6} more problems (see the report)")
    if not reading.cards:
        lines.append("no cards found")
    for note in reading.notes[:3]:
        lines.append(note)
    return [line[:120] for line in lines]


def _header_places(lines: list[str], font: float) -> list[tuple[str, tuple[int, int]]]:
    """Where each of the header's lines is written (its baseline's start)."""
    first, step = int(30 * font / 0.45), int(26 * font / 0.45 * 1.3)
    return [(line, (10, first + k * step)) for k, line in enumerate(lines)]


def _header_box(size: tuple[int, int], lines: list[str], font: float, thick: int
                ) -> Box | None:
    """The box the header's lines cover on an image of ``size`` (None without lines)."""
    boxes = [_text_box(size, line, at, font * 1.3, weight=max(1, thick // 2))[2]
             for line, at in _header_places(lines, font)]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _header(canvas: np.ndarray, lines: list[str], font: float, thick: int) -> None:
    for line, at in _header_places(lines, font):
        colour = RED if line.startswith("!") else WHITE
        _text(canvas, line, at, colour, font * 1.3, weight=max(1, thick // 2))
