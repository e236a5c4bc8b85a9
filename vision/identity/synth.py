"""Labelled corner crops for training and evaluating the identity classifier.

Each sample is one card drawn by :mod:`vision.synth.faces` in a random style, laid on a table
(or on another card), perhaps half covered by the next card of a row, a card back or a hand,
seen at a random size, rotation and camera tilt, then degraded the way phone and webcam photos
are (blur, motion, noise, JPEG, uneven light, glare, colour cast). The "detected" quad is the
true one with detector-like jitter and a random corner order. The crops are cut by
:func:`vision.identity.crops.corner_crops` - the very code the reader runs - and each crop is
labelled from the ground truth: the card where a whole index shows in that corner, ``none``
where no index is printed or the index is (nearly) covered, and left out where only part of
the index shows (a label either way would teach a guess).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import BRIDGE_DECK, Card
from vision.identity.crops import (
    STRIP_CARD,
    canonical_quad,
    corner_crops,
    crop_area,
    strip_crop,
    whole_card_crop,
)
from vision.synth.faces import FaceStyle, face_mask, index_boxes, render_face, sample_face_style
from vision.synth.style import sample_back_style
from vision.synth.textures import draw_back

NONE_LABEL = "none"
#: Class names of the classifier: the 52 cards (notation) and "none", sorted as ultralytics
#: sorts class folders.
CLASS_NAMES: tuple[str, ...] = tuple(sorted([str(c) for c in BRIDGE_DECK] + [NONE_LABEL]))


@dataclass(frozen=True)
class CropSample:
    """One labelled crop and where it came from (for evaluation breakdowns)."""

    crop: np.ndarray  # (CROP_SIZE, CROP_SIZE, 3) uint8 BGR
    label: str  # card notation or "none"
    corner: int  # which of the reader's crops: a corner, WHOLE_CARD or STRIP_CARD
    card: str  # the card actually drawn
    card_width_px: float
    visible_strip: bool  # the card was partly covered by an occluder


def corner_index_boxes(card: Card, style: FaceStyle, fw: int, fh: int) -> list[np.ndarray]:
    """Rank and suit boxes (x0, y0, x1, y1) of the index in each true corner (px of the face).

    Corners 1 and 3 have no index in two-index decks (empty list entries).
    """
    _, rank_box, suit_box = index_boxes(style, (fw, fh), card.rank)
    tl = np.array([rank_box, suit_box], np.float64)
    right = max(rank_box[2], suit_box[2])
    shift = fw - 2 * min(rank_box[0], suit_box[0]) - (right - min(rank_box[0], suit_box[0]))
    tr = tl + np.array([shift, 0, shift, 0])

    def rot(b: np.ndarray) -> np.ndarray:
        return np.stack([fw - b[:, 2], fh - b[:, 3], fw - b[:, 0], fh - b[:, 1]], axis=1)

    four = style.corner_indices == 4
    return [tl, tr if four else np.zeros((0, 4)), rot(tl), rot(tr) if four else np.zeros((0, 4))]


def _back(rng: np.random.Generator, fw: int, fh: int, held_out: bool = False) -> np.ndarray:
    """A card back: mostly one of the renderer's back designs (lattices, stripes, dots,
    rings, a medallion with a letter, frames, borders: :func:`vision.synth.textures.draw_back`,
    held-out patterns only with ``held_out``), else a plain diagonal lattice. Real backs carry
    logos, letters and ornaments; a model that saw only plain lattices as ``none`` reads such
    a back, passed to it as a face, as a card."""
    if rng.random() < 0.75:
        style = sample_back_style(rng, held_out=held_out)
        return draw_back(style, (fw, fh), seed=int(rng.integers(1 << 30)))
    colour = rng.integers(20, 200, 3).astype(np.float64)
    img = np.empty((fh, fw, 3), np.uint8)
    img[:] = colour
    step = int(rng.integers(5, 14))
    line = tuple(float(v) for v in np.clip(colour + rng.integers(-80, 80, 3), 0, 255))
    for k in range(-fh, fw + fh, step):
        cv2.line(img, (k, 0), (k + fh, fh), line, 1, cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.line(img, (k, 0), (k - fh, fh), line, 1, cv2.LINE_AA)
    if rng.random() < 0.5:
        b = max(2, int(0.06 * fw))
        cv2.rectangle(img, (0, 0), (fw - 1, fh - 1), (245, 245, 245), b)
    return img


def _table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = rng.integers(10, 220, 3).astype(np.float32)
    small = rng.normal(0, rng.uniform(2, 20), (max(2, h // 8), max(2, w // 8), 3))
    tex = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(base + tex, 0, 255).astype(np.uint8)


def _paste(canvas: np.ndarray, img: np.ndarray, mask: np.ndarray, m: np.ndarray) -> None:
    """Warp ``img`` (with alpha ``mask``) by homography ``m`` onto ``canvas`` in place."""
    h, w = canvas.shape[:2]
    warped = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = (alpha / 255.0)[..., None]
    canvas[:] = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)


def _shrunk(img: np.ndarray, mask: np.ndarray, target_w: float) -> tuple[np.ndarray, np.ndarray,
                                                                           float]:
    """Shrink a face with area averaging to about the size it will have in the image."""
    f = min(1.0, max(target_w * 1.1, 8.0) / img.shape[1])
    if f >= 0.95:
        return img, mask, 1.0
    size = (max(4, round(img.shape[1] * f)), max(4, round(img.shape[0] * f)))
    fx = size[0] / img.shape[1]
    return (cv2.resize(img, size, interpolation=cv2.INTER_AREA),
            cv2.resize(mask, size, interpolation=cv2.INTER_AREA), fx)


def _scale(f: float) -> np.ndarray:
    return np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]], np.float64)


def _unit_rect(fw: int, fh: int) -> np.ndarray:
    return np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)


def _degrade(img: np.ndarray, rng: np.random.Generator, card_w: float,
             rank_px: float) -> np.ndarray:
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    # uneven light
    gx, gy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
    a, b = rng.normal(0, 0.15, 2)
    light = 1.0 + a * gx + b * gy
    out *= rng.uniform(0.55, 1.2) * light[..., None]
    # colour cast (white balance)
    out *= rng.uniform([0.8, 0.85, 0.8], [1.15, 1.1, 1.25])
    # glare: a bright soft blob
    if rng.random() < 0.2:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.2, 0.8) * card_w
        d2 = ((np.arange(w)[None, :] - cx) ** 2 + (np.arange(h)[:, None] - cy) ** 2) / (r * r)
        out += (rng.uniform(60, 200) * np.exp(-d2))[..., None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    # blur: focus (bounded so that the index stays legible) or motion
    if rng.random() < 0.6:
        sigma = rng.uniform(0.3, max(0.5, 0.12 * rank_px))
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.1:
        length = int(rng.integers(2, max(3, int(0.15 * rank_px) + 3)))
        k: np.ndarray = np.zeros((length, length), np.float32)
        k[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                      float(rng.uniform(0, 180)), 1.0)
        k = cv2.warpAffine(k, rot, (length, length))
        out = cv2.filter2D(out, -1, k / max(k.sum(), 1e-6))
    # sensor noise
    if rng.random() < 0.7:
        noise = rng.normal(0, rng.uniform(1, 9), out.shape)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
    # JPEG
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        if ok:
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            # a JPEG cv2.imencode just wrote always decodes
            assert decoded is not None
            out = decoded
    return out


@dataclass(frozen=True)
class CardPhoto:
    """One card drawn into a small degraded photo, with its truth.

    ``index_visible[c]`` is, for each true corner c (top-left, top-right, bottom-right,
    bottom-left), the visible fraction of the least visible part (rank or suit) of the index
    printed there, or None where the deck prints no index. ``index_in_crop[c]`` is the same
    counted only inside the reader's crop of that corner cut from the ``detected`` box: a box
    a few per cent off cuts part of an index out of its crop, or all of it (empty unless the
    photo was drawn with ``in_crop``).
    """

    photo: np.ndarray
    quad: np.ndarray  # true corners, card's own order
    detected: np.ndarray  # jittered, any start corner and winding
    card: Card
    style: FaceStyle
    is_back: bool
    covered: bool
    card_width_px: float
    index_visible: tuple[float | None, ...]
    index_visible_max: tuple[float | None, ...]  # same, for the most visible part
    #: the card lying on it (the next card of a row), (4, 2) image px, or None (nothing, or a
    #: hand or other object covers it)
    occluder: np.ndarray | None = None
    #: the share of the face hidden by what covers it
    hidden_share: float = 0.0
    index_in_crop: tuple[float | None, ...] = ()
    index_in_crop_max: tuple[float | None, ...] = ()  # same, for the most visible part

    def readable_corners(self, threshold: float = 0.9) -> int:
        """How many corners show a whole index."""
        return sum(1 for v in self.index_visible if v is not None and v >= threshold)


def detector_like(quad: np.ndarray, card_w: float | None, rng: np.random.Generator,
                  box_error: float = 0.05) -> np.ndarray:
    """A card's true ``quad`` off by what the shipped detector's boxes are off: ``box_error``
    is the spread of the centre shift in card widths (``card_w`` pixels; None: the quad's
    shorter side); the size and turn scale with it, and each corner is jittered by 1.5 % of
    the width."""
    if card_w is None:
        card_w = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    centre = quad.mean(axis=0)
    turn = math.radians(rng.normal(0, 50 * box_error))
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    grow = 1.0 + rng.normal(0, 0.8 * box_error)
    detected = (quad - centre) @ rot.T * grow + centre
    detected = detected + rng.normal(0, box_error * card_w, (1, 2))
    return detected + rng.normal(0, 0.015 * card_w, (4, 2))


def sample_card_photo(
    rng: np.random.Generator,
    *,
    held_out: bool = False,
    card: Card | None = None,
    style: FaceStyle | None = None,
    min_width: float = 24.0,
    max_width: float = 180.0,
    occlusion: float = 0.5,
    back_chance: float = 0.03,
    box_error: float = 0.05,
    glyph_variety: float = 0.0,
    in_crop: bool = False,
) -> CardPhoto:
    """Draw one card (perhaps partly covered) into a small degraded photo.

    ``occlusion`` is the chance that the next card of a row or a hand covers part of it;
    ``back_chance`` the chance that a card back is drawn instead (a face-down card passed as
    face up, whose corners must all read ``none``). ``glyph_variety`` is the chance that the
    deck's rank glyphs are bent and weighted into shapes no font here has (see
    :class:`vision.synth.faces.FaceStyle`); 0 draws exactly what it drew before.
    ``in_crop``: also measure what of each index shows inside its crop
    (``CardPhoto.index_in_crop``; only labels that ask for it need the extra work).
    """
    style = style or sample_face_style(rng, held_out=held_out)
    if glyph_variety and rng.random() < glyph_variety:
        style = replace(style, glyph_warp=float(rng.uniform(0.02, 0.07)),
                        glyph_weight=float(rng.uniform(-0.04, 0.08)),
                        seed=int(rng.integers(1 << 30)))
    card = card or BRIDGE_DECK[int(rng.integers(52))]
    is_back = rng.random() < back_chance
    aspect = rng.uniform(0.63, 0.72)
    fw = int(rng.integers(110, 200))
    fh = int(round(fw / aspect))
    face = _back(rng, fw, fh, held_out) if is_back else render_face(card, style, (fw, fh))
    fmask = face_mask((fw, fh), style.corner_radius).copy()

    # where the card lies in the photo
    card_w = float(math.exp(rng.uniform(math.log(min_width), math.log(max_width))))
    card_h = card_w / aspect
    theta = rng.uniform(0, 2 * math.pi)
    margin = 0.35 * card_h
    side = int(math.ceil(card_h + 2 * margin))
    centre = np.array([side / 2, side / 2])
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    corners = np.array([[-card_w, -card_h], [card_w, -card_h], [card_w, card_h],
                        [-card_w, card_h]]) / 2.0
    tilt = rng.uniform(0, 0.12)
    corners = corners * (1 + rng.uniform(-tilt, tilt, (4, 1)))
    quad = corners @ rot.T + centre
    card_to_img = cv2.getPerspectiveTransform(_unit_rect(fw, fh), quad.astype(np.float32))

    canvas = _table(rng, side, side)
    if rng.random() < 0.5:  # a card underneath (the previous card of a row), offset
        under = render_face(BRIDGE_DECK[int(rng.integers(52))], style, (fw, fh)) \
            if rng.random() < 0.7 else _back(rng, fw, fh, held_out)
        off = np.array([[1, 0, rng.uniform(-0.7, 0.7) * fw], [0, 1, rng.uniform(-0.4, 0.4) * fh],
                        [0, 0, 1]])
        u_img, u_mask, f = _shrunk(under, fmask, card_w)
        _paste(canvas, u_img, u_mask, card_to_img @ off @ _scale(1 / f))
    f_img, f_mask, f = _shrunk(face, fmask, card_w)
    # the shadow of the card's edge on the table
    _paste(canvas, np.zeros_like(f_img), (f_mask * rng.uniform(0.1, 0.4)).astype(np.uint8),
           np.array([[1, 0, rng.uniform(-2, 2)], [0, 1, rng.uniform(0, 3)], [0, 0, 1]])
           @ card_to_img @ _scale(1 / f))
    _paste(canvas, f_img, f_mask, card_to_img @ _scale(1 / f))

    # occluders, in face coordinates, with a coverage mask for labelling
    cover = np.zeros((fh, fw), np.uint8)
    covered = False
    occluder = None
    if not is_back and rng.random() < occlusion:
        covered = True
        if rng.random() < 0.8:  # the next card of a row (face or back)
            occ = render_face(BRIDGE_DECK[int(rng.integers(52))], style, (fw, fh)) \
                if rng.random() < 0.6 else _back(rng, fw, fh, held_out)
            shown = rng.uniform(0.2, 0.8)
            direction = int(rng.integers(4))
            dx, dy = [(shown * fw, 0), (-shown * fw, 0), (0, shown * fh),
                      (0, -shown * fh)][direction]
            dx += rng.normal(0, 0.03) * fw
            dy += rng.normal(0, 0.03) * fh
            ang = rng.normal(0, 0.06)
            c, s = math.cos(ang), math.sin(ang)
            occ_m = np.array([[c, -s, dx + fw / 2 - c * fw / 2 + s * fh / 2],
                              [s, c, dy + fh / 2 - s * fw / 2 - c * fh / 2], [0, 0, 1]])
            o_img, o_mask, f2 = _shrunk(occ, fmask, card_w)
            _paste(canvas, np.zeros_like(o_img), (o_mask * 0.35).astype(np.uint8),
                   card_to_img @ np.array([[1, 0, -2], [0, 1, 2], [0, 0, 1]]) @ occ_m
                   @ _scale(1 / f2))
            _paste(canvas, o_img, o_mask, card_to_img @ occ_m @ _scale(1 / f2))
            poly = cv2.perspectiveTransform(_unit_rect(fw, fh)[None], occ_m)[0]
            cv2.fillPoly(cover, [np.round(poly).astype(np.int32)], 255)
            occluder = cv2.perspectiveTransform(poly[None].astype(np.float64),
                                                card_to_img.astype(np.float64))[0]
        else:  # a hand or some object: a skin-coloured or random blob
            colour = (rng.uniform(90, 190), rng.uniform(120, 200), rng.uniform(170, 240)) \
                if rng.random() < 0.7 else tuple(float(v) for v in rng.integers(0, 255, 3))
            cxy = rng.uniform([0, 0], [fw, fh])
            axes = rng.uniform(0.2, 0.6) * fw, rng.uniform(0.2, 0.8) * fh
            blob = np.zeros((fh, fw), np.uint8)
            cv2.ellipse(blob, (int(cxy[0]), int(cxy[1])), (int(axes[0]), int(axes[1])),
                        float(rng.uniform(0, 180)), 0, 360, 255, -1)
            solid = np.empty((fh, fw, 3), np.uint8)
            solid[:] = colour
            b_img, b_mask, f3 = _shrunk(solid, blob, card_w)
            _paste(canvas, b_img, b_mask, card_to_img @ _scale(1 / f3))
            cover = np.maximum(cover, blob)

    rank_px = 0.1 * card_h
    photo = _degrade(canvas, rng, card_w, rank_px)

    # the detector's quad, any corner first, either winding
    detected = detector_like(quad, card_w, rng, box_error)
    detected = np.roll(detected, int(rng.integers(4)), axis=0)
    if rng.random() < 0.5:
        detected = detected[::-1]
    boxes = corner_index_boxes(card, style, fw, fh)
    visible, visible_max = _index_shown(boxes, cover == 0)
    shown_in_crop: tuple[list[float | None], list[float | None]] = ([], [])
    if in_crop:
        shown_in_crop = _index_shown(
            boxes, (cover == 0)[None] & _crop_windows(quad, detected, card_to_img, fw, fh))
    return CardPhoto(photo, quad, detected, card, style, is_back, covered, card_w,
                     tuple(visible), tuple(visible_max), occluder,
                     float(cover.mean()) / 255.0, tuple(shown_in_crop[0]),
                     tuple(shown_in_crop[1]))


def _index_shown(boxes: list[np.ndarray], shown: np.ndarray
                 ) -> tuple[list[float | None], list[float | None]]:
    """For each true corner's index ``boxes`` (face px), the shown share of its least and of
    its most shown part (rank or suit), None where no index is printed; ``shown``: (fh, fw)
    bool for every corner alike, or (4, fh, fw), one mask per true corner."""
    least: list[float | None] = []
    most: list[float | None] = []
    for c, b in enumerate(boxes):
        if len(b) == 0:
            least.append(None)
            most.append(None)
            continue
        mask = shown[c] if shown.ndim == 3 else shown
        vis = []
        for x0, y0, x1, y1 in b:
            xs = slice(max(int(x0), 0), max(int(math.ceil(x1)), int(x0) + 1))
            ys = slice(max(int(y0), 0), max(int(math.ceil(y1)), int(y0) + 1))
            region = mask[ys, xs]
            vis.append(float(region.mean()) if region.size else 1.0)
        least.append(min(vis))
        most.append(max(vis))
    return least, most


def _crop_windows(quad: np.ndarray, detected: np.ndarray, card_to_img: np.ndarray, fw: int,
                  fh: int) -> np.ndarray:
    """(4, fh, fw) bool: for each true corner, the part of the face inside the reader's crop
    of that corner (:func:`vision.identity.crops.corner_crops` of the ``detected`` box)."""
    q = canonical_quad(detected)
    start = first_true_corner(quad, detected)
    unit_to_img = cv2.getPerspectiveTransform(_unit_rect(1, 1), q.astype(np.float32))
    img_to_face = np.linalg.inv(card_to_img.astype(np.float64))
    windows = np.zeros((4, fh, fw), np.uint8)
    for k in range(4):
        area = crop_area(k).reshape(1, 4, 2)
        in_face = cv2.perspectiveTransform(
            cv2.perspectiveTransform(area, unit_to_img.astype(np.float64)), img_to_face)[0]
        cv2.fillPoly(windows[(start + k) % 4], [np.round(in_face).astype(np.int32)], 1)
    return windows.astype(bool)


def first_true_corner(true_quad: np.ndarray, box: np.ndarray) -> int:
    """Which true corner of a card (its own order) the reader's crop 0 of ``box`` starts at."""
    q = canonical_quad(box)
    return int(np.argmin(np.linalg.norm(np.asarray(true_quad) - q[0], axis=1)))


