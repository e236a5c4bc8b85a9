"""The shipped detector with and without its second look, on committed sample photos.

These photos were rendered with seeds that no training used. With the shipped models 70 % of
their row cards (counted at their seat and position) are read right with the second look and
57 % without (the first detector: 71 % and 42 %); the test asserts a margin below that, so it
fails when a model or the box handling regresses, not on noise.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.models import model_exists

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"
PHOTOS = ("bridge_end_1", "bridge_end_2", "preferans_end_1", "lhombre_end_1")

pytestmark = pytest.mark.skipif(
    not (model_exists("detector") and model_exists("card_axis")), reason="models not shipped"
)


def _orientation_accuracy(axis: bool) -> tuple[float, int]:
    """Share of row cards read right (a missed card counts wrong) and confident errors, by
    the boxes alone (the rows not counted again: that third look also checks readings)."""
    from vision.detect.onnx_detector import CardDetector
    from vision.pipeline import PhotoAnalyzer

    detector = CardDetector(axis=None if axis else False)
    right = total = confident_wrong = 0
    for name in PHOTOS:
        truth = json.loads((SAMPLES / f"{name}.json").read_text())
        image = cv2.imread(str(SAMPLES / f"{name}.jpg"))
        reading = PhotoAnalyzer(
            game=truth["game"], detector=detector, identity_reader=False, row_strips=False
        ).read(image)
        seen = {
            (c.seat.name, c.row_position): c.orientation.value
            for c in reading.cards
            if c.seat is not None and c.row_position is not None
        }
        for card in truth["cards"]:
            if card["row_position"] is None or card["seat"] is None:
                continue
            total += 1
            got = seen.get((card["seat"], card["row_position"]))
            right += int(got == card["orientation"])
            confident_wrong += int(got in ("won", "lost") and got != card["orientation"])
    return right / total, confident_wrong


def test_second_look_turns_the_detectors_won_cards_the_right_way():
    with_axis, wrong_with = _orientation_accuracy(axis=True)
    without_axis, wrong_without = _orientation_accuracy(axis=False)
    # detector run 9 (800 px): measured 0.776 (without: 0.727) since unsure boxes are read
    # again mirrored - 0.795 before: bridge_end_1 reads a card fewer right (bridge_end_2 one
    # more), while on held-out photos seat and position rose (fresh set 7.82e9: 70.0 -> 76.4 %);
    # run 5 gave 0.702 (0.571)
    assert with_axis >= 0.75, with_axis
    assert with_axis >= without_axis + 0.03, (with_axis, without_axis)
    assert wrong_with <= wrong_without


@pytest.mark.skipif(not model_exists("row_strip"), reason="row-strip model not shipped")
def test_rows_counted_again_along_their_length_come_out_exact():
    # four sample photos whose rows the boxes alone read 3 of 14 exact (boxes seen twice,
    # cards missed); counted again along each row (models/row_strip.onnx) 13 are (run 3 and
    # run 2 alike; the first row-strip model: 14), and every total comes out as in the truth
    from vision.pipeline import PhotoAnalyzer

    exact = {True: 0, False: 0}
    rows = 0
    for name in ("bridge_end_1", "bridge_deal_end", "lhombre_end_2", "preferans_deal_end"):
        truth = json.loads((SAMPLES / f"{name}.json").read_text())
        image = cv2.imread(str(SAMPLES / f"{name}.jpg"))
        true_rows: dict[str, str] = {}
        for c in sorted(truth["cards"], key=lambda c: c["row_position"] or 0):
            if c["row_position"] is not None:
                true_rows[c["seat"]] = true_rows.get(c["seat"], "") + c["orientation"][0]
        rows += len(true_rows)
        for recount in (True, False):
            analyzer = PhotoAnalyzer(game=truth["game"], identity_reader=False,
                                     row_strips=None if recount else False)
            reading, report = analyzer.analyze(image)
            read = {s.name: "".join(c.orientation.value[0] for c in r)
                    for s, r in reading.rows.items()}
            exact[recount] += sum(read.get(s) == v for s, v in true_rows.items())
            if recount:
                assert dict(report.result) == truth["report"]["result"], name
                assert any("counted again" in n for n in reading.notes), name
    assert exact[True] >= rows - 1 and exact[False] <= rows // 2, exact


def test_an_empty_table_gives_no_cards():
    from vision.detect.onnx_detector import CardDetector

    green = np.zeros((720, 960, 3), np.uint8)
    green[:] = (40, 110, 30)
    assert len(CardDetector().detect(green)) == 0


def test_without_the_second_look_the_report_says_so():
    from vision.detect.onnx_detector import CardDetector
    from vision.pipeline import PhotoAnalyzer

    image = cv2.imread(str(SAMPLES / "bridge_end_1.jpg"))
    plain = PhotoAnalyzer(game="bridge", detector=CardDetector(axis=False), identity_reader=False)
    assert any("card-axis" in n for n in plain.read(image).notes)
    full = PhotoAnalyzer(game="bridge", detector=CardDetector(), identity_reader=False)
    assert not any("card-axis" in n for n in full.read(image).notes)


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_faces_read_in_a_greyscale_picture_come_with_a_warning():
    from vision.identity.crops import GREY_MODEL_NOTE, is_monochrome
    from vision.pipeline import GREYSCALE_NOTE, PhotoAnalyzer

    colour = cv2.imread(str(SAMPLES / "bridge_faceup_1.jpg"))
    grey = cv2.cvtColor(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert is_monochrome(grey) and is_monochrome(grey[:, :, 0]) and not is_monochrome(colour)
    tinted = np.clip(grey.astype(np.int16) + (3, 0, 5), 0, 255).astype(np.uint8)
    assert is_monochrome(tinted)  # a codec's even tint is still grey
    analyzer = PhotoAnalyzer(game="bridge")
    note = GREY_MODEL_NOTE if model_exists("identity_grey") else GREYSCALE_NOTE
    in_colour, in_grey = analyzer.read(colour), analyzer.read(grey)
    assert note not in in_colour.notes
    assert note in in_grey.notes
    # a face named in grey carries its suit's grey look-alikes for the reconstruction (a card
    # read twice); in colour a named face carries none
    named = [c for c in in_grey.cards if c.card is not None]
    assert named and all(c.card_candidates[0][0] == c.card and len(c.card_candidates) > 1
                         for c in named)
    assert all(not c.card_candidates for c in in_colour.cards if c.card is not None)


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_the_fixed_camera_warns_once_when_its_picture_is_grey(caplog):  # type: ignore[no-untyped-def]
    from vision.video.pipeline import PhotoAnalyzerAdapter

    colour = cv2.imread(str(SAMPLES / "bridge_faceup_1.jpg"))
    grey = cv2.cvtColor(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    adapter = PhotoAnalyzerAdapter("bridge")
    with caplog.at_level("WARNING", logger="trickvision"):
        adapter.analyse(colour, 0.0, None)
        assert not caplog.records
        adapter.analyse(grey, 0.1, None)
        adapter.analyse(grey, 0.2, None)
    assert len(caplog.records) == 1 and "greyscale" in caplog.records[0].getMessage()


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_face_up_boxes_fitted_to_the_cards_edges_read_more_faces_right():
    from vision.pipeline import PhotoAnalyzer
    from vision.video.pipeline import PhotoAnalyzerAdapter

    image = cv2.imread(str(SAMPLES / "bridge_faceup_1.jpg"))
    truth = json.loads((SAMPLES / "bridge_faceup_1.json").read_text())
    centres = np.array([np.mean(c["quad"], axis=0) for c in truth["cards"]])

    def right_and_wrong(fit: bool) -> tuple[int, int]:
        reading = PhotoAnalyzer(game="bridge", fit_edges=fit).read(image)
        right = wrong = 0
        for card in reading.cards:
            if card.card is None:
                continue
            nearest = truth["cards"][int(np.argmin(np.linalg.norm(
                centres - card.quad.mean(axis=0), axis=1)))]
            right += str(card.card) == nearest["card"]
            wrong += str(card.card) != nearest["card"]
        return right, wrong

    fitted, as_found = right_and_wrong(True), right_and_wrong(False)
    assert fitted[0] >= as_found[0] + 5 and fitted[1] <= as_found[1], (fitted, as_found)
    # the fixed camera's frames read better without it (held-out videos)
    adapter = PhotoAnalyzerAdapter("bridge")
    assert adapter.inner.fit_edges is False
    # nor the second look's mirrored reading (more false alerts on held-out videos)
    assert adapter.inner.detector.axis.mirror_below == 0.0
    assert PhotoAnalyzer(game="bridge").detector.axis.mirror_below > 0.0


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_face_up_row_cards_turned_to_their_row_read_more_faces_right():
    from vision.pipeline import PhotoAnalyzer

    def right_and_wrong(name: str, game: str, turn: bool) -> tuple[int, int]:
        image = cv2.imread(str(SAMPLES / f"{name}.jpg"))
        truth = json.loads((SAMPLES / f"{name}.json").read_text())
        centres = np.array([np.mean(c["quad"], axis=0) for c in truth["cards"]])
        reading = PhotoAnalyzer(game=game, turn_to_rows=turn).read(image)
        right = wrong = 0
        for card in reading.cards:
            if card.card is not None:
                nearest = truth["cards"][int(np.argmin(np.linalg.norm(
                    centres - card.quad.mean(axis=0), axis=1)))]
                right += str(card.card) == nearest["card"]
                wrong += str(card.card) != nearest["card"]
        return right, wrong

    samples = (("bridge_deal_faceup", "bridge"), ("preferans_faceup_1", "preferans"),
               ("preferans_faceup_2", "preferans"))
    turned = np.sum([right_and_wrong(n, g, True) for n, g in samples], axis=0)
    as_fitted = np.sum([right_and_wrong(n, g, False) for n, g in samples], axis=0)
    # 2026-12-06: 110 right / 2 wrong against 104 / 2
    assert turned[0] >= as_fitted[0] + 4 and turned[1] <= as_fitted[1], (turned, as_fitted)


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_a_face_up_sample_game_is_reconstructed_into_its_play_and_pbn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5's example: a bridge deal turned face up in place, read from the photo with
    the contract given - every trick's leader, cards and winner, the hands, the result,
    no wrongly laid card or revoke (there are none), and the PBN play record."""
    from vision.cli import main

    truth = json.loads((SAMPLES / "bridge_faceup_1.json").read_text())
    given = ["--game", "bridge", "--contract", "4H", "--declarer", "S", "--dealer", "E"]
    photo = str(SAMPLES / "bridge_faceup_1.jpg")
    main(["analyze", photo, *given, "--format", "json", "--out", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)
    assert report["result"] == truth["report"]["result"] and report["undetermined"] == []
    for true_trick, trick in zip(truth["tricks"], report["tricks"], strict=True):
        assert trick["leader"] == true_trick["leader"]
        assert trick["winner"] == true_trick["winner"]
        assert trick["cards"] == dict(true_trick["plays"])
    assert report["hands"] == truth["report"]["hands"]
    assert not [i for i in report["issues"] if i["kind"] in ("wrong_orientation", "revoke")]

    main(["analyze", photo, *given, "--format", "pbn", "--out", ""])
    pbn = capsys.readouterr().out
    play = pbn.split('[Play "W"]\n', 1)[1].split("*", 1)[0].split()
    order = ["W", "N", "E", "S"]  # PBN: each trick in seat order from the opening leader
    assert play == [dict(t["plays"])[s] for t in truth["tricks"] for s in order]
