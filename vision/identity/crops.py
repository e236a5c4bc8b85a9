"""Corner crops of a face-up card: the input of the identity classifier.

A card's identity is printed in its corner indices. Whatever the detector returns, we put the
card's quadrilateral into a canonical order, and cut the four corner regions of the card,
each turned so that an index printed there would be upright:

* crop 0: top-left corner (as is)              - the usual upright index
* crop 1: top-right corner (as is)             - the upright index of four-index decks
* crop 2: bottom-right corner, turned 180 deg  - the usual rotated index
* crop 3: bottom-left corner, turned 180 deg   - the rotated index of four-index decks

The detector cannot know which short end of a card is "up", so a card may come 180 degrees
turned: crops 0 and 2 then swap, as do 1 and 3 - the classifier does not care, because an
index looks the same in either. In an overlapping face-up row only one strip of a card
shows; whichever strip it is, one of the four corners holds a whole index.

The training crops (:mod:`vision.identity.synth`) are cut by these same functions, so what the
classifier sees in training and at run time is produced by identical code.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.detect.detections import points_in_quads, quad_points

#: Side of the square crop fed to the classifier, in px.
CROP_SIZE = 64
#: Corner region as fractions of the card's width and height.
CORNER_W = 0.44
CORNER_H = 0.34
#: Names of the four crops, in order.
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
#: The fifth "crop": the whole card, squeezed into the square (for a card lying alone, face
#: up, whose pips and picture show the suit and rank larger than its small indices).
WHOLE_CARD = 4


def canonical_quad(quad: np.ndarray) -> np.ndarray:
    """The quad reordered clockwise (in image coordinates) with quad[0]->quad[1] a short edge.

    Detectors may return the corners counter-clockwise or starting at any corner; the card's
    own order (top-left, top-right, bottom-right, bottom-left) seen from above is clockwise
    with a short first edge. Which short end is the top remains unknown (180 degrees).
    """
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    # four points: plain floats are several times faster than numpy calls here (the reader
    # orders a few hundred quads per photo)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.tolist()
    order = [0, 1, 2, 3]
    if (ax * by - bx * ay) + (bx * cy - cx * by) + (cx * dy - dx * cy) + (dx * ay - ax * dy) < 0:
        # counter-clockwise on screen (y down): reverse, keep the first corner
        order = [0, 3, 2, 1]
        bx, by, dx, dy = dx, dy, bx, by
    first = math.hypot(bx - ax, by - ay) + math.hypot(dx - cx, dy - cy)
    second = math.hypot(cx - bx, cy - by) + math.hypot(ax - dx, ay - dy)
    if first > second:  # first edge is a long edge: start one corner later
        order = order[1:] + order[:1]
    return q[order]


def card_size_px(quad: np.ndarray) -> tuple[float, float]:
    """(width, height) of the card in image px: mean short and mean long edge."""
    return _size_of_canonical(canonical_quad(quad))


def _size_of_canonical(q: np.ndarray) -> tuple[float, float]:
    """:func:`card_size_px` of a quad already in :func:`canonical_quad`'s order (plain floats:
    several times faster than numpy calls for four points)."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.tolist()
    return ((math.hypot(bx - ax, by - ay) + math.hypot(dx - cx, dy - cy)) / 2.0,
            (math.hypot(cx - bx, cy - by) + math.hypot(ax - dx, ay - dy)) / 2.0)


def _crop_to_card(corner: int, size: int) -> np.ndarray:
    """3x3 map from crop pixel coordinates to unit card coordinates (0..1, 0..1)."""
    sx, sy = CORNER_W / size, CORNER_H / size
    if corner == 0:
        return np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1]], np.float64)
    if corner == 1:
        return np.array([[sx, 0, 1 - CORNER_W], [0, sy, 0], [0, 0, 1]], np.float64)
    if corner == 2:  # bottom-right turned 180: crop (0,0) is the card's (1,1)
        return np.array([[-sx, 0, 1], [0, -sy, 1], [0, 0, 1]], np.float64)
    if corner == 3:  # bottom-left turned 180: crop (0,0) is the card's (CORNER_W, 1)
        return np.array([[-sx, 0, CORNER_W], [0, -sy, 1], [0, 0, 1]], np.float64)
    if corner == WHOLE_CARD:
        return np.array([[1 / size, 0, 0], [0, 1 / size, 0], [0, 0, 1]], np.float64)
    raise ValueError(f"corner must be 0..{WHOLE_CARD}, got {corner}")


def crop_area(corner: int) -> np.ndarray:
    """The part of the card (4, 2) that crop ``corner`` shows, in unit card coordinates
    (0..1, 0..1), its corners in the crop's order."""
    size = CROP_SIZE
    crop = np.array([[0, 0, 1], [size, 0, 1], [size, size, 1], [0, size, 1]], np.float64)
    return (crop @ _crop_to_card(corner, size).T)[:, :2]


