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
