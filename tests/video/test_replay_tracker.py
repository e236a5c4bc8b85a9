"""scripts/replay_tracker.py: a recorded run replays to the same events, in seconds."""

from __future__ import annotations

import importlib.util
import pickle
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "replay_tracker.py"


@pytest.fixture(scope="module")
def replay_tracker():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("replay_tracker", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_record_then_replay_scores_the_play(replay_tracker, lhombre_game, tmp_path, capsys):  # type: ignore[no-untyped-def]
    g = lhombre_game
    out = tmp_path / "game.pkl"
    assert replay_tracker.main(["record", "--out", str(out), str(g.video),
                                "--analyzer", "truth"]) == 0
    data = pickle.loads(out.read_bytes())
    assert data["calls"] and data["init"][0][0] == "lhombre"
    result = replay_tracker.replay(data)
    assert result["score"].tricks_right == result["score"].tricks_true == 4
    assert result["wrong_rows"] == [] and result["rows"] == 12
    # each alert timed from its true moment to the recorded reading that raised it
    delays = result["score"].alert_delays
    assert len(delays) == result["score"].alerts_found == 2
    assert all(0.0 <= d < 5.0 for d in delays)
    capsys.readouterr()
    assert replay_tracker.main(["replay", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "total: 4 of 4 tricks right, 0 missed, 0 invented" in printed
    assert "alerts raised" in printed and "of 2 within 1 s" in printed


def test_replay_refuses_other_files(replay_tracker, tmp_path, capsys):  # type: ignore[no-untyped-def]
    other = tmp_path / "other.pkl"
    other.write_bytes(pickle.dumps({"something": "else"}))
    assert replay_tracker.main(["replay", str(other)]) == 2
    assert "not a recording" in capsys.readouterr().err
    assert replay_tracker.main(["replay", str(tmp_path / "missing.pkl")]) == 2


def test_detail_sets_each_wrong_trick_against_the_truth(replay_tracker):  # type: ignore[no-untyped-def]
    """The last report of a trick counts: one reported again with the right card is right."""
    from vision.cards import Card
    from vision.seats import Seat
    from vision.video.events import TrickComplete

    def trick(number, cards, winner):  # type: ignore[no-untyped-def]
        return TrickComplete(t=1.0, number=number, leader=Seat.N, winner=winner, cards=tuple(
            (s, Card.from_str(c) if c else None) for s, c in cards))

    n, e, s = Seat.N, Seat.E, Seat.S
    truth = [trick(1, [(n, "SA"), (e, "S7"), (s, "S2")], n),
             trick(2, [(n, "HK"), (e, "H5"), (s, "HA")], s)]
    read = [trick(1, [(n, "SA"), (e, "S7"), (s, "S3")], n),
            trick(2, [(n, "HK"), (e, None), (s, "HA")], None),
            trick(1, [(n, "SA"), (e, "S7"), (s, "S2")], n)]
    assert replay_tracker.trick_details(truth, read, [2, 3]) == [
        "trick 2: true N:HK E:H5 S:HA, won by S; read N:HK E:? S:HA, won by ?",
        "trick 3: true not reported; read not reported",
    ]


def test_a_thorough_recording_looks_and_confirms_as_the_video_command_does(  # type: ignore[no-untyped-def]
        replay_tracker, lhombre_game, tmp_path):
    """`record ... --thorough` records what `trickvision video --thorough` feeds its tracker:
    the live camera's confirmation time and looks, not the offline ones."""
    from vision.video.gate import CONFIRM_S

    runs = {}
    for name, extra in (("offline", []), ("thorough", ["--thorough"])):
        out = tmp_path / f"{name}.pkl"
        assert replay_tracker.main(["record", "--out", str(out), str(lhombre_game.video),
                                    "--analyzer", "truth", *extra]) == 0
        runs[name] = pickle.loads(out.read_bytes())
    assert runs["offline"]["init"][1]["confirm_s"] == CONFIRM_S["offline"]
    assert runs["thorough"]["init"][1]["confirm_s"] == CONFIRM_S["live"]
    fresh = {name: sum(1 for _, _, f in run["calls"] if f) for name, run in runs.items()}
    assert fresh["thorough"] > fresh["offline"]