#: Where an index is printed, as the centre of its usual area in unit card coordinates, for
#: the four crops in order (the index of a standard deck sits within ~0.2 x 0.15 of a corner).
INDEX_CENTRES = np.array([[0.1, 0.08], [0.9, 0.08], [0.9, 0.92], [0.1, 0.92]])


def covered_corners(quad: np.ndarray, on_top: list[np.ndarray]) -> np.ndarray:
    """(4,) bool: which of the card's four index places lie under one of the ``on_top``
    quads (cards known to lie on it, such as the later cards of its row).

    Such a corner shows the other card, not this one's index: its vote must not count.
    """
    if not len(on_top):
        return np.zeros(4, dtype=bool)
    quads = np.concatenate([np.reshape(quad, (1, 4, 2)), np.reshape(on_top, (-1, 4, 2))])
    lies_on = np.zeros((len(quads), len(quads)), dtype=bool)
    lies_on[0, 1:] = True
    return covered_corners_of_cards(quads, lies_on)[0]


def covered_corners_of_cards(quads: np.ndarray, lies_on: np.ndarray) -> np.ndarray:
    """:func:`covered_corners` of many cards at once: (n, 4) bool for quads (n, 4, 2), where
    ``lies_on[i, j]`` says that card j lies on card i."""
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    lies_on = np.asarray(lies_on, dtype=bool)
    out = np.zeros((len(quads), 4), dtype=bool)
    under = np.flatnonzero(lies_on.any(axis=1))
    if not len(under):
        return out
    points = quad_points(np.stack([canonical_quad(quads[i]) for i in under]), INDEX_CENTRES)
    tops = np.flatnonzero(lies_on[under].any(axis=0))
    inside = points_in_quads(points.reshape(-1, 2), quads[tops]).reshape(len(tops), len(under), 4)
    out[under] = (lies_on[np.ix_(under, tops)].T[:, :, None] & inside).any(axis=0)
    return out


def corner_crops(image: np.ndarray, quad: np.ndarray, size: int = CROP_SIZE,
                 corners: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """The corner crops of the card at ``quad``: uint8 array (len(corners), size, size, 3),
    all four in the module's order by default.

    ``image`` is BGR (or grey, which is expanded). Large cards are first shrunk with area
    averaging so that the crops are not aliased; pixels beyond the image border repeat the
    edge.
    """
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    q = canonical_quad(quad)
    h_img, w_img = image.shape[:2]
    width, height = _size_of_canonical(q)
    xs, ys = q[:, 0].tolist(), q[:, 1].tolist()
    # how many image px one crop px spans; shrink the card's surroundings if it is more than ~1.5
    step = (max(width, height) if WHOLE_CARD in corners
            else max(width * CORNER_W, height * CORNER_H)) / size
    x0, y0 = max(math.floor(min(xs)) - 2, 0), max(math.floor(min(ys)) - 2, 0)
    x1, y1 = min(math.ceil(max(xs)) + 3, w_img), min(math.ceil(max(ys)) + 3, h_img)
    if x1 - x0 < 2 or y1 - y0 < 2:  # card outside the image: nothing to read
        return np.zeros((len(corners), size, size, 3), np.uint8)
    roi = image[y0:y1, x0:x1]
    qr = q - np.array([x0, y0], np.float64)
    if step > 1.5:
        f = 1.2 / step
        roi = cv2.resize(roi, (max(2, round(roi.shape[1] * f)), max(2, round(roi.shape[0] * f))),
                         interpolation=cv2.INTER_AREA)
        qr = qr * np.array([roi.shape[1] / (x1 - x0), roi.shape[0] / (y1 - y0)])
    card_to_img = cv2.getPerspectiveTransform(_UNIT, qr.astype(np.float32))
    out = np.empty((len(corners), size, size, 3), np.uint8)
    for at, k in enumerate(corners):
        cv2.warpPerspective(roi, _SHIFT @ (card_to_img @ _crop_sampling(k, size)), (size, size),
                            dst=out[at], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_REPLICATE)
    return out


_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
#: warpPerspective with WARP_INVERSE_MAP wants dst->src for integer dst coordinates, and
#: samples src at pixel centres at integer coordinates: shift by -0.5
_SHIFT = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]], np.float64)


@lru_cache(maxsize=32)
def _crop_sampling(corner: int, size: int) -> np.ndarray:
    """Crop pixel (u, v) -> unit card coordinates, sampling at pixel centres (u + 0.5)."""
    centre = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]], np.float64)
    m = _crop_to_card(corner, size) @ centre
    m.flags.writeable = False
    return m


def whole_card_crop(image: np.ndarray, quad: np.ndarray, size: int = CROP_SIZE) -> np.ndarray:
    """The whole card at ``quad`` squeezed into a (size, size, 3) uint8 crop, short edge
    across (which end is up stays unknown, as for the corners)."""
    return corner_crops(image, quad, size, (WHOLE_CARD,))[0]


