"""Face-up card boxes fitted to the card's own edges where they meet the cloth.

The detector's box of a face-up card is a few degrees and a few per cent of a card off (on
held-out face-up rows: 3.4 degrees median, 8 degrees for the cards then left unread), enough to
cut the corner index out of its crop. With the true angle alone the reader named 93 % of
face-up row cards instead of 87 %. A face-up card is a light face on a darker or coloured
cloth, so wherever one of its edges borders the cloth that edge can be found in the picture:

1. the cloth's colour is the median (Lab) of the picture outside every card box;
2. across each edge of the box, at points where neither the edge nor the cloth beyond it is
   covered by another card, a short profile of each pixel's colour distance from the cloth is
   read; the edge is where, coming in from the cloth, the profile first rises past halfway
   between cloth and card face;
3. the four edges turn together, so one turn is searched for all of them at once (the one
   keeping the most points close to their edge's line: points on an index or a shadow fall
   out, and short stretches of several edges add up where none would fit a line alone); the
   box is turned by it and moved onto the edges found (resized where both opposite edges
   were); along an axis where no edge shows the box keeps the detector's place.

A card whose edges show nowhere, or whose fit moves it implausibly far, keeps its box.

Tuned on 30 face-up photos (seeds from 7.6e9: face-up row cards read right 946 -> 988 of
1,090, wrong 7 -> 6); on 45 others (``scripts/evaluate.py --n 30 --n-hard 15 --seed-base
7700000000 --stages faceup``, with and without ``--no-edge-fit``): read right 862 -> 892 of
1,070 (wrong 17 -> 8) and, hard scenes, 202 -> 219 of 512 (wrong 3 -> 6) with turns of up to
20 degrees searched; with 45 (a second look at that set) hard scenes 229 (wrong 7). About
10-12 ms for a 52-card photo.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.identity.crops import canonical_quad

#: Boxes with an edge shorter than this (px) are left as they are.
MIN_EDGE_PX = 8.0
#: Points sampled along each edge (its middle part) ...
POINTS_PER_EDGE = 24
EDGE_SPAN = (0.12, 0.88)
#: ... each read across the edge this many card widths in and out ...
REACH = 0.12
#: ... at this many samples.
PROFILE_SAMPLES = 33
#: A profile counts only when its face and cloth ends differ by at least this (Lab units).
MIN_CONTRAST = 18.0
#: A point lies on its edge's line within OUTLIER_PX (or this share of a card width) ...
OUTLIER_PX = 1.5
OUTLIER_WIDTH = 0.025
#: ... and a fit needs this many such points, at least MIN_EDGE_POINTS on each edge used.
MIN_POINTS = 8
MIN_EDGE_POINTS = 3
#: Turns tried: up to this many degrees either way (a box turned further is left alone: its
#: long side may lie along the card's short one), coarse steps first, then fine ones.
MAX_TURN = 45.0
COARSE_STEP = 2.0
TURN_STEP = 0.25
#: Fits that move a box more than this share of its width or change its size by more than
#: this share are not taken.
MAX_SHIFT = 0.25
MAX_RESIZE = 0.15
#: Other cards' boxes count this much larger when deciding what they cover.
OTHERS_GROWTH = 1.1
#: Grid (px) on which the boxes' coverage is drawn.
COVER_STEP = 2
#: The cloth's colour is sampled on a grid this many px apart (a multiple of COVER_STEP).
CLOTH_STEP = 8


def cloth_colour(image: np.ndarray, cover: _Coverage) -> np.ndarray | None:
    """Median Lab colour of the picture where no (grown) card box lies, sampled every
    :data:`CLOTH_STEP` px; None when almost all of it is covered by cards."""
    step = CLOTH_STEP // COVER_STEP
    free = cover.counts[::step, ::step] == 0
    ys, xs = np.nonzero(free)
    ys, xs = ys * CLOTH_STEP, xs * CLOTH_STEP
    inside = (ys < image.shape[0]) & (xs < image.shape[1])
    if int(inside.sum()) < 200:
        return None
    colours = np.ascontiguousarray(image[ys[inside], xs[inside], :3]).reshape(-1, 1, 3)
    lab = cv2.cvtColor(colours, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return np.median(lab.astype(np.float32), axis=0)


def fit_to_cloth_edges(image: np.ndarray, quads: np.ndarray, others: np.ndarray,
                       own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes ``quads`` (n, 4, 2) of face-up cards in BGR ``image`` fitted to their edges.

    ``others`` (m, 4, 2): every card box of the picture (these cards included); ``own`` (n,)
    int: each card's index in ``others``. Returns the quads (n, 4, 2; in
    :func:`vision.identity.crops.canonical_quad` order where fitted, else as given) and (n,)
    bool, which were fitted.
    """
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    out = quads.copy()
    fitted = np.zeros(len(quads), bool)
    if not len(quads) or image.ndim != 3:
        return out, fitted
    edges = np.linalg.norm(quads[:, [1, 2, 3, 0]] - quads, axis=2)
    sized = np.isfinite(quads).all(axis=(1, 2)) & (edges >= MIN_EDGE_PX).all(axis=1)
    if not sized.all():  # boxes too small to have edges worth finding keep their place
        if sized.any():
            out[sized], fitted[sized] = fit_to_cloth_edges(
                image, quads[sized], others, np.asarray(own)[sized])
        return out, fitted
    others = np.asarray(others, np.float64).reshape(-1, 4, 2)
    # the other boxes are as far off as this one: they count with a margin
    middle = others.mean(axis=1, keepdims=True)
    grown = (others - middle) * OTHERS_GROWTH + middle
    cover = _coverage(grown, image.shape[:2])
    cloth = cloth_colour(image, cover)
    if cloth is None:
        return out, fitted
    canon = np.stack([canonical_quad(q) for q in quads])
    width = np.linalg.norm(canon[:, 1] - canon[:, 0], axis=1)
    width = (width + np.linalg.norm(canon[:, 3] - canon[:, 2], axis=1)) / 2
    # sample points along each edge and their outward normals: (n, 4 edges, k points)
    start, end = canon, canon[:, [1, 2, 3, 0]]
    t = np.linspace(*EDGE_SPAN, POINTS_PER_EDGE)
    points = start[:, :, None] + (end - start)[:, :, None] * t[None, None, :, None]
    normal = _normals(canon)  # (n, 4, 2), outward
    reach = (REACH * width)[:, None, None, None]
    outer = points + normal[:, :, None] * reach
    # usable: neither the point nor the cloth beyond it under another card
    own_box = grown[np.asarray(own, int)]
    usable = ((cover.at(points) - _inside(points, own_box) == 0)
              & (cover.at(outer) - _inside(outer, own_box) == 0))
    h, w = image.shape[:2]
    usable &= ((outer >= 1) & (outer <= [w - 2, h - 2])).all(axis=-1)
    usable &= ((points - normal[:, :, None] * reach >= 1)
               & (points - normal[:, :, None] * reach <= [w - 2, h - 2])).all(axis=-1)
    if not usable.any():
        return out, fitted
    edge_points, found = _find_edges(image, cloth, points, normal, reach[..., 0], usable)
    cards = np.flatnonzero(found.any(axis=(1, 2)))
    for i, fit in zip(cards, _fit_cards(canon[cards], width[cards], edge_points[cards],
                                        found[cards]), strict=True):
        if fit is not None:
            out[i], fitted[i] = fit, True
    return out, fitted


