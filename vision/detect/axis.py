"""Second look at every detected card: which way does its long side run?

The oriented-box detector finds cards reliably but, for a card half covered by the next one
of its row, often cannot tell whether the hidden part continues along the row (the card lies
long side to the player: lost) or the visible strip already is the card's length (short side
to the player: won) - it then draws the box turned by 90 degrees. That one bit decides the
trick, so a small classifier looks again at a crop around each candidate box, aligned with the
box and scaled by its long side, and answers: long axis along the box's ``w`` side, along its
``h`` side, or no card here at all. The box is then rebuilt with the long side where the
classifier says (same centre and size) and the duplicates that the first look left are
suppressed.

Crops are made here and only here, for training (``scripts/train_axis.py``) and inference
alike, so both see exactly the same pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import TrickvisionError
from vision.models import SplitBatchSession
from vision.models import model_path as find_model

#: Crop side in pixels and the window it covers, in units of the box's long side.
CROP_SIZE = 48
WINDOW = 1.6
#: Classifier outputs.
ALONG_W, ALONG_H, NO_CARD = 0, 1, 2
CLASS_NAMES = ("along_w", "along_h", "no_card")
#: The box head predicts (dx, dy, log long, log short) times these: dx, dy are the true card
#: centre's offset along the crop's x and y in crop widths, the logs are of the true sides
#: over the candidate box's long side.
BOX_SCALE = np.array([10.0, 10.0, 5.0, 5.0])
#: A box the classifier is unsure of - certainty below this, or a card-or-not probability
#: between :data:`UNSURE_CARD` - is looked at again in its crop mirrored across each axis,
#: and the three readings (class probabilities and box head) are averaged. A fifth to a
#: third of the candidates; on held-out photos more totals came out exact, above all on hard
#: scenes (``models/card_axis.md``).
MIRROR_BELOW = 0.9
UNSURE_CARD = (0.2, 0.8)


def encode_targets(
    box: np.ndarray, centre: np.ndarray, long_side: float, short_side: float
) -> np.ndarray:
    """The box head's training target for one candidate ``box`` (cx, cy, w, h, angle) and
    the true card (centre, sides)."""
    cx, cy, w, h, angle = np.asarray(box, dtype=np.float64)
    base = max(w, h, 1.0)
    window = WINDOW * base
    d = np.asarray(centre, dtype=np.float64) - (cx, cy)
    e_w = np.array([np.cos(angle), np.sin(angle)])
    e_h = np.array([-np.sin(angle), np.cos(angle)])
    raw = np.array(
        [d @ e_w / window, d @ e_h / window, np.log(long_side / base), np.log(short_side / base)]
    )
    return raw * BOX_SCALE


def decode_boxes(xywhr: np.ndarray, box_out: np.ndarray, along_h: np.ndarray) -> np.ndarray:
    """Candidate boxes moved and resized by the box head, long side (``w``) running where
    the classifier says."""
    boxes = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5)
    raw = np.asarray(box_out, dtype=np.float64).reshape(-1, 4) / BOX_SCALE
    base = np.maximum(np.maximum(boxes[:, 2], boxes[:, 3]), 1.0)
    window = WINDOW * base
    cos, sin = np.cos(boxes[:, 4]), np.sin(boxes[:, 4])
    dx, dy = raw[:, 0] * window, raw[:, 1] * window
    cx = boxes[:, 0] + dx * cos - dy * sin
    cy = boxes[:, 1] + dx * sin + dy * cos
    long_side = base * np.exp(np.clip(raw[:, 2], -1.0, 1.0))
    short_side = np.minimum(base * np.exp(np.clip(raw[:, 3], -1.5, 1.0)), long_side)
    angle = boxes[:, 4] + np.where(along_h, np.pi / 2, 0.0)
    angle = np.mod(angle + np.pi / 2, np.pi) - np.pi / 2
    return np.column_stack([cx, cy, long_side, short_side, angle])


class _Pyramid:
    """The image at halving resolutions, built on demand (crops sample the nearest level so a
    large card is averaged down rather than aliased)."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k:
            prev = self.levels[-1]
            if min(prev.shape[:2]) < 16:
                break
            self.levels.append(cv2.pyrDown(prev))
        return self.levels[min(k, len(self.levels) - 1)]


