"""Live watching: drop-outs are survived, a killed session resumes, nothing is lost twice."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vision.cli import main
from vision.video.compare import score_events
from vision.video.events import event_from_dict
from vision.video.gate import ChangeGate
from vision.video.live import watch
from vision.video.pipeline import TruthAnalyzer, VideoPipeline
from vision.video.sources import (
    LiveSource,
    ResilientSource,
    SourceDropped,
    SourceError,
    VideoFileSource,
)
from vision.video.store import EventStore
from vision.video.tracker import TableTracker


def _keys(events):  # type: ignore[no-untyped-def]
    out = []
    for e in events:
        d = e.to_dict()
        out.append((d["kind"], d["deal"], d.get("number"), d.get("trick"), d.get("seat"),
                    d.get("alert")))
    return out


class _DropsOut:
    """A camera standing in: frames of a file, then nothing from ``t_drop`` on."""

    def __init__(self, path: Path, start_s: float, t_drop: float | None) -> None:
        self.inner = VideoFileSource(path, start_s=start_s)
        self.name, self.fps, self.live = "test camera", self.inner.fps, True
        self.t_drop = t_drop

    def __iter__(self):  # type: ignore[no-untyped-def]
        for f in self.inner:
            if self.t_drop is not None and f.t >= self.t_drop:
                raise SourceDropped("test camera: no frame for 3.0 s")
            yield f


def test_watch_survives_a_drop_out_without_losing_an_event(lhombre_game, tmp_path):  # type: ignore[no-untyped-def]
    g = lhombre_game
    calls: list[float | None] = []

    def factory(last_t):  # type: ignore[no-untyped-def]
        calls.append(last_t)
        if len(calls) == 1:
            return _DropsOut(g.video, 0.0, t_drop=12.0)
        if len(calls) == 2:
            raise SourceError("camera 0 does not exist or cannot be opened")  # still gone
        return _DropsOut(g.video, 15.0, t_drop=None)  # back 3 s later

    d = g.script.deal
    store = EventStore(tmp_path / "w.db", game="lhombre")
    pipeline = VideoPipeline(TruthAnalyzer(g.truth, g.script.fps),
                             TableTracker("lhombre", g.script.fps, dealer=d.dealer,
                                          contract=d.contract, seats=d.seats),
                             gate=ChangeGate(), sinks=[lambda e, t: store.append(e)])
    status = io.StringIO()
    sleeps: list[float] = []
    watch(factory, pipeline, store, status=status, sleep=sleeps.append)
    messages = status.getvalue()
    assert "no frame for 3.0 s; reconnecting in 0.5 s" in messages
    assert "reconnect failed" in messages and "frames again" in messages
    assert sleeps == [0.5, 1.0]  # back-off doubles
    stored = store.events()
    score = score_events(g.script.events, stored)
    assert score.perfect, score.summary()
    assert len(set(_keys(stored))) == len(stored)


def test_live_source_that_stops_is_reported_and_given_up(lhombre_game):  # type: ignore[no-untyped-def]
    """A stream (here a file read through the live path) that ends counts as a drop-out."""
    src = LiveSource(str(lhombre_game.video), stall_s=1.0)
    n = 0
    with pytest.raises(SourceDropped):
        for _ in src:
            n += 1
    assert n >= 1
    said: list[str] = []
    resilient = ResilientSource(lambda t: LiveSource(str(lhombre_game.video), stall_s=1.0),
                                on_status=said.append, sleep=lambda s: None)
    ts = []
    for f in resilient:  # the stream ends again and again: reconnect each time, carry on
        ts.append(f.t)
        if resilient.dropouts >= 2:
            break
    assert ts == sorted(ts) and len(ts) > len(lhombre_game.frames)
    assert "stopped delivering frames; reconnecting in 0.5 s" in said[0]
    assert any("frames again" in m for m in said)
    opened = []

    def flaky(t):  # type: ignore[no-untyped-def]
        opened.append(t)
        if len(opened) > 1:
            raise SourceError("stream gone")
        return LiveSource(str(lhombre_game.video), stall_s=1.0)

    with pytest.raises(SourceError, match="gave up after 2"):
        for _ in ResilientSource(flaky, sleep=lambda s: None, max_retries=2):
            pass


def test_missing_camera_exits_2(tmp_path, capfd):  # type: ignore[no-untyped-def]
    """One clear message, without OpenCV's own backend errors around it (``capfd`` sees
    what the C++ side writes to the process's stderr too)."""
    rc = main(["watch", "--camera", "9", "--db", str(tmp_path / "c.db"), "--game", "bridge"])
    assert rc == 2
    err = capfd.readouterr().err
    assert "camera 9 does not exist" in err
    assert "[ERROR" not in err and "index out of range" not in err, err


def _watch_cmd(g, db, *extra):  # type: ignore[no-untyped-def]
    return [sys.executable, "-m", "vision", "watch", "--source", str(g.video), "--analyzer",
            "truth", "--truth", str(g.truth_json), "--db", str(db), *extra]


def test_killed_watch_resumes_the_same_game(lhombre_game, tmp_path):  # type: ignore[no-untyped-def]
    g = lhombre_game
    db = tmp_path / "kill.db"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(_watch_cmd(g, db, "--speed", "6"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 30
        n = 0
        while time.monotonic() < deadline and n < 6:  # two tricks' worth of events in the db
            time.sleep(0.2)
            if db.exists():
                try:
                    with sqlite3.connect(db) as c:
                        n = c.execute("SELECT COUNT(*) FROM events").fetchone()[0]
                except sqlite3.DatabaseError:
                    n = 0
        assert n >= 6, "watch did not write events in time"
    finally:
        proc.send_signal(signal.SIGKILL)  # no clean shutdown: a power cut
        proc.wait()
    with EventStore(db, game="lhombre") as store:
        before = store.events()
    assert 6 <= len(before) < len(g.script.events)
    rc = subprocess.run(_watch_cmd(g, db, "--speed", "0"), capture_output=True, text=True,
                        env=env, timeout=60)
    assert rc.returncode == 0, rc.stderr
    assert "resuming deal 1" in rc.stderr
    with EventStore(db, game="lhombre") as store:
        after = store.events()
    assert after[:len(before)] == before  # nothing rewritten
    assert len(set(_keys(after))) == len(after)  # nothing reported twice
    score = score_events(g.script.events, after)
    assert score.perfect, score.summary()
    assert event_from_dict(after[0].to_dict()) == after[0]