def _find_edges(image: np.ndarray, cloth: np.ndarray, points: np.ndarray, normal: np.ndarray,
                reach: np.ndarray, usable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each card's edge really lies near each of its ``usable`` sample ``points`` (n, 4,
    k, 2), read across the edge (outward ``normal`` (n, 4, 2)) ``reach`` (n, 1, 1) px in and
    out: (n, 4, k, 2) points, and (n, 4, k) bool, which were found.

    Along each profile each pixel's colour distance (Lab) from the ``cloth``; a profile whose
    face end and cloth end differ by at least :data:`MIN_CONTRAST` puts the edge where,
    coming in from the cloth, the distance first rises past halfway between the two."""
    s = np.linspace(-1.0, 1.0, PROFILE_SAMPLES)
    ci, ei, pi = np.nonzero(usable)
    along = (points[ci, ei, pi][:, None] + normal[ci, ei][:, None]
             * (reach[ci, 0, 0, None] * s[None, :])[..., None])  # (u, S, 2)
    maps = along.astype(np.float32)
    colours = cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR)  # (u, S, 3)
    lab = cv2.cvtColor(np.ascontiguousarray(colours), cv2.COLOR_BGR2LAB).astype(np.float32)
    distance = np.linalg.norm(lab - cloth, axis=2)
    quarter = PROFILE_SAMPLES // 4
    face = np.median(distance[:, :quarter], axis=1)
    bare = np.median(distance[:, -quarter:], axis=1)
    good = (face - bare) >= MIN_CONTRAST
    threshold = (face + bare) / 2
    above = distance > threshold[:, None]
    # coming in from the cloth: the last sample above the threshold is the card's edge
    last = PROFILE_SAMPLES - 1 - np.argmax(above[:, ::-1], axis=1)
    good &= above.any(axis=1) & (last < PROFILE_SAMPLES - 1)
    nxt = np.minimum(last + 1, PROFILE_SAMPLES - 1)
    rows = np.arange(len(last))
    a, b = distance[rows, last], distance[rows, nxt]
    frac = np.clip((a - threshold) / np.maximum(a - b, 1e-6), 0.0, 1.0)
    offset = (s[last] + frac * (s[1] - s[0])) * reach[ci, 0, 0]
    found = np.zeros(points.shape[:3], bool)
    found[ci[good], ei[good], pi[good]] = True
    edge_points = points.copy()
    edge_points[ci, ei, pi] += normal[ci, ei] * offset[:, None]
    return edge_points, found


class _Coverage:
    """How many boxes cover each point of the picture, on a grid :data:`COVER_STEP` px apart."""

    def __init__(self, counts: np.ndarray) -> None:
        self.counts = counts

    def at(self, points: np.ndarray) -> np.ndarray:
        """The count at each of ``points`` (..., 2) image px (0 outside the picture)."""
        h, w = self.counts.shape
        ij = np.round(points / COVER_STEP).astype(np.int64)
        x, y = ij[..., 0], ij[..., 1]
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        out = np.zeros(points.shape[:-1], np.int64)
        out[inside] = self.counts[y[inside], x[inside]]
        return out


def _coverage(quads: np.ndarray, shape: tuple[int, ...]) -> _Coverage:
    """The :class:`_Coverage` of ``quads`` (m, 4, 2) over a picture of ``shape`` (h, w)."""
    h, w = (int(v) // COVER_STEP + 1 for v in shape[:2])
    counts = np.zeros((h, w), np.uint8)
    corners = np.round(np.asarray(quads) / COVER_STEP).astype(np.int32)
    low = np.clip(corners.min(axis=1), 0, [w, h]).tolist()
    high = np.clip(corners.max(axis=1) + 1, 0, [w, h]).tolist()
    for c, (x0, y0), (x1, y1) in zip(corners, low, high, strict=True):
        if x1 <= x0 or y1 <= y0:
            continue
        patch = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(patch, c - np.array([x0, y0], np.int32), 1)
        counts[y0:y1, x0:x1] += patch
    return _Coverage(counts)


def _inside(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(n, ...) 0/1: each card's ``points`` (n, ..., 2) inside its own quad (n, 4, 2)."""
    n = len(quads)
    p = points.reshape(n, -1, 2)
    edges = np.roll(quads, -1, axis=1) - quads  # (n, 4, 2)
    rel = p[:, :, None, :] - quads[:, None, :, :]  # (n, P, 4, 2)
    cross = edges[:, None, :, 0] * rel[..., 1] - edges[:, None, :, 1] * rel[..., 0]
    inside = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    return inside.reshape(points.shape[:-1]).astype(np.int64)


