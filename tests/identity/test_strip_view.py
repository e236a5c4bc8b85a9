"""The strip view: a row card the corners leave unread, read from the strip of it that shows
with the cards lying on it masked (``vision.identity.crops.strip_crop``, the reader's
``_read_strips``, the pipeline's boxes lying on each card, the training crops)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards import Card
from vision.identity import IdentityReader
from vision.identity.crops import STRIP_MASK_BGR, strip_crop, whole_card_crop
from vision.identity.reader import STRIP_VIEW, IdentityResult
from vision.identity.synth import (
    NONE_LABEL,
    STRIP_MIN_SHOWN,
    label_strip_card,
    sample_card_photo,
)

MODELS = Path(__file__).resolve().parents[2] / "models"
needs_strip_model = pytest.mark.skipif(not (MODELS / "identity_strip.onnx").is_file(),
                                       reason="models/identity_strip.onnx not shipped")
MASK = np.array(STRIP_MASK_BGR, np.uint8)


def _card_on_cloth() -> tuple[np.ndarray, np.ndarray]:
    """A white 60 x 84 px card upright on green cloth, and its quad."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = (40, 120, 30)
    image[50:134, 70:130] = 255
    quad = np.array([[70, 50], [130, 50], [130, 134], [70, 134]], np.float64)
    return image, quad


def test_strip_crop_without_cards_on_top_is_the_whole_card() -> None:
    image, quad = _card_on_cloth()
    assert np.array_equal(strip_crop(image, quad), whole_card_crop(image, quad))
    assert np.array_equal(strip_crop(image, quad, np.zeros((0, 4, 2))),
                          whole_card_crop(image, quad))


def test_strip_crop_paints_the_part_under_a_later_card() -> None:
    image, quad = _card_on_cloth()
    # the next card of the row lies on the card's lower half
    on_top = np.array([[[70, 92], [130, 92], [130, 176], [70, 176]]], np.float64)
    crop = strip_crop(image, quad, on_top)
    masked = np.all(crop == MASK, axis=2)
    # the crop squeezes the card into 64 x 64: its lower half is masked, its upper half shows
    # the card (white), whichever end the crop starts from
    halves = masked[:28].mean(), masked[36:].mean()
    assert min(halves) < 0.05 and max(halves) > 0.95
    shown = crop[:28] if halves[0] < 0.05 else crop[36:]
    assert shown.min() > 200


def test_strip_crop_ignores_a_box_beyond_the_cards_horizon() -> None:
    image, quad = _card_on_cloth()
    far = np.array([[[1e7, 1e7], [1e7 + 60, 1e7], [1e7 + 60, 1e7 + 84], [1e7, 1e7 + 84]]])
    assert np.array_equal(strip_crop(image, quad, far), whole_card_crop(image, quad))


def test_training_strip_crops_mask_the_covering_card_and_label_backs_none() -> None:
    rng = np.random.default_rng(3)
    seen = {"masked": 0, "back": 0, "hand": 0}
    for _ in range(200):
        s = sample_card_photo(rng, occlusion=0.9, back_chance=0.1)
        got = label_strip_card(s, rng)
        if s.is_back:
            assert [c.label for c in got] == [NONE_LABEL]
            seen["back"] += 1
        elif s.covered and s.occluder is None:
            assert got == []  # a hand: the reader could not mask it either
            seen["hand"] += 1
        elif s.hidden_share > 1.0 - STRIP_MIN_SHOWN:
            assert got == []  # all but hidden: no honest label
        elif s.occluder is not None:
            [c] = got
            assert c.label == str(s.card)
            if np.all(c.crop == MASK, axis=2).mean() > 0.1:
                seen["masked"] += 1
    assert min(seen.values()) > 0