def axis_crops(
    image: np.ndarray, xywhr: np.ndarray, size: int = CROP_SIZE, window: float = WINDOW
) -> np.ndarray:
    """(N, size, size, 3) uint8 crops: crop x runs along each box's ``w`` side, crop y along
    ``h``; the crop covers ``window`` times the box's long side around its centre."""
    boxes = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    out = np.empty((len(boxes), size, size, 3), dtype=np.uint8)
    pyramid = _Pyramid(image)
    # image pixels per crop pixel, and the pyramid level that is about that coarse
    step = np.maximum(window * np.maximum(np.maximum(boxes[:, 2], boxes[:, 3]), 1.0) / size, 1e-3)
    levels = np.clip(np.floor(np.log2(np.maximum(step, 1.0))), 0, 4).astype(int)
    grid = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    u, v = grid[None, None, :], grid[None, :, None]
    # One remap per pyramid level for all its crops (stacked): crop (u, v) -> level (x, y) =
    # centre + step * (u * e_w + v * e_h), bilinear, grey outside the image.
    for k in np.unique(levels):
        for idx in np.array_split(np.flatnonzero(levels == k), -(-np.sum(levels == k) // 256)):
            _remap_into(out, idx, pyramid.level(int(k)), image.shape[1], boxes, step, u, v, size)
    return out


def _remap_into(out: np.ndarray, idx: np.ndarray, level: np.ndarray, full_width: int,
                boxes: np.ndarray, step: np.ndarray, u: np.ndarray, v: np.ndarray,
                size: int) -> None:
    """Cut the crops ``idx`` (at most a few hundred: one stacked map) from one level."""
    f = full_width / level.shape[1]
    s = (step[idx] / f)[:, None, None]
    cos = np.cos(boxes[idx, 4])[:, None, None]
    sin = np.sin(boxes[idx, 4])[:, None, None]
    cx = ((boxes[idx, 0] + 0.5) / f - 0.5)[:, None, None]
    cy = ((boxes[idx, 1] + 0.5) / f - 0.5)[:, None, None]
    # the same float64 arithmetic as cx + s * (cos * u - sin * v), in one buffer
    work = np.empty((len(idx), size, size))
    maps = []
    for centre, combine, first, second in ((cx, np.subtract, cos, sin), (cy, np.add, sin, cos)):
        combine(first * u, second * v, out=work)
        work *= s
        work += centre
        maps.append(work.reshape(-1, size).astype(np.float32))
    map_x, map_y = maps
    stacked = cv2.remap(
        level, map_x, map_y, cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=(114, 114, 114),
    )
    out[idx] = stacked.reshape(len(idx), size, size, 3)


def crops_to_blob(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) BGR uint8 -> (N, 3, S, S) RGB float32 in [0, 1]."""
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


@dataclass(frozen=True)
class AxisResult:
    """Per box: ``p_card`` (a card is here), ``along_h`` (the long side runs along h),
    ``certainty`` in [0, 1] (0: either way, 1: sure) and ``boxes``, the candidate boxes
    rebuilt from the box head (centre, sides) with the long side as ``w``."""

    p_card: np.ndarray
    along_h: np.ndarray
    certainty: np.ndarray
    boxes: np.ndarray


class AxisClassifier:
    """The ONNX crop classifier (``models/card_axis.onnx``)."""

    def __init__(self, model_path: str | Path | None = None, *, threads: int | None = None,
                 mirror_below: float = MIRROR_BELOW) -> None:
        """``mirror_below``: certainty under which a box is read again from mirrored crops
        (0: never)."""
        path = Path(model_path) if model_path is not None else find_model("card_axis")
        if not path.is_file():
            raise TrickvisionError(f"card axis model not found: {path}")
        self.session = SplitBatchSession(path, threads)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else CROP_SIZE
        self.path = path
        self.mirror_below = float(mirror_below)

    def run(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 3) softmax over along_w / along_h / no_card and (N, 4) box-head output."""
        if len(crops) == 0:
            return np.zeros((0, 3)), np.zeros((0, 4))
        logits, box = self.session.run(None, {self.input_name: crops_to_blob(crops)})[:2]
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float64), box.astype(np.float64)

    def run_mirrored(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`run`, with the unsure crops' readings averaged with those of the crop
        mirrored left-right and top-bottom (:data:`MIRROR_BELOW`, :data:`UNSURE_CARD`). A
        mirror keeps the long side's direction and whether a card is there, and flips the
        centre offset along the mirrored axis. The average may lower P(card), never raise it."""
        p, box = self.run(crops)
        if self.mirror_below <= 0 or len(crops) == 0:
            return p, box
        card = p[:, ALONG_W] + p[:, ALONG_H]
        certainty = np.abs(p[:, ALONG_W] - p[:, ALONG_H]) / np.maximum(card, 1e-9)
        unsure = np.flatnonzero((certainty < self.mirror_below)
                                | ((card > UNSURE_CARD[0]) & (card < UNSURE_CARD[1])))
        if not len(unsure):
            return p, box
        picked = crops[unsure]
        # left-right and top-bottom mirrors in one batch
        p_m, box_m = self.run(np.concatenate([picked[:, :, ::-1], picked[:, ::-1]]))
        (p_x, p_y), (box_x, box_y) = np.split(p_m, 2), np.split(box_m, 2)
        box_x[:, 0] *= -1.0
        box_y[:, 1] *= -1.0
        mean = (p[unsure] + p_x + p_y) / 3.0
        # the mirrors may make a box less of a card, never more: a ghost box the first look
        # doubted stays doubted (it grew a committed sample's row by a card)
        before = p[unsure, ALONG_W] + p[unsure, ALONG_H]
        after = mean[:, ALONG_W] + mean[:, ALONG_H]
        grew = after > before
        mean[grew, :NO_CARD] *= (before[grew] / after[grew])[:, None]
        mean[grew, NO_CARD] = 1.0 - before[grew]
        p[unsure] = mean
        box[unsure] = (box[unsure] + box_x + box_y) / 3.0
        return p, box

    def classify(self, image: np.ndarray, xywhr: np.ndarray) -> AxisResult:
        xywhr = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5)
        p, box = self.run_mirrored(axis_crops(image, xywhr, self.size))
        card = p[:, ALONG_W] + p[:, ALONG_H]
        along_h = p[:, ALONG_H] > p[:, ALONG_W]
        share = np.maximum(p[:, ALONG_W], p[:, ALONG_H]) / np.maximum(card, 1e-9)
        return AxisResult(
            p_card=card,
            along_h=along_h,
            certainty=np.clip(2 * share - 1, 0, 1),
            boxes=decode_boxes(xywhr, box, along_h),
        )
