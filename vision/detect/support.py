"""Does the image show a card where a box says one is? Boxes over bare cloth are ghosts.

The detector boxes each card's full rectangle, covered part included, so a box is only
checked where no other box lies over it: its uncovered part. For a real card that part shows
the card (its back or its face); for a ghost - a second box pushed past the end of a row, one
drawn beside a lone face-up card - it shows the cloth around it. Colours are compared in
CIELAB with the cloth sampled just around the box, so a lighting gradient over the table does
not matter; a box is only judged when its own kind of card (the surest box of the same side
up) stands clearly apart from the cloth, so a green back on a green cloth is never judged.
"""

from __future__ import annotations

import cv2
import numpy as np

_GRID = np.linspace(0.06, 0.94, 10)
_RING = np.linspace(0.0, 1.0, 12, endpoint=False)


def _points_in(quads: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(M, N) bool: point n inside convex quad m (either winding)."""
    a = quads[:, :, None, :]                      # (M, 4, 1, 2)
    b = np.roll(quads, -1, axis=1)[:, :, None, :]
    p = pts[None, None, :, :]                     # (1, 1, N, 2)
    cross = (b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1]) - \
        (b[..., 1] - a[..., 1]) * (p[..., 0] - a[..., 0])   # (M, 4, N)
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def _lab(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """CIELAB colours (N, 3) of the image at pixel points (N, 2), nearest pixel."""
    h, w = image.shape[:2]
    x = np.clip(np.rint(pts[:, 0]).astype(np.int64), 0, w - 1)
    y = np.clip(np.rint(pts[:, 1]).astype(np.int64), 0, h - 1)
    bgr = image[y, x].reshape(-1, 1, 3).astype(np.float32) / 255.0
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3)


def cloth_ghosts(image: np.ndarray, quads: np.ndarray, face_up: np.ndarray,
                 confidence: np.ndarray, *, match: float = 12.0, min_uncovered: float = 0.12
                 ) -> np.ndarray:
    """(N,) bool: boxes whose uncovered part looks like the cloth around them, not a card.

    ``match`` is the colour distance (CIELAB) under which a box's uncovered part counts as
    cloth; the surest box of the same side up must be at least twice that far from its own
    surroundings. Boxes with less than ``min_uncovered`` of their area uncovered are not
    judged (there is too little to see).
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
    u, v = u.ravel(), v.ravel()
    # a grid over every box (bilinear in its corners 0-1-2-3), (n, G, 2)
    weights = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=1)  # (G, 4)
    grid = np.einsum("gk,nkd->ngd", weights, quads)
    # two rings around every box, at 1.25 and 1.4 times its size, (n, R, 2)
    centre = quads.mean(axis=1, keepdims=True)
    rings = []
    for scale in (1.25, 1.4):
        corners = centre + scale * (quads - centre)
        nxt = np.roll(corners, -1, axis=1)
        rings.append((corners[:, :, None] + _RING[None, None, :, None]
                      * (nxt - corners)[:, :, None]).reshape(n, -1, 2))
    ring = np.concatenate(rings, axis=1)
    g, r = grid.shape[1], ring.shape[1]
    pts = np.concatenate([grid.reshape(-1, 2), ring.reshape(-1, 2)])
    in_image = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    covered = _points_in(quads, pts)                       # (n, P)
    owner = np.repeat(np.arange(n), g)
    covered[owner, np.arange(n * g)] = False               # a box does not cover itself
    free = in_image & ~covered.any(axis=0)
    lab = _lab(image, pts)
    grid_free = free[:n * g].reshape(n, g)
    ring_free = free[n * g:].reshape(n, r)
    grid_lab = lab[:n * g].reshape(n, g, 3)
    ring_lab = lab[n * g:].reshape(n, r, 3)
    own = np.full((n, 3), np.nan)      # colour of each box's uncovered part
    cloth = np.full((n, 3), np.nan)    # colour of the cloth just around it
    for i in range(n):
        if grid_free[i].mean() >= min_uncovered:
            own[i] = np.median(grid_lab[i, grid_free[i]], axis=0)
        if ring_free[i].sum() >= 8:
            cloth[i] = np.median(ring_lab[i, ring_free[i]], axis=0)
    # Lab from float BGR has L in [0, 100] and a, b about [-127, 127]: ordinary Delta E
    dist = np.linalg.norm(own - cloth, axis=1)
    for side in (False, True):
        idx = np.flatnonzero((face_up == side) & np.isfinite(dist))
        if len(idx) == 0:
            continue
        surest = idx[np.argmax(confidence[idx])]
        if dist[surest] < 2 * match:
            continue  # this kind of card looks too much like the cloth to judge
        ghost[idx] = dist[idx] < match
        ghost[surest] = False
    return ghost
