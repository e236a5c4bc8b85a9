"""The command line shared by the scripts that render their own data and train one of our
small torch networks from scratch (``train_axis.py``, ``train_row_strip.py``): where the data
and the run go, how much data, how long and how wide to train, whether to ship."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def add_arguments(parser: argparse.ArgumentParser, *, name: str, scenes: int,
                  val_scenes: int, epochs: int, batch: int) -> None:
    """``--data /work/data/NAME``, ``--runs /work/runs/NAME``, the data and training sizes
    (defaults as given), ``--models`` ('' not to ship), ``--force``, ``--only-data``."""
    parser.add_argument("--data", default=f"/work/data/{name}")
    parser.add_argument("--runs", default=f"/work/runs/{name}")
    parser.add_argument("--scenes", type=int, default=scenes)
    parser.add_argument("--val-scenes", type=int, default=val_scenes)
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    parser.add_argument("--models", default=str(REPO / "models"), help="'' to not ship")
    parser.add_argument("--force", action="store_true",
                        help="render the data and train again even where they exist")
    parser.add_argument("--only-data", action="store_true")


def folders(args: argparse.Namespace) -> tuple[Path, Path]:
    """The data and run folders, emptied first with ``--force``."""
    data, run = Path(args.data), Path(args.runs)
    if args.force:
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(run, ignore_errors=True)
    return data, run


def render_split(data: Path, split: str, first_seed: int, n: int, chunk: int, work,  # noqa: ANN001
                 extra: tuple = (), procs: int = 2, unit: str = "samples") -> None:
    """Render ``data/split`` as ``.npz`` files of ``chunk`` scenes each, ``work((file,
    first_seed, count, *extra)) -> (file, samples)`` run on ``procs`` processes; written to
    ``split.tmp`` and renamed when complete, and left alone when it exists."""
    import time
    from multiprocessing import Pool

    out = data / split
    if out.exists():
        print(f"{out} exists, not regenerated", flush=True)
        return
    tmp = data / f"{split}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    tasks = [(str(tmp / f"{first_seed + k:d}.npz"), first_seed + k, min(chunk, n - k), *extra)
             for k in range(0, n, chunk)]
    t0, total = time.time(), 0
    with Pool(procs) as pool:
        for done, (_, count) in enumerate(pool.imap_unordered(work, tasks), 1):
            total += count
            print(f"{split}: {done}/{len(tasks)} chunks, {total} {unit}, "
                  f"{time.time() - t0:.0f} s", flush=True)
    tmp.rename(out)
