"""Procedural textures: table surfaces, card backs, placeholder faces, clutter.

Everything is vectorised numpy/OpenCV (no per-pixel Python loops) and cached on the
:class:`~vision.synth.style.TableStyle` that asked for it, so a style drawn once renders many
frames cheaply.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from vision.cards import Card
from vision.synth.style import CARD_SIZES_MM, BackStyle, TableStyle

# --------------------------------------------------------------------------------------------
# Noise helpers
# --------------------------------------------------------------------------------------------


def smooth_noise(rng: np.random.Generator, size: tuple[int, int], cell: float) -> np.ndarray:
    """Low-frequency noise in [0, 1], float32 (h, w): random values on a grid, upsampled."""
    w, h = size
    gw = max(2, int(w / cell) + 2)
    gh = max(2, int(h / cell) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


# --------------------------------------------------------------------------------------------
# Table surface
# --------------------------------------------------------------------------------------------


def table_background(style: TableStyle) -> np.ndarray:
    """The empty table (BGR uint8, image size), cached on the style. Do not modify it."""
    key = ("background",)
    if key not in style.cache:
        w, h = style.image_size
        if min(w, h) > 400:  # texture drawn at half size and enlarged: 4x cheaper, looks alike
            small = _draw_background(style, ((w + 1) // 2, (h + 1) // 2))
            img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        else:
            img = _draw_background(style, (w, h))
        img.setflags(write=False)
        style.cache[key] = img
    return style.cache[key]


def _draw_background(style: TableStyle, size: tuple[int, int]) -> np.ndarray:
    rng = np.random.default_rng([style.seed, 101])
    w, h = size
    k = w / style.image_size[0]  # texture scale (periods are given at full size)
    c1 = np.asarray(style.table_colour, np.float32)
    c2 = np.asarray(style.table_colour2, np.float32)
    s = style.texture_strength
    kind = style.table_kind
    if kind == "plain":
        img: np.ndarray = np.empty((h, w, 3), np.float32)
        img[:] = c1
        return img.astype(np.uint8)
    xx = np.arange(w, dtype=np.float32)[None, :]
    yy = np.arange(h, dtype=np.float32)[:, None]
    if kind == "wood":
        ang = float(rng.uniform(0, math.pi))
        across = -xx * math.sin(ang) + yy * math.cos(ang)
        warp = smooth_noise(rng, (w, h), cell=float(rng.uniform(60, 200)) * k) * float(
            rng.uniform(10, 40)) * k
        period = float(rng.uniform(6, 25)) * k
        grain = 0.5 + 0.5 * np.sin((across + warp) * (2 * math.pi / period))
        grain = grain ** float(rng.uniform(1.5, 4.0))
        fine = smooth_noise(rng, (w, h), cell=2.0)
        t = np.clip(0.65 * grain + 0.2 * fine + 0.15 * smooth_noise(rng, (w, h), 120), 0, 1)
        # planks: a dark seam every plank width
        plank = float(rng.uniform(80, 250)) * k
        seam = (np.mod(across, plank) < 1.5).astype(np.float32)
        img = c1[None, None, :] * (1 - t[..., None]) + c2[None, None, :] * 0.7 * t[..., None]
        img *= (1 - 0.35 * seam)[..., None]
    else:
        low = smooth_noise(rng, (w, h), cell=float(rng.uniform(80, 300)) * k)
        fine = rng.random((h, w), dtype=np.float32)
        fine = cv2.GaussianBlur(fine, (0, 0), float(rng.uniform(0.5, 1.2)))
        fine = (fine - 0.5) * 2.5 + 0.5  # blurring shrank the contrast
        t = (low - 0.5) * 0.6 + (fine - 0.5) * 0.8
        if kind == "cloth":
            p = max(2.2, float(rng.uniform(2.5, 6.0)) * k)
            weave = np.sin(xx * (2 * math.pi / p)) * np.sin(yy * (2 * math.pi / p))
            t = t + 0.3 * weave
        elif kind == "pattern":
            p = float(rng.uniform(20, 80)) * k
            check = ((np.floor(xx / p) + np.floor(yy / p)) % 2).astype(np.float32)
            if rng.random() < 0.5:
                check = (np.floor(xx / p) % 2).astype(np.float32)
            t = t * 0.5 + (check - 0.5) * 0.8
        img = c1[None, None, :] + (c2 - c1)[None, None, :] * 0.5 + t[..., None] * (
            (c2 - c1)[None, None, :] + 40.0 * s)
    return np.clip(img, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------


def card_pixel_size(style: TableStyle, scale: float = 1.25) -> tuple[int, int]:
    """(w, h) of the cached card images: a little larger than on the canvas."""
    s, long = style.card_size
    h = max(16, int(round(long * scale)))
    w = max(10, int(round(h * s / long)))
    return w, h


def rounded_alpha(w: int, h: int, radius_frac: float) -> np.ndarray:
    """float32 (h, w) alpha in [0, 1]: a rectangle with rounded corners, anti-aliased.

    Straight sides stay fully opaque to the last pixel: the warp onto the table (bilinear, with
    a transparent border) makes the anti-aliased edge, centred exactly on the card's outline.
    """
    r = max(1.0, radius_frac * w)
    xx = np.arange(w, dtype=np.float32)[None, :] + 0.5
    yy = np.arange(h, dtype=np.float32)[:, None] + 0.5
    dx = np.maximum(np.maximum(r - xx, xx - (w - r)), 0)
    dy = np.maximum(np.maximum(r - yy, yy - (h - r)), 0)
    d = np.sqrt(dx * dx + dy * dy) - r  # > 0 outside the rounded corner
    return np.clip(0.5 - d, 0, 1).astype(np.float32)


def _alpha_and_shade(style: TableStyle, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """(alpha uint8 (h, w), colour factor float32 (h, w, 1)) for the card outline; cached.

    The colour factor is the outline shading times the coverage (premultiplied alpha).
    """
    key = ("alpha", w, h)
    if key not in style.cache:
        alpha = rounded_alpha(w, h, style.corner_radius)
        shade = np.ones((h, w), np.float32)
        if style.edge_shade > 0:  # the card's outline: its outermost pixels, darker
            inner = np.zeros_like(alpha)
            inner[1:-1, 1:-1] = cv2.erode(alpha, np.ones((3, 3), np.uint8))[1:-1, 1:-1]
            shade -= style.edge_shade * np.clip(alpha - inner, 0, 1)
        a8 = (alpha * 255 + 0.5).astype(np.uint8)
        shade = shade * (a8.astype(np.float32) / 255.0)  # premultiply by the coverage
        style.cache[key] = (a8, shade[..., None])
    return style.cache[key]


def _with_alpha(bgr: np.ndarray, style: TableStyle) -> np.ndarray:
    """Premultiplied BGRA uint8 card image: rounded corners and a darkened outline.

    Premultiplied colour is what makes bilinear warping with a transparent border exact: the
    edge pixels then carry as much colour as they carry coverage.
    """
    h, w = bgr.shape[:2]
    alpha, shade = _alpha_and_shade(style, w, h)
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = (bgr * shade).astype(np.uint8)  # shade includes the coverage
    out[..., 3] = alpha
    return out


def draw_back(back: BackStyle, size: tuple[int, int], seed: int = 0) -> np.ndarray:
    """The back design at ``size`` = (w, h), portrait, BGR uint8 (no rounding)."""
    w, h = size
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.asarray(back.colour, np.float32)
    ink = np.asarray(back.ink, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = max(2.0, back.period * w)
    ang = math.radians(back.angle)
    u = xx * math.cos(ang) + yy * math.sin(ang)
    v = -xx * math.sin(ang) + yy * math.cos(ang)
    th = back.thickness
    pat = back.pattern
    if pat == "solid":
        m = np.zeros((h, w), np.float32)
    elif pat == "lattice":
        m = ((np.mod(u, p) < th * p) | (np.mod(v, p) < th * p)).astype(np.float32)
    elif pat == "stripes":
        m = (np.mod(u, p) < th * p).astype(np.float32)
    elif pat == "checker":
        m = ((np.floor(u / p) + np.floor(v / p)) % 2).astype(np.float32)
    elif pat == "dots":
        du = np.mod(u, p) - p / 2
        dv = np.mod(v, p) - p / 2
        m = (du * du + dv * dv < (th * p * 0.8) ** 2).astype(np.float32)
    elif pat == "rings":
        r = np.sqrt((xx - w / 2) ** 2 + ((yy - h / 2) * w / h) ** 2)
        m = (np.mod(r, p) < th * p).astype(np.float32)
    elif pat == "waves":
        m = (np.mod(u + 0.25 * p * np.sin(v * 2 * math.pi / p), p) < th * p).astype(np.float32)
    elif pat == "medallion":
        dx, dy = xx - w / 2, (yy - h / 2) * w / h
        r = np.sqrt(dx * dx + dy * dy)
        theta = np.arctan2(dy, dx)
        m = (np.cos(theta * 8 + r * (2 * math.pi / p)) > 1 - 2 * th).astype(np.float32)
    elif pat == "scroll":
        m = (np.sin(u * (2 * math.pi / p)) * np.sin(v * (2 * math.pi / p)) > 1 - 2 * th).astype(
            np.float32)
    else:  # diamonds
        m = ((np.abs(np.mod(u, p) - p / 2) + np.abs(np.mod(v, p) - p / 2)) < th * p).astype(
            np.float32)
    img += (ink - img) * m[..., None]
    if back.logo:
        cv2.ellipse(img, (w // 2, h // 2), (int(w * 0.28), int(h * 0.18)), 0, 0, 360,
                    tuple(float(c) for c in back.colour), -1, cv2.LINE_AA)
        cv2.ellipse(img, (w // 2, h // 2), (int(w * 0.28), int(h * 0.18)), 0, 0, 360,
                    tuple(float(c) for c in back.ink), max(1, w // 40), cv2.LINE_AA)
        letter = "ABCDEFGHKMNPRSTWZ"[seed % 17]
        scale = w / 90.0
        (tw, tht), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
        img8 = np.clip(img, 0, 255).astype(np.uint8)
        cv2.putText(img8, letter, (w // 2 - tw // 2, h // 2 + tht // 2), cv2.FONT_HERSHEY_DUPLEX,
                    scale, tuple(int(c) for c in back.ink), max(1, w // 45), cv2.LINE_AA)
        img = img8.astype(np.float32)
    if back.border > 0:
        b = max(1, int(round(back.border * w)))
        bc = np.asarray(back.border_colour, np.float32)
        img[:b] = bc
        img[-b:] = bc
        img[:, :b] = bc
        img[:, -b:] = bc
    if back.frame:
        b = max(1, int(round((back.border + 0.04) * w)))
        cv2.rectangle(img, (b, b), (w - 1 - b, h - 1 - b), tuple(float(c) for c in back.ink),
                      max(1, w // 50), cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def back_image(style: TableStyle) -> np.ndarray:
    """The card back as BGRA uint8, cached on the style."""
    key = ("back",)
    if key not in style.cache:
        size = card_pixel_size(style)
        style.cache[key] = _with_alpha(draw_back(style.back, size, style.seed), style)
    return style.cache[key]


def placeholder_face(card: Card, size: tuple[int, int]) -> np.ndarray:
    """A plain white card with its name: used only when no face module is available."""
    w, h = size
    img = np.full((h, w, 3), 245, np.uint8)
    colour = (30, 30, 200) if card.suit.is_red else (20, 20, 20)
    text = str(card)
    scale = w / 60.0
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    cv2.putText(img, text, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                colour, max(1, w // 30), cv2.LINE_AA)
    cv2.putText(img, text, (2, th + 2), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.5, colour, 1,
                cv2.LINE_AA)
    return img


#: Faces are drawn once at this width (height from the card format) and cached across
#: scenes, then shrunk to each scene's card size: drawing a face costs ~3 ms, shrinking ~20 us.
FACE_CANONICAL_WIDTH = 90


@functools.lru_cache(maxsize=5000)
def _canonical_face(face_style, card: Card, w: int, h: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    from vision.synth import faces

    bgr = faces.render_face(card, face_style, size=(w, h))
    # the face module paints outside the rounded corners black; the paper shows there instead
    bgr[faces.face_mask((w, h), face_style.corner_radius) == 0] = np.asarray(
        face_style.paper, np.uint8)
    bgr.setflags(write=False)
    return bgr


def face_image(style: TableStyle, card: Card) -> np.ndarray:
    """The face of ``card`` as BGRA uint8 (portrait, upright), cached on the style."""
    key = ("face", card)
    img = style.cache.get(key)
    if img is None:
        size = card_pixel_size(style)
        if style.face is not None:
            cw = FACE_CANONICAL_WIDTH
            s_mm, l_mm = CARD_SIZES_MM[style.card_format]
            ch = int(round(cw * l_mm / s_mm))
            bgr = _canonical_face(style.face, card, cw, ch)
            interp = cv2.INTER_AREA if size[0] < cw else cv2.INTER_LINEAR
            bgr = cv2.resize(bgr, size, interpolation=interp)
        else:
            bgr = placeholder_face(card, size)
        img = _with_alpha(bgr, style)
        style.cache[key] = img
    return img


# --------------------------------------------------------------------------------------------
# Clutter: objects lying on the table (drawn into the background copy, under the cards)
# --------------------------------------------------------------------------------------------


def draw_clutter(img: np.ndarray, rng: np.random.Generator, centre: tuple[float, float],
                 size: float) -> None:
    """Draw one random object (bidding box, score pad, phone, glass, coin) at ``centre``."""
    kind = int(rng.integers(5))
    cx, cy = centre
    ang = float(rng.uniform(0, 180))
    if kind == 0:  # bidding box: a box with coloured card edges
        w, h = size * 1.2, size * 0.8
        _rot_rect(img, (cx, cy), (w, h), ang, (40, 40, 40))
        for i, col in enumerate(((40, 40, 200), (200, 200, 200), (40, 160, 40), (30, 200, 230))):
            _rot_rect(img, (cx, cy - h * 0.3 + i * h * 0.18), (w * 0.9, h * 0.1), ang, col)
    elif kind == 1:  # score pad: white paper with ruled lines
        w, h = size * 0.8, size * 1.1
        _rot_rect(img, (cx, cy), (w, h), ang, (235, 240, 240))
        for i in range(6):
            off = -h * 0.35 + i * h * 0.14
            dx, dy = -math.sin(math.radians(ang)) * off, math.cos(math.radians(ang)) * off
            _rot_rect(img, (cx + dx, cy + dy), (w * 0.8, max(1.0, h * 0.012)), ang, (150, 110, 90))
    elif kind == 2:  # phone: dark rounded slab with a screen
        w, h = size * 0.5, size
        _rot_rect(img, (cx, cy), (w, h), ang, (25, 25, 25))
        scr = tuple(int(v) for v in rng.integers(40, 200, 3))
        _rot_rect(img, (cx, cy), (w * 0.85, h * 0.85), ang, scr)
    elif kind == 3:  # glass seen from above: rim, transparent body, highlight
        r = int(size * 0.4)
        c = (int(cx), int(cy))
        roi_tint = img.copy()
        cv2.circle(roi_tint, c, r, (210, 210, 200), -1, cv2.LINE_AA)
        cv2.addWeighted(roi_tint, 0.35, img, 0.65, 0, dst=img)
        cv2.circle(img, c, r, (220, 220, 220), max(1, r // 8), cv2.LINE_AA)
        cv2.circle(img, (int(cx - r * 0.3), int(cy - r * 0.3)), max(1, r // 5), (250, 250, 250),
                   -1, cv2.LINE_AA)
    else:  # coins
        for _ in range(int(rng.integers(1, 4))):
            r = max(2, int(size * rng.uniform(0.1, 0.16)))
            c = (int(cx + rng.normal(0, size * 0.2)), int(cy + rng.normal(0, size * 0.2)))
            col = (60, 150, 190) if rng.random() < 0.5 else (180, 180, 175)
            cv2.circle(img, c, r, col, -1, cv2.LINE_AA)
            cv2.circle(img, c, r, tuple(int(v * 0.7) for v in col), max(1, r // 6), cv2.LINE_AA)


def _rot_rect(img: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
              angle: float, colour: tuple[int, ...]) -> None:
    box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (float(size[0]), float(size[1])),
                         float(angle)))
    cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), tuple(int(c) for c in colour),
                       cv2.LINE_AA, 4)
