"""Drawing a laid-out table into a photo, with exact ground truth for every card.

Pipeline of :func:`render_scene` (all on the *canvas*, the table seen straight from above, until
the camera step):

1. the table surface with clutter (cached per style);
2. the cards in z order, each card image warped to its quad with a soft shadow under it;
3. hands and arms over the table (occluders);
4. the camera: a homography for tilt and roll plus radial lens distortion, applied to the
   image and, identically, to a label map and to the card quads;
5. photometry: lighting gradient, vignette, colour cast, glare, blur, noise.

Visible polygons come from the label map (each card's id drawn in z order, hands on top) warped
with the same camera as the image, so they match the pixels exactly.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.synth.layout import CardPlacement
from vision.synth.style import TableStyle
from vision.synth.textures import (
    back_image,
    draw_clutter,
    face_image,
    smooth_noise,
    table_background,
)

HAND_LABEL = 255
MAX_CARDS = 250


# --------------------------------------------------------------------------------------------
# Camera
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraModel:
    """Canvas -> image mapping: ``H`` (3x3 homography), then radial distortion ``k1``."""

    H: np.ndarray
    k1: float
    size: tuple[int, int]

    @property
    def is_identity(self) -> bool:
        return self.k1 == 0.0 and bool(np.allclose(self.H, np.eye(3), atol=1e-9))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Map canvas points (N, 2) to image points (N, 2)."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        ph = np.hstack([p, np.ones((len(p), 1))]) @ self.H.T
        q = ph[:, :2] / ph[:, 2:3]
        if self.k1 != 0.0:
            c, R = self._centre_radius()
            d = q - c
            r2 = np.minimum((d * d).sum(1, keepdims=True) / (R * R), self._r2_max())
            q = c + d * (1.0 + self.k1 * r2)
        return q

    def _r2_max(self) -> float:
        """Where the radial model stops growing: beyond it the lens would fold the plane
        back (barrel) or blow up (pincushion); far outside the image only."""
        return 1.0 / (3.0 * abs(self.k1)) if self.k1 != 0.0 else np.inf

    def _centre_radius(self) -> tuple[np.ndarray, float]:
        w, h = self.size
        return np.array([(w - 1) / 2.0, (h - 1) / 2.0]), 0.5 * math.hypot(w, h)

    def maps(self, step: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """Per output pixel, where to sample the canvas (for ``cv2.remap``).

        The mapping is smooth, so it is computed on a grid ``step`` px apart and enlarged
        bilinearly (sub-0.05 px error, ~10x faster than per pixel).
        """
        w, h = self.size
        gw, gh = -(-w // step), -(-h // step)
        xs = (np.arange(gw, dtype=np.float64) + 0.5) * (w / gw) - 0.5
        ys = (np.arange(gh, dtype=np.float64) + 0.5) * (h / gh) - 0.5
        mx, my = self._sources(xs[None, :].repeat(gh, 0), ys[:, None].repeat(gw, 1))
        if (gw, gh) != (w, h):
            mx = cv2.resize(mx, (w, h), interpolation=cv2.INTER_LINEAR)
            my = cv2.resize(my, (w, h), interpolation=cv2.INTER_LINEAR)
            # the outer half cell is extrapolated by the resize: compute it exactly
            b = step
            cols = np.r_[0:b, w - b:w].astype(np.float64)
            rows = np.r_[0:b, h - b:h].astype(np.float64)
            yy = np.arange(h, dtype=np.float64)
            xx = np.arange(w, dtype=np.float64)
            ex, ey = self._sources(cols[None, :].repeat(h, 0), yy[:, None].repeat(2 * b, 1))
            mx[:, np.r_[0:b, w - b:w]], my[:, np.r_[0:b, w - b:w]] = ex, ey
            ex, ey = self._sources(xx[None, :].repeat(2 * b, 0), rows[:, None].repeat(w, 1))
            mx[np.r_[0:b, h - b:h], :], my[np.r_[0:b, h - b:h], :] = ex, ey
        return mx, my

    def _sources(self, xx: np.ndarray, yy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Canvas positions seen at image positions (xx, yy): undistort, then inverse H."""
        c, R = self._centre_radius()
        dx = xx - c[0]
        dy = yy - c[1]
        # invert q_d = c + (q - c)(1 + k1 r^2) by fixed-point iteration
        ux, uy = dx.copy(), dy.copy()
        r2_max = self._r2_max()
        for _ in range(6):
            f = 1.0 + self.k1 * np.minimum((ux * ux + uy * uy) / (R * R), r2_max)
            ux = dx / f
            uy = dy / f
        ux += c[0]
        uy += c[1]
        Hi = np.linalg.inv(self.H)
        den = Hi[2, 0] * ux + Hi[2, 1] * uy + Hi[2, 2]
        mx = (Hi[0, 0] * ux + Hi[0, 1] * uy + Hi[0, 2]) / den
        my = (Hi[1, 0] * ux + Hi[1, 1] * uy + Hi[1, 2]) / den
        return mx.astype(np.float32), my.astype(np.float32)

    def warp(self, img: np.ndarray, *, nearest: bool = False, cache: dict | None = None,
             fill: float = 0.0) -> np.ndarray:
        """Apply the camera to a canvas-sized image (outside the canvas: ``fill``)."""
        if self.is_identity:
            return img
        w, h = self.size
        flags = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        border = cv2.BORDER_CONSTANT
        value = (fill,) * 4
        if self.k1 == 0.0:
            return cv2.warpPerspective(img, self.H, (w, h), flags=flags, borderMode=border,
                                       borderValue=value)
        key = ("camera_maps",)
        if cache is not None and key in cache:
            mx, my = cache[key]
        else:
            mx, my = self.maps()
            if cache is not None:
                cache[key] = (mx, my)
        return cv2.remap(img, mx, my, flags, borderMode=border, borderValue=value)


