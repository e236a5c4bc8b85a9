"""Does the image show a card where a box says one is? Boxes over bare cloth are ghosts.

The detector boxes each card's full rectangle, covered part included, so a box is only
checked where no other box lies over it: its uncovered part. For a real card that part shows
the card (its back, border or face); for a ghost - a second box pushed past the end of a row,
one drawn beside a lone face-up card, a square of a checked cloth taken for a card - it shows
the cloth. The cloth is sampled over the whole image away from every box, so its every colour
(a lighting gradient, checks, a mottled weave) is known, and an undetected card or a hand
there is too rare to count. A box is not judged when the deck itself looks like the cloth.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.detections import points_in_quads, quad_points

_GRID = np.linspace(0.06, 0.94, 8)   # points across each box
_CLOTH = (32, 18)                     # points across the image for the cloth


def _lab(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """CIELAB colours (N, 3) of the image at pixel points (N, 2), nearest pixel."""
    h, w = image.shape[:2]
    x = np.clip(np.rint(pts[:, 0]).astype(np.int64), 0, w - 1)
    y = np.clip(np.rint(pts[:, 1]).astype(np.int64), 0, h - 1)
    bgr = image[y, x].reshape(-1, 1, 3).astype(np.float32) / 255.0
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3)


def cloth_ghosts(image: np.ndarray, quads: np.ndarray, face_up: np.ndarray,
                 confidence: np.ndarray, *, match: float = 10.0, cloth_share: float = 0.8,
                 sure: float = 0.8, min_uncovered: float = 0.12, min_cloth: float = 0.01
                 ) -> np.ndarray:
    """(N,) bool: boxes whose uncovered part looks like the cloth around them, not a card.

    A point of a box's uncovered part is cloth-coloured when at least ``min_cloth`` of the
    cloth's points lie within ``match`` (Delta E, CIELAB) of it; a box with at least
    ``cloth_share`` of its points cloth-coloured is a ghost. When the surest box (score >=
    ``sure``) of the same side up is itself half cloth-coloured, the deck looks like the
    cloth and no box of that side is judged. Boxes with less than ``min_uncovered`` of their
    area uncovered are not judged (there is too little to see).
    """
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    n = len(quads)
    ghost = np.zeros(n, dtype=bool)
    if n == 0:
        return ghost
    face_up = np.asarray(face_up, dtype=bool).reshape(-1)
    confidence = np.asarray(confidence, dtype=np.float64).reshape(-1)
    h, w = image.shape[:2]
    u, v = np.meshgrid(_GRID, _GRID)
    grid = quad_points(quads, np.column_stack([u.ravel(), v.ravel()]))  # (n, G, 2)
    g = grid.shape[1]
    pts = grid.reshape(-1, 2)
    in_image = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    covered = points_in_quads(pts, quads)                     # (n, n * G)
    covered[np.repeat(np.arange(n), g), np.arange(n * g)] = False  # not covered by itself
    free = (in_image & ~covered.any(axis=0)).reshape(n, g)
    # the cloth: a grid over the image, away from every box (grown by a fifth)
    cx, cy = np.meshgrid((np.arange(_CLOTH[0]) + 0.5) * w / _CLOTH[0],
                         (np.arange(_CLOTH[1]) + 0.5) * h / _CLOTH[1])
    table = np.stack([cx.ravel(), cy.ravel()], axis=1)
    centre = quads.mean(axis=1, keepdims=True)
    grown = centre + 1.2 * (quads - centre)
    table = table[~points_in_quads(table, grown).any(axis=0)]
    if len(table) < 20:
        return ghost  # the image is all cards: no cloth to compare with
    judged = free.mean(axis=1) >= min_uncovered
    mine = free & judged[:, None]
    colours = _lab(image, np.concatenate([pts[mine.ravel()], table]))
    own, cloth = colours[: int(mine.sum())], colours[int(mine.sum()):]
    need = max(3, int(np.ceil(min_cloth * len(cloth))))
    # Share of each box's uncovered points whose colour the cloth shows (at least ``need``
    # cloth points within ``match``; Lab from float BGR has L in [0, 100], a and b about
    # [-127, 127], so distances are Delta E). Squared distances of all points at once (no
    # matrix product: BLAS threads would fight the detector's for the cores).
    d2 = sum((own[:, None, c] - cloth[None, :, c]) ** 2 for c in range(3))
    shown = (d2 < match * match).sum(axis=1) >= need
    explained = np.full(n, np.nan)
    box_of = np.repeat(np.arange(n), g)[mine.ravel()]
    counts = np.bincount(box_of, minlength=n)
    hits = np.bincount(box_of, weights=shown, minlength=n)
    explained[judged] = hits[judged] / np.maximum(counts[judged], 1)
    for side in (False, True):
        idx = np.flatnonzero((face_up == side) & np.isfinite(explained))
        if len(idx) == 0:
            continue
        surest = idx[np.argmax(confidence[idx])]
        if confidence[surest] >= sure and explained[surest] >= 0.5:
            continue  # a sure card of this kind looks like the cloth: nothing to judge by
        ghost[idx] = explained[idx] >= cloth_share
    return ghost
