"""Held-out rendered videos, end to end with the shipped models: how much of the play is right.

    python scripts/evaluate_video.py [--n 6] [--data DIR] [--out results.json]
                                     [--fps 8] [--sample-fps 15]

Renders (once, cached in ``--data``) ``--n`` whole deals that nothing was ever tuned or
trained on - seeds 6001, 6002, ... (preferans, l'hombre, bridge in turn), 960x540 at 8 fps
like the committed sample, each with a revoke and a card turned the wrong way, every table
in its own style (cloth, deck, lighting, camera) - and runs each exactly as ``trickvision
video FILE --truth FILE.truth.json`` does. ``--fps 30`` renders them at a camera's 30 frames
a second instead (cached under their own names), ``--sample-fps`` is passed on to
``trickvision video``: together they measure what sampling fewer frames costs. ``--live``
runs each video as ``trickvision watch`` would see it from a camera instead (the live gate and
confirmation, every frame, none dropped), and measures each alert's delay from the true moment
to the frame that raised it - the delay a player at the table waits. Reports per video and in
total: tricks found, missed, invented, right (every card and the winner), alerts found and
raised wrongly, and the alerts' delays.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.cli import main as cli_main  # noqa: E402

GAMES = ("bridge", "preferans", "lhombre")  # by seed % 3
FIRST_SEED = 6001


#: The frame rate the held-out videos are rendered at by default (the committed sample's).
RENDER_FPS = 8.0


def render(data: Path, seed: int, fps: float = RENDER_FPS) -> Path:
    """The held-out video of ``seed`` at ``fps`` frames a second (rendered once, then
    reused; a rate other than the default is part of the file's name)."""
    game = GAMES[seed % 3]
    stem = f"held-{game}-{seed}" + ("" if fps == RENDER_FPS else f"-{fps:g}fps")
    video = data / f"{stem}.mp4"
    if not video.exists() or not (data / f"{stem}.truth.json").exists():
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vision.synth.video", "--game", game, "--seed",
                        str(seed), "--revoke", "--wrong-orientation", "1", "--fps", f"{fps:g}",
                        "--size", "960x540", "--stem", stem, "--out", str(data)],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        print(f"rendered {video.name} in {time.perf_counter() - t0:.0f} s", flush=True)
    return video


def analyse(video: Path, out: Path, sample_fps: float | None = None,
            thorough: bool = False) -> dict[str, Any]:
    """``trickvision video`` on one file (``--sample-fps`` when given, ``--thorough``); its
    summary (with the score against the truth)."""
    truth = video.with_name(video.name.removesuffix(".mp4") + ".truth.json")
    sampling = [] if sample_fps is None else ["--sample-fps", f"{sample_fps:g}"]
    sampling += ["--thorough"] if thorough else []
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(["video", str(video), "--truth", str(truth), "--out", str(out),
                         "--quiet", *sampling])
    if code not in (0, 1, None):  # 1: read, but not exactly the truth
        raise SystemExit(f"trickvision video failed on {video} (exit {code})")
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text())
    return summary


