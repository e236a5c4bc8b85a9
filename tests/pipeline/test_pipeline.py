"""The photo pipeline and the analyze/demo/calibrate commands."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.detect.detections import Detections
from vision.errors import InputFileError
from vision.models import ModelError, model_path, verify_checksum
from vision.pipeline import PhotoAnalyzer, full_report_dict, load_image, row_entry
from vision.seats import Seat

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "datasets" / "samples"
HAVE_MODEL = (REPO / "models" / "detector.onnx").is_file()


class TruthDetector:
    """Returns a sample's true card rectangles, as the detector would."""

    def __init__(self, truth: dict, confidence: float = 0.9) -> None:
        self.cards = [c for c in truth["cards"] if c["visible_fraction"] >= 0.1]
        self.confidence = confidence

    def detect(self, image: np.ndarray) -> Detections:
        return Detections(
            np.array([c["quad"] for c in self.cards]),
            np.full(len(self.cards), self.confidence),
            np.array([int(c["face_up"]) for c in self.cards]),
        )


def _sample(name: str) -> tuple[np.ndarray, dict]:
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    return cv2.imread(str(SAMPLES / f"{name}.jpg")), truth


@pytest.mark.parametrize(
    "name",
    ["demo_bridge_end", "bridge_end_2", "lhombre_end_1", "preferans_mid_1",
     "lhombre_end_loose", "preferans_mid_loose"],
)
def test_truth_rectangles_reproduce_the_totals(name):
    image, truth = _sample(name)
    analyzer = PhotoAnalyzer(
        game=truth["game"], detector=TruthDetector(truth), identity_reader=False
    )
    reading, report = analyzer.analyze(image)
    assert dict(report.result) == truth["report"]["result"]
    data = full_report_dict(reading, report)
    first_row = next(iter(data["rows"].values()))
    assert {"confidence", "polygon", "orientation"} <= set(first_row[0])
    assert len(first_row[0]["polygon"]) == 4


class ScaledTruthDetector(TruthDetector):
    """True rectangles scaled to whatever image size it is given (like a real detector)."""

    imgsz = 640

    def __init__(self, truth: dict) -> None:
        super().__init__(truth)
        self.width = truth["width"]
        self.seen_widths: list[int] = []

    def detect(self, image: np.ndarray) -> Detections:
        found = super().detect(image)
        self.seen_widths.append(image.shape[1])
        return Detections(found.quads * image.shape[1] / self.width, found.confidence,
                          found.class_id)


def test_large_jpeg_is_decoded_reduced_and_mapped_back():
    image, truth = _sample("demo_bridge_end")  # 1280x960: decoded at 640x480
    detector = ScaledTruthDetector(truth)
    # (no row strips: they would move the boxes onto their peaks, off the true ones)
    analyzer = PhotoAnalyzer(game="bridge", detector=detector, identity_reader=False,
                             row_strips=False)
    data = (SAMPLES / "demo_bridge_end.jpg").read_bytes()
    reading, report = analyzer.analyze(data)
    assert detector.seen_widths == [640]
    assert reading.image_size == (1280, 960)
    true_quads = np.array([c["quad"] for c in detector.cards])
    np.testing.assert_allclose(np.array([c.quad for c in reading.cards]), true_quads, atol=1e-6)
    assert dict(report.result) == truth["report"]["result"]
    png = cv2.imencode(".png", image)[1].tobytes()  # not a JPEG: decoded whole
    analyzer.analyze(png)
    assert detector.seen_widths[-1] == 1280


class AnnouncingTruthDetector(ScaledTruthDetector):
    """Also hands the pipeline what its network found before finishing, as the shipped
    detector does (``face_up_announced``: whether those boxes include face-up cards)."""

    imgsz = 300

    def __init__(self, truth: dict, face_up_announced: bool) -> None:
        super().__init__(truth)
        self.face_up_announced = face_up_announced

    def detect(self, image: np.ndarray, on_candidates=None) -> Detections:  # noqa: ANN001
        found = super().detect(image)
        if on_candidates is not None:
            from vision.detect.obb import RawBoxes

            cls = found.class_id if self.face_up_announced else np.zeros_like(found.class_id)
            on_candidates(RawBoxes(np.zeros((len(found), 5)), found.confidence, cls,
                                   np.zeros((len(found), 2))))
        return found