def table_region(style: TableStyle) -> np.ndarray:
    """Corners of the square region (canvas px) that holds every row."""
    cx, cy = style.table_centre
    half = max(style.row_distance, style.row_length / 2.0) + 0.75 * style.card_long_px
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                     [cx - half, cy + half]])


def camera_model(style: TableStyle) -> CameraModel:
    """The style's camera, framed so the whole table region stays in the image (cached)."""
    key = ("camera",)
    if key in style.cache:
        return style.cache[key]
    cam = style.camera
    w, h = style.image_size
    f = cam.focal * w
    K = np.array([[f, 0, (w - 1) / 2.0], [0, f, (h - 1) / 2.0], [0, 0, 1.0]])
    phi = math.radians(cam.tilt_dir_deg)
    axis = np.array([math.cos(phi), math.sin(phi), 0.0])
    R, _ = cv2.Rodrigues(axis * math.radians(cam.tilt_deg))
    roll = math.radians(cam.roll_deg)
    c, s = math.cos(roll), math.sin(roll)
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    Rz = np.array([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy], [0, 0, 1.0]])
    H0 = K @ R @ np.linalg.inv(K) @ Rz
    region = table_region(style)
    pts = np.hstack([region, np.ones((4, 1))]) @ H0.T
    pts = pts[:, :2] / pts[:, 2:3]
    lo, hi = pts.min(0), pts.max(0)
    bw, bh = hi - lo
    m = cam.margin
    scale = min(1.0, w * (1 - 2 * m) / max(bw, 1.0), h * (1 - 2 * m) / max(bh, 1.0))
    if cam.k1 > 0:  # pincushion pushes the corners out; barrel pulls them in
        scale /= 1.0 + cam.k1
    centre_now = (lo + hi) / 2.0
    # keep the table off-centre the way the style placed it, within the free space
    want = np.array([cx, cy]) + (np.asarray(style.table_centre) - np.array([cx, cy])) * scale
    slack = np.array([w * (1 - 2 * m) - scale * bw, h * (1 - 2 * m) - scale * bh]) / 2.0
    want = np.array([cx, cy]) + np.clip(want - np.array([cx, cy]), -np.maximum(slack, 0),
                                        np.maximum(slack, 0))
    S = np.array([[scale, 0, want[0] - scale * centre_now[0]],
                  [0, scale, want[1] - scale * centre_now[1]], [0, 0, 1.0]])
    H = S @ H0
    H = H / H[2, 2]
    if np.allclose(H, np.eye(3), atol=1e-9):
        H = np.eye(3)
    model = CameraModel(H=H, k1=float(cam.k1), size=(w, h))
    style.cache[key] = model
    return model