def analyse_live(video: Path) -> dict[str, Any]:
    """``video`` as ``trickvision watch`` reads a camera: the shipped models, the live gate
    and confirmation, every frame in turn; scored against its truth with each event's raising
    time (the frame that produced it). Returns the summary ``analyse`` gives."""
    from vision.video.compare import score_events
    from vision.video.gate import CONFIRM_S, LIVE, ChangeGate
    from vision.video.options import rendered_video_facts, truth_events
    from vision.video.pipeline import PhotoAnalyzerAdapter, VideoPipeline
    from vision.video.sources import VideoFileSource
    from vision.video.tracker import TableTracker

    f = rendered_video_facts(video)
    source = VideoFileSource(video)
    tracker = TableTracker(f["game"], source.fps, seats=f["seats"], dealer=f["dealer"],
                           contract=f["contract"], confirm_s=CONFIRM_S["live"])
    raised: list[tuple[Any, float]] = []
    pipeline = VideoPipeline(PhotoAnalyzerAdapter(f["game"]), tracker,
                             gate=ChangeGate(**LIVE), sinks=[lambda e, t: raised.append((e, t))])
    t0 = time.perf_counter()
    pipeline.run(source)
    score = score_events(truth_events(f["truth"]), [e for e, _ in raised],
                         confirmed=[t for _, t in raised])
    return {"score": score.to_dict() | {"alert_delays_s": [round(d, 3)
                                                          for d in score.alert_delays]},
            "analysed": pipeline.stats.analysed, "wall_s": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=6, help="held-out videos (seeds 6001, 6002, ...)")
    p.add_argument("--data", default="/work/data/video-held", help="cache of rendered videos")
    p.add_argument("--out", default=None, help="write the figures as JSON here")
    p.add_argument("--first-seed", type=int, default=FIRST_SEED,
                   help=f"first video seed (default {FIRST_SEED}, the held-out set; use "
                        "another range, e.g. 7001, to tune settings without touching it)")
    p.add_argument("--seeds", default=None,
                   help="these video seeds instead of --first-seed/--n, commas (e.g. the "
                        "seeds whose table has a monochrome camera)")
    p.add_argument("--fps", type=float, default=RENDER_FPS,
                   help=f"frame rate to render the videos at (default {RENDER_FPS:g})")
    p.add_argument("--sample-fps", type=float, default=None,
                   help="passed to trickvision video (default: its own default)")
    p.add_argument("--live", action="store_true",
                   help="read each video as `trickvision watch` reads a camera (live gate and "
                        "confirmation, every frame); alert delays to the frame that raised them")
    p.add_argument("--thorough", action="store_true",
                   help="passed to trickvision video: the live camera's looks and confirmation")
    args = p.parse_args(argv)
    if args.live and args.thorough:
        p.error("--thorough is an option of the offline reading; --live reads as watch does")
    if args.live and args.sample_fps is not None:
        p.error("--live reads every frame, as from a camera: --sample-fps does not apply")
    if args.fps <= 0 or (args.sample_fps is not None and args.sample_fps < 0):
        p.error("--fps must be > 0 and --sample-fps >= 0")
    try:
        seeds = ([int(v) for v in args.seeds.split(",")] if args.seeds
                 else list(range(args.first_seed, args.first_seed + args.n)))
    except ValueError:
        p.error(f"--seeds: expected whole numbers separated by commas, got {args.seeds!r}")
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    keys = ("tricks_true", "tricks_found", "tricks_right", "alerts_true")
    total: dict[str, Any] = {k: 0 for k in keys} | {"missed": 0, "invented": 0,
                                                     "alerts_found": 0, "alerts_extra": 0,
                                                     "alerts_withdrawn": 0, "videos": []}
    delays: list[float] = []  # --live: each alert found, true moment -> raised
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            video = render(data, seed, args.fps)
            summary = (analyse_live(video) if args.live
                       else analyse(video, Path(tmp) / video.stem, args.sample_fps,
                                    args.thorough))
            score = summary["score"]
            for k in keys:
                total[k] += score[k]
            total["missed"] += len(score["missed"])
            total["invented"] += len(score["invented"])
            found = score["alerts_true"] - len(score["alerts_missed"])
            total["alerts_found"] += found
            total["alerts_extra"] += len(score["alerts_extra"])
            total["alerts_withdrawn"] += len(score["alerts_withdrawn"])
            delays += score.get("alert_delays_s", [])
            total["videos"].append({"video": video.name, "score": score,
                                    "analysed": summary["analysed"], "wall_s": summary["wall_s"]})
            print(f"{video.name:28s} tricks {score['tricks_right']:2d}/{score['tricks_true']:2d} "
                  f"right, {len(score['missed'])} missed, {len(score['invented'])} invented; "
                  f"alerts {found}/{score['alerts_true']} found, "
                  f"{len(score['alerts_extra'])} false, {len(score['alerts_withdrawn'])} "
                  f"withdrawn ({summary['wall_s']:.0f} s)", flush=True)
    t = total
    print(f"total: {t['tricks_right']} of {t['tricks_true']} tricks right "
          f"({100 * t['tricks_right'] / max(t['tricks_true'], 1):.1f} %), "
          f"{t['tricks_found']} found, {t['missed']} missed, {t['invented']} invented; alerts "
          f"{t['alerts_found']} of {t['alerts_true']} found, {t['alerts_extra']} false "
          f"({t['alerts_withdrawn']} more raised and withdrawn)")
    if args.live and delays:
        total["alert_delays_s"] = delays
        print(f"alerts raised (live) {statistics.median(delays):.2f} s after their moment "
              f"(median), {max(delays):.2f} s at most; {sum(d <= 1.0 for d in delays)} of "
              f"{len(delays)} within 1 s")
    if args.out:
        Path(args.out).write_text(json.dumps(total, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
