"""A photo taken at an angle, rectified from its own cards (no calibration).

Every card of a deck has the same size and shape. In a photo taken from the side the far cards
come out smaller, and every card is squeezed along the direction the camera looks: at 35-40
degrees from straight down a won card's short side and a lost card's long side hardly differ
any more, and the rows are misread. Two facts about the cards undo it:

1. *Size.* For a plane seen through a pinhole camera, the cube root of an object's image area
   is an affine function of its image position (it reaches zero on the plane's horizon). A
   least-squares fit over the cards gives that horizon; the projective map that sends it to
   infinity makes all cards equally large again (affine rectification).
2. *Shape.* What remains is an affine squeeze (a factor in one direction). Cards lying along
   the rows and across them are squeezed differently by it; the one stretch that gives them
   all the same proportion undoes it.

:func:`level_from_cards` returns the image -> table homography (None for a photo taken from
nearly straight above, or when the cards do not agree on a tilt) and the fall-off of card size
it was found from, a measure of how steeply the camera looked.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.table.geometry import apply_homography

#: Fewest cards to fit a tilt to.
MIN_CARDS = 8
#: Smallest fall-off of card size (cube root of area) across half the picture's diagonal,
#: as a fraction, that counts as a tilt (about 8-10 degrees with usual lenses).
MIN_FALLOFF = 0.08
#: How much more alike (spread of their log proportion) the cards' shapes must become.
MIN_GAIN = 0.7
#: The share of cards whose shape is left out of the spread as outliers.
TRIM = 0.05
#: Length over width of real cards (poker 88/63 = 1.40, bridge 89/57 = 1.56, others between),
#: with a margin: a levelled photo's typical card must lie in it.
CARD_PROPORTION = (1.25, 1.8)


def _areas(quads: np.ndarray) -> np.ndarray:
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y, axis=-1))


def _aspects(quads: np.ndarray) -> np.ndarray:
    """Long over short side of each quad (mean of opposite edges)."""
    e = np.linalg.norm(np.roll(quads, -1, axis=-2) - quads, axis=-1)  # (..., 4)
    a, b = (e[..., 0] + e[..., 2]) / 2, (e[..., 1] + e[..., 3]) / 2
    return np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-9)


def _spread(values: np.ndarray) -> np.ndarray:
    """Spread of ``values`` (..., cards) along the last axis: their standard deviation
    without the :data:`TRIM` share farthest from the median (a box of two cards; not the
    median deviation - when most cards of a photo lie one way, it would call the cards lying
    the other way outliers)."""
    dev = np.abs(values - np.median(values, axis=-1, keepdims=True))
    inner = dev <= np.quantile(dev, 1.0 - TRIM, axis=-1, keepdims=True)
    count = inner.sum(axis=-1)
    mean = np.where(inner, values, 0.0).sum(axis=-1) / count
    return np.sqrt(np.where(inner, (values - mean[..., None]) ** 2, 0.0).sum(axis=-1) / count)


def _best_stretch(shapes: np.ndarray, angles: np.ndarray, factors: np.ndarray
                  ) -> tuple[float, float, float]:
    """(spread of the cards' log proportion, direction, factor) of the best stretch of
    ``shapes`` (cards, 4, 2) among ``angles`` x ``factors``."""
    best = (np.inf, 0.0, 1.0)
    for angle in angles:
        v = np.array([np.cos(angle), np.sin(angle)])
        maps = np.eye(2)[None] + (np.maximum(factors, 1e-3) - 1.0)[:, None, None] * \
            np.outer(v, v)[None]
        logs = np.log(_aspects(np.einsum("kij,nmj->knmi", maps, shapes)))  # (factors, cards)
        spread = _spread(logs)
        # cards are longer than wide: a stretch that squares most of them is no answer (when
        # nearly every card of a photo lies the same way, it would make them alike too)
        median = np.median(logs, axis=1)
        spread[(median < np.log(CARD_PROPORTION[0])) | (median > np.log(CARD_PROPORTION[1]))] = \
            np.inf
        k = int(np.argmin(spread))
        if spread[k] < best[0]:
            best = (float(spread[k]), float(angle), float(factors[k]))
    return best


def _horizon(q: np.ndarray, w: np.ndarray, centre: np.ndarray
             ) -> tuple[float, np.ndarray, np.ndarray, float] | None:
    """The fit of the cube root of card area to position (relative to ``centre``): its value
    at the centre, its gradient, which cards fit (outliers - boxes of two cards - left out) and
    the fall-off it makes across half the picture's diagonal; None for too few cards or no
    size left at the centre."""
    pos = q.mean(axis=1) - centre
    size = np.cbrt(_areas(q))
    keep = size > 0
    coef = np.zeros(3)
    for _ in range(3):  # least squares, then again without the outliers
        a = np.column_stack([np.ones(keep.sum()), pos[keep]]) * w[keep, None]
        coef = np.linalg.lstsq(a, size[keep] * w[keep], rcond=None)[0]
        resid = size - np.column_stack([np.ones(len(q)), pos]) @ coef
        mad = float(np.median(np.abs(resid[keep]))) * 1.4826 + 1e-9
        keep = (size > 0) & (np.abs(resid) <= 3.0 * mad)
        if keep.sum() < MIN_CARDS:
            return None
    gamma, grad = float(coef[0]), coef[1:]
    if gamma <= 0:
        return None
    return gamma, grad, keep, float(np.linalg.norm(grad) * np.hypot(*centre) / gamma)


def _keep_scale(h: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """``h`` scaled and moved so that at ``middle`` it keeps the picture's scale and place."""
    step = apply_homography(h, np.array([middle, middle + (1.0, 0.0), middle + (0.0, 1.0)]))
    (ax, ay), (bx, by) = step[1] - step[0], step[2] - step[0]
    scale = np.sqrt(abs(ax * by - ay * bx))
    h = np.diag([1 / scale, 1 / scale, 1.0]) @ h
    moved = apply_homography(h, middle[None])[0]
    h = np.array([[1.0, 0.0, middle[0] - moved[0]], [0.0, 1.0, middle[1] - moved[1]],
                  [0.0, 0.0, 1.0]]) @ h
    return h / h[2, 2]


class Levelling(NamedTuple):
    """What :func:`level_from_cards` found: the homography (3x3, image pixels -> table plane)
    that undoes the camera's tilt, or None; and how much smaller the cards come out across
    half the picture's diagonal (a fraction, 0 when there is nothing to fit)."""

    homography: np.ndarray | None
    falloff: float


def level_from_cards(quads: np.ndarray, image_size: tuple[int, int],
                     weights: np.ndarray | None = None) -> Levelling:
    """The tilt undone from the cards' sizes and shapes (no homography when there is no tilt
    to undo or too little to go by), with the size fall-off it rests on. The table plane
    keeps the picture's scale and position at the cards' middle, and the roll is left as it
    was (:func:`~vision.table.geometry.table_turn` reads it afterwards)."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    if len(q) < MIN_CARDS:
        return Levelling(None, 0.0)
    w = np.ones(len(q)) if weights is None else np.clip(np.asarray(weights, float), 1e-3, None)
    centre = np.array(image_size, dtype=np.float64) / 2.0
    fit = _horizon(q, w, centre)
    if fit is None:
        return Levelling(None, 0.0)
    gamma, grad, keep, falloff = fit
    if falloff < MIN_FALLOFF:
        return Levelling(None, falloff)
    # 1. the horizon (size zero) sent to infinity: every card equally large
    to_centre = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]])
    flatten = np.eye(3)
    flatten[2, :2] = grad / gamma
    affine = apply_homography(flatten @ to_centre, q[keep])
    # 2. the stretch (a direction and a factor) that gives every card the same proportion:
    # a coarse search, then a finer one around its best
    base = float(_spread(np.log(_aspects(q[keep]))))  # the cards as the photo shows them
    best = _best_stretch(affine, np.radians(np.arange(0.0, 180.0, 15.0)),
                         np.exp(np.linspace(0.0, np.log(3.0), 16)))
    step = np.log(3.0) / 15
    best = _best_stretch(affine, best[1] + np.radians(np.arange(-12.0, 12.1, 3.0)),
                         best[2] * np.exp(np.linspace(-step, step, 9)))
    if best[0] > MIN_GAIN * base:
        return Levelling(None, falloff)
    v = np.array([np.cos(best[1]), np.sin(best[1])])
    stretch = np.eye(3)
    stretch[:2, :2] = np.eye(2) + (best[2] - 1.0) * np.outer(v, v)
    h = stretch @ flatten @ to_centre
    middle = np.average(q.mean(axis=1)[keep], axis=0, weights=w[keep])
    return Levelling(_keep_scale(h, middle), falloff)
