"""``scripts/evaluate_identity_video.py`` reads the committed sample video's lone face-up cards
with the shipped reader, and says clearly when a folder holds no video with its truth."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .script_module import REPO, load

script = load("evaluate_identity_video")


def test_the_sample_videos_lone_faces_are_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main([str(REPO / "datasets" / "samples" / "video"), "--every", "40"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"1 videos, (\d+) lone face-up cards: right (\d+)", out)
    assert m is not None, out
    cards, right = int(m.group(1)), int(m.group(2))
    assert cards >= 10 and right >= 0.9 * cards  # the sample's faces are large and sharp


def test_a_folder_without_videos_is_a_clear_error(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main([str(tmp_path)]) == 2
    assert "no video with its .frames.jsonl.gz truth" in capsys.readouterr().err
