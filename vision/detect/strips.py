"""Third look, along each row: how many cards lie in it, where, and which way.

The detector and the second look (:mod:`vision.detect.axis`) judge every card on its own. In a
tight row that is where the totals go wrong: a card seen twice (a second box 0.2-0.5 of a
card's width beside a real one) or a card hidden under its neighbours changes the row's length,
and every later trick of the row moves with it. A box's own crop cannot tell a phantom from a
card lying close to its neighbour; the row as a whole can - its cards' edges follow one another
at the rhythm of the laying.

So the row reader's rows are cut out of the photo one by one as **strips** along the row's
line, at a fixed scale (a card's long side :data:`LONG_SIDE_PX` pixels, the strip
:data:`STRIP_HEIGHT` high), and a small network (``models/row_strip.onnx``, trained by
``scripts/train_row_strip.py`` on the renderer's rows) marks along each strip where a card's
centre lies, and whether that card lies across the row (won) or along it (lost).

Strips are cut here and only here, for training and inference alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.errors import TrickvisionError
from vision.models import cpu_session
from vision.models import model_path as find_model
from vision.table.rows import ROW_LINE_MAX_TURN, ROW_LINE_MIN_CARDS, measure

#: Strip height and a card's long side in strip pixels: a card lying across the row fills
#: two thirds of the height, with room for sloppy laying.
STRIP_HEIGHT = 60
LONG_SIDE_PX = 40.0
#: The strip reaches this many long sides beyond the first and last card's centre, far enough
#: to hold a card the row reader missed at either end.
MARGIN = 0.9
#: One output cell per this many strip pixels.
STRIDE = 2
#: Strips wider than this (a row spread over more than ~16 card lengths) are cut short.
MAX_WIDTH = 1024
#: A cell is a card's centre where the network's score peaks above this...
PEAK_SCORE = 0.4
#: ... and no higher score lies within this many cells (0.15 of a long side)...
PEAK_RADIUS = 3
#: A lower peak that close is still a card's centre of its own when the score between the
#: two dips this far below it (a card laid a sixth of a card beside the next, as in the demo
#: photo's North row); such a close peak only confirms a box the detector found
#: (:mod:`vision.table.recount`), never adds a card.
PEAK_DIP = 0.3


@dataclass(frozen=True)
class StripFrame:
    """Where a strip lies in the image: strip x runs from ``origin`` along ``direction``
    (first card toward last), strip y across it, ``scale`` strip pixels per image pixel."""

    origin: np.ndarray
    direction: np.ndarray
    scale: float
    length: float  # image pixels

    @property
    def normal(self) -> np.ndarray:
        return np.array([-self.direction[1], self.direction[0]])

    @property
    def width(self) -> int:
        return int(min(MAX_WIDTH, np.ceil(self.length * self.scale / 8.0) * 8))

    def to_strip(self, points: np.ndarray) -> np.ndarray:
        """Strip x of image points (..., 2)."""
        return (np.asarray(points, dtype=np.float64) - self.origin) @ self.direction * self.scale

    def to_image(self, x: np.ndarray) -> np.ndarray:
        """Image points on the strip's middle line at strip x."""
        x = np.asarray(x, dtype=np.float64).reshape(-1, 1)
        return self.origin + x / self.scale * self.direction