def _fit_cards(quads: np.ndarray, width: np.ndarray, points: np.ndarray, found: np.ndarray
               ) -> list[np.ndarray | None]:
    """Each canonical quad (n, 4, 2) turned and moved onto its edges' points (n, 4 edges,
    k, 2; ``found`` (n, 4, k) says which were found), or None when they do not settle it.

    The four edges of a card turn together, so the turn is searched for all of them at once:
    at each trial turn every edge's points are measured across the edge, and the turn keeping
    the most points close to their edge's median line wins (a point on an index or a shadow
    falls out); short visible stretches of several edges thus add up where none would fit a
    line alone. The turn is then refined by least squares on those points, and each edge with
    enough of them sets the box's place across it.
    """
    tolerance = np.maximum(OUTLIER_PX, OUTLIER_WIDTH * width)[:, None, None, None]
    centre = quads.mean(axis=1)
    rel = points - centre[:, None, None]
    normals = _normals(quads)  # (n, 4, 2)
    coarse = np.radians(np.arange(-MAX_TURN, MAX_TURN + 1e-9, COARSE_STEP))
    trials = np.broadcast_to(coarse, (len(quads), len(coarse)))
    score, _ = _turn_scores(trials, normals, rel, found, tolerance)
    middle = coarse[np.argmax(score, axis=1)]
    steps = np.radians(np.arange(-COARSE_STEP, COARSE_STEP + 1e-9, TURN_STEP))
    trials = middle[:, None] + steps[None]
    score, residual = _turn_scores(trials, normals, rel, found, tolerance)
    best = np.argmax(score, axis=1)
    rows = np.arange(len(quads))
    keep = residual[rows, best] <= 1.0  # (n, 4, k)
    turn = _refine_turns(quads, rel, keep, trials[rows, best])
    placed, moved_ok = _placed(quads, width, turn, points, keep)
    ok = moved_ok & (keep.sum(axis=(1, 2)) >= MIN_POINTS) \
        & (np.degrees(np.abs(trials[rows, best])) <= MAX_TURN - COARSE_STEP)  # not at the limit
    return [placed[i] if ok[i] else None for i in rows]


