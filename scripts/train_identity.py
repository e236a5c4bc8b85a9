#!/usr/bin/env python
"""Generate corner crops, train the identity classifier, export it to ONNX and ship it.

Run with the training environment (torch + ultralytics), on a shared machine under the lock::

    flock /work/cpu-heavy.lock /work/trainenv/bin/python scripts/train_identity.py \
        --data /work/data/identity --runs /work/runs/identity --epochs 20

Steps (each skipped when its output exists, unless --force):
1. crops: ``<data>/{train,val}/<class>/*.png`` drawn by :mod:`vision.identity.synth`
   (training styles only; seeds 1000+ train, 2000+ val - evaluation uses 5000+).
2. train ``yolo11n-cls.yaml`` from scratch (no pretrained weights exist offline).
3. export ONNX (opset 18, simplified), copy to ``models/identity.onnx``, write its sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from multiprocessing import Pool
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TRAIN_SEED = 1000
VAL_SEED = 2000
CHUNK = 250  # cards per generator task (one seed each: deterministic whatever the pool size)


def _chunk(args: tuple[str, int, int, float, float, str]) -> dict[str, int]:
    import cv2
    import numpy as np

    from vision.identity.synth import sample_crops, sample_whole_cards

    out_dir, seed, n_cards, none_keep, max_width, view = args
    rng = np.random.default_rng(seed)
    counts: dict[str, int] = {}
    for i in range(n_cards):
        samples = (sample_whole_cards(rng, max_width=max_width) if view == "whole"
                   else sample_crops(rng, none_keep=none_keep, max_width=max_width))
        for j, s in enumerate(samples):
            d = Path(out_dir) / s.label
            d.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(d / f"{seed}_{i}_{j}.png"), s.crop)
            counts[s.label] = counts.get(s.label, 0) + 1
    return counts


def generate(data: Path, n_train: int, n_val: int, procs: int, none_keep: float,
             train_seed: int = TRAIN_SEED, max_width: float = 180.0,
             view: str = "corners") -> None:
    from vision.identity.synth import CLASS_NAMES

    for split, n, base in (("train", n_train, train_seed), ("val", n_val, VAL_SEED)):
        out = data / split
        if out.exists():
            print(f"{out} exists, not regenerated")
            continue
        tmp = data / f"{split}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        for name in CLASS_NAMES:  # every class folder exists, even if empty
            (tmp / name).mkdir(parents=True, exist_ok=True)
        tasks = [(str(tmp), base + k, min(CHUNK, n - k * CHUNK), none_keep, max_width, view)
                 for k in range((n + CHUNK - 1) // CHUNK)]
        t0 = time.time()
        total: dict[str, int] = {}
        with Pool(procs) as pool:
            for counts in pool.imap_unordered(_chunk, tasks):
                for k, v in counts.items():
                    total[k] = total.get(k, 0) + v
        tmp.rename(out)
        print(f"{split}: {n} cards -> {sum(total.values())} crops in {time.time() - t0:.0f} s; "
              f"none {total.get('none', 0)}, per card class min "
              f"{min(v for k, v in total.items() if k != 'none')}")


def train(data: Path, runs: Path, epochs: int, imgsz: int, batch: int, lr0: float,
          hours: float | None, threads: int = 2, init: Path | None = None,
          name: str = "train") -> Path:
    run_dir = runs / name
    cfg = runs / "config"
    cfg.mkdir(parents=True, exist_ok=True)
    os.environ.update(YOLO_OFFLINE="1", YOLO_AUTOINSTALL="0", YOLO_CONFIG_DIR=str(cfg))
    for font in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = cfg / font
        if not target.exists():
            shutil.copy("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", target)
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = threads  # ultralytics would use 1 on a 2-core machine
    # from scratch, or continuing from our own earlier run's weights (--init)
    model = YOLO(str(init)) if init else YOLO("yolo11n-cls.yaml")
    model.train(
        data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu", workers=0,
        optimizer="AdamW", lr0=lr0, cos_lr=True, amp=False, plots=False,
        # warm-up (bias lr 0.1) wrecks already trained weights: only from scratch
        warmup_epochs=0 if init else 1, warmup_bias_lr=0.0 if init else 0.1,
        # pretrained=False would make ultralytics re-initialise every layer, also the ones
        # just loaded from --init: continuing needs the path of our own weights here
        pretrained=str(init) if init else False,
        project=str(runs), name=name, exist_ok=True, seed=0,
        deterministic=False,
        # our crops are already augmented; the index must stay whole and unmirrored
        fliplr=0.0, flipud=0.0, scale=0.0, erasing=0.0, auto_augment=None,
        hsv_h=0.02, hsv_s=0.3, hsv_v=0.3, patience=100, verbose=True,
        # a wall-clock budget: ultralytics refits the epoch count (and schedule) to it
        **({"time": hours} if hours else {}),
    )
    return run_dir / "weights" / "best.pt"


def export(weights: Path, imgsz: int, models: Path, name: str = "identity") -> Path:
    from ultralytics import YOLO

    onnx_path = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, opset=18,
                                               simplify=True, dynamic=True))
    models.mkdir(exist_ok=True)
    target = models / f"{name}.onnx"
    shutil.copy(onnx_path, target)
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    (models / f"{name}.sha256").write_text(f"{digest}  {name}.onnx\n")
    print(f"shipped {target} ({target.stat().st_size / 1e6:.2f} MB) sha256 {digest}")
    return target


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=Path("/work/data/identity"))
    p.add_argument("--runs", type=Path, default=Path("/work/runs/identity"))
    p.add_argument("--models", type=Path, default=REPO / "models")
    p.add_argument("--train-cards", type=int, default=12000)
    p.add_argument("--val-cards", type=int, default=1500)
    p.add_argument("--none-keep", type=float, default=0.15)
    p.add_argument("--train-seed", type=int, default=TRAIN_SEED,
                   help="first seed of the training cards (one per chunk of 250 cards); a "
                        "second training set needs seeds apart from the first's, below 2000 "
                        "(validation) or between 3000 and 5000 (evaluation uses 5000+)")
    p.add_argument("--max-width", type=float, default=180.0,
                   help="largest card width in px (log-uniform from 24): lower it for a set "
                        "rich in small cards")
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--epochs", type=int, default=18)
    p.add_argument("--imgsz", type=int, default=64)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr0", type=float, default=0.003)
    p.add_argument("--hours", type=float, default=0.3,
                   help="training time budget (shared 2-core machine); 0 = use --epochs")
    p.add_argument("--threads", type=int, default=2,
                   help="torch threads (1 runs faster when other jobs load the 2 cores)")
    p.add_argument("--init", type=Path, default=None,
                   help="start from these weights (an earlier run of this script), not scratch")
    p.add_argument("--name", default="train", help="run folder under --runs")
    p.add_argument("--view", choices=("corners", "whole"), default="corners",
                   help="corners: the corner-index classifier (models/identity.onnx); whole: "
                        "the whole-card classifier for cards lying alone "
                        "(models/identity_whole.onnx)")
    p.add_argument("--steps", default="data,train,export")
    args = p.parse_args(argv)
    steps = set(args.steps.split(","))
    t0 = time.time()
    if "data" in steps:
        generate(args.data, args.train_cards, args.val_cards, args.procs, args.none_keep,
                 args.train_seed, args.max_width, args.view)
    weights = args.runs / args.name / "weights" / "best.pt"
    if "train" in steps:
        weights = train(args.data, args.runs, args.epochs, args.imgsz, args.batch, args.lr0,
                        args.hours or None, args.threads, args.init, args.name)
    if "export" in steps:
        export(weights, args.imgsz, args.models,
               "identity_whole" if args.view == "whole" else "identity")
    print(json.dumps({"seconds": round(time.time() - t0), "args": {
        k: str(v) for k, v in vars(args).items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