# --------------------------------------------------------------------------------------------
# Table with clutter
# --------------------------------------------------------------------------------------------


def table_with_clutter(style: TableStyle) -> np.ndarray:
    """The empty table as the camera sees it, with the style's clutter (cached; read-only).

    The surface texture is drawn directly in image space (its perspective does not matter);
    clutter positions are chosen on the canvas away from the rows and projected by the camera.
    """
    key = ("table+clutter",)
    if key in style.cache:
        return style.cache[key]
    img = table_background(style).copy()
    if style.table_edge > 0:
        _draw_table_edge(img, style)
    if style.clutter:
        cam = camera_model(style)
        rng = np.random.default_rng([style.seed, 202])
        L = style.card_long_px
        cx, cy = style.table_centre
        D = style.row_distance
        half_row = style.row_length / 2.0 + L
        w, h = style.image_size
        placed = 0
        for _ in range(60):
            if placed >= style.clutter:
                break
            size = float(rng.uniform(0.9, 1.6)) * L
            x, y = float(rng.uniform(-0.2 * w, 1.2 * w)), float(rng.uniform(-0.2 * h, 1.2 * h))
            dx, dy = abs(x - cx), abs(y - cy)
            r = size * 0.75
            in_rows = ((dx < half_row + r and abs(dy - D) < L + r)
                       or (dy < half_row + r and abs(dx - D) < L + r))
            in_centre = dx < D - L + r and dy < D - L + r
            if in_rows or in_centre:
                continue
            p = cam.project(np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
            if not (0 <= p[0, 0] < w and 0 <= p[0, 1] < h):
                continue
            a, b = p[1] - p[0], p[2] - p[0]
            scale = math.sqrt(abs(float(a[0] * b[1] - a[1] * b[0])))
            draw_clutter(img, rng, (float(p[0, 0]), float(p[0, 1])), size * scale)
            placed += 1
    img.setflags(write=False)
    style.cache[key] = img
    return img


def _draw_table_edge(img: np.ndarray, style: TableStyle) -> None:
    """Where the table ends on some sides: a wooden rim, then the floor beyond it."""
    cam = camera_model(style)
    w, h = style.image_size
    cx, cy = style.table_centre
    L = style.card_long_px
    reach = style.row_distance + 0.6 * L + style.table_edge * L
    far = reach + 0.8 * max(w, h)  # far enough to leave the view, short of the horizon
    sides = style.edge_sides
    x0 = cx - reach if sides & 8 else cx - far
    x1 = cx + reach if sides & 2 else cx + far
    y0 = cy - reach if sides & 1 else cy - far
    y1 = cy + reach if sides & 4 else cy + far
    # sample the rectangle's sides densely so the lens distortion bends them too
    t = np.linspace(0.0, 1.0, 33)[:, None]
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]])
    pts = np.vstack([a + t * (b - a) for a, b in zip(corners[:-1], corners[1:], strict=True)])
    den = np.hstack([pts, np.ones((len(pts), 1))]) @ cam.H[2]
    if (den <= 0.05).any():  # part of the rectangle lies beyond the horizon: leave it out
        return
    poly = cam.project(pts)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    rng = np.random.default_rng([style.seed, 303])
    small = np.empty((h // 4 + 1, w // 4 + 1, 3), np.float32)
    small[:] = style.floor_colour
    small += (rng.random(small.shape[:2], dtype=np.float32)[..., None] - 0.5) * 30
    floor = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (w, h))
    cv2.copyTo(floor, 255 - inside, img)
    rim = max(2, int(0.25 * L))
    cv2.polylines(img, [np.round(poly * 16).astype(np.int32)], True, style.rim_colour, rim,
                  cv2.LINE_AA, 4)


# --------------------------------------------------------------------------------------------
# Hands
# --------------------------------------------------------------------------------------------

_SKIN = ((120, 150, 200), (95, 125, 180), (70, 100, 150), (50, 75, 120), (140, 170, 220),
         (40, 55, 90), (110, 140, 190))


@dataclass(frozen=True)
class HandShape:
    """An arm reaching from ``start`` (off the table edge) to a hand at ``end`` (canvas px)."""

    start: tuple[float, float]
    end: tuple[float, float]
    width: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_frac: float


def sample_hands(style: TableStyle, rng: np.random.Generator, n: int | None = None,
                 targets: Sequence[tuple[float, float]] = ()) -> list[HandShape]:
    """``n`` random hands (default: the style's count) reaching toward ``targets`` or the rows."""
    n = style.hands if n is None else n
    w, h = style.image_size
    L = style.card_long_px
    cx, cy = style.table_centre
    out = []
    for i in range(n):
        if targets:
            tx, ty = targets[int(rng.integers(len(targets)))]
        else:
            ang = float(rng.uniform(0, 2 * math.pi))
            rad = style.row_distance * float(rng.uniform(0.3, 1.1))
            tx, ty = cx + rad * math.cos(ang), cy + rad * math.sin(ang)
        # come in from the nearest image edge
        edges = [(tx, -L), (tx, h + L), (-L, ty), (w + L, ty)]
        dists = [ty, h - ty, tx, w - tx]
        sx, sy = edges[int(np.argmin(dists))]
        sx += float(rng.normal(0, L))
        sy += float(rng.normal(0, L))
        base_skin = _SKIN[int(rng.integers(len(_SKIN)))]
        skin = tuple(int(np.clip(c + rng.normal(0, 8), 0, 255)) for c in base_skin)
        sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
        out.append(HandShape(start=(sx, sy), end=(float(tx), float(ty)),
                             width=float(rng.uniform(0.75, 1.05)) * L, skin=skin,  # type: ignore[arg-type]
                             sleeve=sleeve, sleeve_frac=float(rng.uniform(0.0, 0.7))))  # type: ignore[arg-type]
        del i
    return out


def _hand_shapes(hand: HandShape) -> list[tuple[str, Any, tuple[int, int, int]]]:
    """The hand as drawing primitives: sleeve, forearm, palm, four fingers and a thumb."""
    s = np.asarray(hand.start, float)
    e = np.asarray(hand.end, float)
    d = e - s
    u = d / (float(np.linalg.norm(d)) or 1.0)
    n = np.array([-u[1], u[0]])
    wd = hand.width
    wrist = e - u * wd * 0.55
    mid = s + (wrist - s) * hand.sleeve_frac
    ang = math.degrees(math.atan2(u[1], u[0]))

    def band(a: np.ndarray, b: np.ndarray, wa: float, wb: float) -> np.ndarray:
        return np.array([a + n * wa / 2, b + n * wb / 2, b - n * wb / 2, a - n * wa / 2])

    shapes: list[tuple[str, Any, tuple[int, int, int]]] = [
        ("poly", band(mid, wrist, wd * 0.85, wd * 0.7), hand.skin),
    ]
    if hand.sleeve_frac > 0.02:
        shapes.append(("poly", band(s, mid + u * wd * 0.1, wd * 1.1, wd * 1.0), hand.sleeve))
    shapes.append(("ellipse", (e - u * wd * 0.15, (wd * 0.55, wd * 0.48), ang), hand.skin))
    for k in range(4):
        base = e + u * wd * 0.2 + n * (k - 1.5) * wd * 0.2
        tip = base + (u + n * (k - 1.5) * 0.12) * wd * (0.55 if k in (1, 2) else 0.45)
        shapes.append(("line", (base, tip, wd * 0.17), hand.skin))
    thumb0 = e - u * wd * 0.1 + n * wd * 0.38
    shapes.append(("line", (thumb0, thumb0 + (u * 0.6 + n * 0.5) * wd * 0.45, wd * 0.2),
                   hand.skin))
    return shapes


def _draw_hand(img: np.ndarray, label: np.ndarray | None, hand: HandShape) -> None:
    """Draw a hand on ``img`` (BGR) and, when given, as ``HAND_LABEL`` on ``label``."""
    shapes = _hand_shapes(hand)
    for target, fixed in ((img, None), (label, HAND_LABEL)):
        if target is None:
            continue
        aa = cv2.LINE_AA if fixed is None else cv2.LINE_8
        for kind, geom, colour in shapes:
            col = colour if fixed is None else int(fixed)
            if kind == "poly":
                cv2.fillConvexPoly(target, np.round(geom * 16).astype(np.int32), col, aa, 4)
            elif kind == "line":
                a, b, t = geom
                cv2.line(target, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), col,
                         max(1, int(t)), aa)
            else:
                c, axes, an = geom
                cv2.ellipse(target, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])), an, 0,
                            360, col, -1, aa)


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------


