"""Card faces drawn by our own code, in many styles.

Every model that reads card faces is trained on these drawings, and it will be judged on real
decks it has never seen. So this module aims for *variety* in everything a real deck of
standard design varies in - index font, size, weight, width and position, one or four indices,
suit shapes and colours, pips or a single symbol, court pictures, borders, wear and a colour
cast - and keeps a few styles (:data:`HELD_OUT_FONTS`, a suit-shape family and a palette) out
of training entirely, so an evaluation on them is an honest proxy for a deck we did not draw.

Only OpenCV primitives are used (Hershey fonts, polygons, circles); this OpenCV build has no
``cv2.freetype``, so no TTF fonts are drawn.

``render_face(card, style, size)`` returns a BGR ``uint8`` image of the upright card in
portrait, ``size = (width, height)``. It is deterministic for a given card and style.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import Card, Rank, Suit

__all__ = [
    "FaceStyle",
    "HELD_OUT_FONTS",
    "TRAINING_FONTS",
    "COURT_STYLES",
    "CENTRE_STYLES",
    "index_boxes",
    "render_face",
    "sample_face_style",
    "suit_polygon",
]

# --------------------------------------------------------------------------------------------
# Style
# --------------------------------------------------------------------------------------------

#: Hershey fonts used for training styles (``cv2.FONT_*`` ids).
TRAINING_FONTS: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    -1,  # our own block font drawn from polylines (see _BLOCK_GLYPHS)
)
#: Fonts never used in training: the proxy for a real deck's unseen typeface.
HELD_OUT_FONTS: tuple[int, ...] = (cv2.FONT_HERSHEY_TRIPLEX,)

#: Suit-shape families; the last one is reserved for held-out styles.
_TRAIN_SHAPES = (0, 1, 2)
_HELD_OUT_SHAPES = (3,)

COURT_STYLES: tuple[str, ...] = ("figure", "letter", "framed")
CENTRE_STYLES: tuple[str, ...] = ("pips", "simple")

# Palettes (BGR): black ink, red ink; four-colour decks add diamonds and clubs colours.
_BLACKS = ((20, 20, 20), (0, 0, 0), (40, 30, 30), (30, 30, 45), (45, 40, 35))
_REDS = ((30, 30, 200), (40, 20, 180), (20, 10, 220), (60, 50, 190), (35, 35, 160))
_BLUES = ((170, 60, 20), (150, 80, 0), (200, 90, 30))
_GREENS = ((40, 130, 20), (30, 110, 40), (60, 150, 0))
_ORANGES = ((0, 120, 230), (20, 140, 220))
_PAPERS = ((250, 250, 250), (240, 245, 248), (225, 240, 245), (245, 245, 240), (235, 235, 235))
# Held-out palette: ink and paper colours not drawn for training.
_HELD_OUT_BLACK = (60, 35, 15)
_HELD_OUT_RED = (60, 0, 140)
_HELD_OUT_PAPER = (215, 232, 240)


@dataclass(frozen=True)
class FaceStyle:
    """Everything that makes one deck look different from another.

    Sizes and positions are fractions of the card (width for x, height for y), so one style
    renders at any size. ``corner_indices`` is 2 (top-left upright, bottom-right rotated, the
    usual design) or 4 (also top-right upright and bottom-left rotated).
    """

    font: int = cv2.FONT_HERSHEY_SIMPLEX
    italic: bool = False
    stroke: float = 0.12  # stroke width as a fraction of the index height
    index_height: float = 0.1  # rank glyph height / card height
    index_width: float = 1.0  # horizontal stretch of the rank glyphs
    index_slant: float = 0.0  # shear (x += slant * y)
    index_x: float = 0.05  # left edge of the index / card width
    index_y: float = 0.04  # top of the index / card height
    index_suit_scale: float = 0.8  # suit symbol under the index, relative to the rank height
    index_layout: str = "stacked"  # "stacked" (suit below rank) or "side" (suit right of rank)
    corner_indices: int = 2
    jumbo: bool = False
    four_colour: bool = False
    black: tuple[int, int, int] = (20, 20, 20)
    red: tuple[int, int, int] = (30, 30, 200)
    blue: tuple[int, int, int] = (170, 60, 20)
    green: tuple[int, int, int] = (40, 130, 20)
    paper: tuple[int, int, int] = (250, 250, 250)
    shape: int = 0  # suit-shape family
    centre: str = "pips"  # "pips" or "simple" (one large symbol)
    pip_scale: float = 1.0
    court: str = "figure"
    court_colour: tuple[int, int, int] = (0, 160, 220)
    border: bool = False
    border_colour: tuple[int, int, int] = (60, 60, 60)
    border_inset: float = 0.03
    corner_radius: float = 0.06  # rounded card corners, fraction of the width (outside = black)
    wear: float = 0.0  # 0 clean .. 1 much used
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # per-channel BGR gain
    seed: int = 0  # wear pattern
    held_out: bool = False
    #: Glyph variety (0 = the font as drawn): rank glyphs bent by a smooth random field of
    #: this amplitude (share of the glyph's height) - shapes no font here has - and made
    #: bolder (> 0) or thinner (< 0) by this share of their height. Only the identity
    #: reader's training crops set them; scenes and evaluation sets keep the fonts as they are.
    glyph_warp: float = 0.0
    glyph_weight: float = 0.0

    def colour_of(self, suit: Suit) -> tuple[int, int, int]:
        """Ink colour of a suit in this deck."""
        if self.four_colour:
            return {
                Suit.SPADES: self.black,
                Suit.HEARTS: self.red,
                Suit.DIAMONDS: self.blue,
                Suit.CLUBS: self.green,
            }[suit]
        return self.red if suit.is_red else self.black


def _pick(rng: random.Random | np.random.Generator, items: tuple | list):  # type: ignore[no-untyped-def]
    if isinstance(rng, random.Random):
        return items[rng.randrange(len(items))]
    return items[int(rng.integers(len(items)))]


def _uniform(rng: random.Random | np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _chance(rng: random.Random | np.random.Generator, p: float) -> bool:
    return float(rng.random()) < p


def sample_face_style(
    rng: random.Random | np.random.Generator, *, held_out: bool = False
) -> FaceStyle:
    """Draw a random deck style.

    ``held_out=False`` draws only training styles; ``held_out=True`` draws only styles whose
    font, suit shapes and palette never occur in training - the proxy for a real deck.
    """
    u = functools.partial(_uniform, rng)
    font = _pick(rng, HELD_OUT_FONTS if held_out else TRAINING_FONTS)
    # every index must fit the classifier's corner region (vision.identity.crops: 0.44 of
    # the width, 0.34 of the height), so big indices come with smaller suits
    jumbo = _chance(rng, 0.2)
    side = (not jumbo) and _chance(rng, 0.12)
    index_width = u(0.7, 1.25)
    suit_scale = u(0.6, 0.95)
    index_y = u(0.025, 0.06)
    if jumbo:
        index_height = u(0.12, 0.14)
        suit_scale = u(0.55, 0.8)
        index_y = u(0.02, 0.045)
    elif side:
        index_height = u(0.065, 0.1)
        index_width = min(index_width, 1.0)
    else:
        index_height = u(0.065, 0.12)
    four_colour = _chance(rng, 0.2)
    if held_out:
        black, red, paper = _HELD_OUT_BLACK, _HELD_OUT_RED, _HELD_OUT_PAPER
        shape = _pick(rng, _HELD_OUT_SHAPES)
    else:
        black, red, paper = _pick(rng, _BLACKS), _pick(rng, _REDS), _pick(rng, _PAPERS)
        shape = _pick(rng, _TRAIN_SHAPES)
    wear = u(0.0, 1.0) if _chance(rng, 0.4) else 0.0
    if _chance(rng, 0.5):
        cast = (u(0.92, 1.04), u(0.95, 1.03), u(0.95, 1.06))
    else:
        cast = (1.0, 1.0, 1.0)
    return FaceStyle(
        font=font,
        italic=_chance(rng, 0.2),
        stroke=u(0.08, 0.2),
        index_height=index_height,
        index_width=index_width,
        index_slant=u(-0.08, 0.2) if _chance(rng, 0.25) else 0.0,
        index_x=u(0.03, 0.09),
        index_y=index_y,
        index_suit_scale=suit_scale,
        index_layout="side" if side else "stacked",
        corner_indices=4 if _chance(rng, 0.25) else 2,
        jumbo=jumbo,
        four_colour=four_colour,
        black=black,
        red=red,
        blue=_pick(rng, _BLUES),
        green=_pick(rng, _GREENS),
        paper=paper,
        shape=shape,
        centre="simple" if _chance(rng, 0.2) else "pips",
        pip_scale=u(0.8, 1.2),
        court=_pick(rng, COURT_STYLES),
        court_colour=_pick(rng, _ORANGES + _BLUES + _REDS),
        border=_chance(rng, 0.35),
        border_colour=_pick(rng, _BLACKS + _BLUES + _REDS),
        border_inset=u(0.02, 0.06),
        corner_radius=u(0.03, 0.09),
        wear=wear,
        cast=cast,
        seed=int(rng.integers(2**31)) if isinstance(rng, np.random.Generator)
        else rng.randrange(2**31),
        held_out=held_out,
    )


# --------------------------------------------------------------------------------------------
# Suit symbols as polygons
# --------------------------------------------------------------------------------------------


def _heart(n: int, lobe: float) -> np.ndarray:
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    x = 16.0 * np.sin(t) ** 3
    y = -(13.0 * np.cos(t) - 5.0 * lobe * np.cos(2 * t) - 2.0 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x, y], axis=1)
    return pts


def _normalise(pts: np.ndarray) -> np.ndarray:
    """Scale and centre a polygon into the box [-1, 1] (keeping its aspect)."""
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre = (lo + hi) / 2.0
    scale = float((hi - lo).max()) / 2.0
    return (pts - centre) / scale


@functools.lru_cache(maxsize=64)
def suit_polygon(suit: Suit, shape: int = 0) -> tuple[np.ndarray, ...]:
    """The filled polygons of a suit symbol, upright, within [-1, 1] (y down).

    Several polygons are returned for the club (three leaves and the stem); each is filled.
    ``shape`` picks a family of proportions (rounder, pointier, slimmer...).
    """
    lobe = (1.0, 1.25, 0.8, 1.5)[shape % 4]
    if suit is Suit.HEARTS:
        pts = _heart(72, lobe)
        if shape == 3:
            pts = pts * np.array([1.15, 1.0])
        return (_normalise(pts),)
    if suit is Suit.DIAMONDS:
        width = (0.72, 0.8, 0.62, 0.9)[shape % 4]
        bulge = (0.0, -0.1, 0.06, -0.14)[shape % 4]  # negative: concave sides
        corners = np.array([[0.0, -1.0], [width, 0.0], [0.0, 1.0], [-width, 0.0]])
        outline: list[np.ndarray] = []
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            mid = (a + b) / 2.0
            normal = np.array([b[1] - a[1], a[0] - b[0]])
            normal = normal / (np.linalg.norm(normal) + 1e-9)
            for s in np.linspace(0.0, 1.0, 12, endpoint=False):
                p = a + (b - a) * s + normal * bulge * 4.0 * s * (1.0 - s) * np.linalg.norm(b - a)
                outline.append(p)
        del mid
        return (np.array(outline),)
    if suit is Suit.SPADES:
        body = _heart(72, lobe) * np.array([1.0, -1.0])  # upside-down heart
        body = body - np.array([0.0, 2.5])
        stem_w = (3.5, 5.0, 2.5, 6.0)[shape % 4]
        stem = np.array([[0.0, 0.0], [stem_w, 14.0], [-stem_w, 14.0]])
        allpts = np.concatenate([body, stem])
        lo, hi = allpts.min(axis=0), allpts.max(axis=0)
        centre = (lo + hi) / 2.0
        scale = float((hi - lo).max()) / 2.0
        return ((body - centre) / scale, (stem - centre) / scale)
    # clubs: three circles and a stem
    r = (0.42, 0.46, 0.38, 0.5)[shape % 4]
    spread = (0.48, 0.5, 0.46, 0.55)[shape % 4]
    t = np.linspace(0.0, 2.0 * math.pi, 40, endpoint=False)
    circle = np.stack([np.cos(t), np.sin(t)], axis=1) * r
    leaves = [
        circle + np.array([0.0, -spread]),
        circle + np.array([-spread * 0.95, spread * 0.35]),
        circle + np.array([spread * 0.95, spread * 0.35]),
    ]
    centre_blob = np.stack([np.cos(t), np.sin(t)], axis=1) * r * 0.6 + np.array([0.0, 0.1])
    stem_w = (0.22, 0.3, 0.16, 0.36)[shape % 4]
    stem = np.array([[0.0, 0.05], [stem_w, 1.35], [-stem_w, 1.35]])
    parts = [*leaves, centre_blob, stem]
    allpts = np.concatenate(parts)
    lo, hi = allpts.min(axis=0), allpts.max(axis=0)
    centre = (lo + hi) / 2.0
    scale = float((hi - lo).max()) / 2.0
    return tuple((p - centre) / scale for p in parts)


def draw_suit(
    img: np.ndarray,
    suit: Suit,
    centre: tuple[float, float],
    size: float,
    colour: tuple[int, int, int],
    *,
    shape: int = 0,
    upside_down: bool = False,
) -> None:
    """Fill a suit symbol of height ``size`` px centred at ``centre`` (in place)."""
    half = size / 2.0
    for poly in suit_polygon(suit, shape):
        p = poly * half
        if upside_down:
            p = -p
        p = p + np.asarray(centre, dtype=np.float64)
        cv2.fillPoly(img, [np.round(p * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


# --------------------------------------------------------------------------------------------
# Rank glyphs
# --------------------------------------------------------------------------------------------

# Our own block font: strokes as polylines in a 0..1 box (x right, y down).
_BLOCK_GLYPHS: dict[str, list[list[tuple[float, float]]]] = {
    "A": [[(0.0, 1.0), (0.5, 0.0), (1.0, 1.0)], [(0.22, 0.6), (0.78, 0.6)]],
    "K": [[(0.0, 0.0), (0.0, 1.0)], [(1.0, 0.0), (0.0, 0.55)], [(0.3, 0.4), (1.0, 1.0)]],
    "Q": [[(0.5, 0.0), (0.0, 0.2), (0.0, 0.8), (0.5, 1.0), (1.0, 0.8), (1.0, 0.2), (0.5, 0.0)],
          [(0.6, 0.7), (1.0, 1.1)]],
    "J": [[(1.0, 0.0), (1.0, 0.8), (0.75, 1.0), (0.25, 1.0), (0.0, 0.75)]],
    "0": [[(0.5, 0.0), (0.0, 0.2), (0.0, 0.8), (0.5, 1.0), (1.0, 0.8), (1.0, 0.2), (0.5, 0.0)]],
    "1": [[(0.2, 0.2), (0.6, 0.0), (0.6, 1.0)]],
    "2": [[(0.0, 0.2), (0.3, 0.0), (0.8, 0.0), (1.0, 0.25), (0.0, 1.0), (1.0, 1.0)]],
    "3": [[(0.0, 0.0), (1.0, 0.0), (0.4, 0.4), (0.8, 0.45), (1.0, 0.7), (0.75, 1.0),
           (0.2, 1.0), (0.0, 0.85)]],
    "4": [[(0.75, 1.0), (0.75, 0.0), (0.0, 0.7), (1.0, 0.7)]],
    "5": [[(1.0, 0.0), (0.1, 0.0), (0.0, 0.45), (0.6, 0.4), (1.0, 0.6), (1.0, 0.85),
           (0.7, 1.0), (0.2, 1.0), (0.0, 0.85)]],
    "6": [[(0.9, 0.0), (0.3, 0.15), (0.0, 0.6), (0.1, 0.9), (0.5, 1.0), (0.9, 0.9),
           (1.0, 0.65), (0.7, 0.45), (0.3, 0.45), (0.0, 0.6)]],
    "7": [[(0.0, 0.0), (1.0, 0.0), (0.35, 1.0)]],
    "8": [[(0.5, 0.45), (0.1, 0.3), (0.15, 0.05), (0.5, 0.0), (0.85, 0.05), (0.9, 0.3),
           (0.5, 0.45), (0.05, 0.65), (0.1, 0.95), (0.5, 1.0), (0.9, 0.95), (0.95, 0.65),
           (0.5, 0.45)]],
    "9": [[(0.1, 1.0), (0.7, 0.85), (1.0, 0.4), (0.9, 0.1), (0.5, 0.0), (0.1, 0.1),
           (0.0, 0.35), (0.3, 0.55), (0.7, 0.55), (1.0, 0.4)]],
}

_RANK_TEXT = {r: r.letter for r in Rank}
_RANK_TEXT[Rank.TEN] = "10"  # real decks print "10"; the letter T is only our notation


def rank_text(rank: Rank) -> str:
    """What a real deck prints in the index ("10", not "T")."""
    return _RANK_TEXT[rank]


def _style_glyph_mask(text: str, style: FaceStyle, stroke_q: int) -> np.ndarray:
    """The rank glyph of ``style``: its font's, bent and weighted as the style says."""
    if not (style.glyph_warp or style.glyph_weight):
        return _glyph_mask(text, style.font, style.italic, stroke_q)
    return _varied_glyph_mask(text, style.font, style.italic, stroke_q,
                              round(style.glyph_warp * 1000), round(style.glyph_weight * 1000),
                              style.seed)


