"""Corner crops along the pipeline's own boxes in rendered scenes, labelled from the truth."""

from __future__ import annotations

import numpy as np
import pytest

from vision.identity.crops import CORNER_H, CORNER_W
from vision.identity.scene_crops import (
    CardTruth,
    QuadRecorder,
    crop_region,
    label_scene,
    match_truth,
    moved_box,
    scene_crops,
)
from vision.synth.scene import render_game_scene


@pytest.fixture(scope="module")
def scene():  # noqa: ANN201
    return render_game_scene("bridge", "faceup", 3_600_000_123, image_size=(1280, 960))


def _true_quads(scene, face_up: bool) -> tuple[np.ndarray, list[dict]]:  # noqa: ANN001
    cards = [c for c in scene.truth["cards"] if c["face_up"] == face_up
             and c["visible_fraction"] > 0.3]
    return np.array([c["quad"] for c in cards], dtype=np.float64), cards


def test_crop_region_is_the_corner_the_reader_cuts() -> None:
    box = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], dtype=np.float64)
    np.testing.assert_allclose(crop_region(box, 0), [[0, 0], [100 * CORNER_W, 0],
                                                     [100 * CORNER_W, 140 * CORNER_H],
                                                     [0, 140 * CORNER_H]], atol=1e-6)
    far = crop_region(box, 2)
    assert far[:, 0].min() == pytest.approx(100 * (1 - CORNER_W))
    assert far[:, 1].max() == pytest.approx(140)


def test_true_boxes_label_faces_with_their_own_card(scene) -> None:  # noqa: ANN001
    quads, cards = _true_quads(scene, face_up=True)
    crops = label_scene(scene.image, scene.truth, scene.style.face, quads,
                        np.random.default_rng(0))
    named = [c for c in crops if c.label != "none"]
    assert len(named) >= len(cards) // 2  # most faces show an index in some corner
    assert all(c.label == c.card for c in named)


def test_a_box_moved_off_its_index_gets_no_label_of_that_card(scene) -> None:  # noqa: ANN001
    quads, cards = _true_quads(scene, face_up=True)
    whole = [i for i, c in enumerate(cards) if c["visible_fraction"] > 0.99]
    assert whole, "the scene should have a face lying whole (the trick's last card or a row's)"
    i = whole[0]
    box = quads[i]
    shift = (box[1] - box[0]) * 0.6  # 0.6 card widths across: the corners fall off the index
    on = label_scene(scene.image, scene.truth, scene.style.face, box[None],
                     np.random.default_rng(0))
    off = label_scene(scene.image, scene.truth, scene.style.face, (box + shift)[None],
                      np.random.default_rng(0))
    assert [c.label for c in on].count(cards[i]["card"]) >= 2
    assert [c.label for c in off].count(cards[i]["card"]) < \
        [c.label for c in on].count(cards[i]["card"])


def test_boxes_on_backs_are_none_and_boxes_on_nothing_left_out(scene) -> None:  # noqa: ANN001
    quads, _ = _true_quads(scene, face_up=False)
    if len(quads):
        crops = label_scene(scene.image, scene.truth, scene.style.face, quads[:3],
                            np.random.default_rng(0))
        assert crops and all(c.label == "none" for c in crops)
    nowhere = np.array([[[-500, -500], [-450, -500], [-450, -430], [-500, -430]]], float)
    assert match_truth(nowhere, scene.truth["cards"]) == [None]
    assert label_scene(scene.image, scene.truth, scene.style.face, nowhere,
                       np.random.default_rng(0)) == []


def test_index_shows_in_full_on_a_card_lying_whole(scene) -> None:  # noqa: ANN001
    quads, cards = _true_quads(scene, face_up=True)
    i = next(i for i, c in enumerate(cards) if c["visible_fraction"] > 0.99)
    truth = CardTruth(cards[i], scene.style.face, scene.image.shape)
    least, most, filled = truth.shown(0, crop_region(np.asarray(cards[i]["quad"]), 0))
    assert least is not None and least > 0.9 and most > 0.9 and filled > 0.9


def test_moved_box_keeps_its_shape_and_moves_at_most_the_limit() -> None:
    rng = np.random.default_rng(3)
    box = np.array([[10, 10], [60, 10], [60, 80], [10, 80]], dtype=np.float64)
    for _ in range(20):
        moved = moved_box(box, rng, largest=0.25)
        np.testing.assert_allclose(moved - moved.mean(0), box - box.mean(0), atol=1e-9)
        assert 0 < np.linalg.norm(moved.mean(0) - box.mean(0)) <= 0.25 * 50 + 1e-9


def test_pipeline_boxes_are_recorded_and_labelled(scene) -> None:  # noqa: ANN001
    from vision.pipeline import PhotoAnalyzer

    recorder = QuadRecorder()
    analyzer = PhotoAnalyzer(game="bridge", identity_reader=recorder)
    crops = scene_crops(analyzer, recorder, scene, np.random.default_rng(1), moved_share=0.0)
    faces = sum(1 for c in scene.truth["cards"] if c["face_up"])
    assert len(recorder.quads) >= 0.8 * faces
    named = [c for c in crops if c.label != "none"]
    assert len(named) >= faces // 2
    assert all(c.label == c.card for c in named)