def crop_label(card: Card, is_back: bool, least: float | None, most: float | None
               ) -> str | None:
    """The label of one corner crop from how much of the index shows in it (``least`` /
    ``most``: the visible share of its less / more visible part, rank or suit; None: no index
    printed there): the card from 90 %, ``none`` for a back, no index or at most 25 % of each
    part, and None (no honest label) in between."""
    if is_back or least is None or (most is not None and most <= 0.25):
        return NONE_LABEL
    if least >= 0.9:
        return str(card)
    return None


def label_crops(sample: CardPhoto, rng: np.random.Generator | None = None, *,
                none_keep: float = 1.0, in_crop: bool = False) -> list[CropSample]:
    """The reader's four crops of ``sample``, labelled from the truth.

    A corner is labelled with the card when at least 90 % of both rank and suit of its index
    show, ``none`` when no index is printed there or at most 25 % of each part shows, and left
    out in between. ``none_keep`` is the fraction of ``none`` crops kept (most corners show no
    index; the set would drown in them). ``in_crop``: what shows is counted inside the crop
    only (``CardPhoto.index_in_crop``) - without it a crop whose box is off enough to cut the
    index out is still labelled with the card (the shipped corner models were trained so).
    """
    if in_crop and not sample.index_in_crop:
        raise ValueError("label_crops(in_crop=True) needs a photo drawn with "
                         "sample_card_photo(in_crop=True)")
    crops = corner_crops(sample.photo, sample.detected)
    start = first_true_corner(sample.quad, sample.detected)
    least, most = ((sample.index_in_crop, sample.index_in_crop_max) if in_crop
                   else (sample.index_visible, sample.index_visible_max))
    out: list[CropSample] = []
    for k in range(4):
        label = crop_label(sample.card, sample.is_back, least[(start + k) % 4],
                           most[(start + k) % 4])
        if label is None:
            continue  # partly covered index: no honest label
        if label == NONE_LABEL and none_keep < 1.0 and (rng is None or rng.random() >= none_keep):
            continue
        out.append(CropSample(crops[k], label, k, str(sample.card), sample.card_width_px,
                              sample.covered))
    return out


