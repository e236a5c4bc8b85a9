"""The card-axis second look: crops aligned with each box, boxes turned by its answer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect.axis import (
    ALONG_H,
    ALONG_W,
    CROP_SIZE,
    WINDOW,
    AxisClassifier,
    axis_crops,
    decode_boxes,
    encode_targets,
)
from vision.detect.detections import xywhr_to_quads
from vision.models import model_exists


def _card_image(cx: float, cy: float, long_side: float, short_side: float, angle_deg: float):
    image = np.zeros((900, 1200, 3), dtype=np.uint8)
    quad = xywhr_to_quads(np.array([[cx, cy, long_side, short_side, np.radians(angle_deg)]]))[0]
    cv2.fillPoly(image, [np.round(quad).astype(np.int32)], (255, 255, 255))
    return image


def _extent(crop: np.ndarray) -> tuple[int, int]:
    """Width and height (crop pixels) of the white region."""
    ys, xs = np.nonzero(crop[..., 0] > 127)
    return int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


@pytest.mark.parametrize("long_side", [100.0, 420.0])  # the second one samples a pyramid level
def test_crop_runs_along_the_box_and_is_scaled_by_its_long_side(long_side):
    image = _card_image(600, 450, long_side, long_side * 0.7, 30)
    box = np.array([[600, 450, long_side, long_side * 0.7, np.radians(30)]])
    crop = axis_crops(image, box)[0]
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    w, h = _extent(crop)
    expect_w = CROP_SIZE / WINDOW
    assert abs(w - expect_w) <= 2.5
    assert abs(h - 0.7 * expect_w) <= 2.5
    # the card is centred
    ys, xs = np.nonzero(crop[..., 0] > 127)
    assert abs(xs.mean() - (CROP_SIZE - 1) / 2) < 1.5
    assert abs(ys.mean() - (CROP_SIZE - 1) / 2) < 1.5


def test_a_box_turned_by_90_degrees_sees_the_card_upright():
    image = _card_image(600, 450, 100, 70, 30)
    turned = np.array([[600, 450, 100, 70, np.radians(120)]])  # long side of the box is wrong
    w, h = _extent(axis_crops(image, turned)[0])
    assert h > w + 5  # the card's long side runs along the crop's y (the box's h)


def test_outside_the_image_is_padding_grey():
    image = _card_image(600, 450, 100, 70, 0)
    crop = axis_crops(image, np.array([[5.0, 5.0, 100, 70, 0.0]]))[0]
    assert tuple(crop[0, 0]) == (114, 114, 114)


def test_without_offsets_boxes_are_only_turned_where_the_classifier_says():
    boxes = np.array([[10, 20, 100, 70, 0.0], [10, 20, 70, 100, 0.0], [0, 0, 100, 70, 0.3]])
    # zero offsets, sides = the box's long side x exp(0) / its short side
    reg = np.zeros((3, 4))
    reg[:, 3] = np.log(0.7) * 5
    out = decode_boxes(boxes, reg, np.array([False, False, True]))
    assert np.all(out[:, 2] >= out[:, 3])
    np.testing.assert_allclose(out[:, 2:4], [[100, 70]] * 3)
    assert out[0, 4] == pytest.approx(0.0)
    assert out[1, 4] == pytest.approx(0.0)  # long side now along w at the same angle
    assert out[2, 4] == pytest.approx(0.3 + np.pi / 2 - np.pi)  # wrapped into [-pi/2, pi/2)
    np.testing.assert_allclose(out[:, :2], boxes[:, :2])


def test_box_targets_round_trip_to_the_true_card():
    rng = np.random.default_rng(3)
    for _ in range(50):
        true_centre = rng.uniform(100, 900, 2)
        long_side = rng.uniform(60, 200)
        short_side = long_side * rng.uniform(0.6, 0.75)
        true_angle = rng.uniform(-np.pi, np.pi)
        turn = bool(rng.integers(2))
        box = np.array([
            *(true_centre + rng.normal(0, 10, 2)),
            long_side * rng.uniform(0.8, 1.2),
            short_side * rng.uniform(0.8, 1.2),
            true_angle + turn * np.pi / 2 + rng.normal(0, 0.05),
        ])
        target = encode_targets(box, true_centre, long_side, short_side)
        out = decode_boxes(box[None], target[None], np.array([turn]))[0]
        np.testing.assert_allclose(out[:2], true_centre, atol=1e-6)
        np.testing.assert_allclose(out[2:4], [long_side, short_side], rtol=1e-6)
        along = np.array([np.cos(out[4]), np.sin(out[4])])
        # the candidate angle noise stays: the head moves and resizes, it does not rotate
        assert abs(along @ [np.cos(true_angle), np.sin(true_angle)]) > 0.95


@pytest.mark.skipif(not model_exists("card_axis"), reason="card_axis model not shipped")
def test_shipped_classifier_reads_a_lone_card_either_way_round():
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("bridge", "end", 424242, image_size=(1280, 960))
    cards = [c for c in scene.truth["cards"] if c["visible_fraction"] > 0.95]
    assert cards
    classifier = AxisClassifier()
    boxes = []
    for c in cards:
        q = np.asarray(c["quad"], dtype=np.float64)
        a, b = q[1] - q[0], q[2] - q[1]
        long_vec = a if np.hypot(*a) >= np.hypot(*b) else b
        angle = float(np.arctan2(long_vec[1], long_vec[0]))
        size = (max(np.hypot(*a), np.hypot(*b)), min(np.hypot(*a), np.hypot(*b)))
        boxes.append([*q.mean(axis=0), *size, angle])  # right way round
        boxes.append([*q.mean(axis=0), *size, angle + np.pi / 2])  # turned: long side wrong
    result = classifier.classify(scene.image, np.array(boxes))
    expect = np.array([ALONG_W, ALONG_H] * len(cards)) == ALONG_H
    assert np.mean(result.along_h == expect) >= 0.9
    assert np.all(result.p_card[::2] > 0.5)


@pytest.mark.skipif(not model_exists("card_axis"), reason="card_axis model not shipped")
def test_unsure_boxes_are_read_again_mirrored_and_sure_ones_are_left_alone():
    from vision.detect.axis import UNSURE_CARD
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("bridge", "end", 424243, image_size=(1280, 960))
    rng = np.random.default_rng(5)
    boxes = []
    for c in scene.truth["cards"]:
        q = np.asarray(c["quad"], dtype=np.float64)
        a, b = q[1] - q[0], q[2] - q[1]
        size = (max(np.hypot(*a), np.hypot(*b)), min(np.hypot(*a), np.hypot(*b)))
        # boxes off their card in place and angle, as candidates are: some come out unsure
        boxes.append([*(q.mean(axis=0) + rng.normal(0, 0.2 * size[1], 2)), *size,
                      float(np.arctan2(a[1], a[0])) + rng.normal(0, 0.4)])
    classifier = AxisClassifier()
    crops = axis_crops(scene.image, np.array(boxes), classifier.size)
    once, box_once = classifier.run(crops)
    p, box = classifier.run_mirrored(crops)
    card = once[:, ALONG_W] + once[:, ALONG_H]
    certainty = np.abs(once[:, ALONG_W] - once[:, ALONG_H]) / card
    low, high = UNSURE_CARD
    unsure = (certainty < classifier.mirror_below) | ((card > low) & (card < high))
    assert unsure.any() and not unsure.all()
    np.testing.assert_array_equal(p[~unsure], once[~unsure])
    np.testing.assert_array_equal(box[~unsure], box_once[~unsure])
    assert np.abs(p[unsure] - once[unsure]).max() > 0.01
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-6)
    # the mirrors may make a box less of a card, never more
    assert np.all(p[:, ALONG_W] + p[:, ALONG_H] <= card + 1e-9)
    assert np.any(p[unsure, ALONG_W] + p[unsure, ALONG_H] < card[unsure] - 0.01)
    # the left-right mirror of a crop is read with the card's centre on the other side
    k = int(np.flatnonzero(unsure)[0])
    _, box_mirror = classifier.run(np.ascontiguousarray(crops[k:k + 1, :, ::-1]))
    _, box_top = classifier.run(np.ascontiguousarray(crops[k:k + 1, ::-1]))
    expected = (box_once[k] + box_mirror[0] * [-1, 1, 1, 1] + box_top[0] * [1, -1, 1, 1]) / 3
    np.testing.assert_allclose(box[k], expected, rtol=1e-5, atol=1e-5)
    # the second look's answer is the averaged one
    looked = classifier.classify(scene.image, np.array(boxes))
    np.testing.assert_allclose(looked.p_card, p[:, ALONG_W] + p[:, ALONG_H], atol=1e-6)
    # off: one reading for every box
    classifier.mirror_below = 0.0
    p_off, _ = classifier.run_mirrored(crops)
    np.testing.assert_array_equal(p_off, once)