def strip_frame(quads: np.ndarray, rng: np.random.Generator | None = None,
                direction: np.ndarray | None = None) -> StripFrame:
    """The strip along a row whose cards' corners are ``quads`` (N, 4, 2), in laying order.

    The line is the best fit through the cards' centres, the scale their median long side.
    With ``direction`` (image px, the row's way across the picture) given, the strip runs
    that way unless the row has a line of its own as the row reader takes one
    (:data:`~vision.table.rows.ROW_LINE_MIN_CARDS` cards, within
    :data:`~vision.table.rows.ROW_LINE_MAX_TURN` degrees of it): one card has no line, and
    two laid half over each other often lie more across than along. The strip's "across"
    is read against its line, so an East or West card cut along x would read won for lost.
    Without ``direction`` (training), the fit from two cards on, else the picture's x axis.
    ``rng`` (training only) moves, turns, scales and stretches the strip a little, as a row
    reader's rows of misplaced or missing boxes would.
    """
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    if len(q) == 0:
        raise ValueError("a strip needs at least one card")
    cards = measure(q)
    centres = cards.centers
    long_side = float(np.median(cards.long_len))
    given = None if direction is None else np.asarray(direction, dtype=np.float64).reshape(2)
    if given is not None and np.linalg.norm(given) > 0:
        direction = given / np.linalg.norm(given)
    else:
        direction = np.array([1.0, 0.0])
    if len(q) >= (2 if given is None else ROW_LINE_MIN_CARDS):
        spread = centres - centres.mean(axis=0)
        fitted = np.linalg.svd(spread, full_matrices=False)[2][0]
        if (centres[-1] - centres[0]) @ fitted < 0:
            fitted = -fitted
        if given is None or abs(float(fitted @ direction)) >= np.cos(np.radians(ROW_LINE_MAX_TURN)):
            direction = fitted
    mid = centres.mean(axis=0)
    along = (centres - mid) @ direction
    lo, hi = along.min() - MARGIN * long_side, along.max() + MARGIN * long_side
    scale = LONG_SIDE_PX / max(long_side, 1.0)
    if rng is not None:
        turn = np.radians(rng.normal(0.0, 2.0))
        c, s = np.cos(turn), np.sin(turn)
        direction = np.array([c * direction[0] - s * direction[1],
                              s * direction[0] + c * direction[1]])
        mid = mid + np.array([-direction[1], direction[0]]) * rng.normal(0.0, 0.06 * long_side)
        scale *= float(np.exp(rng.normal(0.0, 0.08)))
        lo -= rng.uniform(-0.2, 0.4) * long_side
        hi += rng.uniform(-0.2, 0.4) * long_side
    return StripFrame(origin=mid + lo * direction, direction=direction, scale=float(scale),
                      length=float(hi - lo))


def cut_strip(image: np.ndarray, frame: StripFrame) -> np.ndarray:
    """The strip's pixels (STRIP_HEIGHT, width, 3), uint8 BGR like the image."""
    u, v, s = frame.direction, frame.normal, frame.scale
    top_left = frame.origin - (STRIP_HEIGHT / 2) / s * v
    # strip (x, y) -> image: top_left + x/s * u + y/s * v
    warp = np.array([[u[0] / s, v[0] / s, top_left[0]],
                     [u[1] / s, v[1] / s, top_left[1]]])
    interpolation = cv2.INTER_AREA if s < 1.0 else cv2.INTER_LINEAR
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.warpAffine(image, warp, (frame.width, STRIP_HEIGHT),
                          flags=cv2.WARP_INVERSE_MAP | interpolation,
                          borderMode=cv2.BORDER_REPLICATE)


def find_peaks(score: np.ndarray, threshold: float = PEAK_SCORE,
               radius: int = PEAK_RADIUS, dip: float | None = None) -> np.ndarray:
    """Cells where ``score`` is at least ``threshold`` and a local maximum (the first cell
    of a plateau), keeping of two such cells within ``radius`` cells of each other the
    higher - unless (``dip`` given) the score between them falls at least ``dip`` below the
    lower one: two cards laid close, not one card's ragged peak."""
    score = np.asarray(score, dtype=np.float64)
    n = len(score)
    if n == 0:
        return np.zeros(0, dtype=int)
    padded = np.pad(score, 1, constant_values=-np.inf)
    # a plateau counts once, at its first cell: higher than the cell before, not lower
    # than the one after
    local = np.flatnonzero((score >= threshold) & (score > padded[:-2]) & (score >= padded[2:]))
    kept: list[int] = []
    for i in sorted(local.tolist(), key=lambda c: (-score[c], c)):
        if all(abs(i - j) > radius
               or (dip is not None and score[min(i, j):max(i, j) + 1].min() <= score[i] - dip)
               for j in kept):
            kept.append(i)
    return np.array(sorted(kept), dtype=int)