def sample_crops(rng: np.random.Generator, *, none_keep: float = 1.0, in_crop: bool = False,
                 **kwargs: object) -> list[CropSample]:
    """One card photo (:func:`sample_card_photo`, same keyword arguments) as labelled crops
    (``in_crop``: see :func:`label_crops`)."""
    return label_crops(sample_card_photo(rng, in_crop=in_crop, **kwargs),  # type: ignore[arg-type]
                       rng, none_keep=none_keep, in_crop=in_crop)


def label_whole_card(sample: CardPhoto) -> list[CropSample]:
    """The whole-card crop of ``sample``, labelled: the card where nothing covers it, ``none``
    for a card back; a covered card gives nothing (the whole-card view is only used for cards
    lying alone)."""
    if sample.covered:
        return []
    label = NONE_LABEL if sample.is_back else str(sample.card)
    return [CropSample(whole_card_crop(sample.photo, sample.detected), label, 4,
                       str(sample.card), sample.card_width_px, False)]


def sample_whole_cards(rng: np.random.Generator, **kwargs: object) -> list[CropSample]:
    """One uncovered card photo (a back in 6 %), as its labelled whole-card crop."""
    kw = {"occlusion": 0.0, "back_chance": 0.06, **kwargs}
    return label_whole_card(sample_card_photo(rng, **kw))  # type: ignore[arg-type]


