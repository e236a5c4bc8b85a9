"""Detection limited to the part of a fixed camera's frame that changed since the last look.

A camera over a table sees the same rows look after look; what changes between two looks is
a card laid, a card turned, a hand gone. :class:`ChangedRegionBoxes` keeps the detector's
decoded boxes (before suppression) of the last look and, for the next one, runs the network
only on a window of the input around the cells that changed, plus enough of the picture
around them for the network to see whole cards. The boxes whose centre lies near the change
are taken from the window; all others are carried over. A look at a frame where most of the
table changed, every ``refresh_every``-th look, and a change of input size run on the whole
input, so a box carried over is never older than that.

A look where no square changed runs nothing: the detector then gives its last look's cards
again, and the photo pipeline its last reading (:meth:`vision.pipeline.PhotoAnalyzer.read`).
Photos have no previous look: only the video path uses this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detect.obb import RawBoxes

#: The network on an input window, decoded: (1, 3, h, w) float32 -> boxes in window pixels.
RunNetwork = Callable[[np.ndarray], RawBoxes]


@dataclass
class RegionStats:
    """How the looks were run (for benchmarks and tests)."""

    whole: int = 0  # the network on the whole input
    window: int = 0  # on a window around the change
    unchanged: int = 0  # nothing changed: every box carried over
    window_share: float = 0.0  # sum of the windows' share of the input


@dataclass
class ChangedRegionBoxes:
    """The decoded boxes of one look after another, the network run only where the picture
    changed. Sizes are in network-input pixels.

    ``cell`` is the side of the squares compared between looks, ``threshold`` the mean grey
    change (0..1) of a square that counts as changed; boxes centred within ``trust_margin`` of
    the changed squares come from the window, which reaches ``context`` further (cut to the
    model's ``stride``). A window over more than ``max_share`` of the input runs the whole.
    """

    stride: int = 32
    cell: int = 8
    threshold: float = 12.0 / 255.0
    trust_margin: int = 48
    context: int = 64
    max_share: float = 0.5
    refresh_every: int = 8
    stats: RegionStats = field(default_factory=RegionStats)

    def __post_init__(self) -> None:
        if self.cell < 1 or self.stride < 1 or self.refresh_every < 1:
            raise ValueError("cell, stride and refresh_every must be >= 1")
        if not 0.0 < self.max_share <= 1.0:
            raise ValueError(f"max_share must be in (0, 1], got {self.max_share}")
        self.reset()

    def reset(self) -> None:
        """Forget the last look (a new source, or a camera that moved)."""
        self._cells: np.ndarray | None = None
        self._boxes: RawBoxes | None = None
        self._looks_since_whole = 0
        #: whether the last look found nothing changed since the look before it
        self.unchanged = False

    def boxes(self, blob: np.ndarray, run: RunNetwork) -> RawBoxes:
        """The boxes of ``blob`` (1, 3, H, W), running ``run`` on as little of it as serves."""
        cells = self._grey_cells(blob)
        last = self._cells
        if (last is None or self._boxes is None or last.shape != cells.shape
                or self._looks_since_whole + 1 >= self.refresh_every):
            return self._whole(blob, cells, run)
        changed = np.abs(cells - last) > self.threshold
        if not changed.any():
            self.stats.unchanged += 1
            self.unchanged = True
            self._looks_since_whole += 1
            return self._boxes
        height, width = blob.shape[2:]
        ys, xs = np.nonzero(changed)
        trust = (max(0, int(xs.min()) * self.cell - self.trust_margin),
                 max(0, int(ys.min()) * self.cell - self.trust_margin),
                 min(width, (int(xs.max()) + 1) * self.cell + self.trust_margin),
                 min(height, (int(ys.max()) + 1) * self.cell + self.trust_margin))
        x0, x1 = self._window(trust[0], trust[2], width)
        y0, y1 = self._window(trust[1], trust[3], height)
        share = (x1 - x0) * (y1 - y0) / float(width * height)
        if share > self.max_share:
            return self._whole(blob, cells, run)
        found = run(np.ascontiguousarray(blob[:, :, y0:y1, x0:x1]))
        new_xywhr = found.xywhr.copy()
        new_xywhr[:, 0] += x0
        new_xywhr[:, 1] += y0
        old = self._boxes
        new_inside = _centres_in(new_xywhr, trust)
        old_outside = ~_centres_in(old.xywhr, trust)
        merged = RawBoxes(
            xywhr=np.concatenate([old.xywhr[old_outside], new_xywhr[new_inside]]),
            score=np.concatenate([old.score[old_outside], found.score[new_inside]]),
            class_id=np.concatenate([old.class_id[old_outside], found.class_id[new_inside]]),
            class_scores=np.concatenate([old.class_scores[old_outside],
                                         found.class_scores[new_inside]]),
        )
        self._boxes, self._cells = merged, cells
        self._looks_since_whole += 1
        self.stats.window += 1
        self.stats.window_share += share
        self.unchanged = False
        return merged

    def _whole(self, blob: np.ndarray, cells: np.ndarray, run: RunNetwork) -> RawBoxes:
        self._boxes = run(blob)
        self._cells = cells
        self._looks_since_whole = 0
        self.stats.whole += 1
        self.unchanged = False
        return self._boxes

    def _window(self, lo: int, hi: int, size: int) -> tuple[int, int]:
        """``lo..hi`` widened by the context and out to the stride, inside ``0..size``."""
        lo = max(0, (lo - self.context) // self.stride * self.stride)
        hi = min(size, -(-(hi + self.context) // self.stride) * self.stride)
        return lo, hi

    def _grey_cells(self, blob: np.ndarray) -> np.ndarray:
        """The input's grey level averaged over ``cell`` x ``cell`` squares."""
        grey = blob[0].mean(axis=0)
        h, w = grey.shape
        return cv2.resize(grey, (max(1, w // self.cell), max(1, h // self.cell)),
                          interpolation=cv2.INTER_AREA)


def _centres_in(xywhr: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    x, y = xywhr[:, 0], xywhr[:, 1]
    return (x >= rect[0]) & (x < rect[2]) & (y >= rect[1]) & (y < rect[3])
