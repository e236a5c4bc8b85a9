"""JSON observations/reports and PBN: round trips, golden files, errors that say where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.cards import Card
from vision.errors import ObservationFormatError, PbnDecodeError, TrickvisionError
from vision.notation import pbn
from vision.notation.json_format import (
    loads_observations,
    observation_from_dict,
    observation_to_dict,
    report_to_dict,
)
from vision.notation.text import report_to_text
from vision.reconstruct import reconstruct
from vision.record import Orientation
from vision.seats import Seat
from vision.simulate import simulate_deal

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("*.pbn"))


def minimal(**rows: list) -> dict:  # type: ignore[type-arg]
    return {"schema": 1, "game": "bridge", "rows": rows}


@pytest.mark.parametrize("game", ["bridge", "preferans", "lhombre"])
def test_observation_json_round_trip(game: str) -> None:
    obs = simulate_deal(game, seed=11).observation()
    d = observation_to_dict(obs)
    assert observation_from_dict(json.loads(json.dumps(d))) == obs


def test_observation_optional_fields() -> None:
    obs = observation_from_dict(minimal(N=[{"orientation": "won"}, "lost"]))
    assert obs.dealer is None and obs.contract is None and obs.first_leader is None
    assert [e.orientation for e in obs.rows[Seat.N]] == [Orientation.WON, Orientation.LOST]
    assert obs.rows[Seat.N][0].card is None
    c = observation_from_dict({**minimal(), "contract": {"trump": "NT", "declarer": "e"}})
    assert c.contract is not None and c.contract.trump is None and c.contract.declarer == Seat.E


@pytest.mark.parametrize("doc, words", [
    (minimal(Q=[]), ["obs.json", "unknown seat 'Q'"]),
    (minimal(N=[{"orientation": "won", "card": "SA"}, {"orientation": "won", "card": "SX"}]),
     ["obs.json", "seat N, position 2", "'SX'"]),
    (minimal(E=[{"orientation": "won", "card": None}] * 40),
     ["obs.json", "seat E", "position 27", "40 cards"]),
    (minimal(S=[{"orientation": "sideways"}]), ["seat S, position 1", "'sideways'"]),
    ({"schema": 2, "game": "bridge", "rows": {}}, ["schema 2"]),
    ({"schema": 1, "game": "whist", "rows": {}}, ["unknown game: 'whist'"]),
    ({"schema": 1, "rows": {}}, ["missing \"game\""]),
    ({**minimal(), "contract": {"trump": "X"}}, ["contract", "'X'"]),
    ({**minimal(), "dealer": "Z"}, ["dealer", "'Z'"]),
    ([1, 2], ["obs.json"]),
])
def test_bad_observations_name_the_place(doc: object, words: list[str]) -> None:
    with pytest.raises(ObservationFormatError) as exc:
        if isinstance(doc, list):
            list(loads_observations(json.dumps(doc), "obs.json"))
        else:
            observation_from_dict(doc, source="obs.json")
    assert isinstance(exc.value, TrickvisionError)
    for w in words:
        assert w in str(exc.value)


def test_json_lines_and_lists() -> None:
    lines = [json.dumps(observation_to_dict(simulate_deal("bridge", seed=s).observation()))
             for s in range(3)]
    assert len(list(loads_observations("\n".join(lines) + "\n", "x.jsonl"))) == 3
    assert len(list(loads_observations("[" + ",".join(lines) + "]", "x.json"))) == 3
    bad = lines[:1] + ['{"game": "bridge", "rows": {"N": [{"card": "S1"}]}}']
    with pytest.raises(ObservationFormatError, match=r"x.jsonl:2: seat N, position 1"):
        list(loads_observations("\n".join(bad), "x.jsonl"))
    with pytest.raises(ObservationFormatError, match=r"not valid JSON.*line 3"):
        list(loads_observations('{\n "game": "bridge",\n "rows": {]\n}', "y.json"))


def test_report_dict_carries_the_contract() -> None:
    d = simulate_deal("bridge", seed=5, irregularities=["wrong_orientation"])
    rep = report_to_dict(reconstruct(d.observation()))
    assert rep["schema"] == 1 and rep["game"] == "bridge"
    assert set(rep) >= {"rows", "tricks", "result", "undetermined", "issues"}
    assert set(rep["tricks"][0]) >= {"number", "leader", "winner", "side", "cards"}
    assert rep["result"] == d.result()
    (issue,) = rep["issues"]
    assert issue["kind"] == "wrong_orientation"
    assert (issue["seat"], issue["trick"]) == (d.applied[0]["seat"], d.applied[0]["trick"])
    json.dumps(rep)  # serialisable as is


def test_text_view_marks_conflicts_and_totals() -> None:
    d = simulate_deal("preferans", seed=9, irregularities=["wrong_orientation"])
    text = report_to_text(reconstruct(d.observation(with_cards=False)))
    trick = d.applied[0]["trick"]
    line = [ln for ln in text.splitlines() if ln.startswith(f"{trick:>5} ")][0]
    assert "!" in line and "conflict" in line
    assert "Result:" in text and "orientation_conflict" in text


# ------------------------------------------------------------------------------- PBN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_pbn_round_trips_byte_for_byte(path: Path) -> None:
    raw = path.read_bytes()
    games = pbn.loads(raw.decode("utf-8"), str(path))
    assert games
    assert pbn.dumps(games).encode("utf-8") == raw


def test_golden_pbn_through_reconstruction_round_trips() -> None:
    path = DATA / "simulated_4h.pbn"
    text = path.read_text(encoding="utf-8")
    (game,) = pbn.loads(text)
    report = reconstruct(game.to_observation())
    assert report.ok
    again = pbn.game_from_report(report, event=game.tag("Event") or "")
    assert pbn.dumps([again]) == text


def test_pbn_import_of_a_played_deal() -> None:
    games = pbn.loads((DATA / "handwritten.pbn").read_text(encoding="utf-8"))
    first, passed = games
    assert first.opening_leader == Seat.N and first.declarer == Seat.W
    assert first.contract is not None and first.contract.level == 3
    assert first.play is not None and first.play[10][2] is None  # the unreadable card
    assert first.sections["Auction"] == ["Pass Pass 1NT Pass", "3NT Pass Pass Pass"]
    report = reconstruct(first.to_observation())
    assert report.result["EW"] == int(first.tag("Result") or 0)
    # the unread card is the one card of South's hand (Deal tag) not seen in his row
    assert report.hands is not None and Card.from_str("D4") in report.hands[Seat.S]
    assert passed.contract is None and passed.play is None
    assert all(len(h or ()) == 13 for h in passed.deal.values())


def test_pbn_export_of_a_simulated_deal() -> None:
    d = simulate_deal("bridge", seed=21)
    report = reconstruct(d.observation())
    text = pbn.dumps([pbn.game_from_report(report)])
    (g,) = pbn.loads(text)
    assert g.opening_leader == d.first_leader
    assert g.tag("Declarer") == d.contract.declarer.name  # type: ignore[union-attr]
    assert g.tag("Result") == str(d.result()[d.contract.declarer.side])  # type: ignore[union-attr]
    assert {s: tuple(sorted(h, reverse=True)) for s, h in g.deal.items()} == \
        {s: tuple(sorted(h, reverse=True)) for s, h in d.hands.items()}
    # play section in fixed columns from the opening leader, not in order of play
    first_row = g.play[1]  # type: ignore[index]
    t2 = d.tricks[1]
    assert first_row == [t2.card_of(d.first_leader.clockwise(j)) for j in range(4)]


@pytest.mark.parametrize("text, line, words", [
    ('[Event "x"]\n[Deal "N:AKQ"]\n', 2, "four hands"),
    ('[Event "x"]\n[Play "N"]\nSA SK SQ SJ\nSX S2 S3 S4\n*\n', 4, "'SX'"),
    ('[Event "x"]\n[Play "N"]\nSA SK SQ SJ\n', None, "not closed"),
    ('[Event "x"\n', 1, "malformed tag"),
    ('[Event "x"]\n[Event "y"]\n', 2, "twice"),
])
def test_pbn_decode_errors_carry_the_line(text: str, line: int | None, words: str) -> None:
    with pytest.raises(PbnDecodeError) as exc:
        pbn.loads(text, "f.pbn")
    assert exc.value.lineno == line
    assert words in str(exc.value) and "f.pbn" in str(exc.value)


def test_scene_ground_truth_reads_as_its_observation() -> None:
    obs = simulate_deal("lhombre", seed=2, n_tricks=4).observation(with_cards=False)
    scene = {"schema": 1, "image": "x.jpg", "cards": [], "observation": observation_to_dict(obs)}
    (back,) = loads_observations(json.dumps(scene), "x.json")
    assert back == obs


def test_rows_keyed_by_seat_letters_from_python() -> None:
    from vision.record import Observation, RowEntry

    obs = Observation("preferans", rows={"N": [RowEntry(Orientation.WON)],
                                         "E": [RowEntry(Orientation.LOST)],
                                         "S": [RowEntry(Orientation.LOST)]})
    assert reconstruct(obs).result == {"N": 1, "E": 0, "S": 0}
