"""Corner crops cut where the photo pipeline really looks for faces, labelled from the truth.

The generated training crops (:mod:`vision.identity.synth`) show one card with its box
jittered the way the detector's boxes are off on average. In a photo the reader gets the
boxes the detector, its second look and the edge fit really give: off most along a covered
row, where a card lying on another hardly shows its edges, with the next card's index beside
the corner. This module renders scenes of the table, runs the photo pipeline up to the face
reader, and labels each of the reader's corner crops from the scene's truth by the very rule
of the generated crops (:func:`vision.identity.synth.label_crops`): the card where at least
90 % of rank and suit show, ``none`` where no index is printed, the box holds a card back, or
at most 25 % shows, and left out in between.

Visibility comes from the renderer's truth: the card's true corners (in its own order, the
printed top-left first) place the deck's index boxes in the picture, and each box's share
inside the card's visible outline (every card, hand and clutter above it taken away) is what
shows of it.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.cards import Card
from vision.identity.crops import (
    STRIP_CARD,
    canonical_quad,
    card_size_px,
    corner_crops,
    crop_area,
    strip_crop,
)
from vision.identity.synth import (
    NONE_LABEL,
    CropSample,
    corner_index_boxes,
    crop_label,
    first_true_corner,
)

#: Face-image width the index boxes are laid out at (their layout scales with the face).
_FACE_W = 250
#: A face's crop showing no index of its own is labelled ``none`` only when the card fills
#: this much of it: elsewhere the crop takes in the next card, whose index may show whole
#: (a clear index labelled ``none`` would teach the classifier to overlook indices).
NONE_MIN_FILLED = 0.85


class QuadRecorder:
    """Stands in for the identity reader inside :class:`vision.pipeline.PhotoAnalyzer`: keeps
    the picture and the boxes the pipeline hands to the reader first, and reads nothing (the
    pipeline's second look at unread row cards, boxes turned to their row, hands it the same
    picture again: not recorded)."""

    def __init__(self) -> None:
        self.image: np.ndarray | None = None
        self.quads = np.zeros((0, 4, 2))

    def read(self, image: np.ndarray, quads: np.ndarray, game: str | None = None,
             covered: Any = None, alone: Any = None) -> list[None]:
        n = len(np.asarray(quads).reshape(-1, 4, 2))
        if image is not self.image:
            self.image = image
            self.quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
        return [None] * n


class CardTruth:
    """Where one scene card's index parts lie in the picture and what of the card shows."""

    def __init__(self, card: dict[str, Any], face_style: Any, image_shape: tuple[int, ...]):
        quad = np.asarray(card["quad"], dtype=np.float64)
        self.quad = quad
        self.card = Card.from_str(card["card"])
        self.face_up = bool(card["face_up"])
        self.width, long = card_size_px(quad)
        h, w = image_shape[:2]
        # the picture's pixels around the card (room for a box moved off it)
        reach = self.width
        self.origin = np.maximum(np.floor(quad.min(axis=0) - reach).astype(int), 0)
        far = np.minimum(np.ceil(quad.max(axis=0) + reach).astype(int), [w, h])
        self.size = (int(max(far[1] - self.origin[1], 1)), int(max(far[0] - self.origin[0], 1)))
        self.visible = np.zeros(self.size, np.uint8)
        if card.get("visible_polygon"):
            self.visible = self._mask(np.asarray(card["visible_polygon"], np.float64))
        #: per true corner: the masks of its index parts (rank, suit), none where no index
        self.parts: list[list[np.ndarray]] = [[] for _ in range(4)]
        if self.face_up:
            fw, fh = _FACE_W, int(round(_FACE_W * long / max(self.width, 1e-6)))
            face_to_image = cv2.getPerspectiveTransform(
                np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32),
                quad.astype(np.float32))
            for c, boxes in enumerate(corner_index_boxes(self.card, face_style, fw, fh)):
                for x0, y0, x1, y1 in boxes:
                    box = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
                    self.parts[c].append(self._mask(
                        cv2.perspectiveTransform(box, face_to_image)[0].astype(np.float64)))

    def _mask(self, polygon: np.ndarray) -> np.ndarray:
        mask = np.zeros(self.size, np.uint8)
        cv2.fillPoly(mask, [np.round(polygon - self.origin).astype(np.int32)], 1)
        return mask

    def shown(self, corner: int, region: np.ndarray
              ) -> tuple[float | None, float | None, float]:
        """The share of the less and of the more visible index part of true ``corner`` that
        shows inside ``region`` (a crop's area, image px; None, None: no index there), and
        the share of the region this card fills."""
        area = self._mask(region)
        inside = area & self.visible
        filled = float(inside.sum()) / max(int(area.sum()), 1)
        if not self.parts[corner]:
            return None, None, filled
        shares = [float((part & inside).sum()) / max(int(part.sum()), 1)
                  for part in self.parts[corner]]
        return min(shares), max(shares), filled


