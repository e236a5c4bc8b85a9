"""Where the table is in the image: which way South lies, and the rectified table plane.

Every later step (seats, rows, orientation) works in the *table frame*: the table seen from
straight above with South at the bottom, North at the top, West left, East right (contract 1),
in image-pixel units. The frame is a projective map of the image:

- ``--south bottom|top|left|right`` turns the image so that South comes to the bottom; an angle
  in degrees (clockwise from the bottom of the picture to South: ``left`` is 90, ``top``
  180, ``right`` 270) serves a camera or phone turned any way, such as a photo taken from a
  corner of the table (``--south 45``: South at the bottom left). Given as a side, the
  photo pipeline also turns the frame by the table's own direction in each photo, read from
  its cards (:func:`table_turn`), when the table lies turned 5-40 degrees (a phone held
  askew);
- a tilted camera is rectified with a calibration made once by ``trickvision calibrate``: the
  four corners of the table (or of any rectangle lying on it, e.g. a sheet of paper or four
  printed markers) clicked or measured in one photo from that camera. The calibration is a JSON
  file holding the image->table homography; it stays valid while the camera does not move.

Without a calibration the rows are still read correctly under moderate tilt (up to ~25 deg):
each card's orientation is measured against its own row's line, not against the image axes,
and perspective changes angles far less than it changes the won/lost difference of 90 deg.
A photo whose cards show a stronger tilt is levelled from them (:mod:`vision.table.tilt`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import InputFileError, TrickvisionError
from vision.seats import Seat

SOUTH_CHOICES = ("bottom", "top", "left", "right")
#: Each named ``--south`` as its angle: degrees clockwise from the picture's bottom to South.
SOUTH_ANGLES = {"bottom": 0.0, "left": 90.0, "top": 180.0, "right": 270.0}

#: Unit vector from the table centre toward each player, in the table frame (y down).
TOWARD: dict[Seat, np.ndarray] = {
    Seat.S: np.array([0.0, 1.0]),
    Seat.N: np.array([0.0, -1.0]),
    Seat.W: np.array([-1.0, 0.0]),
    Seat.E: np.array([1.0, 0.0]),
}


def along(seat: Seat) -> np.ndarray:
    """Unit vector along a seat's row from the player's left to his right (table frame)."""
    v = TOWARD[seat]
    return np.array([v[1], -v[0]])


def south_angle(south: str | float) -> float:
    """``--south`` as degrees in [0, 360): a name of :data:`SOUTH_CHOICES` or an angle,
    clockwise (as the picture is seen) from its bottom to where South sits."""
    if isinstance(south, str) and south.strip().lower() in SOUTH_ANGLES:
        return SOUTH_ANGLES[south.strip().lower()]
    try:
        angle = float(south)
    except (TypeError, ValueError):
        angle = float("nan")
    if not np.isfinite(angle):
        raise TrickvisionError(
            f"--south must be one of {', '.join(SOUTH_CHOICES)} or an angle in degrees "
            f"(clockwise from the bottom of the picture to South, e.g. 45 for the bottom "
            f"left), got {south!r}")
    return angle % 360.0


def quarter_turn(angles: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, float]:
    """The direction that ``angles`` (radians, of lines: each also stands for itself turned by
    90 degrees) share, in degrees in (-45, 45], and how well they agree on it (0: not at all,
    1: all alike): the mean of four times the angles."""
    a = np.asarray(angles, dtype=np.float64).reshape(-1)
    w = np.ones(len(a)) if weights is None else np.asarray(weights, dtype=np.float64)
    z = np.sum(w * np.exp(4j * a)) / w.sum()
    turn = float(np.degrees(np.angle(z)) / 4.0)
    return (turn if turn > -45.0 else turn + 90.0), float(abs(z))


def table_turn(quads: np.ndarray, weights: np.ndarray | None = None
               ) -> tuple[float, float] | None:
    """How far the table is turned in the picture, read from its cards: degrees in
    (-45, 45], clockwise as ``--south`` counts, and how well the cards agree on it (0: not
    at all, 1: every card exactly). None for fewer than three cards.

    Every card of a row lies along the row or across it, so the cards' long sides, taken
    modulo 90 degrees, all point the table's way (the mean of four times their angles).
    """
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    if len(q) < 3:
        return None
    first, second = q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]
    longer = np.where((np.linalg.norm(first, axis=1) >= np.linalg.norm(second, axis=1))[:, None],
                      first, second)
    angle = np.arctan2(longer[:, 1], longer[:, 0])  # image y points down: clockwise
    w = np.ones(len(q)) if weights is None else np.clip(np.asarray(weights, float), 0, None)
    if w.sum() <= 0:
        return None
    return quarter_turn(angle, w)


def south_argument(value: str) -> str:
    """The command lines' ``--south`` type: the value as given, once it is known to be a
    name or an angle (argparse then reports a bad one as a usage error, exit code 2)."""
    import argparse

    try:
        south_angle(value)
    except TrickvisionError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--south ")) from None
    return value


def south_turn(south: str | float) -> np.ndarray:
    """The 2x2 turn that brings South (``--south``) to the bottom of the table frame:
    the direction (-sin a, cos a) of South in the picture goes to (0, 1). Quarter turns are
    exact (their entries 0 and +-1)."""
    a = np.radians(south_angle(south))
    c, s = np.cos(a), np.sin(a)
    turn = np.array([[c, s], [-s, c]])
    quarter = np.round(turn)
    return quarter if np.allclose(turn, quarter, atol=1e-12) else turn


class CalibrationError(TrickvisionError):
    """A calibration file or the points given for one are unusable."""


@dataclass(frozen=True)
class Calibration:
    """A homography from image pixels to the table plane (table-frame pixels).

    ``corners`` are the image points that were used (for the record), ``size`` the width and
    height in table units they were mapped to.
    """

    homography: np.ndarray
    image_size: tuple[int, int] = (0, 0)
    corners: tuple[tuple[float, float], ...] = ()
    size: tuple[float, float] = (0.0, 0.0)
    source: str = ""

    @classmethod
    def from_corners(
        cls,
        corners: np.ndarray,
        *,
        aspect: float = 1.0,
        image_size: tuple[int, int] = (0, 0),
        source: str = "",
    ) -> Calibration:
        """Calibrate from four image points of a rectangle lying on the table.

        ``corners`` are given in the order top-left, top-right, bottom-right, bottom-left as
        the rectangle is seen with South at the bottom; ``aspect`` is its true width / height
        (1 for a square table). The table frame keeps roughly the image's pixel scale.
        """
        import cv2

        pts = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
        if pts.shape != (4, 2):
            raise CalibrationError(f"a calibration needs 4 corner points, got {len(pts)}")
        if aspect <= 0:
            raise CalibrationError(f"aspect must be positive, got {aspect}")
        area = 0.5 * abs(
            np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1])
        )
        if area < 100:
            raise CalibrationError("the four corners enclose (almost) no area")
        height = float(np.sqrt(area / aspect))
        width = height * aspect
        target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
        h = cv2.getPerspectiveTransform(pts.astype(np.float32), target.astype(np.float32))
        return cls(
            homography=np.asarray(h, dtype=np.float64),
            image_size=image_size,
            corners=tuple((float(x), float(y)) for x, y in pts),
            size=(width, height),
            source=source,
        )

    def to_dict(self) -> dict:
        return {
            "schema": 1,
            "kind": "trickvision-calibration",
            "homography": self.homography.tolist(),
            "image_size": list(self.image_size),
            "corners": [list(c) for c in self.corners],
            "size": list(self.size),
            "source": self.source,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError as exc:
            raise InputFileError(f"calibration file not found: {path}") from exc
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputFileError(f"calibration file {path} is not JSON: {exc}") from exc
        try:
            h = np.asarray(data["homography"], dtype=np.float64)
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{path}: no 'homography' (3x3) in the calibration") from exc
        if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
            raise CalibrationError(f"{path}: 'homography' must be an invertible 3x3 matrix")
        return cls(
            homography=h,
            image_size=tuple(data.get("image_size", (0, 0))),  # type: ignore[arg-type]
            corners=tuple(tuple(c) for c in data.get("corners", ())),  # type: ignore[misc]
            size=tuple(data.get("size", (0.0, 0.0))),  # type: ignore[arg-type]
            source=str(data.get("source", "")),
        )


@dataclass(frozen=True)
class TableFrame:
    """Image <-> table frame (South at the bottom, rectified when calibrated)."""

    south: str | float = "bottom"
    calibration: Calibration | None = None
    matrix: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        turn = np.eye(3)
        turn[:2, :2] = south_turn(self.south)
        h = self.calibration.homography if self.calibration is not None else np.eye(3)
        # A calibration already maps to a South-at-bottom table when its corners were given in
        # that order; ``south`` turns whatever comes out of it.
        object.__setattr__(self, "matrix", turn @ h)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        return apply_homography(self.matrix, points)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        return apply_homography(np.linalg.inv(self.matrix), points)

    def along_in_image(self, seat: Seat, at: np.ndarray) -> np.ndarray:
        """Unit vector (image px) along ``seat``'s row, from the player's left to his right,
        at the image point ``at``: :func:`along` carried into the picture (turned, and
        rectified where calibrated)."""
        here = self.to_table(np.asarray(at, dtype=np.float64).reshape(1, 2))[0]
        ends = self.to_image(np.stack([here, here + along(seat)]))
        step = ends[1] - ends[0]
        norm = float(np.linalg.norm(step))
        return step / norm if norm > 0 else np.array([1.0, 0.0])


def apply_homography(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (..., 2) mapped by the 3x3 ``matrix`` (projectively)."""
    pts = np.asarray(points, dtype=np.float64)
    flat = pts.reshape(-1, 2)
    homog = np.column_stack([flat, np.ones(len(flat))]) @ matrix.T
    w = homog[:, 2:3]
    w = np.where(np.abs(w) < 1e-12, 1e-12, w)
    return (homog[:, :2] / w).reshape(pts.shape)
