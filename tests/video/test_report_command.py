"""``trickvision report``: every deal's report rebuilt from a session database."""

from __future__ import annotations

import json

from video_helpers import two_bridge_deals

from vision.cli import main
from vision.notation.pbn import loads
from vision.video.store import EventStore
from vision.video.tracker import TableTracker


def _session(path, fps=5.0):  # type: ignore[no-untyped-def]
    """A watched session of two bridge deals, every event committed as it came."""
    one, two, stream = two_bridge_deals(fps)
    tracker = TableTracker("bridge", fps, dealer=one.deal.dealer, contract=one.deal.contract)
    with EventStore(path, game="bridge", source="camera 0") as store:
        for t, r in stream:
            for e in tracker.update(r, t):
                store.append(e, t_confirmed=t)
    return one, two


def test_report_rebuilds_every_deal_of_a_stored_session(tmp_path, capsys):  # type: ignore[no-untyped-def]
    db = tmp_path / "club-night.db"
    one, two = _session(db)
    out = tmp_path / "reports"
    assert main(["report", str(db), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "deal 1: 2 tricks" in printed and "deal 2: 4 tricks" in printed
    doc = json.loads((out / "report.json").read_text())
    assert [d["deal"] for d in doc["deals"]] == [1, 2]
    for d, script, n in ((doc["deals"][0], one, 2), (doc["deals"][1], two, 4)):
        assert [t["winner"] for t in d["tricks"]] == [t.winner.name for t in
                                                      script.deal.tricks[:n]]
        assert [t["leader"] for t in d["tricks"]] == [t.leader.name for t in
                                                      script.deal.tricks[:n]]
    games = loads((out / "play.pbn").read_text())
    assert [g.tag("Board") for g in games] == ["1", "2"]
    assert [g.tag("Play") for g in games] == [one.deal.first_leader.name,
                                              two.deal.first_leader.name]


def test_report_refuses_what_is_no_session_database(tmp_path, capsys):  # type: ignore[no-untyped-def]
    assert main(["report", str(tmp_path / "missing.db")]) == 2
    assert "session database not found" in capsys.readouterr().err
    text = tmp_path / "notes.db"
    text.write_text("this is not a database\n" * 20)
    assert main(["report", str(text)]) == 2
    assert "not a trickvision session database" in capsys.readouterr().err
    assert text.read_text() == "this is not a database\n" * 20  # left as it was
    empty = tmp_path / "empty.db"
    EventStore(empty, game="preferans").close()
    assert main(["report", str(empty), "--out", str(tmp_path / "r")]) == 0
    assert "no events yet" in capsys.readouterr().out
    assert not (tmp_path / "r").exists()
