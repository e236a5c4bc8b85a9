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
from vision.models import model_path as find_model

#: Crop side in pixels and the window it covers, in units of the box's long side.
CROP_SIZE = 48
WINDOW = 1.6
#: Classifier outputs.
ALONG_W, ALONG_H, NO_CARD = 0, 1, 2
CLASS_NAMES = ("along_w", "along_h", "no_card")


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
    for i, (cx, cy, w, h, angle) in enumerate(boxes):
        step = max(window * max(w, h, 1.0) / size, 1e-3)  # image pixels per crop pixel
        k = int(np.clip(np.floor(np.log2(max(step, 1.0))), 0, 4))
        level = pyramid.level(k)
        f = image.shape[1] / level.shape[1]
        step_l = step / f
        cos, sin = np.cos(angle), np.sin(angle)
        # crop (u, v) -> level (x, y): centre + step * (u - c) * e_w + step * (v - c) * e_h
        c = (size - 1) / 2.0
        ccx = (cx + 0.5) / f - 0.5
        ccy = (cy + 0.5) / f - 0.5
        m = np.array(
            [
                [step_l * cos, -step_l * sin, ccx - step_l * c * (cos - sin)],
                [step_l * sin, step_l * cos, ccy - step_l * c * (sin + cos)],
            ]
        )
        out[i] = cv2.warpAffine(
            level,
            m,
            (size, size),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(114, 114, 114),
        )
    return out


def crops_to_blob(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) BGR uint8 -> (N, 3, S, S) RGB float32 in [0, 1]."""
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


@dataclass(frozen=True)
class AxisResult:
    """Per box: ``p_card`` (a card is here), ``along_h`` (the long side runs along h) and
    ``certainty`` in [0, 1] (0: either way, 1: sure)."""

    p_card: np.ndarray
    along_h: np.ndarray
    certainty: np.ndarray


class AxisClassifier:
    """The ONNX crop classifier (``models/card_axis.onnx``)."""

    def __init__(self, model_path: str | Path | None = None, *, threads: int | None = None) -> None:
        import onnxruntime as ort

        path = Path(model_path) if model_path is not None else find_model("card_axis")
        if not path.is_file():
            raise TrickvisionError(f"card axis model not found: {path}")
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.log_severity_level = 3
        self.session = ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else CROP_SIZE
        self.path = path

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, 3) softmax over along_w / along_h / no_card."""
        if len(crops) == 0:
            return np.zeros((0, 3), dtype=np.float64)
        logits = self.session.run(None, {self.input_name: crops_to_blob(crops)})[0]
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float64)

    def classify(self, image: np.ndarray, xywhr: np.ndarray) -> AxisResult:
        p = self.probabilities(axis_crops(image, xywhr, self.size))
        card = p[:, ALONG_W] + p[:, ALONG_H]
        along_h = p[:, ALONG_H] > p[:, ALONG_W]
        share = np.maximum(p[:, ALONG_W], p[:, ALONG_H]) / np.maximum(card, 1e-9)
        return AxisResult(p_card=card, along_h=along_h, certainty=np.clip(2 * share - 1, 0, 1))


def turn_boxes(xywhr: np.ndarray, along_h: np.ndarray) -> np.ndarray:
    """Boxes rebuilt with ``w`` as the long side, running where the classifier says."""
    boxes = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5).copy()
    long_side = np.maximum(boxes[:, 2], boxes[:, 3])
    short_side = np.minimum(boxes[:, 2], boxes[:, 3])
    angle = boxes[:, 4] + np.where(along_h, np.pi / 2, 0.0)
    boxes[:, 2] = long_side
    boxes[:, 3] = short_side
    boxes[:, 4] = np.mod(angle + np.pi / 2, np.pi) - np.pi / 2
    return boxes
