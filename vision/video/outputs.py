"""Where events go: JSON Lines, the console, the store; the final report, PBN, annotated video.

Sinks are callables ``sink(event, t_confirmed)`` handed every event as soon as the tracker
confirms it; each writes and flushes at once, so an interrupted run keeps what it reported.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from vision.errors import InputFileError
from vision.table.reading import TableReading
from vision.video.events import Alert, AlertWithdrawn, Event
from vision.video.store import EventStore


class JsonlSink:
    """Appends each event as one JSON line (with ``t_confirmed``) and flushes."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def __call__(self, event: Event, t_confirmed: float) -> None:
        d = event.to_dict()
        d["t_confirmed"] = round(t_confirmed, 3)
        self._fh.write(json.dumps(d, separators=(",", ":")) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()


class StoreSink:
    """Commits each event to the session database before anything else sees it."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def __call__(self, event: Event, t_confirmed: float) -> None:
        self.store.append(event, t_confirmed=t_confirmed)


class ConsoleSink:
    """Prints events (or only alerts) as they happen, one line each."""

    def __init__(self, stream: TextIO | None = None, *, alerts_only: bool = False,
                 before: Callable[[], None] | None = None) -> None:
        self.stream = stream or sys.stdout
        self.alerts_only = alerts_only
        self.before = before

    def __call__(self, event: Event, t_confirmed: float) -> None:
        if self.alerts_only and not isinstance(event, (Alert, AlertWithdrawn)):
            return
        if self.before is not None:
            self.before()
        self.stream.write(event.describe() + "\n")
        self.stream.flush()


def write_session_report(out_dir: Path, deals: list[tuple[int, Any]], *,
                         game: str) -> dict[str, Path]:
    """The reports of a session's deals, ``(deal number, observation)`` in order.

    One deal: ``report.json`` is its report, as ``trickvision reconstruct`` writes it.
    Several (a recorded session): ``report.json`` holds ``{"deals": [...]}``, each deal's
    report with its ``deal`` number; ``report.txt`` gives them one after the other and
    ``play.pbn`` (bridge) one game per deal, numbered by its ``Board`` tag.
    """
    from vision.reconstruct import reconstruct

    return write_reports(out_dir, [(n, reconstruct(obs)) for n, obs in deals], game=game)


def write_reports(out_dir: Path, reports: list[tuple[int, Any]], *,
                  game: str) -> dict[str, Path]:
    """:func:`write_session_report` for deals already reconstructed, ``(deal number,
    report)``."""
    from vision.notation.json_format import report_to_dict
    from vision.notation.text import report_to_text

    paths = {"report": out_dir / "report.json", "text": out_dir / "report.txt"}
    if len(reports) == 1:
        doc: dict[str, Any] = report_to_dict(reports[0][1])
        text = report_to_text(reports[0][1])
    else:
        doc = {"deals": [{"deal": n, **report_to_dict(r)} for n, r in reports]}
        text = "\n\n".join(f"Deal {n}\n{report_to_text(r)}" for n, r in reports)
    paths["report"].write_text(json.dumps(doc, indent=2) + "\n")
    paths["text"].write_text(text + "\n")
    if game == "bridge":
        from vision.notation.pbn import dumps, game_from_report

        games = []
        for n, r in reports:
            g = game_from_report(r, event="trickvision video")
            if len(reports) > 1:
                g.set_tag("Board", str(n))
            games.append(g)
        paths["pbn"] = out_dir / "play.pbn"
        paths["pbn"].write_text(dumps(games))
    return paths


class Annotator:
    """Writes an annotated copy of the analysed frames: cards outlined, latest events."""

    def __init__(self, path: str | os.PathLike[str], fps: float, size: tuple[int, int]) -> None:
        self.path = Path(path)
        self.writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter.fourcc(*"mp4v"),
                                      max(1.0, fps), size)
        if not self.writer.isOpened():
            raise InputFileError(f"cannot write annotated video {str(self.path)!r}")
        self.size = size
        self.lines: list[tuple[str, bool]] = []

    def event(self, event: Event, t_confirmed: float) -> None:
        self.lines.append((event.describe().strip(), isinstance(event, Alert)))
        self.lines = self.lines[-6:]

    def frame(self, image: np.ndarray, reading: TableReading | None) -> None:
        img = image.copy()
        if reading is not None:
            for c in reading.cards:
                colour = (0, 220, 255) if c.face_up else (
                    (0, 200, 0) if c.orientation.value == "won" else (255, 160, 0))
                cv2.polylines(img, [np.round(c.quad).astype(np.int32).reshape(-1, 1, 2)], True,
                              colour, 1, cv2.LINE_AA)
        y = 16
        for text, alert in self.lines:
            cv2.putText(img, text[:90], (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3,
                        cv2.LINE_AA)
            cv2.putText(img, text[:90], (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                        (0, 0, 255) if alert else (255, 255, 255), 1, cv2.LINE_AA)
            y += 15
        if img.shape[1] != self.size[0] or img.shape[0] != self.size[1]:
            img = cv2.resize(img, self.size)
        self.writer.write(img)

    def close(self) -> None:
        self.writer.release()