#: A strip crop is labelled with its card when at least this share of the face shows.
STRIP_MIN_SHOWN = 0.3


def label_strip_card(sample: CardPhoto, rng: np.random.Generator) -> list[CropSample]:
    """The strip crop of ``sample`` (:func:`vision.identity.crops.strip_crop`), labelled: the
    card, with the card lying on it masked as the reader masks the later cards of a row - by
    that card's box as a detector would draw it; ``none`` for a back. A card covered by a hand
    (which the reader cannot mask) or all but hidden gives nothing."""
    if sample.is_back:
        return [CropSample(strip_crop(sample.photo, sample.detected), NONE_LABEL,
                           STRIP_CARD, str(sample.card), sample.card_width_px, False)]
    if sample.covered and sample.occluder is None:
        return []
    if sample.hidden_share > 1.0 - STRIP_MIN_SHOWN:
        return []
    tops = None
    if sample.occluder is not None:
        tops = detector_like(sample.occluder, sample.card_width_px, rng)[None]
    return [CropSample(strip_crop(sample.photo, sample.detected, tops), str(sample.card),
                       STRIP_CARD, str(sample.card), sample.card_width_px, sample.covered)]


def sample_strip_cards(rng: np.random.Generator, **kwargs: object) -> list[CropSample]:
    """One card photo, covered by the next card of a row nine times in ten (a back in 5 %),
    as its labelled strip crop (:func:`label_strip_card`)."""
    kw = {"occlusion": 0.9, "back_chance": 0.05, **kwargs}
    return label_strip_card(sample_card_photo(rng, **kw), rng)  # type: ignore[arg-type]
