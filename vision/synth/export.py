"""Training sets from synthetic scenes: ultralytics OBB detection and card-identity crops.

Detector training (the detector engineer), from Python::

    from vision.synth.export import export_obb_dataset
    export_obb_dataset("/work/data/obb-v1", n_train=3000, n_val=300, seed=1, imgsz=640)
    # -> /work/data/obb-v1/data.yaml ; train with YOLO("yolo11n-obb.yaml").train(
    #        data="/work/data/obb-v1/data.yaml", imgsz=416, ...)

or from the shell (run big sets under the CPU lock, see the project notes)::

    flock /work/cpu-heavy.lock .venv/bin/trickvision synth --format obb --n 3000 --n-val 300 \\
        --seed 1 --size 640 --out /work/data/obb-v1

Layout written::

    data.yaml                  path, train: images/train, val: images/val,
                               names: {0: card_down, 1: card_up}
    images/{train,val}/*.jpg   scenes (games and stages mixed, ``hard_fraction`` hard looks)
    labels/{train,val}/*.txt   one line per card: ``class x1 y1 x2 y2 x3 y3 x4 y4``,
                               corners normalised to [0, 1], the card's FULL rectangle (also
                               where covered), corners in the card's own order TL TR BR BL
    truth/{train,val}/*.json   full ground truth per scene (only with ``write_truth=True``)

Cards less than ``min_visible`` visible (hidden under a hand or other cards) get no label.
Train scene ``i`` uses seed ``2 * (seed * 10**7 + i)``, val scene ``i`` the odd seed
``2 * (seed * 10**7 + i) + 1``: train and val never share a seed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import InputFileError, TrickvisionError
from vision.synth.layout import STAGES
from vision.synth.scene import Scene, render_game_scene, write_scene

CLASS_NAMES: dict[int, str] = {0: "card_down", 1: "card_up"}
GAMES: tuple[str, ...] = ("bridge", "preferans", "lhombre")
#: Default mix of stages in exported sets (mid, end, faceup).
STAGE_WEIGHTS: tuple[float, ...] = (0.35, 0.4, 0.25)
#: Output shapes (width, height) drawn for a given long side ``imgsz``.
ASPECTS: tuple[tuple[int, int], ...] = ((4, 3), (1, 1), (16, 9), (3, 2))
#: Canonical size of an identity crop (portrait).
CROP_SIZE: tuple[int, int] = (100, 140)
#: How far from straight down the steep cameras of ``steep_fraction`` look (degrees): a phone
#: held at an angle, beyond the styles' own tilt (which stops at 25).
STEEP_TILT: tuple[float, float] = (20.0, 45.0)


def scene_seed(seed: int, index: int, split: str) -> int:
    """The scene seed of item ``index`` of ``split`` (train even, val odd: never shared)."""
    base = 2 * (int(seed) * 10**7 + int(index))
    return base if split == "train" else base + 1


def _check_out(out_dir: str | os.PathLike[str]) -> Path:
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputFileError(f"output folder {str(out)!r} is a file (expected a folder)")
    return out


def _pick(seed: int, imgsz: int | None, games: Sequence[str], stages: Sequence[str],
          stage_weights: Sequence[float] | None, hard_fraction: float
          ) -> tuple[str, str, tuple[int, int] | None, bool]:
    """Game, stage, image size and difficulty of one scene, all from its seed."""
    r = np.random.default_rng([seed, 0xE4])
    game = games[int(r.integers(len(games)))]
    if stage_weights is None:
        stage_weights = STAGE_WEIGHTS if tuple(stages) == STAGES else [1.0] * len(stages)
    p = np.asarray(stage_weights, float)
    stage = stages[int(r.choice(len(stages), p=p / p.sum()))]
    size = None
    if imgsz is not None:
        aw, ah = ASPECTS[int(r.integers(len(ASPECTS)))]
        long_side = int(imgsz)
        short = int(round(long_side * ah / aw / 32.0)) * 32 or 32
        size = (long_side, short) if r.random() < 0.85 else (short, long_side)
    hard = bool(r.random() < hard_fraction)
    return game, stage, size, hard


def obb_label_lines(truth: Mapping[str, Any], *, min_visible: float = 0.1) -> list[str]:
    """The cards of a scene's (or video frame's) truth - ``width``, ``height``, ``cards`` - as
    ultralytics OBB label lines (normalised, full quads)."""
    w, h = truth["width"], truth["height"]
    lines = []
    for c in truth["cards"]:
        if c["visible_fraction"] < min_visible:
            continue
        q = np.asarray(c["quad"], float)
        q[:, 0] = np.clip(q[:, 0] / w, 0.0, 1.0)
        q[:, 1] = np.clip(q[:, 1] / h, 0.0, 1.0)
        cls = 1 if c["face_up"] else 0
        lines.append(f"{cls} " + " ".join(f"{v:.6f}" for v in q.reshape(-1)))
    return lines


def _progress(done: int, total: int, label: str) -> None:
    width = 30
    fill = int(width * done / max(total, 1))
    sys.stderr.write(f"\r{label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def export_obb_dataset(
    out_dir: str | Path,
    n_train: int,
    n_val: int,
    seed: int,
    imgsz: int | None = None,
    hard_fraction: float = 0.3,
    *,
    games: Sequence[str] = GAMES,
    stages: Sequence[str] = STAGES,
    stage_weights: Sequence[float] | None = None,
    min_visible: float = 0.1,
    irregular_fraction: float = 0.15,
    loose_fraction: float = 0.3,
    write_truth: bool = False,
    held_out_val: bool = False,
    progress: bool | Callable[[int, int, str], None] = False,
    steep_fraction: float = 0.0,
    turned_fraction: float = 0.0,
) -> Path:
    """Render an ultralytics OBB data set into ``out_dir``; returns the ``data.yaml`` path.

    ``imgsz``: long side of every image in px (aspect drawn from :data:`ASPECTS`); None draws
    sizes from 640 px to 1920x1080. ``hard_fraction`` of the scenes get hard looks (strong
    tilt, blur, noise, glare, hands). ``irregular_fraction`` of the scenes carry one
    irregularity (wrong orientation, short/long row, card out of place, revoke).
    ``loose_fraction`` of the scenes also show cards outside the rows (a face-down talon pile;
    in bridge mid-play, dummy's hand face up in columns) - they are labelled like any card.
    ``held_out_val`` draws the val decks (faces and backs) only from designs never used for
    training, so val accuracy approximates an unseen deck. ``steep_fraction`` of the scenes are
    photographed from 20-45 degrees off straight down (a phone held at an angle; the styles'
    own tilt stops at 25), ``turned_fraction`` with the camera turned up to 45 degrees either
    way (a photo taken askew or from a corner).
    Deterministic for a given ``seed``. See the module docstring for the layout.
    """
    if n_train < 0 or n_val < 0:
        raise TrickvisionError(f"scene counts must be >= 0, got train={n_train} val={n_val}")
    if not 0.0 <= hard_fraction <= 1.0:
        raise TrickvisionError(f"hard_fraction must be within 0..1, got {hard_fraction}")
    for stage in stages:
        if stage not in STAGES:
            raise TrickvisionError(
                f"unknown stage {stage!r} (expected one of {', '.join(STAGES)})")
    out = _check_out(out_dir)
    report = progress if callable(progress) else (_progress if progress else None)
    total = n_train + n_val
    done = 0
    for split, n in (("train", n_train), ("val", n_val)):
        img_dir = out / "images" / split
        lab_dir = out / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        for i in range(n):
            s = scene_seed(seed, i, split)
            scene = _scene_for(s, imgsz, games, stages, stage_weights, hard_fraction,
                               irregular_fraction, held_out=held_out_val and split == "val",
                               loose_fraction=loose_fraction, steep_fraction=steep_fraction,
                               turned_fraction=turned_fraction)
            stem = f"{split}_{i:06d}"
            params = [cv2.IMWRITE_JPEG_QUALITY, int(scene.style.jpeg_quality)]
            cv2.imwrite(str(img_dir / f"{stem}.jpg"), scene.image, params)
            lines = obb_label_lines(scene.truth, min_visible=min_visible)
            (lab_dir / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            if write_truth:
                truth = dict(scene.truth, image=f"{stem}.jpg")
                tdir = out / "truth" / split
                tdir.mkdir(parents=True, exist_ok=True)
                (tdir / f"{stem}.json").write_text(json.dumps(truth, separators=(",", ":")))
            done += 1
            if report:
                report(done, total, "obb")
    return write_data_yaml(out, f"seed {seed}, {n_train} train / {n_val} val scenes")


def write_data_yaml(out: Path, what: str) -> Path:
    """The ultralytics ``data.yaml`` of an OBB set laid out as above."""
    yaml = out / "data.yaml"
    yaml.write_text(
        f"# trickvision synthetic OBB set: {what}\n"
        f"path: {out.resolve()}\n"
        "train: images/train\n"
        "val: images/val\n"
        "names:\n" + "".join(f"  {k}: {v}\n" for k, v in CLASS_NAMES.items())
    )
    return yaml


def _scene_for(s: int, imgsz: int | None, games: Sequence[str], stages: Sequence[str],
               stage_weights: Sequence[float] | None, hard_fraction: float,
               irregular_fraction: float, held_out: bool = False,
               loose_fraction: float = 0.0, steep_fraction: float = 0.0,
               turned_fraction: float = 0.0) -> Scene:
    game, stage, size, hard = _pick(s, imgsz, games, stages, stage_weights, hard_fraction)
    r = np.random.default_rng([s, 0x1F])
    irr: tuple[str, ...] = ()
    if r.random() < irregular_fraction:
        kinds = ("wrong_orientation", "short_row", "long_row", "out_of_place", "revoke")
        irr = (kinds[int(r.integers(len(kinds)))],)
    loose = ("talon", "dummy") if r.random() < loose_fraction else ()
    # drawn from a generator of their own: the scenes without them stay as they were
    camera = np.random.default_rng([s, 0x5EE9])
    tilt = float(camera.uniform(*STEEP_TILT)) if camera.random() < steep_fraction else None
    roll = float(camera.uniform(-45.0, 45.0)) if camera.random() < turned_fraction else 0.0
    return render_game_scene(game, stage, s, image_size=size, hard=hard, irregularities=irr,
                             held_out=held_out, loose=loose, with_report=False,
                             tilt_deg=tilt, roll_deg=roll)


def rectify_card(image: np.ndarray, quad: Sequence[Sequence[float]],
                 size: tuple[int, int] = CROP_SIZE) -> np.ndarray:
    """The card inside ``quad`` (its own TL TR BR BL order) warped to an upright portrait."""
    w, h = size
    src = np.asarray(quad, np.float32)
    dst = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]],
                   np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def export_crops(
    out_dir: str | Path,
    n_train: int,
    n_val: int,
    seed: int,
    imgsz: int | None = 1024,
    hard_fraction: float = 0.3,
    *,
    games: Sequence[str] = GAMES,
    min_visible: float = 0.0,
    held_out_faces: bool = False,
    progress: bool | Callable[[int, int, str], None] = False,
) -> Path:
    """Card-identity crops: every face-up card rectified to 100x140, one folder per card.

    Scenes are "faceup" and "mid" stages. Writes ``{train,val}/<card>/<stem>_<id>.jpg`` (the
    layout ultralytics classification expects) and ``index.csv`` with columns
    ``split,path,card,visible_fraction,game,seed`` (a crop may be partly covered by the next
    card in its row: filter on ``visible_fraction`` as needed). Returns the index path.
    """
    out = _check_out(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    report = progress if callable(progress) else (_progress if progress else None)
    rows = ["split,path,card,visible_fraction,game,seed"]
    total = n_train + n_val
    done = 0
    for split, n in (("train", n_train), ("val", n_val)):
        for i in range(n):
            s = scene_seed(seed, i, split)
            game, _, size, hard = _pick(s, imgsz, games, STAGES, None, hard_fraction)
            stage = "mid" if i % 4 == 3 else "faceup"
            scene = render_game_scene(game, stage, s, image_size=size, hard=hard,
                                      held_out_faces=held_out_faces, with_report=False)
            for c in scene.truth["cards"]:
                if not c["face_up"] or c["visible_fraction"] < min_visible:
                    continue
                crop = rectify_card(scene.image, c["quad"])
                d = out / split / c["card"]
                d.mkdir(parents=True, exist_ok=True)
                name = f"{split}_{i:06d}_{c['id']:03d}.jpg"
                cv2.imwrite(str(d / name), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
                rows.append(f"{split},{split}/{c['card']}/{name},{c['card']},"
                            f"{c['visible_fraction']:.3f},{game},{s}")
            done += 1
            if report:
                report(done, total, "crops")
    index = out / "index.csv"
    index.write_text("\n".join(rows) + "\n")
    return index


def export_scenes(
    out_dir: str | Path,
    n: int,
    seed: int,
    *,
    game: str,
    stage: str,
    imgsz: int | None = None,
    hard_fraction: float = 0.3,
    overlap: tuple[float, float] | None = None,
    irregularities: Sequence[str] = (),
    loose: Sequence[str] = (),
    progress: bool | Callable[[int, int, str], None] = False,
) -> list[Path]:
    """``n`` scenes of one game and stage with their ground-truth JSON (contract 3)."""
    out = _check_out(out_dir)
    report = progress if callable(progress) else (_progress if progress else None)
    paths = []
    for i in range(n):
        s = scene_seed(seed, i, "train")
        _, _, size, hard = _pick(s, imgsz, GAMES, STAGES, None, hard_fraction)
        scene = render_game_scene(game, stage, s, image_size=size, hard=hard, overlap=overlap,
                                  irregularities=irregularities, loose=loose)
        paths.append(write_scene(scene, out, f"{game}_{stage}_{i:05d}"))
        if report:
            report(i + 1, n, "scenes")
    return paths


__all__: list[Any] = [
    "CLASS_NAMES", "CROP_SIZE", "export_crops", "export_obb_dataset", "export_scenes",
    "obb_label_lines", "rectify_card", "scene_seed", "write_data_yaml",
]
