"""Measure how many synthetic scenes per second the renderer makes.

    .venv/bin/python scripts/benchmark_synth.py --size 640 --n 200 --workers 2

Scenes are the export mix (three games, stages mid/end/faceup, 30 % hard looks) rendered to
memory, without writing files. ``--workers`` processes share the work, as an export over the
machine's cores would; the face cache warms up over the first scenes of each worker, so the
first ``--warmup`` scenes per worker are not timed (``--warmup 0`` for the cold figure).
It prints the wall-clock rate and the CPU time per scene; on a machine busy with other work
the second gives the rate the same cores would reach when idle.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time


def _work(args: tuple[int, int, int, int, int]) -> tuple[int, float, float]:
    import cv2

    from vision.synth.export import GAMES, _scene_for, scene_seed
    from vision.synth.layout import STAGES

    cv2.setNumThreads(1)
    worker, n_workers, n, warmup, size = args
    mine = list(range(worker, n, n_workers))
    for i in range(warmup):
        _scene_for(scene_seed(999, i * n_workers + worker, "train"), size, GAMES, STAGES, None,
                   0.3, 0.15, loose_fraction=0.3)
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in mine:
        _scene_for(scene_seed(0, i, "train"), size, GAMES, STAGES, None, 0.3, 0.15,
                   loose_fraction=0.3)
    return len(mine), time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=640, help="long image side (default 640)")
    ap.add_argument("--n", type=int, default=200, help="timed scenes in all (default 200)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--warmup", type=int, default=40, help="untimed scenes per worker")
    a = ap.parse_args()
    jobs = [(w, a.workers, a.n, a.warmup, a.size) for w in range(a.workers)]
    if a.workers == 1:
        results = [_work(jobs[0])]
    else:
        with mp.get_context("spawn").Pool(a.workers) as pool:
            results = pool.map(_work, jobs)
    n = sum(r[0] for r in results)
    wall = max(r[1] for r in results)
    per_worker = [r[0] / r[1] for r in results]
    cpu = sum(r[2] for r in results) / n
    print(f"{n} scenes at {a.size} px, {a.workers} worker(s): {n / wall:.1f} scenes/s wall "
          f"(per worker: {', '.join(f'{v:.1f}' for v in per_worker)})")
    print(f"CPU time per scene: {cpu * 1000:.1f} ms -> {a.workers / cpu:.1f} scenes/s on "
          f"{a.workers} otherwise idle core(s)")


if __name__ == "__main__":
    main()