@functools.lru_cache(maxsize=1024)
def _varied_glyph_mask(text: str, font: int, italic: bool, stroke_q: int, warp_q: int,
                       weight_q: int, seed: int) -> np.ndarray:
    """:func:`_glyph_mask` bent by a smooth random displacement field (``warp_q`` / 1000 of
    the glyph's height; the same deck - ``seed`` - bends each glyph the same way) and made
    bolder or thinner by ``weight_q`` / 1000 of its height."""
    base = _glyph_mask(text, font, italic, stroke_q)
    pad = 12
    mask = cv2.copyMakeBorder(base, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    h, w = mask.shape
    ref = max(base.shape[0], 1)
    if weight_q:
        k = max(1, int(round(abs(weight_q) / 1000.0 * ref)))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        mask = cv2.dilate(mask, kernel) if weight_q > 0 else cv2.erode(mask, kernel)
    if warp_q:
        rng = np.random.default_rng([seed, sum(map(ord, text)), 0x61F])
        amp = warp_q / 1000.0 * ref
        coarse = rng.normal(0.0, 1.0, (2, 4, 4)).astype(np.float32)
        dx, dy = (cv2.resize(c, (w, h), interpolation=cv2.INTER_CUBIC) * amp for c in coarse)
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        mask = cv2.remap(mask, xs + dx, ys + dy, cv2.INTER_LINEAR, borderValue=0.0)
    ys_, xs_ = np.nonzero(mask > 0.08)
    if len(xs_) == 0:
        return base
    return np.ascontiguousarray(mask[ys_.min(): ys_.max() + 1, xs_.min(): xs_.max() + 1])


@functools.lru_cache(maxsize=4096)
def _glyph_mask(text: str, font: int, italic: bool, stroke_q: int) -> np.ndarray:
    """A tight float32 ink mask of ``text`` at a large reference size (cap height ~100 px)."""
    ref = 100
    thickness = max(1, int(round(stroke_q / 100.0 * ref)))
    if font == -1:
        width = int(ref * 0.62)
        gap = int(ref * 0.18)
        canvas = np.zeros((ref + 2 * ref, len(text) * (width + gap) + 2 * ref), np.uint8)
        for i, ch in enumerate(text):
            ox = ref + i * (width + gap)
            if ch == "1" and text == "10":
                ox += int(width * 0.2)
            for line in _BLOCK_GLYPHS[ch]:
                pts = np.array([(ox + x * width, ref + y * ref) for x, y in line])
                cv2.polylines(canvas, [np.round(pts * 16).astype(np.int32)], False, 255,
                              thickness, cv2.LINE_AA, shift=4)
    else:
        face = font | (cv2.FONT_ITALIC if italic else 0)
        (tw, th), _ = cv2.getTextSize("A", face, 1.0, 1)
        scale = ref / max(th, 1)
        (w, h), base = cv2.getTextSize(text, face, scale, thickness)
        canvas = np.zeros((h + base + 2 * ref, w + 2 * ref), np.uint8)
        cv2.putText(canvas, text, (ref, ref + h), face, scale, 255, thickness, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 20)
    if len(xs) == 0:
        return np.zeros((1, 1), np.float32)
    crop = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    return crop.astype(np.float32) / 255.0


def _paint_mask(
    img: np.ndarray, mask: np.ndarray, x: float, y: float, w: float, h: float,
    colour: tuple[int, int, int], slant: float = 0.0, upside_down: bool = False,
) -> None:
    """Resize ``mask`` into the box (x, y, w, h), optionally sheared, and paint it in colour."""
    H, W = img.shape[:2]
    src_h, src_w = mask.shape
    sx, sy = w / src_w, h / src_h
    # affine: scale, shear about the box's vertical centre, translate
    m = np.array([[sx, -slant * sy, x + slant * h / 2.0], [0.0, sy, y]], np.float64)
    if upside_down:  # rotate the box 180 degrees about the card centre
        m = np.array([[-1.0, 0.0, W - 1], [0.0, -1.0, H - 1]]) @ np.vstack([m, [0.0, 0.0, 1.0]])
    alpha = cv2.warpAffine(mask, m, (W, H), flags=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR)
    alpha = np.clip(alpha, 0.0, 1.0)[..., None]
    img[:] = (img * (1.0 - alpha) + np.asarray(colour, np.float32) * alpha).astype(img.dtype)


# --------------------------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------------------------


def index_boxes(
    style: FaceStyle, size: tuple[int, int] = (250, 350), rank: Rank = Rank.TEN
) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (x0, y0, x1, y1) in px of the upright top-left index, rank and suit.

    Returned as ``[index_box, rank_box, suit_box]``; used by the renderer and the training
    crops to know where the index lies (and whether something covers it). The other corners'
    indices are this box mirrored (top-right, four-index decks) and/or turned 180 degrees.
    """
    rank_box, suit_box = _index_layout(rank, style, size)
    x0 = min(rank_box[0], suit_box[0])
    y0 = min(rank_box[1], suit_box[1])
    x1 = max(rank_box[0] + rank_box[2], suit_box[0] + suit_box[2])
    y1 = max(rank_box[1] + rank_box[3], suit_box[1] + suit_box[3])
    return [
        (x0, y0, x1, y1),
        (rank_box[0], rank_box[1], rank_box[0] + rank_box[2], rank_box[1] + rank_box[3]),
        (suit_box[0], suit_box[1], suit_box[0] + suit_box[2], suit_box[1] + suit_box[3]),
    ]


def _index_layout(
    rank: Rank, style: FaceStyle, size: tuple[int, int]
) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """(x, y, w, h) of the rank glyphs and of the suit symbol of the top-left index."""
    W, H = size
    stroke_q = int(round(style.stroke * 100))
    mask = _style_glyph_mask(rank_text(rank), style, stroke_q)
    rh = style.index_height * H
    aspect = mask.shape[1] / mask.shape[0]
    if rank is Rank.TEN:
        aspect *= 0.82  # "10" is usually set tighter
    rw = min(rh * aspect * style.index_width, 0.3 * W)
    rx, ry = style.index_x * W, style.index_y * H
    ss = rh * style.index_suit_scale
    if style.index_layout == "side":
        ss = rh * min(style.index_suit_scale, 0.85)
        sx = rx + rw + 0.08 * rh
        sy = ry + (rh - ss) / 2.0
    else:
        # suit centred under the rank (centred on the average glyph width, not on "10")
        column = min(rh * 0.7 * style.index_width, 0.3 * W)
        cx = rx + max(column, rw if rank is not Rank.TEN else column) / 2.0
        sx = cx - ss / 2.0
        sy = ry + rh + 0.18 * rh
    return (rx, ry, rw, rh), (sx, sy, ss, ss)


def _draw_index(img: np.ndarray, card: Card, style: FaceStyle, *, right: bool,
                upside_down: bool) -> None:
    H, W = img.shape[:2]
    colour = style.colour_of(card.suit)
    (rx, ry, rw, rh), (sx, sy, ss, _) = _index_layout(card.rank, style, (W, H))
    if right:  # index in the top-right corner: mirror the position, keep the glyphs upright
        width = max(rx + rw, sx + ss) - rx
        shift = W - 2 * rx - width
        rx += shift
        sx += shift
    stroke_q = int(round(style.stroke * 100))
    mask = _style_glyph_mask(rank_text(card.rank), style, stroke_q)
    _paint_mask(img, mask, rx, ry, rw, rh, colour, style.index_slant, upside_down)
    centre = (sx + ss / 2.0, sy + ss / 2.0)
    if upside_down:
        centre = (W - 1 - centre[0], H - 1 - centre[1])
    draw_suit(img, card.suit, centre, ss, colour, shape=style.shape, upside_down=upside_down)


# Pip positions on a unit grid: x in {0, 0.5, 1} columns, y in 0..1 rows.
_PIPS: dict[Rank, tuple[tuple[float, float], ...]] = {
    Rank.TWO: ((0.5, 0.0), (0.5, 1.0)),
    Rank.THREE: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    Rank.FOUR: ((0, 0), (1, 0), (0, 1), (1, 1)),
    Rank.FIVE: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    Rank.SIX: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    Rank.SEVEN: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    Rank.EIGHT: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    Rank.NINE: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3),
                (0, 1), (1, 1)),
    Rank.TEN: ((0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3),
               (0.5, 5 / 6), (0, 1), (1, 1)),
}


def _centre_box(style: FaceStyle, W: int, H: int) -> tuple[float, float, float, float]:
    """The area between the indices where pips and pictures go (x0, y0, x1, y1)."""
    rank_box, (sx, _, ss, _) = _index_layout(Rank.TEN, style, (W, H))
    left = max(rank_box[0] + rank_box[2], sx + ss) + 0.03 * W
    left = min(left, 0.3 * W)
    top = 0.1 * H
    return left, top, W - left, H - top


def _draw_pips(img: np.ndarray, card: Card, style: FaceStyle) -> None:
    H, W = img.shape[:2]
    x0, y0, x1, y1 = _centre_box(style, W, H)
    colour = style.colour_of(card.suit)
    if card.rank is Rank.ACE or style.centre == "simple":
        size = min(x1 - x0, y1 - y0) * (0.55 if card.rank is Rank.ACE else 0.45) * style.pip_scale
        draw_suit(img, card.suit, (W / 2.0, H / 2.0), size, colour, shape=style.shape)
        if style.centre == "simple" and card.rank is not Rank.ACE:
            # a large rank above and below, as in some simplified / jumbo designs
            stroke_q = int(round(style.stroke * 100))
            mask = _style_glyph_mask(rank_text(card.rank), style, stroke_q)
            gh = (y1 - y0) * 0.16
            gw = gh * mask.shape[1] / mask.shape[0]
            _paint_mask(img, mask, W / 2 - gw / 2, y0 + 0.02 * H, gw, gh, colour)
            _paint_mask(img, mask, W / 2 - gw / 2, y0 + 0.02 * H, gw, gh, colour,
                        upside_down=True)
        return
    pad_x = (x1 - x0) * 0.18
    pad_y = (y1 - y0) * 0.1
    gx0, gx1 = x0 + pad_x, x1 - pad_x
    gy0, gy1 = y0 + pad_y, y1 - pad_y
    size = min((gx1 - gx0) * 0.42, (gy1 - gy0) * 0.2) * style.pip_scale
    gy0 += size / 2
    gy1 -= size / 2
    for px, py in _PIPS[card.rank]:
        cx = gx0 + px * (gx1 - gx0)
        cy = gy0 + py * (gy1 - gy0)
        draw_suit(img, card.suit, (cx, cy), size, colour, shape=style.shape,
                  upside_down=py > 0.5)


def _draw_court(img: np.ndarray, card: Card, style: FaceStyle) -> None:
    H, W = img.shape[:2]
    x0, y0, x1, y1 = _centre_box(style, W, H)
    colour = style.colour_of(card.suit)
    accent = style.court_colour
    stroke_q = int(round(style.stroke * 100))
    if style.court in ("framed", "figure"):
        t = max(1, int(round(0.008 * W)))
        cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), colour, t, cv2.LINE_AA)
    if style.court == "letter":
        mask = _style_glyph_mask(rank_text(card.rank), style, stroke_q)
        gh = (y1 - y0) * 0.35
        gw = min(gh * mask.shape[1] / mask.shape[0], (x1 - x0) * 0.8)
        _paint_mask(img, mask, W / 2 - gw / 2, H / 2 - gh / 2, gw, gh, colour)
        ss = gh * 0.35
        draw_suit(img, card.suit, (W / 2, y0 + ss * 0.9), ss, colour, shape=style.shape)
        draw_suit(img, card.suit, (W / 2, y1 - ss * 0.9), ss, colour, shape=style.shape,
                  upside_down=True)
        return
    # a simplified double-headed figure: head, headwear by rank, body, mirrored
    half = np.full_like(img, 0)
    hmask = np.zeros(img.shape[:2], np.uint8)
    cx = W / 2
    bw = (x1 - x0) * 0.7
    mid = (y0 + y1) / 2
    head_r = (y1 - y0) * 0.08
    head_c = (cx, y0 + (y1 - y0) * 0.2)
    skin = (170, 200, 240)
    body = np.array([[cx - bw * 0.2, head_c[1] + head_r], [cx + bw * 0.2, head_c[1] + head_r],
                     [cx + bw * 0.5, mid], [cx - bw * 0.5, mid]])
    cv2.fillPoly(half, [np.round(body * 16).astype(np.int32)], accent, cv2.LINE_AA, shift=4)
    cv2.fillPoly(hmask, [np.round(body * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    stripe = np.array([[cx - bw * 0.06, head_c[1] + head_r], [cx + bw * 0.06, head_c[1] + head_r],
                       [cx + bw * 0.12, mid], [cx - bw * 0.12, mid]])
    cv2.fillPoly(half, [np.round(stripe * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
    c = (int(round(head_c[0])), int(round(head_c[1])))
    cv2.circle(half, c, int(round(head_r)), skin, -1, cv2.LINE_AA)
    cv2.circle(hmask, c, int(round(head_r)), 255, -1, cv2.LINE_AA)
    top = head_c[1] - head_r
    if card.rank is Rank.KING:  # crown with three points
        unit = [(-1, 0.3), (-1, -0.6), (-0.5, -0.1), (0, -0.8), (0.5, -0.1), (1, -0.6), (1, 0.3)]
    elif card.rank is Rank.QUEEN:  # rounded veil
        unit = [(-1.3, 1.2), (-1, -0.4), (0, -0.6), (1, -0.4), (1.3, 1.2), (0, 0.2)]
    else:  # jack: a flat cap with a feather
        unit = [(-1.4, 0.4), (-1, -0.3), (0.9, -0.3), (1.6, -1.0), (1.2, 0.4)]
    crown = np.array(unit, np.float64) * head_r + np.array([cx, top])
    cv2.fillPoly(half, [np.round(crown * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
    cv2.fillPoly(hmask, [np.round(crown * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    draw_suit(half, card.suit, (cx + bw * 0.32, head_c[1]), head_r * 1.3, colour,
              shape=style.shape)
    cv2.circle(hmask, (int(cx + bw * 0.32), int(head_c[1])), int(head_r * 0.8), 255, -1)
    # mirror the upper half into the lower half (rotated 180 degrees)
    mask = hmask.astype(np.float32) / 255.0
    mask = np.maximum(mask, np.rot90(mask, 2))
    pic = np.where(hmask[..., None] > 0, half, np.rot90(half, 2))
    m = np.clip(mask, 0, 1)[..., None]
    img[:] = (img * (1 - m) + pic * m).astype(img.dtype)
    cv2.line(img, (int(x0 + 0.05 * W), int(mid)), (int(x1 - 0.05 * W), int(mid)), colour,
             max(1, int(0.006 * W)), cv2.LINE_AA)


def _apply_wear(img: np.ndarray, style: FaceStyle, card: Card) -> np.ndarray:
    H, W = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    if style.wear > 0:
        rng = np.random.default_rng((style.seed, card.rank.value, ord(card.suit.value)))
        # faded ink and dirty paper: low-frequency blotches
        small = rng.normal(0.0, 1.0, (6, 5)).astype(np.float32)
        blot = cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC)
        out = out * (1.0 - 0.06 * style.wear * np.clip(blot, 0, None))[..., None]
        fade = 0.25 * style.wear
        out = out * (1 - fade) + np.asarray(style.paper, np.float32) * fade * 0.9 + 20 * fade
        # scratches
        for _ in range(int(style.wear * 12)):
            p = rng.uniform([0, 0], [W, H])
            d = rng.normal(0, 1, 2)
            d = d / (np.linalg.norm(d) + 1e-9) * rng.uniform(0.05, 0.3) * W
            shade = float(rng.uniform(-35, 35))
            cv2.line(out, tuple(int(v) for v in p), tuple(int(v) for v in p + d),
                     tuple([float(c) + shade for c in style.paper]), 1, cv2.LINE_AA)
    out = out * np.asarray(style.cast, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def render_face(card: Card, style: FaceStyle, size: tuple[int, int] = (250, 350)) -> np.ndarray:
    """Draw the face of ``card`` in ``style``: BGR uint8 (h, w, 3), upright, portrait.

    Pixels outside the rounded corners are black (0); a renderer that wants the table to show
    through there can mask them with :func:`face_mask`.
    """
    W, H = int(size[0]), int(size[1])
    if W < 8 or H < 8:
        raise ValueError(f"face size too small: {size!r} (expected at least 8x8 px)")
    img = np.empty((H, W, 3), np.float32)
    img[:] = np.asarray(style.paper, np.float32)
    if style.border:
        inset = style.border_inset * W
        t = max(1, int(round(0.01 * W)))
        cv2.rectangle(img, (int(inset), int(inset)), (int(W - inset), int(H - inset)),
                      style.border_colour, t, cv2.LINE_AA)
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        _draw_court(img, card, style)
    else:
        _draw_pips(img, card, style)
    _draw_index(img, card, style, right=False, upside_down=False)
    _draw_index(img, card, style, right=False, upside_down=True)
    if style.corner_indices == 4:
        _draw_index(img, card, style, right=True, upside_down=False)
        _draw_index(img, card, style, right=True, upside_down=True)
    out = _apply_wear(np.clip(img, 0, 255), style, card)
    out[face_mask((W, H), style.corner_radius) == 0] = 0
    return out


@functools.lru_cache(maxsize=32)
def _corner_mask(W: int, H: int, radius_q: int) -> np.ndarray:
    r = max(1, int(round(radius_q / 1000.0 * W)))
    m = np.zeros((H, W), np.uint8)
    cv2.rectangle(m, (r, 0), (W - 1 - r, H - 1), 255, -1)
    cv2.rectangle(m, (0, r), (W - 1, H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    m.setflags(write=False)
    return m


def face_mask(size: tuple[int, int], corner_radius: float = 0.06) -> np.ndarray:
    """uint8 mask (h, w): 255 inside the card's rounded outline, 0 outside."""
    return _corner_mask(int(size[0]), int(size[1]), int(round(corner_radius * 1000)))