def to_batch(strips: list[np.ndarray]) -> np.ndarray:
    """The network's input: (N, 3, STRIP_HEIGHT, W) float32 RGB in [0, 1], each strip
    padded with zeros on the right to the widest (rounded up to 8)."""
    width = int(np.ceil(max(s.shape[1] for s in strips) / 8.0) * 8)
    batch = np.zeros((len(strips), 3, STRIP_HEIGHT, width), dtype=np.float32)
    for k, strip in enumerate(strips):
        batch[k, :, :, : strip.shape[1]] = strip[:, :, ::-1].transpose(2, 0, 1)
    batch /= np.float32(255.0)  # the same values as dividing in float64
    return batch


def cell_probabilities(cells: np.ndarray, strip_width: int) -> np.ndarray:
    """One strip's network output (2, W/2) as probabilities, the cells past the strip's own
    ``strip_width`` (padding) cut off."""
    n = int(np.ceil(strip_width / STRIDE))
    return 1.0 / (1.0 + np.exp(-np.asarray(cells)[:, :n]))


def read_cells(cells: np.ndarray, strip_width: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One strip's network output (2, W/2) read: the strip x of its cards' centres, how
    sure each is a centre, and the probability that each lies across the row; the cells
    past the strip's own ``strip_width`` (padding) are not looked at."""
    prob = cell_probabilities(cells, strip_width)
    return _at(prob, find_peaks(prob[0]))


def _at(prob: np.ndarray, peaks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strip x, centre score and across-probability at the cells ``peaks``."""
    return (peaks + 0.5) * STRIDE, prob[0, peaks], prob[1, peaks]


@dataclass(frozen=True)
class RowStrip:
    """The network's reading of one row: its cards' centres along the row (image points on
    the row's line, in laying order), how sure each is a card's centre (the peak's score),
    and the probability that each lies across the row (won)."""

    frame: StripFrame
    along: np.ndarray  # strip x of each centre
    points: np.ndarray  # (K, 2) image points
    score: np.ndarray
    across: np.ndarray
    #: strip x, score and across-probability of close second peaks (:data:`PEAK_DIP`), which
    #: only confirm a box
    close_along: np.ndarray = field(default_factory=lambda: np.zeros(0))
    close_score: np.ndarray = field(default_factory=lambda: np.zeros(0))
    close_across: np.ndarray = field(default_factory=lambda: np.zeros(0))


class RowStripReader:
    """Runs ``models/row_strip.onnx`` on the strips of a photo's rows."""

    def __init__(self, model: str | Path | None = None) -> None:
        path = Path(model) if model else find_model("row_strip")
        if not path.exists():
            raise TrickvisionError(f"row-strip model not found: {path}")
        self.path = path
        self.session = cpu_session(path, 2, spin=True)
        self.input_name = self.session.get_inputs()[0].name

    def read(self, image: np.ndarray, rows: list[np.ndarray],
             directions: list[np.ndarray] | None = None) -> list[RowStrip]:
        """One reading per row; ``rows`` are each row's card corners (N, 4, 2) in laying
        order, in ``image``'s pixels; ``directions`` (optional, one per row) each row's way
        across the picture, which a row of one card needs (:func:`strip_frame`). The strips
        run as one batch, padded to the widest."""
        if not rows:
            return []
        ways = directions if directions is not None else [None] * len(rows)
        frames = [strip_frame(q, direction=d) for q, d in zip(rows, ways, strict=True)]
        strips = [cut_strip(image, f) for f in frames]
        logits = self.session.run(None, {self.input_name: to_batch(strips)})[0]
        out = []
        for frame, strip, cells in zip(frames, strips, logits, strict=True):
            prob = cell_probabilities(cells, strip.shape[1])
            peaks = find_peaks(prob[0])
            along, score, across = _at(prob, peaks)
            # the close second peaks the plain reading leaves out
            close = _at(prob, np.setdiff1d(find_peaks(prob[0], dip=PEAK_DIP), peaks))
            out.append(RowStrip(frame=frame, along=along, points=frame.to_image(along),
                                score=score, across=across, close_along=close[0],
                                close_score=close[1], close_across=close[2]))
        return out
