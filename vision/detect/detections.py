"""One container for N oriented card detections, as parallel numpy arrays.

Every stage after the detector (geometry, rows, identity reading, drawing) takes and returns
``Detections``; indexing with a boolean mask or an index array gives a new container, never a
view that could be modified behind the caller's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Detector classes (shared contract 2).
CARD_DOWN = 0
CARD_UP = 1
CLASS_NAMES = ("card_down", "card_up")


@dataclass(frozen=True)
class Detections:
    """N oriented detections.

    ``quads`` (N, 4, 2) float: the full card rectangle in image pixels (corner order is the
    detector's, not the card's own: use the edge lengths for the long axis).
    ``confidence`` (N,) float in [0, 1]; ``class_id`` (N,) int (0 card_down, 1 card_up).
    """

    quads: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    data: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        quads = np.asarray(self.quads, dtype=np.float64)
        if quads.size == 0:
            quads = quads.reshape(0, 4, 2)
        if quads.ndim != 3 or quads.shape[1:] != (4, 2):
            raise ValueError(f"quads must have shape (N, 4, 2), got {quads.shape}")
        n = len(quads)
        confidence = np.asarray(self.confidence, dtype=np.float64).reshape(-1)
        class_id = np.asarray(self.class_id, dtype=np.int64).reshape(-1)
        if confidence.shape != (n,):
            raise ValueError(f"confidence must have shape ({n},), got {confidence.shape}")
        if class_id.shape != (n,):
            raise ValueError(f"class_id must have shape ({n},), got {class_id.shape}")
        if not np.all(np.isfinite(quads)):
            raise ValueError("quads must be finite")
        for key, value in self.data.items():
            if len(value) != n:
                raise ValueError(f"data[{key!r}] must have length {n}, got {len(value)}")
        object.__setattr__(self, "quads", quads)
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "class_id", class_id)

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4, 2)), np.zeros(0), np.zeros(0, dtype=np.int64))

    @classmethod
    def from_xywhr(
        cls, xywhr: np.ndarray, confidence: np.ndarray, class_id: np.ndarray
    ) -> Detections:
        """Build from rotated boxes (cx, cy, w, h, angle in radians, w along the angle)."""
        return cls(xywhr_to_quads(np.asarray(xywhr, dtype=np.float64)), confidence, class_id)

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, index: np.ndarray | slice | int) -> Detections:
        if isinstance(index, (int, np.integer)):
            index = np.array([index])
        return Detections(
            self.quads[index].copy(),
            self.confidence[index].copy(),
            self.class_id[index].copy(),
            {k: np.asarray(v)[index].copy() for k, v in self.data.items()},
        )

    @property
    def face_up(self) -> np.ndarray:
        return self.class_id == CARD_UP

    @property
    def centers(self) -> np.ndarray:
        return self.quads.mean(axis=1)

    @property
    def areas(self) -> np.ndarray:
        return polygon_areas(self.quads)


def xywhr_to_quads(xywhr: np.ndarray) -> np.ndarray:
    """Corners of rotated boxes: (N, 5) -> (N, 4, 2), quad[0]->quad[1] along w."""
    xywhr = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5)
    c = xywhr[:, None, :2]
    cos, sin = np.cos(xywhr[:, 4]), np.sin(xywhr[:, 4])
    half_w = xywhr[:, 2] / 2
    half_h = xywhr[:, 3] / 2
    u = np.stack([half_w * cos, half_w * sin], axis=-1)[:, None, :]
    v = np.stack([-half_h * sin, half_h * cos], axis=-1)[:, None, :]
    signs_u = np.array([-1, 1, 1, -1], dtype=np.float64)[None, :, None]
    signs_v = np.array([-1, -1, 1, 1], dtype=np.float64)[None, :, None]
    return c + signs_u * u + signs_v * v


def quads_to_xywhr(quads: np.ndarray) -> np.ndarray:
    """Rotated boxes of (near-)rectangular quads: w along quad[0]->quad[1]."""
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    center = quads.mean(axis=1)
    e01 = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2
    e12 = (quads[:, 2] - quads[:, 1] + quads[:, 3] - quads[:, 0]) / 2
    w = np.linalg.norm(e01, axis=1)
    h = np.linalg.norm(e12, axis=1)
    angle = np.arctan2(e01[:, 1], e01[:, 0])
    return np.column_stack([center, w, h, angle])


def polygon_areas(polys: np.ndarray) -> np.ndarray:
    """Absolute shoelace areas of (N, K, 2) polygons."""
    x = polys[..., 0]
    y = polys[..., 1]
    return 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y, axis=-1))


def quad_points(quads: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Points at unit-square coordinates ``uv`` (G, 2) on each quad (N, 4, 2) -> (N, G, 2),
    mapped bilinearly with corner 0 at (0, 0), 1 at (1, 0), 2 at (1, 1), 3 at (0, 1) (exact
    for the parallelograms cards are)."""
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    u, v = np.asarray(uv, dtype=np.float64).reshape(-1, 2).T
    weights = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=1)  # (G, 4)
    return np.einsum("gk,nkd->ngd", weights, quads)


def points_in_quads(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(M, N) bool: point n (of (N, 2)) lies inside convex quad m (of (M, 4, 2)), either
    winding: on the same side of all four edges."""
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    edges = np.roll(quads, -1, axis=1) - quads                    # (M, 4, 2)
    # side of edge (q, q + e) for point p: e x (p - q) = e_x p_y - e_y p_x - e x q, as outer
    # products (the pipeline asks this of a few thousand points per frame; no matrix
    # product: BLAS threads would fight the detector's for the cores)
    ex, ey = edges[..., 0].reshape(-1, 1), edges[..., 1].reshape(-1, 1)  # (4M, 1)
    offset = ex * quads[..., 1].reshape(-1, 1) - ey * quads[..., 0].reshape(-1, 1)
    cross = (ex * points[None, :, 1] - ey * points[None, :, 0] - offset)
    cross = cross.reshape(len(quads), 4, len(points))
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1))