def crop_region(box: np.ndarray, k: int) -> np.ndarray:
    """The picture's area (4, 2) that the reader's crop ``k`` of ``box`` shows
    (:func:`vision.identity.crops.corner_crops`)."""
    to_image = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32),
        canonical_quad(box).astype(np.float32))
    unit = crop_area(k).astype(np.float32)
    return cv2.perspectiveTransform(unit[None], to_image)[0].astype(np.float64)


def match_truth(quads: np.ndarray, cards: list[dict[str, Any]]) -> list[int | None]:
    """For each box, the truth card whose centre lies nearest to its centre, within 0.45 of
    the boxes' median short side (None: no card there)."""
    if len(quads) == 0 or not cards:
        return [None] * len(quads)
    true = np.array([c["quad"] for c in cards], dtype=np.float64).reshape(-1, 4, 2)
    sides = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    sides = np.minimum(sides, np.linalg.norm(quads[:, 2] - quads[:, 1], axis=1))
    limit = 0.45 * float(np.median(sides))
    d = np.linalg.norm(quads.mean(axis=1)[:, None] - true.mean(axis=1)[None], axis=-1)
    nearest = d.argmin(axis=1)
    return [int(j) if d[i, j] < limit else None for i, j in enumerate(nearest)]


def moved_box(quad: np.ndarray, rng: np.random.Generator, largest: float = 0.25) -> np.ndarray:
    """``quad`` moved along one of its sides by up to ``largest`` of its short side, as the
    reader moves a box it could not read (:data:`vision.identity.reader.LOOK_AROUND_RINGS`)."""
    q = np.asarray(quad, dtype=np.float64)
    edges = (q[1] - q[0], q[3] - q[0])
    short = float(min(np.linalg.norm(edges[0]), np.linalg.norm(edges[1])))
    side = edges[int(rng.integers(2))]
    step = rng.uniform(0.03, largest) * short * rng.choice((-1.0, 1.0))
    return q + side / max(float(np.linalg.norm(side)), 1e-9) * step


def label_scene(image: np.ndarray, truth: dict[str, Any], face_style: Any, quads: np.ndarray,
                rng: np.random.Generator, *, none_keep: float = 1.0,
                moved_share: float = 0.0) -> list[CropSample]:
    """The reader's four corner crops of each box in ``quads`` (as the pipeline gave them),
    labelled from the scene's ``truth`` by what of the card's index shows *inside each crop*
    (a box far off cuts the index out: that crop shows none of it); with ``moved_share`` of
    the boxes also a moved copy (:func:`moved_box`). Boxes on no card are left out; a box on
    a face-down card shows a back: ``none``. A face's crop is labelled ``none`` only where the
    card fills it (:data:`NONE_MIN_FILLED`) and the scene has no hands (the truth keeps a
    card's largest visible piece only)."""
    cards = truth["cards"]
    hands = bool((truth.get("style") or {}).get("hands"))
    out: list[CropSample] = []
    for quad, j in zip(quads, match_truth(quads, cards), strict=True):
        if j is None:
            continue
        card = CardTruth(cards[j], face_style, image.shape)
        covered = cards[j]["visible_fraction"] < 0.999
        views = [quad] + ([moved_box(quad, rng)] if rng.random() < moved_share else [])
        for view in views:
            crops = corner_crops(image, view)
            start = first_true_corner(card.quad, view)
            for k in range(4):
                least, most, filled = card.shown((start + k) % 4, crop_region(view, k))
                label = crop_label(card.card, not card.face_up, least, most)
                if label is None or (label == NONE_LABEL and (
                        (card.face_up and (hands or filled < NONE_MIN_FILLED))
                        or rng.random() >= none_keep)):
                    continue
                out.append(CropSample(crops[k], label, k, str(card.card), card.width, covered))
    return out


