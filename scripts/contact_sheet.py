"""Draw a grid of sample scenes: what the models are trained on (docs/contact_sheet.jpg).

    .venv/bin/python scripts/contact_sheet.py [--out docs/contact_sheet.jpg] [--cols 4]
        [--rows 4] [--seed 0] [--boxes]

Scenes cycle through the three games and the three stages with the export's mix of looks
(every fourth one hard). ``--boxes`` draws the ground-truth quads (magenta: face down,
yellow: face up). Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.synth import render_game_scene

GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("end", "mid", "faceup")
TILE = (400, 300)


def tile(i: int, seed: int, boxes: bool) -> np.ndarray:
    game = GAMES[i % 3]
    stage = STAGES[(i // 3) % 3]
    scene = render_game_scene(game, stage, seed * 1000 + i, hard=(i % 4 == 3),
                              image_size=(800, 600) if i % 2 else None, with_report=False)
    img = scene.image.copy()
    if boxes:
        for c in scene.truth["cards"]:
            q = np.round(np.asarray(c["quad"])).astype(np.int32)
            cv2.polylines(img, [q], True, (0, 255, 255) if c["face_up"] else (255, 0, 255),
                          max(1, img.shape[1] // 400), cv2.LINE_AA)
    h, w = img.shape[:2]
    s = min(TILE[0] / w, TILE[1] / h)
    small = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    bar = 20
    out = np.full((TILE[1] + bar, TILE[0], 3), 255, np.uint8)
    y0, x0 = (TILE[1] - small.shape[0]) // 2, (TILE[0] - small.shape[1]) // 2
    out[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    out[TILE[1]:] = 40
    label = f"{game}, {stage}{', hard look' if i % 4 == 3 else ''}, {w}x{h}"
    cv2.putText(out, label, (6, TILE[1] + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/contact_sheet.jpg")
    ap.add_argument("--cols", type=int, default=4)
    ap.add_argument("--rows", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--boxes", action="store_true", help="draw the ground-truth quads")
    a = ap.parse_args()
    tiles = [tile(i, a.seed, a.boxes) for i in range(a.cols * a.rows)]
    pad = 4
    rows = []
    for r in range(a.rows):
        row = []
        for c in range(a.cols):
            row.append(np.pad(tiles[r * a.cols + c], ((pad, pad), (pad, pad), (0, 0)),
                              constant_values=255))
        rows.append(np.hstack(row))
    sheet = np.vstack(rows)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(a.out, sheet, [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(f"wrote {a.out} ({sheet.shape[1]}x{sheet.shape[0]})")


if __name__ == "__main__":
    main()
