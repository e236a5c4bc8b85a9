"""Durable event store: one SQLite database per session, append-only, committed per event.

A crash or power cut must lose nothing that was reported, so every event is committed in its
own transaction (WAL journal, ``synchronous=FULL``) before the caller prints it. Rows are never
changed: triggers refuse UPDATE and DELETE. A restarted session opens the same file, reads the
events back and resumes the game from them (:meth:`EventStore.events`), and the ``progress``
table (also append-only) remembers how far into the source the session got.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from vision.errors import InputFileError, TrickvisionError
from vision.video.events import Event, event_from_dict

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    t REAL NOT NULL,            -- when it happened (session / media seconds)
    t_confirmed REAL,           -- when the tracker confirmed it
    wall_time REAL NOT NULL,    -- unix time of the commit
    kind TEXT NOT NULL,
    data TEXT NOT NULL          -- the event as JSON
);
CREATE TABLE IF NOT EXISTS progress (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    t REAL NOT NULL,
    pos REAL,
    wall_time REAL NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS meta_no_update BEFORE UPDATE ON meta
BEGIN SELECT RAISE(ABORT, 'session metadata is written once'); END;
"""


class StoreError(TrickvisionError):
    """The database is not a trickvision session, or belongs to another game."""


def read_session(path: str | os.PathLike[str]) -> tuple[dict[str, str], list[Event]]:
    """The metadata and events of an existing session database, for reports; writes nothing
    to it (a database left by a crash is read with what it committed)."""
    path = Path(path)
    if not path.exists():
        raise InputFileError(f"session database not found: {path}")
    if path.is_dir():
        raise InputFileError(f"{path} is a folder, expected a session database file")
    try:
        db = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
        try:
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            rows = db.execute("SELECT data FROM events ORDER BY seq").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{str(path)!r} is not a trickvision session database: {exc}") \
            from None
    if "game" not in meta:
        raise StoreError(f"{str(path)!r} is not a trickvision session database (no game "
                         "recorded in it)")
    return meta, [event_from_dict(json.loads(r[0])) for r in rows]


class EventStore:
    """Append-only event log of one session in SQLite.

    ``meta`` holds what identifies the session (game, source, creation time); opening an
    existing database with a different ``game`` is an error rather than a silent mix.
    """

    def __init__(self, path: str | os.PathLike[str], *, game: str, source: str = "") -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise InputFileError(f"--db {str(self.path)!r} is a folder, expected a database file")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{str(self.path)!r} is not a usable session database: {exc}") \
                from None
        meta = self.meta()
        if not meta:
            self._put_meta({"schema": str(SCHEMA_VERSION), "game": game, "source": source,
                            "created": repr(time.time())})
            meta = self.meta()
        if meta.get("game") != game:
            raise StoreError(
                f"session database {str(self.path)!r} records a {meta.get('game')} game, "
                f"not {game}; use another --db for a new session"
            )
        self.game = game
        self.created = float(meta.get("created", "0") or 0)

    def _put_meta(self, items: dict[str, str]) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)",
                                 list(items.items()))

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())

    def append(self, event: Event, *, t_confirmed: float | None = None) -> int:
        """Write one event and commit; returns its sequence number."""
        data = json.dumps(event.to_dict(), separators=(",", ":"))
        cur = self._db.execute(
            "INSERT INTO events(t, t_confirmed, wall_time, kind, data) VALUES (?, ?, ?, ?, ?)",
            (event.t, t_confirmed, time.time(), event.kind, data),
        )
        return int(cur.lastrowid or 0)

    def mark_progress(self, t: float, pos: float | None) -> None:
        """Remember how far the session got (call now and then, e.g. every few seconds)."""
        self._db.execute("INSERT INTO progress(t, pos, wall_time) VALUES (?, ?, ?)",
                         (t, pos, time.time()))

    def last_progress(self) -> tuple[float, float | None] | None:
        row = self._db.execute("SELECT t, pos FROM progress ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else (float(row[0]), None if row[1] is None else float(row[1]))

    def events(self) -> list[Event]:
        """All events in the order they were written."""
        rows = self._db.execute("SELECT data FROM events ORDER BY seq").fetchall()
        return [event_from_dict(json.loads(r[0])) for r in rows]

    def records(self) -> list[dict[str, Any]]:
        """Events with their bookkeeping (seq, t_confirmed, wall_time), for reports."""
        rows = self._db.execute(
            "SELECT seq, t_confirmed, wall_time, data FROM events ORDER BY seq"
        ).fetchall()
        out = []
        for seq, tc, wall, data in rows:
            d = json.loads(data)
            d.update({"seq": seq, "t_confirmed": tc, "wall_time": wall})
            out.append(d)
        return out

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