def _card_gain(style: TableStyle, p: CardPlacement) -> float:
    """A card's own brightness (sheen, wear): fixed per card and style, so stable in video."""
    if style.card_sheen <= 0:
        return 1.0
    h = zlib.crc32(f"{style.seed}:{p.card}:{p.face_up}".encode()) / 2**32
    return 1.0 + style.card_sheen * (2.0 * h - 1.0)


def _paste(colour: np.ndarray, cover: np.ndarray, dark: np.ndarray, card: np.ndarray,
           quad: np.ndarray, shadow: float, shadow_offset: tuple[float, float],
           gain: float = 1.0) -> None:
    """Blend a premultiplied BGRA card image into the card layer at ``quad`` (canvas px).

    The layer is premultiplied: ``colour`` (h, w, 3), ``cover`` (h, w) alpha, and ``dark``
    (h, w) the table's shadow factor. The card's soft shadow darkens both what lies under it
    on the layer and the table.
    """
    H, W = cover.shape
    lo = np.floor(quad.min(0)).astype(int) - 2
    hi = np.ceil(quad.max(0)).astype(int) + 3
    off = np.array(shadow_offset)
    if shadow > 0:
        lo = np.minimum(lo, np.floor(quad.min(0) + off).astype(int) - 4)
        hi = np.maximum(hi, np.ceil(quad.max(0) + off).astype(int) + 5)
    x0, y0 = max(lo[0], 0), max(lo[1], 0)
    x1, y1 = min(hi[0], W), min(hi[1], H)
    if x1 <= x0 or y1 <= y0:
        return
    c_roi = colour[y0:y1, x0:x1]
    a_roi = cover[y0:y1, x0:x1]
    local = quad - np.array([x0, y0])
    if shadow > 0:
        m: np.ndarray = np.zeros(a_roi.shape, np.float32)
        cv2.fillConvexPoly(m, np.round((local + off) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        m = cv2.GaussianBlur(m, (5, 5), 1.5)
        keep = 1.0 - shadow * m
        c_roi *= keep[..., None]
        dark[y0:y1, x0:x1] *= keep
    h, w = card.shape[:2]
    src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5]], np.float32)
    M = cv2.getAffineTransform(src, local[:3].astype(np.float32))
    warped = cv2.warpAffine(card, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3].astype(np.float32) * np.float32(1 / 255.0)
    # premultiplied "over": the card's colour already carries its coverage
    c_roi *= (1.0 - alpha)[..., None]
    if gain != 1.0:
        c_roi += warped[..., :3].astype(np.float32) * np.float32(gain)
    else:
        c_roi += warped[..., :3]
    a_roi += (1.0 - a_roi) * alpha


