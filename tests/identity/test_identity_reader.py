"""The identity reader on rendered cards: rotations, overlapping strips, refusals, decks."""

from __future__ import annotations

import dataclasses
import math
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards import Card
from vision.errors import TrickvisionError
from vision.identity import IdentityReader
from vision.identity.crops import (
    canonical_quad,
    corner_crops,
    covered_corners,
    whole_card_crop,
)
from vision.synth.faces import FaceStyle, face_mask, render_face

MODEL = Path(__file__).resolve().parents[2] / "models" / "identity.onnx"
needs_model = pytest.mark.skipif(not MODEL.is_file(), reason="models/identity.onnx not shipped")
WHOLE_MODEL = MODEL.with_name("identity_whole.onnx")
needs_whole_model = pytest.mark.skipif(not WHOLE_MODEL.is_file(),
                                       reason="models/identity_whole.onnx not shipped")

STYLE = FaceStyle(index_height=0.1, stroke=0.14)


def place(cards: list[tuple[Card, float, float, float]], *, width: float = 110.0,
          style: FaceStyle = STYLE, size: int = 520, blur: float = 0.0) -> tuple[np.ndarray,
                                                                               np.ndarray]:
    """Draw cards (card, centre x, centre y, angle in degrees) in order onto a green table.

    Returns the photo and the true quads (card's own corner order).
    """
    photo = np.zeros((size, size, 3), np.uint8)
    photo[:] = (40, 110, 30)
    fw, fh = 250, 350
    height = width * fh / fw
    quads = []
    for card, cx, cy, angle in cards:
        face = render_face(card, style, (fw, fh))
        t = math.radians(angle)
        rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        corners = np.array([[-width, -height], [width, -height], [width, height],
                            [-width, height]]) / 2 @ rot.T + np.array([cx, cy])
        m = cv2.getPerspectiveTransform(
            np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32), corners.astype(np.float32))
        small = cv2.resize(face, None, fx=width / fw, fy=width / fw, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(face_mask((fw, fh), style.corner_radius), small.shape[1::-1],
                          interpolation=cv2.INTER_AREA)
        m = m @ np.diag([fw / small.shape[1], fh / small.shape[0], 1.0])
        warped = cv2.warpPerspective(small, m, (size, size))
        alpha = cv2.warpPerspective(mask, m, (size, size)).astype(np.float32)[..., None] / 255
        photo = (photo * (1 - alpha) + warped * alpha).astype(np.uint8)
        quads.append(corners)
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    return photo, np.array(quads)


@pytest.fixture(scope="module")
def reader() -> IdentityReader:
    return IdentityReader()


def test_canonical_quad_fixes_winding_and_start_corner() -> None:
    quad = np.array([[10, 10], [60, 10], [60, 80], [10, 80]], float)
    for k in range(4):
        for q in (np.roll(quad, k, axis=0), np.roll(quad, k, axis=0)[::-1]):
            c = canonical_quad(q)
            assert np.allclose(c, quad) or np.allclose(c, np.roll(quad, 2, axis=0))


def test_corner_crops_turn_the_bottom_index_upright() -> None:
    photo, quads = place([(Card.from_str("D9"), 260, 260, 0)], width=200)
    crops = corner_crops(photo, quads[0])
    assert crops.shape == (4, 64, 64, 3) and crops.dtype == np.uint8
    # top-left and (turned) bottom-right show the same index; top-right shows none
    a, b, c = (crops[i].astype(float) for i in (0, 2, 1))
    assert np.abs(a - b).mean() < 0.5 * np.abs(a - c).mean()


def test_whole_card_crop_holds_the_card_upright_and_nothing_else() -> None:
    """The whole face, short edge across, whichever way the card lies (up to 180 deg)."""
    crops = []
    for angle in (0, 90, 180, 33):
        photo, quads = place([(Card.from_str("H7"), 260, 260, angle)], width=150)
        crop = whole_card_crop(photo, quads[0])
        assert crop.shape == (64, 64, 3)
        green = (crop[..., 1].astype(int) - crop[..., 2]) > 40  # the table's colour
        assert green.mean() < 0.03
        crops.append(crop.astype(float))
    for c in crops[1:]:
        assert min(np.abs(c - crops[0]).mean(), np.abs(c[::-1, ::-1] - crops[0]).mean()) < 12


@needs_model
@pytest.mark.parametrize("angle", [0, 90, 180, 270, 33])
def test_reads_rotated_cards(reader: IdentityReader, angle: float) -> None:
    cards = [Card.from_str(s) for s in ("SA", "HT", "D7", "CQ")]
    layout = [(c, 130 + 260 * (i % 2), 130 + 260 * (i // 2), angle) for i, c in enumerate(cards)]
    photo, quads = place(layout)
    results = reader.read(photo, quads)
    assert [r.card for r in results] == cards, [r.reason for r in results]
    assert all(r.confidence >= 0.9 for r in results)


@needs_model
def test_any_corner_order_reads_the_same(reader: IdentityReader) -> None:
    photo, quads = place([(Card.from_str("H4"), 260, 260, 10)])
    q = quads[0]
    for variant in (q, np.roll(q, 1, axis=0), np.roll(q, 2, axis=0), q[::-1]):
        assert reader.read(photo, variant[None])[0].card == Card.from_str("H4")


@needs_model
def test_reads_the_uncovered_strip_of_an_overlapping_row(reader: IdentityReader) -> None:
    row = [Card.from_str(s) for s in ("S9", "H2", "CK", "D5")]
    layout = [(c, 100 + 55 * i, 260, 0) for i, c in enumerate(row)]  # each covers half the last
    photo, quads = place(layout)
    results = reader.read(photo, quads)
    assert [r.card for r in results] == row, [r.reason for r in results]


def test_covered_corners_are_the_index_places_under_a_later_card() -> None:
    card = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float)
    assert not covered_corners(card, []).any()
    # the next card of a row lies on the right half: its top-right and bottom-right indexes
    right = card + [30, 0]
    assert covered_corners(card, [right]).tolist() == [False, True, True, False]
    # the corner order follows the card's own (canonical) order, whatever the quad's
    assert covered_corners(card[[1, 2, 3, 0]], [right]).sum() == 2
    # a card lying below (further down, not on it) covers nothing
    assert not covered_corners(card, [card + [0, 200]]).any()
    # either winding of the covering card, several of them, one turned
    below = (card + [0, 60])[::-1]
    assert covered_corners(card, [right[::-1]]).tolist() == [False, True, True, False]
    assert covered_corners(card, [card + [200, 0], below]).tolist() == [False, False, True, True]
    # turned and shifted covering cards: the same as OpenCV's point-in-polygon test
    from vision.identity.crops import INDEX_CENTRES

    rng = np.random.default_rng(5)
    u, v = INDEX_CENTRES[:, :1], INDEX_CENTRES[:, 1:]
    points = (1 - u) * (1 - v) * card[0] + u * (1 - v) * card[1] + u * v * card[2] \
        + (1 - u) * v * card[3]
    for _ in range(50):
        t = rng.uniform(0, np.pi)
        turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        other = (card - [30, 45]) @ turn.T + rng.uniform(-40, 80, 2) + [30, 45]
        poly = other.astype(np.float32).reshape(-1, 1, 2)
        want = [cv2.pointPolygonTest(poly, (float(x), float(y)), False) > 0 for x, y in points]
        assert covered_corners(card, [other]).tolist() == want


@needs_model
def test_boxes_off_along_the_cards_are_read_from_boxes_moved_around_them(
        reader: IdentityReader, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.identity.crops import covered_corners_of_cards

    row = [Card.from_str(c) for c in ("S7", "HQ", "D4", "C9")]
    photo, quads = place([(c, 100 + 55 * i, 260, 0) for i, c in enumerate(row)])
    width = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)[:, None, None]
    off = quads + np.array([0.0, 0.22]) * width  # every box a fifth of a card too low
    covered = covered_corners_of_cards(off, np.triu(np.ones((4, 4), bool), k=1))
    named = [r.card for r in reader.read(photo, off, covered=covered)]
    assert named == row
    monkeypatch.setattr(IdentityReader, "_look_around", lambda *args, **kwargs: None)
    assert [r.card for r in reader.read(photo, off, covered=covered)] == [None] * 4


def test_covered_corners_of_a_whole_row_at_once_match_card_by_card() -> None:
    from vision.identity.crops import covered_corners_of_cards

    rng = np.random.default_rng(9)
    card = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float)
    # a row of six cards, each shifted and slightly turned, each lying on the ones before
    quads = []
    for i in range(6):
        t = rng.uniform(-0.2, 0.2)
        turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        quads.append((card - [30, 45]) @ turn.T + [30 + 28 * i, 45 + rng.uniform(-8, 8)])
    quads = np.array(quads)
    lies_on = np.triu(np.ones((6, 6), bool), k=1)
    lies_on[0, 5] = False  # not every later card counts
    got = covered_corners_of_cards(quads, lies_on)
    for i in range(6):
        assert got[i].tolist() == covered_corners(quads[i], list(quads[lies_on[i]])).tolist()
    assert got[:5].any(axis=1).all() and not got[5].any()
    assert not covered_corners_of_cards(quads, np.zeros((6, 6), bool)).any()


@needs_model
def test_a_corner_under_another_card_does_not_vote(reader: IdentityReader) -> None:
    photo, quads = place([(Card.from_str("SA"), 260, 260, 0)])
    assert reader.read(photo, quads)[0].card == Card.from_str("SA")
    hidden = reader.read(photo, quads, covered=np.ones((1, 4), bool))[0]
    assert hidden.card is None and "no index" in (hidden.reason or "")


@needs_model
def test_refuses_tiny_and_blurred_cards_with_a_reason(reader: IdentityReader) -> None:
    photo, quads = place([(Card.from_str("S8"), 100, 100, 0)], width=15)
    tiny = reader.read(photo, quads)[0]
    assert tiny.card is None and "too small" in tiny.reason and "15 px" in tiny.reason
    photo, quads = place([(Card.from_str("S8"), 260, 260, 0)], width=60, blur=6.0)
    blurred = reader.read(photo, quads)[0]
    assert blurred.card is None and blurred.reason


@needs_model
def test_blank_card_is_not_guessed(reader: IdentityReader) -> None:
    photo = np.zeros((300, 300, 3), np.uint8)
    photo[:] = (40, 110, 30)
    cv2.rectangle(photo, (100, 80), (200, 220), (245, 245, 245), -1)
    quad = np.array([[100, 80], [200, 80], [200, 220], [100, 220]], float)
    result = reader.read(photo, quad[None])[0]
    assert result.card is None and result.reason


@needs_model
def test_restricts_answers_to_the_game_deck(reader: IdentityReader) -> None:
    cards = [Card.from_str(s) for s in ("S8", "HT", "C9")]  # not in the l'hombre deck
    photo, quads = place([(c, 100 + 160 * i, 260, 0) for i, c in enumerate(cards)])
    assert [r.card for r in reader.read(photo, quads, "bridge")] == cards
    for r in reader.read(photo, quads, "lhombre"):
        assert r.card is None and "not in the lhombre deck" in r.reason
    assert [r.card for r in reader.read(photo, quads, "preferans")] == cards
    with pytest.raises(TrickvisionError, match="unknown game"):
        reader.read(photo, quads, "poker")


@needs_model
def test_empty_input_and_style_variants(reader: IdentityReader) -> None:
    assert reader.read(np.zeros((50, 50, 3), np.uint8), np.zeros((0, 4, 2))) == []
    four = dataclasses.replace(STYLE, corner_indices=4, four_colour=True, jumbo=True,
                               index_height=0.13, index_suit_scale=0.7)
    photo, quads = place([(Card.from_str("DJ"), 260, 260, 180)], style=four)
    assert reader.read(photo, quads)[0].card == Card.from_str("DJ")


@needs_model
def test_checksum_mismatch_is_a_clear_error(tmp_path: Path) -> None:
    shutil.copy(MODEL, tmp_path / "identity.onnx")
    (tmp_path / "identity.sha256").write_text("0" * 64 + "  identity.onnx\n")
    with pytest.raises(TrickvisionError, match="checksum"):
        IdentityReader(tmp_path / "identity.onnx")
    (tmp_path / "identity.sha256").unlink()
    with pytest.raises(TrickvisionError, match="checksum"):
        IdentityReader(tmp_path / "identity.onnx")


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TrickvisionError, match="not found"):
        IdentityReader(tmp_path / "identity.onnx")


@needs_model
def test_a_card_read_confidently_elsewhere_is_not_the_unsure_cards_answer(
        reader: IdentityReader) -> None:
    from vision.identity.reader import IdentityResult

    names = reader.class_names
    sa, sk = names.index("SA"), names.index("SK")
    probs = np.zeros((3, 4, len(names)))
    probs[0, :, sa] = 0.99
    for j in (1, 2):  # torn between the ace and the king on both read corners
        probs[j, (0, 2), sa] = 0.5
        probs[j, (0, 2), sk] = 0.45
    unsure = IdentityResult(None, 0.75, "unsure: best guess SA at 0.75 (needs 0.90)")
    in_deck = np.array([c is not None for c in reader._cards])
    used = [(0, 2)] * 3

    results = [IdentityResult(Card.from_str("SA"), 0.99), unsure]
    reader._exclude_taken(results, probs[[0, 1]], used, in_deck, "bridge")
    # the ace lies elsewhere, so the unsure card is the king
    assert results[1].card == Card.from_str("SK") and results[1].confidence >= 0.9

    contest = [IdentityResult(Card.from_str("SA"), 0.99), unsure, unsure]
    reader._exclude_taken(contest, probs, used, in_deck, "bridge")
    assert contest[1].card is None and contest[2].card is None  # both cannot be the king

    twice = [IdentityResult(Card.from_str("SA"), 0.99), IdentityResult(Card.from_str("SA"), 0.99),
             unsure]
    reader._exclude_taken(twice, probs[[0, 0, 1]], used, in_deck, "bridge")
    assert twice[2].card is None  # a duplicate reading proves nothing: the ace is not excluded


@needs_model
def test_an_unsure_card_names_the_cards_it_may_be(reader: IdentityReader) -> None:
    names = reader.class_names
    p = np.zeros((2, len(names)))
    p[0, names.index("S5")], p[0, names.index("C5")] = 0.55, 0.4
    p[1, names.index("C5")], p[1, names.index("S6")] = 0.5, 0.1
    in_deck = np.array([c is not None for c in reader._cards])
    got = reader._candidates(p, in_deck)
    # joined over both corners: C5 0.7, S5 0.55; S6 (0.1) is below the floor
    assert [str(c) for c, _ in got] == ["C5", "S5"] and got[0][1] == pytest.approx(0.7)
    in_deck[names.index("C5")] = False  # not in this game's deck
    assert [str(c) for c, _ in reader._candidates(p, in_deck)] == ["S5"]


@needs_model
def test_corners_that_together_name_one_card_name_it(reader: IdentityReader) -> None:
    names = reader.class_names
    in_deck = np.array([c is not None for c in reader._cards])
    none, h7, h8, d7 = (names.index(n) for n in ("none", "H7", "H8", "D7"))

    def corners(*readings: dict[int, float]) -> np.ndarray:
        p = np.full((len(readings), len(names)), 1e-4)
        for row, reading in zip(p, readings, strict=True):
            for k, v in reading.items():
                row[k] = v
        return p / p.sum(axis=1, keepdims=True)

    # one corner sure of H7; the other reads D7 at 0.52 but H7 nearly as much and no other
    # card: the strict rule calls that a disagreement, together they leave only H7
    got = reader._combine(corners({h7: 0.999}, {d7: 0.52, h7: 0.38, none: 0.1}), (0, 2),
                          in_deck, "bridge")
    assert got.card == Card.from_str("H7") and got.confidence >= 0.995
    # a corner sure of H7 against one that reads D7 half the time: a contest, not a reading
    got = reader._combine(corners({h7: 0.97, d7: 0.03}, {d7: 0.55, h7: 0.45}), (0, 2),
                          in_deck, "bridge")
    assert got.card is None and got.reason.startswith("corners disagree")
    # nothing near sure anywhere: still unsure, with no card named
    got = reader._combine(corners({h7: 0.45, h8: 0.4}, {none: 0.9, h7: 0.05}), (0, 2),
                          in_deck, "bridge")
    assert got.card is None and got.reason.startswith("unsure")


@needs_model
def test_an_unsure_card_is_settled_only_when_every_look_agrees(
        reader: IdentityReader, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.identity.reader import IdentityResult

    names = reader.class_names
    photo, quads = place([(Card.from_str("S5"), 260, 260, 0)])
    in_deck = np.array([c is not None for c in reader._cards])

    def looks(card: str, p: float):  # type: ignore[no-untyped-def]
        def classify(crops: np.ndarray) -> np.ndarray:
            out = np.zeros((len(crops), len(names)))
            out[:, names.index(card)] = p
            out[:, names.index("none")] = 1 - p
            return out
        return classify

    def first_look() -> tuple[list[IdentityResult], np.ndarray]:
        probs = np.zeros((1, 4, len(names)))
        probs[0, (0, 2), names.index("S5")] = 0.6
        probs[0, (0, 2), names.index("C5")] = 0.3
        return [IdentityResult(None, 0.84, "unsure: best guess S5 at 0.84 (needs 0.90)")], probs

    hidden = np.zeros((1, 4), bool)
    results, probs = first_look()
    monkeypatch.setattr(reader, "classify", looks("S5", 0.97))
    reader._look_again(photo, quads, results, probs, [(0, 2)], hidden, in_deck, "bridge")
    assert results[0].card == Card.from_str("S5")

    results, probs = first_look()
    monkeypatch.setattr(reader, "classify", looks("C5", 0.97))  # the other looks disagree
    reader._look_again(photo, quads, results, probs, [(0, 2)], hidden, in_deck, "bridge")
    assert results[0].card is None


def test_sharpness_of_many_cards_is_each_cards_own() -> None:
    from vision.identity.crops import sharpness_of_cards

    def alone(card_crops: np.ndarray) -> float:  # the definition, one crop at a time
        values = []
        for crop in card_crops:
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
            values.append(float(cv2.Laplacian(grey, cv2.CV_32F, ksize=3)[2:-2, 2:-2].std()))
        return max(values)

    rng = np.random.default_rng(3)
    crops = rng.integers(0, 255, (4, 4, 32, 32, 3), dtype=np.uint8)
    crops[1] = 128  # flat: no ink edge at all
    crops[2, :, :, :16] = 0  # one hard edge per crop
    many = sharpness_of_cards(crops)
    assert many == pytest.approx([alone(c) for c in crops], rel=1e-5)
    assert many[1] == 0.0 and many[2] < many[0]
    # one card's value does not depend on its neighbours in the stack
    assert sharpness_of_cards(crops[2:3])[0] == pytest.approx(many[2], rel=1e-6)


@needs_model
@needs_whole_model
def test_small_cards_lying_alone_are_read_from_their_whole_face(reader: IdentityReader) -> None:
    """Cards 27 px wide, their indices 4 px high and a little blurred: the whole face (pips,
    picture) names them where the corners do not, or misread them."""
    names = ("D3", "H3", "C8", "S9", "DK", "H6")
    cards = [Card.from_str(c) for c in names]
    photo, quads = place([(c, 60 + 80 * i, 260, 25 * i) for i, c in enumerate(cards)],
                         width=27, blur=0.8)
    alone = reader.read(photo, quads, alone=np.ones(len(cards), bool))
    corners = reader.read(photo, quads)
    assert sum(r.card == c for r, c in zip(alone, cards, strict=True)) >= 5
    assert all(r.card in (None, c) for r, c in zip(alone, cards, strict=True))
    assert sum(r.card == c for r, c in zip(alone, cards, strict=True)) > \
        sum(r.card == c for r, c in zip(corners, cards, strict=True))


@needs_model
def test_a_greyscale_picture_is_read_with_the_greyscale_model() -> None:
    """The corner model for grey pictures is used for them, and only for them."""
    used: list[str] = []

    class Watching(IdentityReader):
        def classify(self, crops: np.ndarray, *, whole: bool = False) -> np.ndarray:
            if not whole:
                used.append("grey" if self._corners[0] is self._grey else "colour")
            return super().classify(crops, whole=whole)

    watching = Watching(MODEL, whole_model_path=False, grey_model_path=MODEL)
    assert watching.reads_grey_apart and watching.grey_path == MODEL
    photo, quads = place([(Card.from_str("D7"), 260, 260, 0)])
    watching.read(photo, quads)
    assert used and set(used) == {"colour"}
    used.clear()
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    watching.read(grey, quads)
    assert used and set(used) == {"grey"}
    assert IdentityReader(MODEL, whole_model_path=False, grey_model_path=False).grey_path is None


@needs_model
@pytest.mark.skipif(not WHOLE_MODEL.is_file(), reason="models/identity_whole.onnx not shipped")
def test_a_grey_pictures_lone_cards_get_the_whole_view_only_from_a_grey_whole_model() -> None:
    """The colour whole-card model is fooled by grey faces: a grey picture's lone cards are
    read whole only by the greyscale whole-card model, and by their corners where there is
    none. (The colour file stands in for the grey one: only which session reads is checked.)"""
    used: list[str] = []

    class Watching(IdentityReader):
        def classify(self, crops: np.ndarray, *, whole: bool = False,
                     strip: bool = False) -> np.ndarray:
            if whole:
                used.append("grey whole" if self._whole_view[0] is self._grey_whole
                            else "colour whole")
            return super().classify(crops, whole=whole, strip=strip)

    photo, quads = place([(Card.from_str("D7"), 260, 260, 0)], width=40)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    both = Watching(MODEL, whole_model_path=WHOLE_MODEL, grey_model_path=MODEL,
                    strip_model_path=False, grey_whole_model_path=WHOLE_MODEL)
    assert both.grey_whole_path == WHOLE_MODEL
    both.read(photo, quads, alone=np.ones(1, bool))
    assert used and set(used) == {"colour whole"}
    used.clear()
    both.read(grey, quads, alone=np.ones(1, bool))
    assert used and set(used) == {"grey whole"}
    used.clear()
    both.read(photo, quads, alone=np.ones(1, bool))  # colour again after a grey picture
    assert used and set(used) == {"colour whole"}
    used.clear()
    corners_only = Watching(MODEL, whole_model_path=WHOLE_MODEL, grey_model_path=MODEL,
                            strip_model_path=False, grey_whole_model_path=False)
    assert corners_only.grey_whole_path is None
    corners_only.read(grey, quads, alone=np.ones(1, bool))
    assert used == []


GREY_WHOLE_MODEL = MODEL.with_name("identity_whole_grey.onnx")


@needs_model
@pytest.mark.skipif(not GREY_WHOLE_MODEL.is_file(),
                    reason="models/identity_whole_grey.onnx not shipped")
def test_small_grey_cards_lying_alone_are_read_from_their_whole_face() -> None:
    """A monochrome camera's small lone cards (27 px wide, indices 4 px high, a little
    blurred): the shipped grey whole-card model names more of them than the corners alone,
    and none wrong (the corners alone take this H6 for H5)."""
    names = ("D3", "H3", "C8", "S9", "DK", "H6", "D7", "CQ")
    cards = [Card.from_str(c) for c in names]
    photo, quads = place([(c, 60 + 60 * i, 260, 25 * i) for i, c in enumerate(cards)],
                         width=27, blur=0.8)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    alone = np.ones(len(cards), bool)
    shipped = IdentityReader()
    assert shipped.grey_whole_path == GREY_WHOLE_MODEL
    whole = [r.card for r in shipped.read(grey, quads, alone=alone)]
    corners = [r.card for r in IdentityReader(grey_whole_model_path=False).read(
        grey, quads, alone=alone)]
    assert all(r in (None, c) for r, c in zip(whole, cards, strict=True)), whole
    right = sum(r == c for r, c in zip(whole, cards, strict=True))
    assert right >= 6 and right > sum(r == c for r, c in zip(corners, cards, strict=True))


@needs_model
def test_a_greyscale_model_of_other_classes_is_refused() -> None:
    axis = MODEL.with_name("card_axis.onnx")
    with pytest.raises(TrickvisionError, match="classes or input size"):
        IdentityReader(MODEL, whole_model_path=False, grey_model_path=axis)


GREY_MODEL = MODEL.with_name("identity_grey.onnx")


@needs_model
@pytest.mark.skipif(not GREY_MODEL.is_file(), reason="models/identity_grey.onnx not shipped")
def test_grey_diamonds_are_not_read_as_clubs() -> None:
    """A monochrome camera: the colour model reads these diamonds as clubs; the shipped
    reader takes the greyscale model for the grey picture and reads them right."""
    cards = [Card.from_str(s) for s in ("D7", "DQ", "D9", "DK", "C7", "CQ", "H9", "SK")]
    layout = [(c, 70 + 125 * (i % 4), 130 + 260 * (i // 4), 0) for i, c in enumerate(cards)]
    photo, quads = place(layout, width=100)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    shipped = IdentityReader()
    assert shipped.grey_path == GREY_MODEL
    assert [r.card for r in shipped.read(grey, quads)] == cards
    colour_only = IdentityReader(grey_model_path=False)
    misread = [r.card for r in colour_only.read(grey, quads)]
    assert sum(1 for c, m in zip(cards, misread, strict=True)
               if c.suit.name == "DIAMONDS" and m is not None and m.suit.name == "CLUBS") >= 2


@needs_model
@needs_whole_model
def test_a_whole_view_no_corner_supports_names_nothing() -> None:
    """The whole-card model is sure of something on any picture (a card back passed as a
    face, a box turned off its card); a card none of whose corners shows a trace of it is
    not taken from that view, nor offered as a candidate."""
    forced: dict[str, str] = {}

    class Forced(IdentityReader):
        def classify(self, crops: np.ndarray, *, whole: bool = False) -> np.ndarray:
            p = super().classify(crops, whole=whole)
            if whole and forced:
                p[:] = 0.0
                p[:, self.class_names.index(forced["card"])] = 1.0
            return p

    reader = Forced()
    # small and a little blurred: its corners alone are unsure (best guess H6 at 0.79)
    photo, quads = place([(Card.from_str("H6"), 260, 260, 10)], width=30, blur=0.8)
    alone = np.ones(1, bool)
    assert reader.read(photo, quads)[0].card is None
    forced["card"] = "SK"  # nothing like a six of hearts
    [result] = reader.read(photo, quads, alone=alone)
    assert result.card is None
    assert Card.from_str("SK") not in [c for c, _ in result.candidates]
    forced["card"] = "H6"  # what its corners half see
    [result] = reader.read(photo, quads, alone=alone)
    assert result.card == Card.from_str("H6")


@needs_model
def test_a_lone_card_under_a_box_turned_off_it_is_read_from_its_traced_outline(
        reader: IdentityReader) -> None:
    """A detector box 30 degrees off a card lying alone shows cloth in its corner crops; the
    card's own rectangle, traced against the cloth, is read instead."""
    photo, quads = place([(Card.from_str("H5"), 260, 260, 20)], width=60)
    centre = quads[0].mean(axis=0)
    t = math.radians(30)
    turned = (quads[0] - centre) @ np.array([[math.cos(t), math.sin(t)],
                                            [-math.sin(t), math.cos(t)]]) + centre
    [result] = reader.read(photo, turned[None], alone=np.ones(1, bool))
    assert result.card == Card.from_str("H5") and "traced" in (result.corner or "")
    [covered] = reader.read(photo, turned[None])  # not known to lie alone: no tracing
    assert covered.card is None or "traced" not in (covered.corner or "")
