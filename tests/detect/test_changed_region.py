"""Detection limited to what changed between a fixed camera's looks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect.changed_region import ChangedRegionBoxes
from vision.detect.obb import RawBoxes
from vision.models import model_exists, model_path

H, W = 384, 640


def blob_with(cards: list[tuple[int, int]], size: tuple[int, int] = (H, W)) -> np.ndarray:
    """A network input: grey cloth with a white 30 x 40 card centred at each (x, y)."""
    blob = np.full((1, 3, *size), 0.3, np.float32)
    for x, y in cards:
        blob[0, :, y - 20:y + 20, x - 15:x + 15] = 1.0
    return blob


class CountingNetwork:
    """A stand-in network: one box per white card in the window it is given, scored 0.9."""

    def __init__(self) -> None:
        self.windows: list[tuple[int, int]] = []

    def __call__(self, window: np.ndarray) -> RawBoxes:
        self.windows.append(window.shape[2:])
        white = (window[0, 0] > 0.9).astype(np.uint8)
        contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxes = [cv2.boundingRect(c) for c in contours]
        xywhr = np.array([[x + w / 2, y + h / 2, w, h, 0.0] for x, y, w, h in boxes],
                         np.float64).reshape(-1, 5)
        n = len(xywhr)
        return RawBoxes(xywhr, np.full(n, 0.9), np.zeros(n, np.int64), np.full((n, 2), 0.45))


def centres(boxes: RawBoxes) -> list[tuple[int, int]]:
    return sorted((round(x), round(y)) for x, y in boxes.xywhr[:, :2])


def test_an_unchanged_look_runs_no_network_and_keeps_the_boxes() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes()
    first = region.boxes(blob_with([(100, 100), (500, 300)]), net)
    again = region.boxes(blob_with([(100, 100), (500, 300)]), net)
    assert net.windows == [(H, W)]
    assert centres(again) == centres(first) == [(100, 100), (500, 300)]
    assert (region.stats.whole, region.stats.unchanged) == (1, 1)


def test_a_card_laid_is_found_in_a_window_and_the_others_are_carried_over() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes()
    region.boxes(blob_with([(100, 100), (500, 300)]), net)
    boxes = region.boxes(blob_with([(100, 100), (500, 300), (320, 200)]), net)
    assert centres(boxes) == [(100, 100), (320, 200), (500, 300)]
    window = net.windows[-1]
    assert window[0] * window[1] < 0.5 * H * W  # not the whole input
    assert window[0] % 32 == window[1] % 32 == 0  # the model's stride
    assert region.stats.window == 1


def test_a_card_taken_away_leaves_no_box_behind() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes()
    region.boxes(blob_with([(100, 100), (500, 300)]), net)
    assert centres(region.boxes(blob_with([(100, 100)]), net)) == [(100, 100)]


def test_a_change_over_most_of_the_table_runs_the_whole_input() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes()
    region.boxes(blob_with([(100, 100)]), net)
    moved = blob_with([(60, 60), (600, 340)])
    moved[0, :, 100:300, 100:540] = 0.6  # a hand over the middle
    region.boxes(moved, net)
    assert net.windows == [(H, W), (H, W)]
    assert region.stats.whole == 2


def test_every_refresh_every_th_look_and_a_new_size_run_the_whole_input() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes(refresh_every=3)
    cards = [(100, 100)]
    for x in (200, 300, 400, 500):
        cards.append((x, 300))
        region.boxes(blob_with(cards), net)
    assert [w == (H, W) for w in net.windows] == [True, False, False, True]
    region.boxes(blob_with([(100, 100)], size=(352, 640)), net)
    assert net.windows[-1] == (352, 640)


def test_reset_forgets_the_last_look() -> None:
    net, region = CountingNetwork(), ChangedRegionBoxes()
    region.boxes(blob_with([(100, 100)]), net)
    region.reset()
    region.boxes(blob_with([(100, 100)]), net)
    assert net.windows == [(H, W), (H, W)]


@pytest.mark.skipif(not model_exists("detector"), reason="photo detector not installed")
def test_a_fixed_size_model_cannot_look_at_part_of_a_frame() -> None:
    from vision.detect.onnx_detector import CardDetector

    with pytest.raises(ValueError, match="fixed input size"):
        CardDetector(model_path("detector"), axis=False, changed_region=True)


@pytest.mark.skipif(not model_exists("detector_video"), reason="video detector not installed")
@pytest.mark.parametrize("seed", [4_242, 4_243])
def test_the_video_detector_finds_the_cards_looking_only_where_a_card_was_laid(seed: int) -> None:
    from vision.detect.axis import AxisClassifier
    from vision.detect.onnx_detector import CardDetector
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("bridge", "end", seed, image_size=(1280, 720))
    # the frame before the last card of a row was laid: cloth where it lies
    cards = scene.truth["cards"]
    last = max((c for c in cards if c["visible_fraction"] == 1.0), key=lambda c: c["z"])
    before = scene.image.copy()
    cloth = np.median(scene.image[:40, :40].reshape(-1, 3), axis=0)
    cv2.fillPoly(before, [np.round(last["quad"]).astype(np.int32)], cloth.tolist())

    def detector(region: bool) -> CardDetector:
        return CardDetector(model_path("detector_video"), axis=AxisClassifier(mirror_below=0.0),
                            fragment_ratio=0.6, ghost_check=True, split_straddles=False,
                            changed_region=region)

    looking = detector(True)
    looking.detect(before)
    found = looking.detect(scene.image)
    assert looking.changed_region is not None and looking.changed_region.stats.window == 1
    reference = detector(False).detect(scene.image)

    def cards_found(detections: object) -> set[int]:
        """The true cards with a box centred within half a card's width of theirs."""
        centres = np.array([np.mean(c["quad"], axis=0) for c in cards])
        width = np.array([np.linalg.norm(np.subtract(c["quad"][1], c["quad"][0])) for c in cards])
        boxes = detections.quads.mean(axis=1)  # type: ignore[attr-defined]
        gap = np.linalg.norm(centres[:, None] - boxes[None], axis=2).min(axis=1)
        return set(np.flatnonzero(gap < 0.5 * width).tolist())

    assert last["id"] in cards_found(found)
    assert len(cards_found(found)) >= len(cards_found(reference)) - 1


@pytest.mark.skipif(not model_exists("detector_video"), reason="video detector not installed")
def test_an_unchanged_frame_gives_the_last_looks_cards_again() -> None:
    from vision.detect.onnx_detector import CardDetector
    from vision.synth.scene import render_game_scene

    scene = render_game_scene("preferans", "end", 4_244, image_size=(1280, 720))
    detector = CardDetector(model_path("detector_video"), changed_region=True)
    first = detector.detect(scene.image)
    assert not detector.unchanged and len(first) > 10
    noisy = cv2.add(scene.image, np.full_like(scene.image, 2))  # more light, no square
    assert detector.detect(noisy) is first and detector.unchanged
    changed = scene.image.copy()
    changed[300:420, 560:720] = (40, 120, 40)  # a hand over the middle
    assert detector.detect(changed) is not first and not detector.unchanged