def _reader_with_strip(card: str, p: float, n: int) -> IdentityReader:
    """The shipped reader whose strip model names ``card`` at ``p`` for each of ``n`` cards."""
    reader = IdentityReader(strip_model_path=False)
    reader._strip = object()  # a strip model is "loaded"; classify answers for it below
    answer = np.full((n, len(reader.class_names)), (1 - p) / (len(reader.class_names) - 1))
    answer[:, reader.class_names.index(card)] = p
    corner_classify = reader.classify

    def classify(crops: np.ndarray, *, whole: bool = False, strip: bool = False) -> np.ndarray:
        return answer[: len(crops)] if strip else corner_classify(crops, whole=whole)

    reader.classify = classify  # type: ignore[method-assign]
    return reader


def _unsure(p: float = 0.5) -> IdentityResult:
    return IdentityResult(None, p, f"unsure: best guess SA at {p:.2f} (needs 0.90)")


def _read_strips(reader: IdentityReader, results: list[IdentityResult], card: str,
                 corner_support: float, *, alone: list[bool] | None = None,
                 bare: list[bool] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Run the reader's strip step on ``results`` (one card each, the same photo), the
    corners giving ``card`` ``corner_support``; ``alone`` / ``bare``: cards lying alone /
    with nothing on them. Returns which cards were read by their strip, and the views."""
    n = len(results)
    image, quad = _card_on_cloth()
    probs = np.zeros((n, 6, len(reader.class_names)))
    probs[:, 0, reader.class_names.index(card)] = corner_support
    top = np.array([[[70, 92], [130, 92], [130, 176], [70, 176]]], np.float64)
    on_top = [top[:0] if bare and bare[j] else top for j in range(n)]
    in_deck = np.array([c is not None for c in reader._cards])
    read = reader._read_strips(image, np.stack([quad] * n), on_top, results, probs,
                               [(0, 2)] * n, np.array(alone or [False] * n), in_deck)
    return read, probs


def test_an_unread_row_card_is_named_by_a_sure_strip_the_corners_lean_towards() -> None:
    reader = _reader_with_strip("H7", 0.97, 1)
    results = [_unsure()]
    read, probs = _read_strips(reader, results, "H7", 0.05)
    assert read.tolist() == [True]
    assert results[0].card == Card.from_str("H7") and results[0].corner == "strip"
    assert probs[0, STRIP_VIEW].argmax() == reader.class_names.index("H7")


def test_an_unsure_strip_or_one_the_corners_do_not_support_names_nothing() -> None:
    results = [_unsure()]
    _read_strips(_reader_with_strip("H7", 0.97, 1), results, "H7", 0.0)
    assert results[0].card is None
    _read_strips(_reader_with_strip("H7", 0.7, 1), results, "H7", 0.05)
    assert results[0].card is None


def test_a_strip_naming_a_card_read_elsewhere_or_claimed_twice_names_nothing() -> None:
    # the card is read for sure elsewhere in the picture (one deck)
    results = [_unsure(), IdentityResult(Card.from_str("H7"), 0.99)]
    _read_strips(_reader_with_strip("H7", 0.97, 2), results, "H7", 0.05)
    assert results[0].card is None
    # two unread cards whose strips both name it: a contest, not a reading
    results = [_unsure(), _unsure()]
    _read_strips(_reader_with_strip("H7", 0.97, 2), results, "H7", 0.05)
    assert [r.card for r in results] == [None, None]


def test_cards_lying_alone_or_with_nothing_on_them_get_no_strip_view() -> None:
    results = [_unsure(), _unsure()]
    # nothing lies on the first; the second lies alone (the whole-card view reads it)
    read, _ = _read_strips(_reader_with_strip("H7", 0.97, 2), results, "H7", 0.05,
                           bare=[True, False], alone=[False, True])
    assert read.tolist() == [False, False]
    assert [r.card for r in results] == [None, None]


@needs_strip_model
def test_the_shipped_reader_loads_the_strip_model() -> None:
    reader = IdentityReader()
    assert reader.strip_path is not None and reader.strip_path.name == "identity_strip.onnx"
    image, quad = _card_on_cloth()
    p = reader.classify(strip_crop(image, quad)[None], strip=True)
    assert p.shape == (1, len(reader.class_names))
    assert abs(float(p.sum()) - 1.0) < 0.05
