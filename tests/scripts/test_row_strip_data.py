"""The row-strip training script's data step: which seeds each split is rendered from, so
that a new run's scenes never repeat an earlier run's or the evaluation's."""

from __future__ import annotations

from pathlib import Path

import pytest

from .script_module import load

strips = load("train_row_strip")


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """(split, first seed, scenes) of every split the data step asks to render."""
    import small_model_options

    calls: list[tuple[str, int, int]] = []

    def render_split(data, split, base, n, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        calls.append((split, base, n))

    monkeypatch.setattr(small_model_options, "render_split", render_split)
    return calls


def test_detected_offset_moves_only_the_detector_rows_training_scenes(
        rendered: list[tuple[str, int, int]], tmp_path: Path) -> None:
    strips.generate(tmp_path, 10, 4, 1, seed_offset=7, detected=5, detected_offset=100_000)
    seeds = {split: (base, n) for split, base, n in rendered}
    assert seeds["train"] == (strips.TRAIN_SEED + 7, 10)
    assert seeds["detected"] == (strips.DETECTED_SEED + 100_000, 5)
    # validation stays where every run measures: the runs stay comparable
    assert seeds["val"] == (strips.VAL_SEED, 4)
    assert seeds["val_detected"] == (strips.DETECTED_VAL_SEED, 4)
    # and no training scene is an evaluation scene (scripts/evaluate.py: seeds from 9e9)
    assert all(base + n < 9_000_000_000 for base, n in seeds.values())


def test_without_detected_rows_only_true_rows_are_rendered(
        rendered: list[tuple[str, int, int]], tmp_path: Path) -> None:
    strips.generate(tmp_path, 3, 2, 1)
    assert [split for split, _, _ in rendered] == ["train", "val"]


def test_camera_rows_come_from_their_own_deals_and_fill_the_detector_rows_place(
        rendered: list[tuple[str, int, int]], tmp_path: Path) -> None:
    strips.generate(tmp_path, 3, 16, 1, camera=40, frames_per_deal=8)
    seeds = {split: (base, n) for split, base, n in rendered}
    assert seeds["detected"] == (strips.CAMERA_SEED, 40)
    assert seeds["val_detected"] == (strips.CAMERA_VAL_SEED, 2)  # 16 frames' worth of deals
    # the held-out videos (scripts/evaluate_video.py) are seeds of a few thousands
    assert all(base >= strips.TRAIN_SEED for base, _ in seeds.values())


def test_a_row_found_in_a_frame_is_labelled_with_the_true_row_lying_there() -> None:
    """Matched by place: a row the reader gave the wrong seat still gets its own cards."""
    import numpy as np

    card = np.array([[0.0, 0.0], [20.0, 0.0], [20.0, 30.0], [0.0, 30.0]])
    north = np.stack([card + [10.0 * k, 0.0] for k in range(5)])
    south = north + [0.0, 200.0]
    found = north[1:4] + [2.0, 3.0]  # three of north's cards, boxes a little off
    chosen = strips._matching_true_row(found, {"S": south, "N": north})
    assert chosen is north
    assert strips._matching_true_row(found + [0.0, 100.0], {"S": south, "N": north}) is None


def test_a_frames_rows_leave_out_the_trick_in_play() -> None:
    quad = [[0, 0], [1, 0], [1, 1], [0, 1]]
    cards = [{"seat": "N", "row_position": 2, "in_current_trick": False, "quad": quad},
             {"seat": "N", "row_position": 1, "in_current_trick": False, "quad": quad},
             {"seat": "E", "row_position": None, "in_current_trick": True, "quad": quad},
             {"seat": "W", "row_position": 3, "in_current_trick": True, "quad": quad}]
    rows = strips._frame_true_rows(cards)
    assert list(rows) == ["N"] and rows["N"].shape == (2, 4, 2)