# --------------------------------------------------------------------------------------------
# Photometry
# --------------------------------------------------------------------------------------------


def _light_field(style: TableStyle) -> tuple[np.ndarray, np.ndarray | None]:
    """Multiplicative gain (h, w, 1) and additive glare (h, w, 1) or None; cached."""
    key = ("light",)
    if key in style.cache:
        return style.cache[key]
    w, h = style.image_size
    nx = np.arange(w, dtype=np.float32)[None, :] / w - 0.5
    ny = np.arange(h, dtype=np.float32)[:, None] / h - 0.5
    a = style.light_angle
    grad = 1.0 + style.light_gradient * 2.0 * (nx * math.cos(a) + ny * math.sin(a))
    vig = 1.0 - style.vignette * 2.0 * (nx * nx + ny * ny)
    gain = (grad * vig * style.brightness).astype(np.float32)
    if style.shade > 0:  # soft shadows of people and lamps: a low-frequency darkening
        rng = np.random.default_rng([style.seed, 404])
        blob = smooth_noise(rng, (w, h), cell=max(w, h) / float(rng.uniform(1.5, 4.0)))
        blob = np.clip((blob - 0.45) * 3.0, 0, 1)
        gain *= 1.0 - style.shade * blob
    gain = gain[..., None]
    glare = None
    if style.glare > 0:
        gx, gy = style.glare_pos
        sig = style.glare_radius * math.hypot(w, h) / max(w, h)
        d2 = (nx + 0.5 - gx) ** 2 * (w / max(w, h)) ** 2 + (
            (ny + 0.5 - gy) * 1.3) ** 2 * (h / max(w, h)) ** 2
        glare = (255.0 * style.glare * np.exp(-d2 / (2 * sig * sig))).astype(np.float32)[..., None]
    style.cache[key] = (gain, glare)
    return style.cache[key]


