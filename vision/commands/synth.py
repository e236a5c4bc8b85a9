"""``trickvision synth``: render synthetic table photos with their ground truth.

Examples::

    trickvision synth --game lhombre --stage end --n 200 --seed 7 --out DIR
    trickvision synth --format obb --n 3000 --n-val 300 --seed 1 --size 640 --out DIR
    trickvision synth --format crops --n 500 --seed 1 --out DIR
    trickvision synth --format video-obb --n 150 --n-val 8 --frames 8 --seed 11 --out DIR

Deterministic for a given seed and options; a progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.errors import InputFileError, TrickvisionError

NAME = "synth"
HELP = "render synthetic table photos with ground truth"

FORMATS = ("scenes", "obb", "crops", "video-obb")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None,
                        help="bridge, preferans or lhombre (scenes default: bridge; obb/crops "
                             "mix all three unless --game is given)")
    parser.add_argument("--stage", default="end", help="mid, end or faceup (scenes format)")
    parser.add_argument("--n", type=int, default=10, help="number of scenes (train scenes for obb)")
    parser.add_argument("--n-val", type=int, default=None,
                        help="validation scenes for obb/crops (default: n/10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", required=True, help="output folder (created if missing)")
    parser.add_argument("--format", choices=FORMATS, default="scenes",
                        help="scenes: JPEG + ground-truth JSON; obb: ultralytics OBB data set; "
                             "crops: face-up card crops for an identity classifier; video-obb: "
                             "an OBB data set of frames of animated deals (--n deals)")
    parser.add_argument("--frames", type=int, default=8,
                        help="video-obb: frames drawn from each deal (default 8)")
    parser.add_argument("--size", type=int, default=None,
                        help="long image side in px (default: sizes from 640 to 1920x1080)")
    parser.add_argument("--hard", type=float, default=0.3,
                        help="fraction of scenes with hard looks (tilt, blur, hands; default 0.3)")
    parser.add_argument("--overlap", type=float, nargs="+", metavar="PERCENT", default=None,
                        help="percent of each card its successor covers: one value or a range "
                             "LOW HIGH (default: drawn within 30..70)")
    parser.add_argument("--irregularity", action="append", default=[],
                        help="inject an irregularity into every deal (scenes format): "
                             "wrong_orientation, short_row, long_row, out_of_place, revoke")
    parser.add_argument("--loose", action="append", default=[], choices=("talon", "dummy"),
                        help="add cards outside the rows (scenes format): a talon pile, "
                             "bridge dummy's hand in mid-play (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _validate(args: argparse.Namespace) -> tuple[float, float] | None:
    from vision.games import find_game
    from vision.synth.layout import STAGES

    if args.game is not None:
        args.game = find_game(args.game).name
    if args.stage not in STAGES:
        raise TrickvisionError(f"unknown stage {args.stage!r} (expected one of "
                               f"{', '.join(STAGES)})")
    if args.n < 0 or (args.n_val is not None and args.n_val < 0):
        raise TrickvisionError(f"--n must be >= 0, got {args.n}")
    if args.frames < 1:
        raise TrickvisionError(f"--frames must be >= 1, got {args.frames}")
    if args.size is not None and not 64 <= args.size <= 4096:
        raise TrickvisionError(f"--size must be 64..4096 px, got {args.size}")
    if not 0.0 <= args.hard <= 1.0:
        raise TrickvisionError(f"--hard must be a fraction 0..1, got {args.hard}")
    overlap = None
    if args.overlap is not None:
        if len(args.overlap) > 2:
            raise TrickvisionError(f"--overlap takes one or two percentages, got "
                                   f"{len(args.overlap)}")
        lo, hi = args.overlap[0], args.overlap[-1]
        if not (0 <= lo <= hi < 100):
            raise TrickvisionError(
                f"--overlap must be percentages with 0 <= LOW <= HIGH < 100 (a card cannot be "
                f"covered by more than itself), got {' '.join(f'{v:g}' for v in args.overlap)}")
        overlap = (lo / 100.0, hi / 100.0)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputFileError(f"output folder {args.out!r} is a file (expected a folder)")
    return overlap


def run(args: argparse.Namespace) -> int:
    overlap = _validate(args)
    from vision.synth import export

    progress = not args.quiet
    if args.format == "scenes":
        paths = export.export_scenes(args.out, args.n, args.seed, game=args.game or "bridge",
                                     stage=args.stage, imgsz=args.size, hard_fraction=args.hard,
                                     overlap=overlap, irregularities=args.irregularity,
                                     loose=args.loose, progress=progress)
        print(f"wrote {len(paths)} scenes with ground truth to {args.out}")
        return 0
    n_val = args.n_val if args.n_val is not None else max(1, args.n // 10) if args.n else 0
    games = (args.game,) if args.game is not None else export.GAMES
    if args.format == "obb":
        yaml = export.export_obb_dataset(args.out, args.n, n_val, args.seed, imgsz=args.size,
                                         hard_fraction=args.hard, games=games, progress=progress)
        print(f"wrote OBB data set ({args.n} train / {n_val} val scenes): {yaml}")
        return 0
    if args.format == "video-obb":
        from vision.synth.video import export_video_obb_dataset

        yaml = export_video_obb_dataset(args.out, args.n, args.frames, n_val, args.seed,
                                        games=games, progress=progress)
        print(f"wrote OBB data set of video frames ({args.n} train / {n_val} val deals, "
              f"{args.frames} frames each): {yaml}")
        return 0
    index = export.export_crops(args.out, args.n, n_val, args.seed, imgsz=args.size or 1024,
                                hard_fraction=args.hard, games=games, progress=progress)
    print(f"wrote identity crops: {index}")
    return 0
