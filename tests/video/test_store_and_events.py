"""The session store is append-only, durable per event, and resumes a game."""

from __future__ import annotations

import sqlite3

import pytest

from vision.cards import Card
from vision.errors import TrickvisionError
from vision.record import Orientation
from vision.seats import Seat
from vision.video.events import (
    Alert,
    AlertWithdrawn,
    CardLaid,
    CardsTurned,
    DealFinished,
    TrickComplete,
    event_from_dict,
    tricks_reported,
)
from vision.video.store import EventStore, StoreError

EVENTS = [
    CardLaid(t=1.5, seat=Seat.W, card=Card.from_str("SA"), trick=1),
    CardLaid(t=2.0, seat=Seat.N, card=None, trick=1),
    TrickComplete(t=3.0, number=1, leader=Seat.W, winner=Seat.N,
                  cards=((Seat.W, Card.from_str("SA")), (Seat.N, None)),
                  winner_source="rows", order_agrees=False),
    TrickComplete(t=3.5, number=2, leader=Seat.N, winner=Seat.N,
                  cards=((Seat.N, Card.from_str("HA")), (Seat.E, Card.from_str("H2"))),
                  deduced=(Seat.E,)),
    CardsTurned(t=4.0, number=1, orientations=((Seat.W, Orientation.LOST),
                                               (Seat.N, Orientation.WON))),
    Alert(t=4.2, alert="revoke", seat=Seat.E, trick=1, message="E revoked"),
    AlertWithdrawn(t=4.8, alert="wrong_orientation", seat=Seat.N, trick=1,
                   message="read won after all"),
    AlertWithdrawn(t=4.9, alert="wrong_orientation", seat=Seat.N, trick=2,
                   message="too unsure", orientation=Orientation.LOST),
    AlertWithdrawn(t=5.0, alert="revoke", seat=Seat.E, trick=1, message="lead misread"),
    DealFinished(t=9.0, deal=2, tricks=13, result=(("NS", 7), ("EW", 6))),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"{e.kind}-{e.t}")
def test_events_round_trip(event):  # type: ignore[no-untyped-def]
    assert event_from_dict(event.to_dict()) == event


def test_bad_event_records_are_clear_errors():
    with pytest.raises(TrickvisionError, match="alert kind"):
        Alert(t=0.0, alert="bogus")
    with pytest.raises(TrickvisionError, match="event kind"):
        event_from_dict({"kind": "nope", "t": 0})
    with pytest.raises(TrickvisionError, match="invalid event record"):
        event_from_dict({"kind": "card_laid", "t": 0, "seat": "X", "card": None, "trick": 1})


def test_store_is_append_only_and_survives_reopening(tmp_path):  # type: ignore[no-untyped-def]
    db = tmp_path / "s.db"
    with EventStore(db, game="bridge", source="camera 0") as store:
        for i, e in enumerate(EVENTS):
            assert store.append(e, t_confirmed=e.t + 0.3) == i + 1
        store.mark_progress(9.5, 3.2)
        mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            store._db.execute("UPDATE events SET kind = 'x'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            store._db.execute("DELETE FROM events")
    # a second connection (another process after a crash) sees every committed event
    with EventStore(db, game="bridge") as again:
        assert again.events() == EVENTS
        assert again.last_progress() == (9.5, 3.2)
        assert again.meta()["source"] == "camera 0"
        assert [r["t_confirmed"] for r in again.records()][0] == pytest.approx(1.8)
    with pytest.raises(StoreError, match="bridge"):
        EventStore(db, game="lhombre")


def test_not_a_database_is_a_clear_error(tmp_path):  # type: ignore[no-untyped-def]
    bad = tmp_path / "x.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable session database"):
        EventStore(bad, game="bridge")
    with pytest.raises(TrickvisionError, match="folder"):
        EventStore(tmp_path, game="bridge")


def test_a_trick_reported_again_is_counted_once():
    """The summary's trick count: a trick corrected at the deal's end (reported again) and
    the same trick number in the next deal of the session."""
    first = TrickComplete(t=3.0, number=1, leader=Seat.N, winner=Seat.E)
    again = TrickComplete(t=3.0, number=1, leader=Seat.N, winner=Seat.N, winner_source="rows")
    second = TrickComplete(t=9.0, number=2, leader=Seat.N, winner=Seat.S)
    next_deal = TrickComplete(t=40.0, deal=2, number=1, leader=Seat.E, winner=Seat.E)
    laid = CardLaid(t=1.0, seat=Seat.N, card=Card.from_str("SA"), trick=1)
    assert tricks_reported([laid, first, again, second, next_deal]) == 3