class ShapeRecordingIdentity:
    """Names every card SA and remembers the picture and boxes it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[tuple[int, ...], np.ndarray]] = []

    def read(self, image, quads, game, covered=None, alone=None):  # noqa: ANN001, ANN201
        from types import SimpleNamespace

        from vision.cards import Card

        self.seen.append((image.shape, np.asarray(quads)))
        return [SimpleNamespace(card=Card.from_str("SA"), confidence=0.99, reason=None)
                for _ in quads]


@pytest.mark.parametrize("face_up_announced", [True, False])
def test_faces_of_a_reduced_jpeg_are_read_from_the_full_photo(face_up_announced, monkeypatch):
    # 800x600, decoded at 400x300 for the detector; the faces need every pixel - decoded
    # beside the detection when its network saw face-up cards, after it otherwise
    image, truth = _sample("bridge_faceup_1")
    detector = AnnouncingTruthDetector(truth, face_up_announced)
    reader = ShapeRecordingIdentity()
    # (no row strips: they would move face-up boxes onto their peaks, off the true ones)
    analyzer = PhotoAnalyzer(game="bridge", detector=detector, identity_reader=reader,
                             fit_edges=False, row_strips=False)
    import vision.pipeline

    started = []
    real = vision.pipeline.in_background
    monkeypatch.setattr(vision.pipeline, "in_background",
                        lambda fn, *a: started.append(fn) or real(fn, *a))
    reading, _ = analyzer.analyze((SAMPLES / "bridge_faceup_1.jpg").read_bytes())
    assert len(started) == int(face_up_announced)
    assert detector.seen_widths == [400]
    [(shape, quads)] = reader.seen
    assert shape == image.shape
    face_up = np.array([c["quad"] for c in detector.cards if c["face_up"]])
    assert len(quads) == len(face_up)
    assert np.abs(np.sort(quads.reshape(-1)) - np.sort(face_up.reshape(-1))).max() < 1e-6
    assert all(str(c.card) == "SA" for c in reading.cards if c.face_up)


def test_talon_and_piles_stay_out_of_the_rows():
    image, truth = _sample("lhombre_end_loose")
    analyzer = PhotoAnalyzer(game="lhombre", detector=TruthDetector(truth), identity_reader=False)
    reading = analyzer.read(image)
    rows = {s.name: len(r) for s, r in reading.rows.items()}
    expected: dict[str, int] = {}
    for c in truth["cards"]:
        if c["row_position"] is not None and c["visible_fraction"] >= 0.1:
            expected[c["seat"]] = expected.get(c["seat"], 0) + 1
    assert rows == expected
    assert any("outside the rows" in n or "not a row" in n for n in reading.notes)


def test_mid_game_shows_the_trick_in_progress():
    image, truth = _sample("preferans_mid_1")
    analyzer = PhotoAnalyzer(game="preferans", detector=TruthDetector(truth),
                             identity_reader=False)
    reading = analyzer.read(image)
    expected = {c["seat"] for c in truth["cards"] if c["in_current_trick"]}
    assert {s.name for s in reading.current_trick} == expected
    data = full_report_dict(*analyzer.analyze(image))
    assert set(data["photo"]["current_trick"]) == expected


def test_face_up_cards_without_identity_model_are_reported_unread():
    image, truth = _sample("bridge_faceup_1")
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth), identity_reader=False)
    reading = analyzer.read(image)
    assert all(c.card is None and c.unreadable_reason for c in reading.cards if c.face_up)
    assert any("identity" in n for n in reading.notes)


class FakeIdentity:
    def __init__(self) -> None:
        self.calls = 0

    def read(self, image, quads, game, covered=None, alone=None):  # noqa: ANN001, ANN201
        from types import SimpleNamespace

        from vision.cards import Card

        self.calls += 1
        out = []
        for k in range(len(quads)):
            if k == 0:
                out.append(SimpleNamespace(card=None, confidence=0.2, reason="blurred (12 px)",
                                           candidates=((Card.from_str("S5"), 0.6),
                                                       (Card.from_str("C5"), 0.5))))
            else:
                out.append(SimpleNamespace(card=Card.from_str("SA"), confidence=0.99,
                                           reason=None))
        return out


def test_identity_reader_fills_cards_and_reasons():
    image, truth = _sample("bridge_faceup_1")
    fake = FakeIdentity()
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth), identity_reader=fake)
    reading = analyzer.read(image)
    face_up = [c for c in reading.cards if c.face_up]
    assert fake.calls == 1
    assert face_up[0].card is None and face_up[0].unreadable_reason == "blurred (12 px)"
    assert str(face_up[1].card) == "SA" and face_up[1].card_confidence == pytest.approx(0.99)
    # an unread face's candidates travel to the reconstruction's input and the JSON report
    entry = row_entry(face_up[0])
    assert [(str(c), p) for c, p in entry.candidates] == [("S5", 0.6), ("C5", 0.5)]
    assert row_entry(face_up[1]).candidates == ()
    cards = full_report_dict(*analyzer.analyze(image))["photo"]
    listed = [c for c in cards["loose_cards"] + list(cards["current_trick"].values())
              if c["candidates"]]
    rows = analyzer.observation(reading).rows
    assert listed or any(e.candidates for row in rows.values() for e in row)


def test_low_detector_confidence_gives_unknown_not_a_guess():
    image, truth = _sample("bridge_end_2")
    # the row reader's own doubt; the row strips (a reading of their own) are tested apart
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth, confidence=0.1),
                             identity_reader=False, row_strips=False)
    reading, report = analyzer.analyze(image)
    assert all(c.orientation.value == "unknown" for row in reading.rows.values() for c in row)
    assert report.undetermined  # nothing can be settled from unknown orientations


class GeometricStrips:
    """Reads each row's strip as a faultless row-strip network would: a centre at every card,
    lying across the strip's line where the card's long side does."""

    def read(self, image, rows, directions=None):  # noqa: ANN001, ANN201
        from vision.detect.strips import RowStrip, strip_frame
        from vision.table.rows import measure

        out = []
        for quads, way in zip(rows, directions or [None] * len(rows), strict=True):
            frame = strip_frame(quads, direction=way)
            along = frame.to_strip(quads.mean(axis=1))
            across = np.abs(measure(quads).long_axis @ frame.direction) < np.sqrt(0.5)
            out.append(RowStrip(frame=frame, along=along, points=frame.to_image(along),
                                score=np.full(len(quads), 0.99),
                                across=np.where(across, 0.99, 0.01)))
        return out


def test_rows_of_one_card_are_counted_again_along_their_own_side():
    # the first trick, won by East-West: every card's long side runs left-right in the
    # picture - pointing at West and East (won), along North's and South's rows (lost)
    def card(cx: float, cy: float) -> np.ndarray:
        return np.array([[cx - 40, cy - 28], [cx + 40, cy - 28], [cx + 40, cy + 28],
                         [cx - 40, cy + 28]], dtype=np.float64)

    class OneTrick:
        def detect(self, image: np.ndarray) -> Detections:
            quads = np.stack([card(320, 410), card(90, 240), card(320, 70), card(550, 240)])
            return Detections(quads, np.full(4, 0.9), np.zeros(4, int))

    analyzer = PhotoAnalyzer(game="bridge", detector=OneTrick(), identity_reader=False,
                             row_strips=GeometricStrips())
    reading, report = analyzer.analyze(np.full((480, 640, 3), 60, np.uint8))
    read = {seat.name: [c.orientation.value for c in row] for seat, row in reading.rows.items()}
    assert read == {"S": ["lost"], "W": ["won"], "N": ["lost"], "E": ["won"]}
    assert dict(report.result) == {"NS": 0, "EW": 1}


def test_load_image_errors(tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    with pytest.raises(InputFileError, match="empty"):
        load_image(empty)
    with pytest.raises(InputFileError, match="not an image"):
        load_image(text)
    with pytest.raises(InputFileError, match="not found"):
        load_image(tmp_path / "missing.jpg")
    with pytest.raises(InputFileError, match="folder"):
        load_image(tmp_path)


@pytest.mark.parametrize("content", [b"", b"hello, not an image"])
def test_cli_bad_input_exit_2_without_traceback(tmp_path, capsys, content):
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(content)
    assert main(["analyze", str(photo), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "photo.jpg" in err and "Traceback" not in err


@pytest.mark.parametrize(("brand", "said"), [(b"heic", "HEIC"), (b"mif1", "HEIC"),
                                             (b"avif", "AVIF picture: save it as JPEG")])
def test_a_phone_format_that_cannot_be_read_says_so(tmp_path, capsys, brand, said):  # type: ignore[no-untyped-def]
    photo = tmp_path / "IMG_0042.HEIC"
    photo.write_bytes(b"\x00\x00\x00\x18ftyp" + brand + b"\x00" * 64)  # a header, no picture
    assert main(["analyze", str(photo), "--out", ""]) == 2
    err = capsys.readouterr().err
    assert "IMG_0042.HEIC" in err and said in err and "Traceback" not in err


def test_an_iphone_heic_photo_is_read_like_its_jpeg(tmp_path, capsys):  # type: ignore[no-untyped-def]
    pillow_heif = pytest.importorskip("pillow_heif")
    image = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    rgb = np.ascontiguousarray(image[:, :, ::-1])
    heif = pillow_heif.from_bytes(mode="RGB", size=(rgb.shape[1], rgb.shape[0]),
                                  data=rgb.tobytes())
    photo = tmp_path / "IMG_0043.HEIC"
    heif.save(str(photo), quality=92)
    assert photo.read_bytes()[4:12] == b"ftypheic"
    decoded = load_image(photo)
    assert decoded.shape == image.shape
    assert float(np.abs(decoded.astype(int) - image).mean()) < 6.0
    assert main(["analyze", str(photo), "--game", "bridge", "--no-faces",
                 "--out", str(tmp_path / "out")]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    truth = json.loads((SAMPLES / "demo_bridge_end.json").read_text())
    assert report["result"] == truth["report"]["result"]
    assert (tmp_path / "out" / "IMG_0043.annotated.jpg").is_file()


def test_cli_missing_photo(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / "nope.png")]) == 2
    assert "not found" in capsys.readouterr().err


def test_cli_bad_contract(tmp_path, capsys):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((64, 64, 3), np.uint8))
    assert main(["analyze", str(photo), "--contract", "9Q", "--out", ""]) == 2
    assert "--contract" in capsys.readouterr().err


def test_parse_contract():
    from vision.commands.analyze import parse_contract

    c = parse_contract("4S", "S")
    assert c.level == 4 and c.trump.value == "S" and c.declarer is Seat.S
    assert parse_contract("3NT", "N").trump is None
    assert parse_contract("misere", "E").kind.value == "misere"
    assert parse_contract(None, None) is None


def test_checksum_mismatch_and_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("TRICKVISION_MODELS", str(tmp_path))
    with pytest.raises(ModelError, match="not found"):
        model_path("detector")
    (tmp_path / "detector.onnx").write_bytes(b"weights")
    with pytest.raises(ModelError, match="checksum file"):
        model_path("detector")
    (tmp_path / "detector.sha256").write_text("0" * 64 + "  detector.onnx\n")
    with pytest.raises(ModelError, match="does not match"):
        model_path("detector")
    import hashlib

    good = hashlib.sha256(b"weights").hexdigest()
    (tmp_path / "detector.sha256").write_text(f"{good}  detector.onnx\n")
    assert model_path("detector") == tmp_path / "detector.onnx"
    verify_checksum(tmp_path / "detector.onnx")


def test_cli_reports_a_damaged_model(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TRICKVISION_MODELS", str(tmp_path))
    (tmp_path / "detector.onnx").write_bytes(b"weights")
    (tmp_path / "detector.sha256").write_text("1" * 64 + "\n")
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((64, 64, 3), np.uint8))
    assert main(["analyze", str(photo), "--out", ""]) == 2
    assert "checksum" in capsys.readouterr().err


def test_calibrate_writes_a_usable_file(tmp_path):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((400, 600, 3), np.uint8))
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(photo), "--corners", "50,40 550,60 580,380 20,360",
                 "--out", str(out)]) == 0
    from vision.table.geometry import Calibration

    cal = Calibration.load(out)
    assert cal.homography.shape == (3, 3)
    assert main(["calibrate", str(photo), "--out", str(tmp_path / "x.json")]) == 2


@pytest.mark.skipif(not HAVE_MODEL, reason="no shipped detector model")
def test_shipped_model_reads_the_demo_photo(tmp_path):
    """The shipped detector runs end to end; its accuracy is measured by scripts/evaluate.py."""
    image, truth = _sample("demo_bridge_end")
    analyzer = PhotoAnalyzer(game="bridge", identity_reader=False)
    reading, report = analyzer.analyze(image)
    n_true = sum(1 for c in truth["cards"] if c["row_position"] is not None)
    assert 0.75 * n_true <= len(reading.cards) <= 1.3 * n_true
    assert set(reading.rows) == {Seat.N, Seat.E, Seat.S, Seat.W}
    for card in reading.cards:  # every box is a plausible card in the picture
        assert 0 <= card.quad.mean(axis=0)[0] <= 1280 and 0 <= card.quad.mean(axis=0)[1] <= 960


@pytest.mark.skipif(not HAVE_MODEL, reason="no shipped detector model")
def test_cli_no_cards_and_demo(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), (40, 110, 40), np.uint8))
    assert main(["analyze", str(blank), "--out", ""]) == 2
    assert "no cards" in capsys.readouterr().err
    code = main(["demo", "--out", str(tmp_path / "demo")])
    assert code == 0
    assert (tmp_path / "demo" / "demo_bridge_end.annotated.jpg").is_file()
    data = json.loads((tmp_path / "demo" / "demo_bridge_end.report.json").read_text())
    assert set(data["rows"]) == {"N", "E", "S", "W"}


def test_game_is_guessed_from_rows_and_noted():
    image, truth = _sample("lhombre_end_1")
    analyzer = PhotoAnalyzer(game=None, detector=TruthDetector(truth), identity_reader=False)
    reading, report = analyzer.analyze(image)
    assert report.game == "lhombre"  # three rows of nine
    assert any("game not given" in n for n in reading.notes)
    image, truth = _sample("bridge_end_2")
    analyzer = PhotoAnalyzer(game=None, detector=TruthDetector(truth), identity_reader=False)
    assert analyzer.analyze(image)[1].game == "bridge"


def test_cardscards_lying_alone_are_those_no_other_card_overlaps() -> None:
    """Only a face-up card nothing touches is read from its whole face; a card of an
    overlapping row, or one a face-down card half covers, is not."""
    from vision.pipeline import cards_lying_alone
    from vision.seats import Seat
    from vision.table.reading import SeenCard

    def card(x: float, y: float, face_up: bool = True) -> SeenCard:
        quad = np.array([[x, y], [x + 40, y], [x + 40, y + 60], [x, y + 60]], np.float32)
        return SeenCard(quad=quad, face_up=face_up, confidence=1.0)

    alone, row_a, row_b, under = card(0, 0), card(200, 0), card(220, 0), card(400, 0)
    on_top = card(420, 10, face_up=False)
    edge = card(100, 0)
    touching = card(139, 0, face_up=False)  # overlaps ``edge`` by a sliver (1 px of 40)
    cards = [alone, row_a, row_b, under, on_top, edge, touching]
    face_up = [c for c in cards if c.face_up]
    assert cards_lying_alone(face_up, cards).tolist() == [True, False, False, False, True]
    # the same with the image read at half size (quads in detector pixels, twice as large)
    assert cards_lying_alone(face_up, cards, scale=2).tolist() == [True, False, False, False, True]
    # in a face-up row the later card lies on the earlier one: its whole face shows
    for pos, c in enumerate((row_a, row_b), start=1):
        c.seat, c.row_position = Seat.S, pos
    assert cards_lying_alone(face_up, cards).tolist() == [True, False, True, False, True]
    # a player's card of the trick laid over the near edge of his face-down row lies on it
    row_card = card(300, 100, face_up=False)
    laid = card(300, 50)
    row_card.seat, row_card.row_position = Seat.N, 4
    assert cards_lying_alone([laid], [row_card, laid]).tolist() == [False]
    laid.seat = Seat.N
    assert cards_lying_alone([laid], [row_card, laid]).tolist() == [True]
    laid.seat = Seat.E  # another player's row card covers it
    assert cards_lying_alone([laid], [row_card, laid]).tolist() == [False]


class OnTopRecordingIdentity(ShapeRecordingIdentity):
    """A reader with a strip view: remembers the boxes lying on each card it was given."""

    strip_path = Path("identity_strip.onnx")

    def __init__(self) -> None:
        super().__init__()
        self.on_top: list[list[np.ndarray]] = []

    def read(self, image, quads, game, covered=None, alone=None, on_top=None):  # noqa: ANN001, ANN201
        self.on_top.append(on_top)
        return super().read(image, quads, game, covered, alone)


def test_a_reader_with_the_strip_view_is_told_which_later_row_cards_lie_on_each_card():
    image, truth = _sample("bridge_faceup_1")
    reader = OnTopRecordingIdentity()
    analyzer = PhotoAnalyzer(game="bridge", detector=TruthDetector(truth),
                             identity_reader=reader, fit_edges=False, row_strips=False)
    reading = analyzer.read(image)
    [on_top] = reader.on_top
    face_up = [c for c in reading.cards if c.face_up]
    assert len(on_top) == len(face_up)
    by_quad = {np.asarray(c.quad).tobytes(): c for c in reading.cards}
    for card, boxes in zip(face_up, on_top, strict=True):
        above = [by_quad[np.asarray(b).tobytes()] for b in boxes]
        # only later cards of the card's own row lie on it
        assert all(c.seat == card.seat and c.row_position > card.row_position for c in above)
        if card.row_position is not None:
            row = reading.rows[card.seat]
            at = next(i for i, c in enumerate(row) if c is card)
            if card is not row[-1]:
                # the next card of a row lies on it
                assert any(c is row[at + 1] for c in above)
            else:
                assert above == []


class StillCameraDetector(TruthDetector):
    """A fixed camera's detector (``changed_region``) that says whether its last look saw
    nothing change, as :class:`vision.detect.onnx_detector.CardDetector` does."""

    changed_region = object()

    def __init__(self, truth: dict) -> None:
        super().__init__(truth)
        self.unchanged = False


def test_a_fixed_cameras_unchanged_frame_gives_the_last_reading_again():
    image, truth = _sample("bridge_faceup_1")
    detector, fake = StillCameraDetector(truth), FakeIdentity()
    analyzer = PhotoAnalyzer(game="bridge", detector=detector, identity_reader=fake)
    first = analyzer.read(image, table_centre=(640.0, 360.0))
    detector.unchanged = True
    again = analyzer.read(image, table_centre=(641.0, 361.0))
    assert fake.calls == 1  # no face read again
    assert [(c.seat, c.row_position, c.orientation, c.card) for c in again.cards] == \
        [(c.seat, c.row_position, c.orientation, c.card) for c in first.cards]
    again.cards[0].card = None  # a copy: what a caller does to it stays with it
    assert analyzer.read(image, table_centre=(640.0, 360.0)).cards[0].card == first.cards[0].card
    # the table centre moved on: the trick in progress is placed again
    analyzer.read(image, table_centre=(700.0, 360.0))
    assert fake.calls == 2
    # something changed: read again
    detector.unchanged = False
    analyzer.read(image, table_centre=(700.0, 360.0))
    assert fake.calls == 3