#: The sixth "crop": the whole card with the cards lying on it masked (:func:`strip_crop`).
STRIP_CARD = 5
#: The colour a strip crop (:func:`strip_crop`) paints where a later card lies on the card: a
#: flat grey that neither a face nor a back shows, so that the strip model reads only what
#: shows of the card itself.
STRIP_MASK_BGR = (128, 128, 128)


def strip_crop(image: np.ndarray, quad: np.ndarray, on_top: np.ndarray | None = None,
               size: int = CROP_SIZE) -> np.ndarray:
    """The whole card at ``quad`` squeezed into a (size, size, 3) crop, as
    :func:`whole_card_crop`, with the parts under the ``on_top`` quads ((k, 4, 2) image px:
    the later cards of its row) painted :data:`STRIP_MASK_BGR`.

    In a face-up row only a strip of each card shows. Where the corner index there is a few
    pixels high, the pips and the court letter of that strip are larger; the strip model
    (``models/identity_strip.onnx``) reads them. Masking the covering cards tells it which
    part of the crop is the card's own, whichever end of it shows.
    """
    crop = whole_card_crop(image, quad, size)
    tops = np.zeros((0, 4, 2)) if on_top is None else np.asarray(on_top, np.float64)
    if not len(tops):
        return crop
    card_to_img = cv2.getPerspectiveTransform(_UNIT, canonical_quad(quad).astype(np.float32))
    # image px -> crop px (pixel centres at integer coordinates, as the warp samples them)
    to_crop = np.linalg.inv(card_to_img.astype(np.float64) @ _crop_sampling(WHOLE_CARD, size))
    polys = cv2.perspectiveTransform(tops.reshape(-1, 4, 2), to_crop)
    for poly in polys.reshape(-1, 4, 2):
        if not np.isfinite(poly).all() or np.abs(poly).max() > 100 * size:
            continue  # a quad beyond the card's horizon: it cannot lie on the card
        cv2.fillConvexPoly(crop, np.round(poly * 16).astype(np.int32), STRIP_MASK_BGR,
                           lineType=cv2.LINE_8, shift=4)
    return crop


def sharpness(crops: np.ndarray) -> float:
    """How much fine detail the corner crops hold: the largest per-crop Laplacian std-dev.

    A printed index has sharp ink edges; a crop with no index (or a covered corner) is flat,
    so the best crop is what counts. Values below ~5 mean no legible ink edge at all.
    """
    return float(sharpness_of_cards(np.asarray(crops)[None])[0])


def sharpness_of_cards(crops: np.ndarray) -> np.ndarray:
    """:func:`sharpness` of many cards' crops (n, k, s, s, 3) at once: (n,) floats.

    The crops are stacked into one tall image for one colour conversion and one Laplacian;
    the 3x3 kernel reaches one pixel into a neighbouring crop, and the two-pixel margin left
    out of every crop keeps each value exactly what it is for the crop alone.
    """
    n, k, h, w = crops.shape[:4]
    if n == 0:
        return np.zeros(0)
    tall = np.ascontiguousarray(crops.reshape(n * k * h, w, 3))
    grey = cv2.cvtColor(tall, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lap = cv2.Laplacian(grey, cv2.CV_32F, ksize=3).reshape(n, k, h, w)[:, :, 2:-2, 2:-2]
    return lap.reshape(n, k, -1).std(axis=2).max(axis=1)


def to_tensor(crops: np.ndarray) -> np.ndarray:
    """BGR uint8 crops (n, h, w, 3) -> float32 RGB NCHW in 0..1, as the classifier expects."""
    # reorder the bytes first: one float pass instead of three over the batch
    x = np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32)
    x /= 255.0
    return x


#: The identity model learnt suits partly by colour: on generated cards turned grey it read 17 %
#: of them wrong, against 2 % in colour (`scripts/evaluate_identity.py --grey`).
GREYSCALE_NOTE = ("greyscale picture: faces read without colour are often wrong (above all "
                  "diamonds read as clubs) - check them by eye")
#: With ``models/identity_grey.onnx`` (the colour model trained further on grey crops) grey
#: generated cards are read wrong 3.0-3.5 % of the time, against 1.8-2.3 % in colour.
GREY_MODEL_NOTE = ("greyscale picture: faces read with the greyscale model, without suit "
                   "colours (a few per cent more mistakes than in colour, diamonds and clubs "
                   "above all) - check doubtful ones by eye")


def is_monochrome(image: np.ndarray) -> bool:
    """True for a greyscale picture (a monochrome or night camera): its colour channels are
    equal, or differ by the same amount everywhere (a codec may tint grey slightly, evenly)."""
    image = np.asarray(image)
    if image.ndim == 2 or image.shape[2] == 1:
        return True
    sample = image[::7, ::7, :3].astype(np.int16)
    return all(float(np.std(sample[..., a] - sample[..., b])) <= 2.0 for a, b in ((0, 1), (1, 2)))


def as_grey(image: np.ndarray) -> np.ndarray:
    """A BGR picture as a monochrome camera gives it: grey in all three channels."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
