"""Letterbox, decoding and rotated NMS of the detector's output, on synthetic arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.detect.detections import Detections, quads_to_xywhr, xywhr_to_quads
from vision.detect.obb import (
    centre_suppression,
    decode,
    fragment_suppression,
    letterbox,
    letterbox_blob,
    polygon_iou,
    probiou,
    probiou_matrix,
    rotated_nms,
    split_straddlers,
    to_blob,
)


def test_letterbox_round_trip_and_padding():
    image = np.zeros((1080, 1920, 3), dtype=np.uint8)
    image[500:520, 900:960] = 255
    padded, box = letterbox(image, 640)
    assert padded.shape == (640, 640, 3)
    assert box.scale == pytest.approx(1 / 3)
    assert (box.pad_x, box.pad_y) == (0, 140)
    assert padded[0, 0, 0] == 114 and padded[639, 639, 0] == 114
    points = np.array([[0.0, 0.0], [1919.0, 1079.0], [930.0, 510.0]])
    np.testing.assert_allclose(box.to_image(box.to_input(points)), points)
    x, y = box.to_input(np.array([930.0, 510.0]))
    assert padded[int(y), int(x)].max() > 200  # the white patch landed where mapped


def test_letterbox_with_a_stride_keeps_the_aspect_and_pads_to_its_multiple():
    image = np.zeros((1080, 1920, 3), dtype=np.uint8)
    image[500:520, 900:960] = 255
    padded, box = letterbox(image, 640, stride=32)
    assert padded.shape == (384, 640, 3)  # 360 rows of picture, padded to 384, not 640
    assert (box.width, box.height) == (640, 384)
    assert box.scale == pytest.approx(1 / 3)  # the cards keep the size the square gives them
    assert (box.pad_x, box.pad_y) == (0, 12)
    points = np.array([[0.0, 0.0], [1919.0, 1079.0], [930.0, 510.0]])
    np.testing.assert_allclose(box.to_image(box.to_input(points)), points)
    x, y = box.to_input(np.array([930.0, 510.0]))
    assert padded[int(y), int(x)].max() > 200
    # a portrait photo: the other side is padded, each dimension a multiple of the stride
    tall, tall_box = letterbox(np.zeros((1000, 333, 3), dtype=np.uint8), 640, stride=32)
    assert tall.shape == (640, 224, 3) and tall_box.pad_x == 5  # 213 px of picture


def test_the_network_input_built_in_one_step_is_the_padded_image_converted():
    rng = np.random.default_rng(3)
    for (h, w), size, stride in (((480, 640), 800, None), ((1080, 1920), 800, None),
                                 ((1080, 1920), 640, 32), ((1000, 333), 640, 32),
                                 ((800, 800), 800, None)):
        image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        padded, box = letterbox(image, size, stride)
        blob, same_box = letterbox_blob(image, size, stride)
        assert same_box == box
        assert blob.dtype == np.float32 and np.array_equal(blob, to_blob(padded))


def test_to_blob_is_rgb_chw_unit_range():
    img = np.zeros((4, 4, 3), dtype=np.uint8)
    img[..., 0] = 255  # blue in BGR
    blob = to_blob(img)
    assert blob.shape == (1, 3, 4, 4) and blob.dtype == np.float32
    assert blob[0, 2].max() == 1.0 and blob[0, 0].max() == 0.0


def _raw_output(boxes: list[tuple[float, float, float, float, float, float, int]]) -> np.ndarray:
    """Fake (1, 7, A) output from (cx, cy, w, h, angle, score, class) rows plus noise anchors."""
    a = len(boxes) + 5
    out = np.zeros((1, 7, a), dtype=np.float32)
    out[0, 0:4, len(boxes):] = [[10], [10], [5], [5]]
    out[0, 4:6, len(boxes):] = 0.01
    for i, (cx, cy, w, h, ang, score, cls) in enumerate(boxes):
        out[0, 0:4, i] = [cx, cy, w, h]
        out[0, 4 + cls, i] = score
        out[0, 4 + 1 - cls, i] = score / 10
        out[0, 6, i] = ang
    return out


def test_decode_filters_by_confidence_and_reads_layout():
    out = _raw_output([(100, 50, 40, 60, 0.3, 0.9, 1), (200, 80, 30, 20, 0.0, 0.2, 0)])
    raw = decode(out, num_classes=2, conf=0.25)
    assert raw.xywhr.shape == (1, 5)
    np.testing.assert_allclose(raw.xywhr[0], [100, 50, 40, 60, 0.3], rtol=1e-6)
    assert raw.class_id.tolist() == [1]
    assert raw.score[0] == pytest.approx(0.9)


def test_decode_rejects_wrong_layout():
    with pytest.raises(ValueError, match="expected output"):
        decode(np.zeros((1, 6, 10)), num_classes=2, conf=0.5)


def test_xywhr_quads_round_trip():
    xywhr = np.array([[50.0, 60.0, 40.0, 20.0, 0.4], [0.0, 0.0, 10.0, 30.0, -1.0]])
    quads = xywhr_to_quads(xywhr)
    np.testing.assert_allclose(quads_to_xywhr(quads), xywhr, atol=1e-9)
    # w lies along the angle: the first edge has length w and direction angle
    edge = quads[0, 1] - quads[0, 0]
    assert np.linalg.norm(edge) == pytest.approx(40.0)
    assert math.atan2(edge[1], edge[0]) == pytest.approx(0.4)


def test_polygon_iou_half_overlap_is_one_third():
    a = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], dtype=float)
    b = a + [5, 0]
    assert polygon_iou(a, b) == pytest.approx(1 / 3)
    assert polygon_iou(a, a) == pytest.approx(1.0)
    assert polygon_iou(a, a + [20, 0]) == 0.0
    # a rotated copy: IoU of a square with itself turned by 45 degrees = 1 / (2 sqrt2 - 1)... check
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
    r = math.sqrt(2)
    diamond = np.array([[0, -r], [r, 0], [0, r], [-r, 0]])
    inter = 8 * (math.sqrt(2) - 1)
    assert polygon_iou(sq, diamond) == pytest.approx(inter / (8 - inter))


def test_probiou_is_symmetric_and_one_for_identical_boxes():
    a = np.array([50, 50, 20, 30, 0.2])
    b = np.array([[55, 52, 20, 30, 0.5]])
    assert probiou(a, a[None])[0] == pytest.approx(1.0, abs=1e-3)
    assert probiou(a, b)[0] == pytest.approx(probiou(b[0], a[None])[0])
    # the same rectangle described with w/h swapped and the angle turned by 90 deg
    c = np.array([[50, 50, 30, 20, 0.2 + math.pi / 2]])
    assert probiou(a, c)[0] == pytest.approx(1.0, abs=1e-3)
    assert probiou(a, np.array([[500, 500, 20, 30, 0.0]]))[0] < 0.01


def test_nms_keeps_row_neighbours_and_drops_duplicates():
    # three cards of a row, each covering half of the previous, plus a duplicate of the middle one
    boxes = np.array(
        [
            [100, 100, 40, 56, 0.0],
            [120, 100, 40, 56, 0.0],
            [140, 100, 40, 56, 0.0],
            [121, 101, 41, 55, 0.03],
        ]
    )
    scores = np.array([0.9, 0.8, 0.85, 0.7])
    keep = rotated_nms(boxes, scores, iou=0.7)
    assert sorted(keep.tolist()) == [0, 1, 2]
    assert keep.tolist()[0] == 0  # best first


def _greedy_nms_reference(xywhr, scores, iou):  # noqa: ANN001, ANN202
    """Textbook greedy NMS over the full overlap matrix."""
    order = np.argsort(-scores, kind="stable")
    overlap = probiou_matrix(xywhr[order], xywhr[order]) > iou
    alive = np.ones(len(order), dtype=bool)
    keep = []
    for i in range(len(order)):
        if alive[i]:
            keep.append(int(order[i]))
            alive[i + 1 :] &= ~overlap[i, i + 1 :]
    return keep


def test_nms_skipping_distant_pairs_keeps_the_same_boxes_as_the_full_matrix():
    rng = np.random.default_rng(4)
    for n, iou in ((60, 0.3), (200, 0.5), (400, 0.7), (400, 0.8)):
        boxes = np.column_stack([
            rng.uniform(0, 640, n), rng.uniform(0, 480, n), rng.uniform(10, 90, n),
            rng.uniform(8, 60, n), rng.uniform(-1.6, 1.6, n),
        ])
        scores = rng.uniform(0.25, 1.0, n)
        assert rotated_nms(boxes, scores, iou, max_det=n).tolist() == \
            _greedy_nms_reference(boxes, scores, iou)


def test_nms_skipping_pairs_that_cannot_reach_the_threshold_keeps_the_same_boxes():
    # the detector's case: many boxes jittered around few cards, thin ones among them, so
    # that pairs near the distance bound are common, at thresholds from loose to tight
    rng = np.random.default_rng(11)
    for iou in (0.05, 0.2, 0.45, 0.65, 0.8, 0.9, 0.97):
        cards = np.column_stack([rng.uniform(0, 400, 12), rng.uniform(0, 300, 12),
                                 rng.uniform(20, 80, 12), rng.uniform(3, 60, 12),
                                 rng.uniform(-1.6, 1.6, 12)])
        boxes = cards[rng.integers(0, 12, 300)].copy()
        boxes[:, :2] += rng.normal(0, 6, (300, 2))
        boxes[:, 2:4] *= rng.uniform(0.7, 1.3, (300, 2))
        boxes[:, 4] += rng.normal(0, 0.2, 300)
        scores = rng.uniform(0.25, 1.0, 300)
        assert rotated_nms(boxes, scores, iou, max_det=300).tolist() == \
            _greedy_nms_reference(boxes, scores, iou)


def test_nms_empty():
    assert rotated_nms(np.zeros((0, 5)), np.zeros(0), 0.7).tolist() == []


def test_detections_validation_and_masking():
    quads = xywhr_to_quads(np.array([[10, 10, 4, 6, 0], [30, 30, 4, 6, 1]]))
    det = Detections(quads, [0.9, 0.4], [0, 1])
    assert len(det) == 2 and det.face_up.tolist() == [False, True]
    sub = det[det.confidence > 0.5]
    assert len(sub) == 1 and sub.class_id.tolist() == [0]
    sub.quads[0, 0, 0] = -99
    assert det.quads[0, 0, 0] != -99  # masking copies
    with pytest.raises(ValueError, match=r"\(N, 4, 2\)"):
        Detections(np.zeros((2, 3, 2)), [1, 1], [0, 0])
    with pytest.raises(ValueError, match="confidence"):
        Detections(quads, [0.9], [0, 1])
    assert len(Detections.empty()) == 0


def test_centre_suppression_drops_a_card_seen_twice_but_keeps_row_neighbours():
    boxes = np.array(
        [
            [100, 100, 40, 56, 0.0],
            [102, 101, 56, 40, 0.05],  # the same card, box turned 90 degrees
            [118, 100, 40, 56, 0.0],  # next card of the row, 45 % of a card further
        ]
    )
    keep = centre_suppression(boxes, np.array([0.9, 0.8, 0.7]))
    assert keep.tolist() == [0, 2]


def test_fragment_inside_a_card_is_dropped_but_row_neighbours_are_kept():
    # xywhr in pixels: a card, a small box on its uncovered end (a second, partial look),
    # the next card of the row half over the first, and a card elsewhere
    boxes = np.array([[720, 384, 49, 74, 0.0], [720, 365, 33, 48, 0.0],
                      [720, 347, 49, 74, 0.0], [300, 200, 49, 74, 0.7]])
    assert fragment_suppression(boxes, 0.6).tolist() == [0, 2, 3]
    # a box of the same size as its neighbour is never a fragment, however much they overlap
    assert fragment_suppression(boxes[[0, 2]], 0.6).tolist() == [0, 1]
    assert fragment_suppression(boxes[:1], 0.6).tolist() == [0]


def test_a_box_straddling_two_cards_of_a_tight_row_gives_them_back():
    # two cards lying long side along the row, 40 px apart (under half their 90 px), and the
    # detector's best box between them, which suppresses both at NMS 0.65
    left, right, between = [100, 100, 90, 60, 0.0], [140, 100, 90, 60, 0.0], [120, 100, 90, 60, 0.0]
    boxes = np.array([between, left, right, [121, 101, 90, 60, 0.0]])
    score = np.array([0.9, 0.8, 0.75, 0.85])
    keep = rotated_nms(boxes, score, 0.65)
    assert list(keep) == [0]
    assert list(split_straddlers(boxes, score, keep, 0.65)) == [1, 2]  # best first
    # the two must be distinct cards: a box and its near copy are one card seen twice
    twins = np.array([between, left, [101, 100, 90, 60, 0.0]])
    assert list(split_straddlers(twins, np.array([0.9, 0.8, 0.8]), np.array([0]), 0.65)) == [0]
    # and each must score close to the box it replaces
    weak = np.array([0.9, 0.5, 0.75, 0.85])
    assert list(split_straddlers(boxes, weak, rotated_nms(boxes, weak, 0.65), 0.65)) == [0]
    # a neighbour kept in its own right is not taken twice
    other = np.array([between, left, right, [160, 100, 90, 60, 0.0]])
    score4 = np.array([0.9, 0.8, 0.75, 0.95])
    keep4 = rotated_nms(other, score4, 0.65)
    assert sorted(keep4.tolist()) == [0, 3]
    assert sorted(split_straddlers(other, score4, keep4, 0.65).tolist()) == [0, 3]
