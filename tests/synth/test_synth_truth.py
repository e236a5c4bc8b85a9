"""The ground truth JSON reconstructs to the simulated play."""

from __future__ import annotations

import json

import pytest

from vision.cards import Card
from vision.games import find_game
from vision.notation.json_format import observation_from_dict, report_to_dict
from vision.reconstruct import reconstruct
from vision.record import Observation, Orientation, RowEntry
from vision.seats import Seat
from vision.synth import render_game_scene


def _rows_from_truth(truth: dict) -> dict[Seat, list[RowEntry]]:
    """What a perfect reader would report: row cards by seat, in row order."""
    rows: dict[Seat, list[RowEntry]] = {}
    for c in truth["cards"]:
        if c["row_position"] is None:  # current trick, talon, dummy
            continue
        rows.setdefault(Seat.from_str(c["seat"]), []).append(c)
    out = {}
    for seat, cards in rows.items():
        cards.sort(key=lambda c: c["row_position"])
        assert [c["row_position"] for c in cards] == list(range(1, len(cards) + 1))
        out[seat] = [RowEntry(orientation=Orientation(c["orientation"]),
                              card=Card.from_str(c["card"]) if c["face_up"] else None)
                     for c in cards]
    return out


def _observation(truth: dict) -> Observation:
    given = observation_from_dict(truth["observation"])
    given.rows = _rows_from_truth(truth)
    return given


@pytest.mark.parametrize("game", ["bridge", "preferans", "lhombre"])
@pytest.mark.parametrize("stage", ["end", "faceup", "mid"])
def test_rows_read_from_the_truth_reconstruct_the_play(game: str, stage: str) -> None:
    scene = render_game_scene(game, stage, seed=21, image_size=(320, 240))
    truth = json.loads(json.dumps(scene.truth))  # as written to disk
    report = reconstruct(_observation(truth))
    assert report_to_dict(report) == truth["report"]
    g = find_game(game)
    assert len(report.tricks) == len(scene.deal.tricks)
    for t, true in zip(report.tricks, scene.deal.tricks, strict=True):
        if t.winner is not None:
            assert t.winner == true.winner
        else:  # face-down bridge rows show only the winning side
            assert game == "bridge" and stage != "faceup" and t.side == g.side(true.winner)
    assert not report.issues
    if stage == "faceup":
        for t, true in zip(report.tricks, scene.deal.tricks, strict=True):
            assert {s: c for s, c in t.cards.items() if c is not None} == dict(true.plays)


def test_current_trick_is_face_up_in_front_of_its_players() -> None:
    scene = render_game_scene("bridge", "mid", seed=8, n_tricks=4, image_size=(320, 240))
    current = [c for c in scene.truth["cards"] if c["in_current_trick"]]
    assert [[c["seat"], c["card"]] for c in current] == scene.truth["current_trick"]
    assert all(c["face_up"] and c["row_position"] is None for c in current)
    assert all(not c["face_up"] for c in scene.truth["cards"] if not c["in_current_trick"])
    assert all(len(r) == 4 for r in scene.deal.rows.values())


@pytest.mark.parametrize("kind", ["wrong_orientation", "short_row", "long_row", "out_of_place",
                                  "revoke"])
def test_irregularities_reach_the_truth(kind: str) -> None:
    scene = render_game_scene("lhombre", "faceup", seed=4, irregularities=[kind],
                              image_size=(320, 240))
    assert [a["kind"] for a in scene.truth["irregularities"]] == [kind]
    report = reconstruct(_observation(scene.truth))
    assert report_to_dict(report) == scene.truth["report"]
    if kind in ("short_row", "long_row"):
        lengths = {len(r) for r in scene.deal.rows.values()}
        assert len(lengths) == 2


def test_truth_has_the_contract_fields() -> None:
    scene = render_game_scene("preferans", "end", seed=3, image_size=(320, 240))
    t = scene.truth
    for key in ("schema", "image", "width", "height", "game", "stage", "seed", "style", "cards",
                "observation", "report"):
        assert key in t
    assert (t["width"], t["height"]) == (320, 240)
    for c in t["cards"]:
        assert len(c["quad"]) == 4
        assert set(c) >= {"id", "quad", "visible_polygon", "visible_fraction", "seat",
                          "row_position", "in_current_trick", "orientation", "face_up", "card",
                          "z"}
        assert 0.0 <= c["visible_fraction"] <= 1.0
    active = set(t["observation"]["rows"])
    assert len(active) == 3 and {c["seat"] for c in t["cards"]} == active


def test_loose_cards_are_labelled_outside_the_rows() -> None:
    scene = render_game_scene("bridge", "mid", seed=4, n_tricks=3, loose=("talon", "dummy"),
                              image_size=(320, 240))
    dummy = scene.deal.contract.declarer.partner
    shown = [c for c in scene.truth["cards"] if c["group"] == "dummy"]
    assert len(shown) == 13 - 3 - sum(1 for s, _ in scene.deal.current_trick if s == dummy)
    assert all(c["face_up"] and c["seat"] == dummy.name and c["row_position"] is None
               for c in shown)
    # the rows themselves are unchanged: they still reconstruct the play
    report = reconstruct(_observation(scene.truth))
    assert report_to_dict(report) == scene.truth["report"]
    pile = render_game_scene("lhombre", "end", seed=4, loose=("talon",), image_size=(320, 240))
    talon = [c for c in pile.truth["cards"] if c["group"] == "talon"]
    dealt = {str(c) for h in pile.deal.hands.values() for c in h}
    assert 3 <= len(talon) <= 13 and all(c["seat"] is None and not c["face_up"] for c in talon)
    assert not {c["card"] for c in talon} & dealt


def test_the_committed_samples_truth_reports_are_what_the_reconstruction_gives_their_rows():
    """A sample's stored report is the reconstruction of its true observation: when the
    reconstruction's rules change, the stored results must follow (``scripts/evaluate_samples.py``
    scores photos against them)."""
    from pathlib import Path

    samples = Path(__file__).resolve().parents[2] / "datasets" / "samples"
    checked = 0
    for path in sorted(samples.glob("*.json")):
        truth = json.loads(path.read_text())
        if not truth.get("report") or not truth.get("observation"):
            continue
        now = reconstruct(observation_from_dict(truth["observation"], str(path)))
        assert report_to_dict(now)["result"] == truth["report"]["result"], path.name
        checked += 1
    assert checked >= 40
