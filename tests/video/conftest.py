"""Rendered test videos, made once per test session (a few seconds of rendering)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from vision.synth.video import VideoFrame, VideoScript, make_script, write_video
from vision.video.sources import Frame


@dataclass
class RenderedGame:
    script: VideoScript
    frames: list[VideoFrame]
    video: Path
    truth_json: Path
    frames_truth: Path

    @property
    def truth(self) -> dict[int, list[dict]]:
        return {f.index: f.cards for f in self.frames}

    def source_frames(self) -> list[Frame]:
        return [Frame(image=f.image, t=f.t, index=f.index, pos=f.t) for f in self.frames]


def _render(tmp: Path, game: str, seed: int, stem: str) -> RenderedGame:
    # seed 4 (l'hombre): a revoke in trick 1 proven in trick 4, one card turned the wrong way
    script = make_script(game, seed, n_tricks=4, revoke=True, wrong_orientation=1,
                         image_size=(480, 270), fps=8.0)
    frames = list(script.frames())
    video = write_video(script, tmp, stem, frames=frames)
    return RenderedGame(script=script, frames=frames, video=video,
                        truth_json=tmp / f"{stem}.truth.json",
                        frames_truth=tmp / f"{stem}.frames.jsonl.gz")


@pytest.fixture(scope="session")
def lhombre_game(tmp_path_factory: pytest.TempPathFactory) -> RenderedGame:
    return _render(tmp_path_factory.mktemp("video"), "lhombre", 4, "lhombre-4")
