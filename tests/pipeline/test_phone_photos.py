"""Phone photos: a picture stored sideways with an EXIF orientation tag is read as shown.

A phone held in portrait (or turned) often stores the sensor's pixels as they came and a tag
saying how to turn them for display. The director looks at the picture as displayed and
gives ``--south`` for it, so the rows must be read in that picture: a decoder that ignored the
tag would give every row to the wrong player.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.models import model_exists
from vision.pipeline import PhotoAnalyzer, load_image
from vision.seats import Seat

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"


def _with_orientation_tag(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block (APP1) holding only the orientation tag (0x0112)."""
    entry = struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)  # SHORT, one value
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + entry + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


@pytest.fixture(scope="module")
def sideways(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, Path]:
    """The demo photo as shown, and a file of it stored turned 90 degrees counter-clockwise
    with tag 6 ("turn 90 degrees clockwise to display")."""
    upright = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 97])
    assert ok
    path = tmp_path_factory.mktemp("phone") / "portrait.jpg"
    path.write_bytes(_with_orientation_tag(jpeg.tobytes(), 6))
    return upright, path


def test_a_tagged_photo_is_decoded_as_displayed(sideways):  # type: ignore[no-untyped-def]
    upright, path = sideways
    image = load_image(path)
    assert image.shape == upright.shape  # 1280 x 960 as shown, not 960 x 1280 as stored
    assert float(np.abs(image.astype(np.int16) - upright).mean()) < 4.0


@pytest.mark.skipif(not model_exists("detector"), reason="detector not shipped")
def test_a_tagged_photo_gives_the_rows_to_the_players_as_displayed(sideways):  # type: ignore[no-untyped-def]
    upright, path = sideways
    analyzer = PhotoAnalyzer(game="bridge", identity_reader=False)
    reading = analyzer.read_encoded(path.read_bytes(), str(path))  # the reduced-size decode
    assert reading.image_size == (upright.shape[1], upright.shape[0])
    assert set(reading.rows) == set(Seat)

    def middle(seat: Seat) -> np.ndarray:
        return np.mean([c.quad.mean(axis=0) for c in reading.rows[seat]], axis=0)

    # South's row at the bottom of the picture as displayed, North's at the top, and so on
    assert middle(Seat.S)[1] > middle(Seat.N)[1] + 400
    assert middle(Seat.E)[0] > middle(Seat.W)[0] + 400
    plain = analyzer.read(upright)
    for seat in Seat:  # the same rows as from the upright picture (give or take a box)
        assert abs(len(reading.rows[seat]) - len(plain.rows[seat])) <= 1


@pytest.fixture(scope="module")
def from_a_corner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo photo turned 45 degrees clockwise, as from a phone held over a corner of the
    table: South's row runs from the bottom left."""
    image = cv2.imread(str(SAMPLES / "demo_bridge_end.jpg"))
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), -45.0, 1.0)
    side = int(np.hypot(w, h))
    turn[:, 2] += (side - w) / 2, (side - h) / 2
    turned = cv2.warpAffine(image, turn, (side, side), borderMode=cv2.BORDER_REPLICATE)
    path = tmp_path_factory.mktemp("corner") / "corner.jpg"
    cv2.imwrite(str(path), turned, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return path


@pytest.mark.skipif(not (model_exists("detector") and model_exists("card_axis")),
                    reason="models not shipped")
def test_a_photo_from_a_corner_is_read_with_south_in_degrees(from_a_corner, tmp_path, capsys):  # type: ignore[no-untyped-def]
    import json

    from vision.cli import main

    truth = json.loads((SAMPLES / "demo_bridge_end.json").read_text())
    code = main(["analyze", str(from_a_corner), "--game", "bridge", "--south", "45",
                 "--out", str(tmp_path), "--no-faces"])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1)  # 1: the report lists problems (a row of 14 boxes, say)
    assert report["result"] == truth["report"]["result"]  # NS 6, EW 7
    assert all(12 <= len(report["rows"][s]) <= 15 for s in "NESW")  # one measured 15
    # the same photo with South taken at the bottom: nothing sensible comes out
    main(["analyze", str(from_a_corner), "--game", "bridge", "--out", str(tmp_path),
          "--no-faces"])
    assert json.loads(capsys.readouterr().out)["result"] != truth["report"]["result"]


def test_a_south_that_is_neither_a_side_nor_an_angle_is_a_usage_error(capsys):  # type: ignore[no-untyped-def]
    from vision.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["analyze", str(SAMPLES / "demo_bridge_end.jpg"), "--south", "north-east"])
    assert stop.value.code == 2
    assert "angle in degrees" in capsys.readouterr().err


def test_a_photo_taken_askew_is_read_along_the_table():  # type: ignore[no-untyped-def]
    # a rendered end-of-play bridge table, the camera turned 25 degrees: the true rectangles
    # (no detector), so that only the reading of rows and seats is tested
    from vision.detect.detections import Detections
    from vision.reconstruct import reconstruct
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("bridge", "end", 9_000_000_003, image_size=(1280, 960),
                              roll_deg=25.0)
    cards = [c for c in scene.truth["cards"] if c["visible_fraction"] >= 0.1]

    class Truth:
        def detect(self, image):  # type: ignore[no-untyped-def]
            return Detections(np.array([c["quad"] for c in cards]), np.full(len(cards), 0.9),
                              np.array([int(c["face_up"]) for c in cards]))

    letter = {"won": "W", "lost": "L", "unknown": "?"}
    truth: dict[Seat, str] = {}
    for c in sorted(cards, key=lambda c: c["row_position"] or 0):
        if c["row_position"] is not None:
            truth[Seat[c["seat"]]] = truth.get(Seat[c["seat"]], "") + letter[c["orientation"]]
    rows, results = {}, {}
    # only rows and seats: the row strips (which find a card of South's row that lies all but
    # hidden, under 10 % showing, left out of the true rectangles here) are tested apart
    for straighten in (True, False):
        analyzer = PhotoAnalyzer(game="bridge", detector=Truth(), identity_reader=False,
                                 straighten=straighten, row_strips=False)
        reading = analyzer.read(scene.image)
        rows[straighten] = {s: "".join(letter[c.orientation.value] for c in r)
                            for s, r in reading.rows.items()}
        results[straighten] = dict(reconstruct(analyzer.observation(reading)).result)
        if straighten:
            # 25 degrees and the style's own 3: the note says about 28, clockwise
            note = next(n for n in reading.notes if "degrees clockwise" in n)
            assert abs(int(note.split("turned ")[1].split(" ")[0]) - 28) <= 2
    assert rows[True] == truth and results[True] == scene.truth["report"]["result"]
    assert rows[False] != truth  # along the picture's edges cards go to the wrong rows


@pytest.mark.skipif(not (model_exists("detector") and model_exists("card_axis")),
                    reason="models not shipped")
def test_a_photo_taken_at_a_steep_angle_is_said_to_be():  # type: ignore[no-untyped-def]
    from vision.synth.scene import render_game_scene

    analyzer = PhotoAnalyzer(game="preferans", identity_reader=False)
    steep = render_game_scene("preferans", "end", 9_960_000_001, image_size=(1280, 960),
                              tilt_deg=40.0)
    notes = analyzer.read(steep.image).notes
    assert any("steep angle" in n and "calibrate" in n for n in notes), notes
    overhead = render_game_scene("preferans", "end", 9_960_000_001, image_size=(1280, 960),
                                 tilt_deg=0.0)
    assert not any("angle" in n for n in analyzer.read(overhead.image).notes)