def _photometry(img: np.ndarray, style: TableStyle, rng: np.random.Generator) -> np.ndarray:
    """Light, colour cast, glare, blur and noise on a float32 image; returns uint8."""
    gain, glare = _light_field(style)
    f = img
    f *= gain
    if style.colour_gain != (1.0, 1.0, 1.0):
        f *= np.asarray(style.colour_gain, np.float32)
    if glare is not None:
        f += glare
    if style.blur > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), style.blur)
    if style.motion_blur >= 2:
        n = int(round(style.motion_blur))
        k = np.zeros((n, n), np.float32)
        a = math.radians(style.seed % 180)
        for t in np.linspace(-0.5, 0.5, 2 * n):
            k[int(round((n - 1) / 2 + t * (n - 1) * math.sin(a))),
              int(round((n - 1) / 2 + t * (n - 1) * math.cos(a)))] = 1.0
        f = cv2.filter2D(f, -1, k / k.sum())
    if style.grey:
        g = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)
        f = cv2.merge([g, g, g])
    if style.noise > 0.2:
        h, w = f.shape[:2]
        noise = np.empty((h, w), np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        # the stubs want arrays for mean and stddev; OpenCV takes plain numbers too
        cv2.randn(noise, 0.0, float(style.noise))  # type: ignore[call-overload]
        f += noise[..., None]
    np.clip(f, 0, 255, out=f)
    return f.astype(np.uint8)


# --------------------------------------------------------------------------------------------
# The scene
# --------------------------------------------------------------------------------------------


def render_scene(
    placements: Sequence[CardPlacement],
    style: TableStyle,
    rng: np.random.Generator,
    *,
    hands: Sequence[HandShape] | None = None,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Draw the cards of ``placements`` on the style's table and photograph it.

    Returns the BGR uint8 image (``style.image_size``) and one ground-truth dict per card in
    draw order (contract 3 "cards" entries; ``id`` = index in draw order = ``z``).
    ``hands`` = None draws the style's number of random hands; pass ``[]`` for none.
    ``rng`` drives only per-frame randomness (hands, noise): the table, camera and card
    images come from the style, so frames of one style share them.
    """
    if len(placements) > MAX_CARDS:
        raise ValueError(f"at most {MAX_CARDS} cards per scene, got {len(placements)}")
    ordered = sorted(placements, key=lambda p: p.z)
    w, h = style.image_size
    # The card layer on the canvas: premultiplied colour, coverage, and the table's shadow.
    layer = np.zeros((h, w, 4), np.float32)
    colour, cover = layer[..., :3], layer[..., 3]
    dark = np.ones((h, w), np.float32)
    label = np.zeros((h, w), np.uint8)
    quads = []
    shadow_off = style.shadow_offset
    for i, p in enumerate(ordered):
        q = p.quad()
        quads.append(q)
        img = face_image(style, p.card) if p.face_up else back_image(style)
        _paste(colour, cover, dark, img, q, style.shadow, shadow_off,
               gain=_card_gain(style, p))
        cv2.fillConvexPoly(label, np.round(q * 16).astype(np.int32), i + 1, cv2.LINE_8, 4)
    if hands is None:
        targets = [p.centre for p in ordered] if ordered else ()
        hands = sample_hands(style, rng, targets=targets)
    if hands:
        m = np.zeros((h, w), np.uint8)
        if style.shadow > 0:
            for hand in hands:
                _draw_hand_mask(m, HandShape(
                    start=(hand.start[0] + 3 * shadow_off[0], hand.start[1] + 3 * shadow_off[1]),
                    end=(hand.end[0] + 3 * shadow_off[0], hand.end[1] + 3 * shadow_off[1]),
                    width=hand.width, skin=hand.skin, sleeve=hand.sleeve,
                    sleeve_frac=hand.sleeve_frac))
            keep = 1.0 - 0.6 * style.shadow * cv2.GaussianBlur(
                m.astype(np.float32) / 255.0, (0, 0), 4.0)
            colour *= keep[..., None]
            dark *= keep
        hand_img = np.zeros((h, w, 3), np.uint8)
        m[:] = 0
        for hand in hands:
            _draw_hand(hand_img, label, hand)
            _draw_hand_mask(m, hand)
        a = m.astype(np.float32) / 255.0
        colour += (hand_img.astype(np.float32) - colour) * a[..., None]
        cover += (1.0 - cover) * a
    cam = camera_model(style)
    if not cam.is_identity:
        layer = cam.warp(layer, cache=style.cache)
        colour, cover = layer[..., :3], layer[..., 3]
        dark = cam.warp(dark, cache=style.cache, fill=1.0)
        label = cam.warp(label, nearest=True, cache=style.cache)
    image = table_with_clutter(style).astype(np.float32)
    seen = np.subtract(1.0, cover, dtype=np.float32)
    seen *= dark
    image *= seen[..., None]
    image += colour
    image = _photometry(image, style, rng)
    truth = _truth(ordered, quads, label, cam)
    return image, truth


def _draw_hand_mask(mask: np.ndarray, hand: HandShape) -> None:
    _draw_hand(mask, None, HandShape(start=hand.start, end=hand.end, width=hand.width,
                                     skin=(255, 255, 255), sleeve=(255, 255, 255),
                                     sleeve_frac=hand.sleeve_frac))


def _truth(ordered: Sequence[CardPlacement], quads: Sequence[np.ndarray], label: np.ndarray,
           cam: CameraModel) -> list[dict[str, Any]]:
    h, w = label.shape
    out = []
    for i, (p, q) in enumerate(zip(ordered, quads, strict=True)):
        qi = cam.project(q)
        area = abs(float(cv2.contourArea(qi.astype(np.float32))))
        lo = np.maximum(np.floor(qi.min(0)).astype(int) - 2, 0)
        hi = np.minimum(np.ceil(qi.max(0)).astype(int) + 3, [w, h])
        poly: list[list[float]] = []
        frac = 0.0
        if hi[0] > lo[0] and hi[1] > lo[1]:
            mask = (label[lo[1]:hi[1], lo[0]:hi[0]] == i + 1).astype(np.uint8)
            count = int(mask.sum())
            if count:
                frac = min(1.0, count / max(area, 1.0))
                contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                best = max(contours, key=cv2.contourArea)
                approx = cv2.approxPolyDP(best, 1.0, True).reshape(-1, 2) + lo
                poly = [[float(x), float(y)] for x, y in approx]
        out.append({
            "id": i,
            "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in qi],
            "visible_polygon": poly,
            "visible_fraction": round(frac, 4),
            "seat": p.seat.name if p.seat is not None else None,
            "row_position": p.row_position,
            "in_current_trick": bool(p.in_current_trick),
            "group": p.group,
            "orientation": p.orientation.value if p.orientation is not None else None,
            "face_up": bool(p.face_up),
            "card": str(p.card),
            "z": i,
        })
    return out
