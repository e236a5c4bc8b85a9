"""``trickvision calibrate PHOTO``: a table calibration for a camera that looks at an angle.

The calibration maps the tilted photo onto the table seen from straight above (South at the
bottom), so ``analyze --calibration FILE`` and the video commands measure angles on the table
itself. It is made once per camera position, from one photo, in either way:

- ``--corners "x,y x,y x,y x,y"``: image pixels of four points forming a rectangle on the
  table (the table's corners, or a sheet of paper), in the order North-West, North-East,
  South-East, South-West (top-left, top-right, bottom-right, bottom-left with South at the
  bottom); ``--aspect`` is its true width / height;
- printed ArUco markers (dictionary 4x4_50, ids 0 NW, 1 NE, 2 SE, 3 SW) lying at the corners
  of a rectangle on the table: found automatically. ``--print-markers DIR`` writes them as PNGs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.errors import InputFileError, TrickvisionError

NAME = "calibrate"
HELP = "make a table calibration for a tilted camera"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", nargs="?", help="a photo from the camera")
    parser.add_argument("--corners", metavar="PTS",
                        help='four image points "x,y x,y x,y x,y" (NW NE SE SW)')
    parser.add_argument("--aspect", type=float, default=1.0,
                        help="true width / height of the rectangle (default 1, a square table)")
    parser.add_argument("--out", metavar="FILE", default="table-calibration.json")
    parser.add_argument("--print-markers", metavar="DIR",
                        help="write the four ArUco markers as PNG files to print, then exit")


def parse_corners(text: str) -> np.ndarray:
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in text.replace(";", " ").split()]
    except ValueError as exc:
        raise TrickvisionError(f'--corners {text!r}: expected "x,y x,y x,y x,y"') from exc
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise TrickvisionError(f'--corners {text!r}: expected four points "x,y x,y x,y x,y"')
    return np.array(pts, dtype=np.float64)


def find_markers(image: np.ndarray) -> np.ndarray:
    """Centres of ArUco markers 0-3 (NW NE SE SW); raises when any is missing."""
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    found: dict[int, np.ndarray] = {}
    if ids is not None:
        for c, i in zip(corners, ids.reshape(-1), strict=True):
            found[int(i)] = np.asarray(c, dtype=np.float64).reshape(4, 2).mean(axis=0)
    missing = [i for i in range(4) if i not in found]
    if missing:
        raise TrickvisionError(
            f"ArUco markers {missing} (4x4_50; 0 NW, 1 NE, 2 SE, 3 SW) not found in the photo; "
            "give the corners with --corners instead"
        )
    return np.stack([found[i] for i in range(4)])


def write_markers(folder: Path) -> list[Path]:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    paths = []
    for i, name in enumerate(("NW", "NE", "SE", "SW")):
        marker = cv2.aruco.generateImageMarker(dictionary, i, 400)
        marker = cv2.copyMakeBorder(marker, 60, 60, 60, 60, cv2.BORDER_CONSTANT, value=255)
        path = folder / f"marker-{i}-{name}.png"
        cv2.imwrite(str(path), marker)
        paths.append(path)
    return paths


def run(args: argparse.Namespace) -> int:
    from vision.table.geometry import Calibration

    if args.print_markers:
        for path in write_markers(Path(args.print_markers)):
            print(f"wrote {path}")
        return 0
    if not args.photo:
        raise TrickvisionError("a PHOTO is needed (or --print-markers DIR)")
    from vision.pipeline import load_image

    image = load_image(args.photo)
    corners = parse_corners(args.corners) if args.corners else find_markers(image)
    h, w = image.shape[:2]
    if np.any(corners < -w) or np.any(corners[:, 0] > 2 * w) or np.any(corners[:, 1] > 2 * h):
        raise TrickvisionError(f"--corners lie far outside the {w}x{h} photo")
    calibration = Calibration.from_corners(
        corners, aspect=args.aspect, image_size=(w, h), source=str(args.photo)
    )
    out = Path(args.out)
    if out.is_dir():
        raise InputFileError(f"--out {out} is a folder (expected a file name)")
    calibration.save(out)
    print(f"wrote {out}; use it with: trickvision analyze PHOTO --calibration {out}",
          file=sys.stderr)
    return 0