def scene_crops(analyzer: Any, recorder: QuadRecorder, scene: Any, rng: np.random.Generator,
                *, none_keep: float = 1.0, moved_share: float = 0.0) -> list[CropSample]:
    """Labelled crops of one rendered scene (:func:`vision.synth.scene.render_game_scene`),
    read by ``analyzer`` (a :class:`~vision.pipeline.PhotoAnalyzer` whose identity reader is
    ``recorder``)."""
    recorder.image, recorder.quads = None, np.zeros((0, 4, 2))
    analyzer.read(scene.image)
    if not len(recorder.quads) or recorder.image is None:
        return []
    return label_scene(recorder.image, scene.truth, scene.style.face, recorder.quads, rng,
                       none_keep=none_keep, moved_share=moved_share)


class StripRecorder(QuadRecorder):
    """:class:`QuadRecorder` for a reader with the strip view: also keeps the boxes lying on
    each box it is handed (the later cards of its row)."""

    strip_path = "identity_strip.onnx"  # the pipeline hands the boxes on top to such a reader

    def __init__(self) -> None:
        super().__init__()
        self.on_top: list[np.ndarray] = []

    def read(self, image: np.ndarray, quads: np.ndarray, game: str | None = None,
             covered: Any = None, alone: Any = None, on_top: Any = None) -> list[None]:
        first = image is not self.image
        out = super().read(image, quads, game, covered, alone)
        if first:
            self.on_top = [np.asarray(t, np.float64).reshape(-1, 4, 2) for t in on_top or
                           [np.zeros((0, 4, 2))] * len(out)]
        return out


#: A scene's row card gives a strip crop when at least this share of it shows.
STRIP_MIN_VISIBLE = 0.3


def scene_strip_crops(analyzer: Any, recorder: StripRecorder, scene: Any,
                      rng: np.random.Generator, *, back_keep: float = 0.05
                      ) -> list[CropSample]:
    """Strip crops (:func:`vision.identity.crops.strip_crop`) of one rendered scene's
    face-up cards that others lie on, cut along the boxes the photo pipeline hands the reader
    with the boxes it says lie on them masked, labelled with the truth's card where at least
    :data:`STRIP_MIN_VISIBLE` of it shows; ``back_keep`` of the boxes on face-down cards as
    ``none``. ``analyzer``'s identity reader is ``recorder``."""
    recorder.image, recorder.quads, recorder.on_top = None, np.zeros((0, 4, 2)), []
    analyzer.read(scene.image)
    if not len(recorder.quads) or recorder.image is None:
        return []
    cards = scene.truth["cards"]
    out: list[CropSample] = []
    for quad, top, j in zip(recorder.quads, recorder.on_top,
                            match_truth(recorder.quads, cards), strict=True):
        if j is None or not len(top):
            continue
        card = cards[j]
        if not card["face_up"]:
            if rng.random() >= back_keep:
                continue
            label = NONE_LABEL
        elif card["visible_fraction"] < STRIP_MIN_VISIBLE or not card.get("card"):
            continue
        else:
            label = card["card"]
        out.append(CropSample(strip_crop(recorder.image, quad, top), label, STRIP_CARD,
                              str(card.get("card")), card_size_px(quad)[0], True))
    return out
