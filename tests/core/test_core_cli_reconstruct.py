"""``trickvision reconstruct`` through ``vision.cli.main``: outputs, exit codes, messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.cli import main
from vision.notation.json_format import observation_to_dict
from vision.simulate import simulate_deal


def write_obs(path: Path, *deals, with_cards: bool = True) -> Path:  # type: ignore[no-untyped-def]
    lines = [json.dumps(observation_to_dict(d.observation(with_cards=with_cards)))
             for d in deals]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_single_observation_gives_one_json_report(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    d = simulate_deal("bridge", seed=1)
    path = write_obs(tmp_path / "one.json", d)
    assert main(["reconstruct", str(path)]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["result"] == d.result() and rep["issues"] == []


def test_json_lines_give_one_report_per_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    deals = [simulate_deal(g, seed=s) for s in range(4) for g in ("bridge", "lhombre")]
    path = write_obs(tmp_path / "many.jsonl", *deals)
    assert main(["reconstruct", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(ln)["result"] for ln in lines] == [d.result() for d in deals]


def test_issues_make_exit_code_1_and_text_shows_them(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    d = simulate_deal("lhombre", seed=2, irregularities=["revoke"])
    assert d.applied
    path = write_obs(tmp_path / "revoke.json", d)
    assert main(["reconstruct", str(path), "--format", "text"]) == 1
    out = capsys.readouterr().out
    assert "revoke" in out and "Result:" in out


def test_pbn_output_and_file_output(tmp_path: Path) -> None:
    path = write_obs(tmp_path / "b.json", simulate_deal("bridge", seed=3))
    out = tmp_path / "b.pbn"
    assert main(["reconstruct", str(path), "--format", "pbn", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("% PBN 2.1") and '[Play "' in text and text.rstrip().endswith("*")


@pytest.mark.parametrize("content, words", [
    ('{"game": "bridge", "rows": {', ["bad.json", "not valid JSON"]),
    ('{"schema": 1, "game": "bridge", "rows": {"X": []}}', ["bad.json", "unknown seat 'X'"]),
    ('{"schema": 1, "game": "bridge", "rows": {"N": [{"orientation": "won", "card": "SX"}]}}',
     ["bad.json", "seat N, position 1", "'SX'"]),
    (json.dumps({"schema": 1, "game": "bridge",
                 "rows": {"W": [{"orientation": "lost", "card": None}] * 40}}),
     ["bad.json", "seat W", "position 27"]),
    ("", ["bad.json", "empty"]),
])
def test_bad_input_exits_2_with_a_clear_message(tmp_path: Path, content: str, words: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["reconstruct", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for w in words:
        assert w in err


def test_missing_file_and_pbn_for_other_games(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reconstruct", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    path = write_obs(tmp_path / "p.json", simulate_deal("preferans", seed=1))
    assert main(["reconstruct", str(path), "--format", "pbn"]) == 2
    assert "PBN export is for bridge" in capsys.readouterr().err


def test_impossible_but_well_formed_rows_are_issues_not_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"schema": 1, "game": "preferans", "dealer": "N",
           "rows": {"E": [{"orientation": "won", "card": "SA"}] * 2,
                    "S": [{"orientation": "lost", "card": "SA"}],
                    "W": [{"orientation": "lost", "card": "H2"}]}}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["reconstruct", str(path)]) == 1
    kinds = {i["kind"] for i in json.loads(capsys.readouterr().out)["issues"]}
    assert {"duplicate_card", "unknown_card", "row_length"} <= kinds


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name, kind", [
    ("example_bridge.json", "wrong_orientation"),
    ("example_lhombre.json", "revoke"),
    ("example_preferans_rows_only.json", "orientation_conflict"),
])
def test_readme_examples(name: str, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reconstruct", str(DATA / name), "--format", "text"]) == 1
    out = capsys.readouterr().out
    assert kind in out and "Result:" in out
