"""The card detector: an oriented-box ONNX model run with onnxruntime.

``CardDetector().detect(image)`` returns every card in a BGR photo as :class:`Detections` in
image pixels - the full card rectangle, also where the next card of a row covers it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.detect.axis import AxisClassifier
from vision.detect.changed_region import ChangedRegionBoxes
from vision.detect.detections import Detections, xywhr_to_quads
from vision.detect.obb import (
    Letterbox,
    RawBoxes,
    centre_suppression,
    decode,
    fragment_suppression,
    letterbox_blob,
    rotated_nms,
    split_straddlers,
)
from vision.detect.support import cloth_ghosts
from vision.errors import TrickvisionError
from vision.models import cpu_session, model_exists
from vision.models import model_path as find_model


class CardDetector:
    """Finds cards (classes card_down / card_up) in one image.

    ``conf`` is the lowest class score kept, ``iou`` the overlap (probiou) above which the
    weaker of two boxes is dropped, ``imgsz`` the input's long side (default: the model's). A
    model exported with dynamic height and width gets each image at its own aspect, padded
    only to a multiple of the stride (:func:`vision.detect.obb.letterbox`); a fixed-size one
    gets it padded to a square.
    ``axis`` is the second look at each box (:mod:`vision.detect.axis`): ``None`` uses the
    shipped ``card_axis`` model when it is installed, ``False`` trusts the detector's boxes.
    With it, the detector's boxes are first thinned only loosely (``candidate_iou``) - a box
    turned by 90 degrees overlaps its neighbours and would otherwise suppress them - then
    turned, filtered (``min_card``) and thinned again. A box of at most ``fragment_ratio`` of
    another's area lying inside it is a partial second look at that card and is dropped
    (``0`` keeps such boxes). ``ghost_check`` drops boxes whose uncovered part shows the
    cloth around them rather than a card (:func:`vision.detect.support.cloth_ghosts`).
    ``split_straddles`` gives back the two cards of a tight row that a box lying between them
    suppressed (:func:`vision.detect.obb.split_straddlers`; with the second look only).
    ``changed_region`` (a fixed camera's looks, with a model that takes any input size) runs
    the network only where the picture changed since the last look
    (:class:`vision.detect.changed_region.ChangedRegionBoxes`, kept in ``changed_region``);
    a look that finds nothing changed gives the last look's detections again (``unchanged``).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        conf: float = 0.25,
        iou: float = 0.65,
        imgsz: int | None = None,
        threads: int | None = None,
        max_det: int = 300,
        axis: AxisClassifier | bool | None = None,
        candidate_iou: float = 0.8,
        min_card: float = 0.5,
        fragment_ratio: float = 0.0,
        ghost_check: bool = False,
        split_straddles: bool = True,
        spin: bool = True,
        changed_region: bool = False,
    ) -> None:
        if not 0.0 < conf < 1.0:
            raise ValueError(f"conf must be in (0, 1), got {conf}")
        if not 0.0 < iou <= 1.0:
            raise ValueError(f"iou must be in (0, 1], got {iou}")
        path = Path(model_path) if model_path is not None else find_model("detector")
        if not path.is_file():
            raise TrickvisionError(f"detector model not found: {path}")
        self.session = cpu_session(path, threads, spin=spin)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        meta = self.session.get_modelmeta().custom_metadata_map
        model_size = inp.shape[2] if isinstance(inp.shape[2], int) else None
        if model_size is None and "imgsz" in meta:
            model_size = int(ast.literal_eval(meta["imgsz"])[0])
        self.imgsz = int(imgsz or model_size or 640)
        dynamic = not isinstance(inp.shape[2], int) and not isinstance(inp.shape[3], int)
        self.stride: int | None = int(meta.get("stride", 32)) if dynamic else None
        if model_size is not None and imgsz is not None and imgsz != model_size:
            raise ValueError(f"this model takes {model_size} px input; imgsz={imgsz} given")
        default_names = {0: "card_down", 1: "card_up"}
        names = ast.literal_eval(meta["names"]) if "names" in meta else default_names
        self.class_names = [names[k] for k in sorted(names)]
        self.num_classes = len(self.class_names)
        self.conf = conf
        self.iou = iou
        self.max_det = max_det
        self.path = path
        if axis is None:
            axis = AxisClassifier(threads=threads) if model_exists("card_axis") else None
        elif axis is True:
            axis = AxisClassifier(threads=threads)
        self.axis: AxisClassifier | None = axis or None
        self.candidate_iou = candidate_iou
        self.min_card = min_card
        if not 0.0 <= fragment_ratio < 1.0:
            raise ValueError(f"fragment_ratio must be in [0, 1), got {fragment_ratio}")
        self.fragment_ratio = fragment_ratio
        self.ghost_check = ghost_check
        self.split_straddles = split_straddles
        if changed_region and self.stride is None:
            raise ValueError(f"{path.name} takes a fixed input size: it cannot be run on the "
                             "changed part of a frame alone (changed_region)")
        self.changed_region = (ChangedRegionBoxes(stride=self.stride)
                               if changed_region and self.stride is not None else None)
        self._last_found: Detections | None = None

    def infer(self, blob: np.ndarray) -> np.ndarray:
        """The bare network: (1, 3, H, W) float32 -> raw output."""
        return self.session.run(None, {self.input_name: blob})[0]

    def prepare(self, image: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        """The network input for a BGR image, and how the image was fitted into it."""
        return letterbox_blob(image, self.imgsz, self.stride)

    def _decoded(self, blob: np.ndarray) -> RawBoxes:
        """The network's boxes above ``conf``, before any suppression."""
        return decode(self.infer(blob), self.num_classes, self.conf)

    def candidates(self, image: np.ndarray, iou: float) -> tuple[RawBoxes, Letterbox]:
        """Boxes above ``conf`` after rotated NMS at ``iou``, in network-input pixels."""
        blob, box = self.prepare(image)
        if self.changed_region is not None:
            raw = self.changed_region.boxes(blob, self._decoded)
        else:
            raw = self._decoded(blob)
        if len(raw.score):
            keep = rotated_nms(raw.xywhr, raw.score, iou, self.max_det)
            raw = RawBoxes(
                raw.xywhr[keep], raw.score[keep], raw.class_id[keep], raw.class_scores[keep]
            )
        return raw, box

    def detect(self, image: np.ndarray,
               on_candidates: Callable[[RawBoxes], None] | None = None) -> Detections:
        """All cards in a BGR (or greyscale) uint8 image, in image pixels.

        ``on_candidates`` is called with the network's boxes as soon as they are known, before
        the second look and the final suppression: a caller may start work they call for (the
        full-size decode when face-up cards are among them) beside the rest of the detection.
        """
        image = _as_bgr(image)
        raw, box = self.candidates(image, self.iou if self.axis is None else self.candidate_iou)
        if on_candidates is not None:
            on_candidates(raw)
        if self.unchanged and self._last_found is not None:
            return self._last_found  # nothing changed since the last look: its cards
        found = self._cards(image, raw, box)
        if self.changed_region is not None:
            self._last_found = found
        return found

    @property
    def unchanged(self) -> bool:
        """Whether the last :meth:`detect` saw nothing change since the look before it (only
        with ``changed_region``); it then gave that look's detections again, the same object."""
        return self.changed_region is not None and self.changed_region.unchanged

    def _cards(self, image: np.ndarray, raw: RawBoxes, box: Letterbox) -> Detections:
        """The network's boxes turned into cards: the second look, suppression, filters."""
        if len(raw.score) == 0:
            return Detections.empty()
        if self.axis is None:
            keep = centre_suppression(raw.xywhr, raw.score)
            if self.fragment_ratio:
                keep = keep[fragment_suppression(raw.xywhr[keep], self.fragment_ratio)]
            xywhr, score = box.xywhr_to_image(raw.xywhr[keep]), raw.score[keep]
            data = {"class_scores": raw.class_scores[keep]}
            class_id = raw.class_id[keep]
        else:
            xywhr = box.xywhr_to_image(raw.xywhr)
            look = self.axis.classify(image, xywhr)
            score = np.sqrt(raw.score * look.p_card)
            xywhr = look.boxes
            idx = np.flatnonzero(look.p_card >= self.min_card)
            kept = rotated_nms(xywhr[idx], score[idx], self.iou, self.max_det)
            if self.split_straddles:
                kept = split_straddlers(xywhr[idx], score[idx], kept, self.iou)
            idx = idx[kept]
            idx = idx[centre_suppression(xywhr[idx], score[idx])]
            if self.fragment_ratio:
                idx = idx[fragment_suppression(xywhr[idx], self.fragment_ratio)]
            xywhr, score, class_id = xywhr[idx], score[idx], raw.class_id[idx]
            data = {
                "class_scores": raw.class_scores[idx],
                "axis_certainty": look.certainty[idx],
            }
        quads = xywhr_to_quads(xywhr)
        h, w = image.shape[:2]
        quads[..., 0] = np.clip(quads[..., 0], -0.5 * w, 1.5 * w)
        quads[..., 1] = np.clip(quads[..., 1], -0.5 * h, 1.5 * h)
        found = Detections(quads, score, class_id, data)
        if self.ghost_check and len(found):
            real = ~cloth_ghosts(image, found.quads, found.face_up, found.confidence)
            found = found[np.flatnonzero(real)]
        return found


def _as_bgr(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image)
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise TrickvisionError(f"expected a colour or greyscale image, got shape {image.shape}")
    if image.shape[2] == 4:
        image = image[:, :, :3]
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.shape[0] < 8 or image.shape[1] < 8:
        raise TrickvisionError(f"image too small to hold cards: {image.shape[1]}x{image.shape[0]}")
    return np.ascontiguousarray(image)
