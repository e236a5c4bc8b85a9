"""Train the card detector (yolo11n-obb, from scratch) on the renderer's scenes and export it.

Reproduces ``models/detector.onnx``::

    nohup flock /work/cpu-heavy.lock /work/trainenv/bin/python scripts/train_detector.py \
        --data /work/data/detector --runs /work/runs/detector --n-train 600 --n-val 80 \
        --imgsz 640 --epochs 40 --hours 1.2 > /work/logs/detector.log 2>&1 &

Steps: (1) generate the OBB data set with ``vision.synth.export_obb_dataset`` unless it already
exists (run with the project's own interpreter, so the training environment needs no copy of
the renderer's dependencies), (2) train ``yolo11n-obb.yaml`` with ``pretrained=False`` and
offline-safe settings (no downloads, 2 torch threads, no AMP, no plots), (3) export the best
weights to ONNX with ``scripts/export.py`` (opset 18, simplified) into ``models/``.

This script needs the ``train`` extra (torch, ultralytics, onnx, onnxslim); the ``vision``
package itself never imports them.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLASS_NAMES = {0: "card_down", 1: "card_up"}


def _offline_environment(run_dir: Path) -> None:
    """Keep ultralytics from reaching the network or writing to the home folder."""
    config_dir = run_dir / "ultralytics-config"
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    font = _local_font()
    if font is not None:
        for name in ("Arial.ttf", "Arial.Unicode.ttf"):
            target = config_dir / name
            if not target.exists():
                shutil.copyfile(font, target)


def _local_font() -> Path | None:
    """A TTF already on disk (matplotlib's DejaVuSans), so ultralytics never fetches Arial."""
    try:
        import matplotlib

        fonts = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf"
        candidate = fonts / "DejaVuSans.ttf"
        if candidate.exists():
            return candidate
    except ImportError:
        pass
    for folder in ("/usr/share/fonts", "/usr/local/share/fonts"):
        for path in sorted(Path(folder).rglob("*.ttf")) if Path(folder).exists() else []:
            return path
    return None


def generate_dataset(args: argparse.Namespace) -> Path:
    """Render the data set(s) with the renderer's exporter; returns the data yaml to train on.

    ``--data`` may list several folders separated by commas (e.g. a first small set and a
    later larger one); a missing folder is rendered with seed ``--seed + its index``.
    """
    folders = [Path(p) for p in args.data.split(",") if p]
    yamls = [_generate_one(args, folder, args.seed + k) for k, folder in enumerate(folders)]
    if len(yamls) == 1:
        return yamls[0]
    combined = Path(args.runs).resolve() / args.name / "data.yaml"
    train = [str((y.parent / "images" / "train").resolve()) for y in yamls]
    val = [
        str((y.parent / "images" / "val").resolve())
        for y in yamls
        if any((y.parent / "images" / "val").glob("*.jpg"))
    ]
    combined.write_text(
        "path: /\n"
        f"train: {json.dumps(train)}\n"
        f"val: {json.dumps(val)}\n"
        "names:\n" + "".join(f"  {k}: {v}\n" for k, v in CLASS_NAMES.items())
    )
    return combined


def _generate_one(args: argparse.Namespace, data_dir: Path, seed: int) -> Path:
    existing = _find_yaml(data_dir)
    if existing is not None and not args.regenerate:
        print(f"[train] using existing data set {existing}", flush=True)
        return existing
    python = args.project_python or str(REPO / ".venv" / "bin" / "python")
    extra = json.loads(args.synth_options) if args.synth_options else {}
    code = (
        "import json, sys\n"
        "from vision.synth.export import export_obb_dataset\n"
        "kw = json.loads(sys.argv[1])\n"
        "result = export_obb_dataset(sys.argv[2], n_train=int(sys.argv[3]), "
        "n_val=int(sys.argv[4]), seed=int(sys.argv[5]), **kw)\n"
        "print('EXPORTED', result)\n"
    )
    cmd = [
        python, "-c", code, json.dumps(extra), str(data_dir),
        str(args.n_train), str(args.n_val), str(seed),
    ]
    print("[train] generating data set:", shlex.join(cmd[:2] + ["..."] + cmd[3:]), flush=True)
    t0 = time.time()
    subprocess.run(cmd, check=True, cwd=REPO)
    print(f"[train] data set generated in {time.time() - t0:.0f} s", flush=True)
    found = _find_yaml(data_dir)
    if found is None:
        raise SystemExit(f"no data yaml found under {data_dir} after export")
    return found


def _find_yaml(data_dir: Path) -> Path | None:
    if not data_dir.exists():
        return None
    for name in ("data.yaml", "dataset.yaml"):
        if (data_dir / name).exists():
            return data_dir / name
    yamls = sorted(data_dir.glob("*.yaml"))
    return yamls[0] if yamls else None


def train(args: argparse.Namespace, data_yaml: Path) -> Path:
    """Train from the yaml (no pretrained weights exist offline); returns best.pt."""
    from ultralytics import YOLO
    from ultralytics.utils import torch_utils

    torch_utils.NUM_THREADS = args.threads  # ultralytics would use cpu_count - 1 = 1 thread
    import torch

    torch.set_num_threads(args.threads)
    model = YOLO(args.model_yaml)
    close_mosaic = args.close_mosaic if args.close_mosaic is not None else max(1, args.epochs // 4)
    train_args = dict(
        data=str(data_yaml),
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        workers=0,
        device="cpu",
        # From scratch; --init-weights continues from our own earlier run (never a download).
        pretrained=args.init_weights or False,
        amp=False,
        plots=False,
        close_mosaic=close_mosaic,
        project=str(Path(args.runs).resolve()),
        name=args.name,
        exist_ok=True,
        seed=args.seed,
        deterministic=False,
        patience=max(10, args.epochs),
        # Validation every epoch costs minutes on 2 cores; scripts/evaluate.py measures the
        # shipped model on held-out scenes instead (--val turns it back on).
        val=args.val,
        verbose=True,
        # Geometry augmentation: any rotation is a valid table view; flips keep won/lost.
        degrees=args.degrees,
        fliplr=0.5,
        flipud=0.5,
        scale=0.35,
        translate=0.1,
        mosaic=args.mosaic,
        cache=args.cache,
        optimizer=args.optimizer,
        lr0=args.lr0,
        lrf=args.lrf,
        warmup_epochs=args.warmup_epochs,
    )
    hours = args.hours
    if args.deadline:
        # the lock may have been held by others for a while: fit the run to the wall clock
        now = datetime.now(timezone.utc)
        hh, mm = (int(v) for v in args.deadline.split(":"))
        end = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        left = (end - now).total_seconds() / 3600 - 0.04  # caching and the final validation
        hours = min(hours, left) if hours else left
        print(f"[train] deadline {args.deadline} UTC: training for {hours:.2f} h", flush=True)
        if hours < 0.05:
            raise SystemExit("[train] no time left before the deadline")
    if hours:
        train_args["time"] = hours
    print("[train] ultralytics args:", train_args, flush=True)
    model.train(**train_args)
    weights = Path(args.runs).resolve() / args.name / "weights"
    best = weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"
    if not best.exists():
        raise SystemExit(f"training finished without {best}")
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/work/data/detector", help="data set folder(s), commas")
    parser.add_argument("--runs", default="/work/runs/detector", help="ultralytics project folder")
    parser.add_argument("--name", default="train", help="run name inside --runs")
    parser.add_argument("--n-train", type=int, default=600)
    parser.add_argument("--n-val", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1000, help="data set seed (eval uses others)")
    parser.add_argument("--synth-options", default="", help="JSON of extra exporter keywords")
    parser.add_argument("--regenerate", action="store_true", help="re-render an existing set")
    parser.add_argument("--project-python", default="", help="interpreter with vision installed")
    parser.add_argument("--model-yaml", default="yolo11n-obb.yaml")
    parser.add_argument("--init-weights", default="", help="our own earlier best.pt to continue")
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--hours", type=float, default=0.0, help="wall-clock cap (ultralytics)")
    parser.add_argument("--deadline", default="", help="HH:MM UTC by which training must end")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--close-mosaic", type=int, default=None)
    parser.add_argument("--degrees", type=float, default=180.0)
    parser.add_argument("--cache", default="ram", help="ultralytics cache: ram, disk or False")
    parser.add_argument("--no-export", action="store_true")
    parser.add_argument("--val", action="store_true", help="validate after every epoch")
    parser.add_argument("--mosaic", type=float, default=1.0)
    # Continuing from --init-weights: a plain low-rate SGD without warm-up keeps what the
    # earlier run learnt (a fresh AdamW warm-up at the default rate undoes it at first).
    parser.add_argument("--optimizer", default="auto",
                        help="ultralytics optimizer: auto, SGD, AdamW")
    parser.add_argument("--lr0", type=float, default=0.01, help="initial rate (ignored by auto)")
    parser.add_argument("--lrf", type=float, default=0.01, help="final rate as a fraction of lr0")
    parser.add_argument("--warmup-epochs", type=float, default=3.0)
    parser.add_argument("--models-dir", default=str(REPO / "models"))
    args = parser.parse_args(argv)
    if args.cache == "False":
        args.cache = False

    run_dir = Path(args.runs).resolve() / args.name
    run_dir.mkdir(parents=True, exist_ok=True)
    _offline_environment(Path(args.runs).resolve())
    python = Path(sys.executable).as_posix()
    command = shlex.join([python, "scripts/train_detector.py", *sys.argv[1:]])
    (run_dir / "command.txt").write_text(command + "\n")
    t0 = time.time()
    data_yaml = generate_dataset(args)
    best = train(args, data_yaml)
    print(f"[train] training done in {time.time() - t0:.0f} s: {best}", flush=True)
    if not args.no_export:
        sys.path.insert(0, str(REPO / "scripts"))
        import export as export_script

        export_script.export_model(
            best,
            Path(args.models_dir),
            name="detector",
            imgsz=args.imgsz,
            train_command=command,
            data_yaml=data_yaml,
        )
    print(f"[train] all done in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