def _placed(quads: np.ndarray, width: np.ndarray, turn: np.ndarray, points: np.ndarray,
            keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``quads`` (n, 4, 2) turned by ``turn`` about their centres and moved (and resized)
    onto their edges with enough ``keep`` points (n, 4, k, 2); and (n,) bool, False where
    that moves a box implausibly far."""
    c, s = np.cos(turn)[:, None, None], np.sin(turn)[:, None, None]
    centre = quads.mean(axis=1, keepdims=True)
    d = quads - centre
    q = centre + np.concatenate([c * d[..., :1] - s * d[..., 1:],
                                 s * d[..., :1] + c * d[..., 1:]], axis=-1)
    normals = _normals(q)  # (n, 4, 2)
    across = ((points - q[:, :, None]) * normals[:, :, None]).sum(axis=-1)  # (n, 4, k)
    count = keep.sum(axis=2)
    has = count >= MIN_EDGE_POINTS
    offset = np.where(has, (across * keep).sum(axis=2) / np.maximum(count, 1), 0.0)  # (n, 4)
    shift = np.zeros((len(q), 2))
    ok = np.ones(len(q), bool)
    grow = {}
    for a, b in ((1, 3), (0, 2)):  # the long edges (across the card), the short ends
        both = has[:, a] & has[:, b]
        along_a = np.where(both, (offset[:, a] - offset[:, b]) / 2, offset[:, a])
        along_b = np.where(both, 0.0, offset[:, b])
        shift += normals[:, a] * along_a[:, None] + normals[:, b] * along_b[:, None]
        grow[a] = np.where(both, offset[:, a] + offset[:, b], 0.0)
    ok &= np.linalg.norm(shift, axis=1) <= MAX_SHIFT * width
    q = q + shift[:, None]
    # both edges of a pair found: their distance is the card's size across them; edge a
    # (corners a, a+1) moves out by half the difference, the opposite one by the other half
    for a, amount in grow.items():
        # across edges 1 and 3 lies the card's width (q0-q1), across 0 and 2 its length
        size = np.linalg.norm(q[:, 1] - q[:, 0] if a == 1 else q[:, 2] - q[:, 1], axis=1)
        ok &= np.abs(amount) <= MAX_RESIZE * size
        move = normals[:, a] * (amount / 2)[:, None]
        q[:, [a, (a + 1) % 4]] += move[:, None]
        q[:, [(a + 2) % 4, (a + 3) % 4]] -= move[:, None]
    return q, ok


def _turn_scores(trials: np.ndarray, normals: np.ndarray, rel: np.ndarray, found: np.ndarray,
                 tolerance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each card's trial turns (n, a): their scores (n, a), and each point's distance
    from its edge's median line in tolerances (n, a, 4, k; inf where not found or on an edge
    with too few points). Points within the tolerance count the more the closer they lie (a
    truncated quadratic)."""
    c, s = np.cos(trials)[..., None], np.sin(trials)[..., None]  # (n, a, 1)
    nx, ny = normals[:, None, :, 0], normals[:, None, :, 1]  # (n, 1, 4)
    tx, ty = c * nx - s * ny, s * nx + c * ny  # (n, a, 4): each edge's normal, turned
    across = tx[..., None] * rel[:, None, :, :, 0] + ty[..., None] * rel[:, None, :, :, 1]
    mask = np.broadcast_to(found[:, None], across.shape)
    middle = _masked_median(across, mask)  # (n, a, 4)
    residual = np.abs(across - middle[..., None]) / tolerance
    enough = found.sum(axis=2) >= MIN_EDGE_POINTS  # (n, 4)
    residual[~(mask & enough[:, None, :, None])] = np.inf
    score = np.clip(1.0 - residual ** 2, 0.0, None).sum(axis=(2, 3))
    return score, residual


def _masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Median over the last axis of ``values`` where ``mask`` (0 where nothing is masked in)."""
    ordered = np.sort(np.where(mask, values, np.inf), axis=-1)
    count = mask.sum(axis=-1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[..., None] // 2, axis=-1)[..., 0]
    high = np.take_along_axis(ordered, (count // 2)[..., None], axis=-1)[..., 0]
    return np.where(count > 0, (low + high) / 2, 0.0)


def _normals(quads: np.ndarray) -> np.ndarray:
    """(n, 4, 2) outward unit normals of clockwise (image coordinates) quads' edges."""
    e = quads[:, [1, 2, 3, 0]] - quads
    n = np.stack([e[..., 1], -e[..., 0]], axis=-1)
    return n / np.linalg.norm(n, axis=-1, keepdims=True)


def _refine_turns(quads: np.ndarray, rel: np.ndarray, keep: np.ndarray, start: np.ndarray
                  ) -> np.ndarray:
    """Least-squares turns (n,) of ``quads`` near ``start``: every edge's kept points turned
    onto one direction (the short ends' by 90 degrees), each edge centred on its own mean,
    one principal direction per card; ``start`` where that is more than a fine step off."""
    p = rel.copy()
    p[:, 0::2] = np.stack([rel[:, 0::2, :, 1], -rel[:, 0::2, :, 0]], axis=-1)  # short ends
    w = keep.astype(np.float64)
    count = w.sum(axis=2, keepdims=True)
    mean = (p * w[..., None]).sum(axis=2, keepdims=True) / np.maximum(count, 1)[..., None]
    d = (p - mean) * w[..., None]
    sxx = (d[..., 0] ** 2).sum(axis=(1, 2))
    syy = (d[..., 1] ** 2).sum(axis=(1, 2))
    sxy = (d[..., 0] * d[..., 1]).sum(axis=(1, 2))
    principal = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # the direction of greatest spread
    long_edge = quads[:, 2] - quads[:, 1]
    turn = principal - np.arctan2(long_edge[:, 1], long_edge[:, 0])
    turn = (turn + np.pi / 2) % np.pi - np.pi / 2  # a line has no direction
    close = np.abs(turn - start) <= np.radians(TURN_STEP)
    return np.where(close & (keep.sum(axis=(1, 2)) >= 3), turn, start)
