"""``trickvision video FILE``: analyse a recorded game, much faster than real time.

Frames pass the change gate (a still table is not analysed again), the analyser reads the
table, the tracker confirms events; events are printed and written as they happen
(``events.jsonl`` and the SQLite session ``session.db`` in ``--out``), and at the end come
``report.json`` / ``report.txt`` (the reconstruction of the tracked rows; a video of several
deals gets every deal's report), ``play.pbn`` (bridge, one game per deal) and, with
``--annotate``, ``annotated.mp4``. A progress bar with an ETA runs on
stderr. A file that stops decoding half-way keeps everything found until then and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from vision.video.options import add_deal_arguments

NAME = "video"
HELP = "analyse a recorded video of a game"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="video file (mp4, mkv, avi, ...) or a "
                        "folder of still frames")
    parser.add_argument("--out", default=None,
                        help="output folder (default: ./<file stem>-trickvision)")
    add_deal_arguments(parser)
    parser.add_argument("--sample-fps", type=float, default=15.0,
                        help="frames per second of video the gate looks at (default 15; "
                             "0 = every frame); the others are only decoded")
    parser.add_argument("--folder-fps", type=float, default=1.0,
                        help="frame rate of a folder of stills (default 1)")
    parser.add_argument("--thorough", action="store_true",
                        help="look as often as the live camera does (at least every 0.13 s "
                             "while the table moves) and confirm as fast: fewer faces "
                             "misread, several times slower than the default")
    parser.add_argument("--annotate", action="store_true",
                        help="also write annotated.mp4 (analysed frames, cards outlined)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no event lines")


def run(args: argparse.Namespace) -> int:
    from vision.games import find_game
    from vision.video.events import Alert, AlertWithdrawn, tricks_reported
    from vision.video.options import (
        Progress,
        confirm_s,
        deal_facts,
        make_analyzer,
        make_gate,
        truth_events,
    )
    from vision.video.outputs import (
        Annotator,
        ConsoleSink,
        JsonlSink,
        StoreSink,
        write_session_report,
    )
    from vision.video.pipeline import VideoPipeline
    from vision.video.sources import CorruptVideoError, FolderSource, VideoFileSource
    from vision.video.store import EventStore
    from vision.video.tracker import TableTracker

    facts = deal_facts(args)
    path = Path(args.file)
    if args.sample_fps < 0:
        from vision.errors import TrickvisionError

        raise TrickvisionError(f"--sample-fps must be >= 0, got {args.sample_fps}")
    source: FolderSource | VideoFileSource
    if path.is_dir():
        source = FolderSource(path, fps=args.folder_fps)
        rate = source.fps
    else:
        source = VideoFileSource(path, sample_fps=args.sample_fps or None, decoder_threads=1)
        rate = min(source.fps, args.sample_fps) if args.sample_fps else source.fps
    out = Path(args.out) if args.out else Path.cwd() / f"{path.stem}-trickvision"
    if out.exists() and not out.is_dir():
        from vision.errors import InputFileError

        raise InputFileError(f"--out {str(out)!r} is a file, expected a folder")
    out.mkdir(parents=True, exist_ok=True)
    for old in ("events.jsonl", "session.db", "session.db-wal", "session.db-shm"):
        (out / old).unlink(missing_ok=True)  # outputs of an earlier run of this command

    analyzer = make_analyzer(args, facts["game"], source.fps, beside_decoder=True)
    # offline nobody waits for an alert: fewer looks, unless every look is wanted
    mode = "live" if args.thorough else "offline"
    tracker = TableTracker(facts["game"], rate, seats=facts["seats"], dealer=facts["dealer"],
                           contract=facts["contract"], confirm_s=confirm_s(args, mode))
    gate = make_gate(args, mode)
    store = EventStore(out / "session.db", game=facts["game"], source=str(path))
    jsonl = JsonlSink(out / "events.jsonl")
    total = int(source.frame_count * rate / source.fps) if source.frame_count else 0
    progress = Progress(total, label=path.name[:24], enabled=not args.quiet)
    sinks: list[Any] = [StoreSink(store), jsonl]
    if not args.quiet:
        sinks.append(ConsoleSink(sys.stdout, before=progress.clear))
    pipeline = VideoPipeline(analyzer, tracker, gate=gate, sinks=sinks)
    annotator = None
    if args.annotate:
        size = (source.width, source.height)
        annotator = Annotator(out / "annotated.mp4", rate, size)
        pipeline.sinks.append(annotator.event)

    status = 0
    t0 = time.perf_counter()
    n = 0

    def frame_done(frame: Any) -> None:
        nonlocal n
        if annotator is not None:
            annotator.frame(frame.image, pipeline.last_reading)
        n += 1
        progress.update(n, f"{len(tracker.completed_tricks())} tricks")

    try:
        # decoding and the gate run on a thread of their own, beside the analyser
        pipeline.run(source, frame_done, read_ahead=True, keep_images=annotator is not None)
    except CorruptVideoError as exc:
        pipeline.finish()  # the stream ended here: settle what it showed
        progress.clear()
        print(f"trickvision video: error: {exc}; the {len(pipeline.events)} events found "
              f"before it are kept in {out}", file=sys.stderr)
        status = 2
    finally:
        progress.close()
        jsonl.close()
        store.close()
        if annotator is not None:
            annotator.close()
    wall = time.perf_counter() - t0

    deals = pipeline.deals()
    paths = write_session_report(out, deals, game=facts["game"])
    st = pipeline.stats
    video_s = (source.frame_count / source.fps) if source.frame_count else n / max(rate, 1e-9)
    summary = {
        "file": str(path), "game": facts["game"], "frames": st.frames,
        "analysed": st.analysed, "wall_s": round(wall, 3),
        "video_s": round(video_s, 3), "speed_x_realtime": round(video_s / max(wall, 1e-9), 1),
        "events": st.events, "deals": len(deals),
        "tricks": tricks_reported(pipeline.events),
        "alerts": len([e for e in pipeline.events if isinstance(e, Alert)]),
        "alerts_withdrawn": len([e for e in pipeline.events if isinstance(e, AlertWithdrawn)]),
        "outputs": {k: str(v) for k, v in paths.items()},
    }
    if facts["truth"] is not None:
        from vision.video.compare import score_events

        score = score_events(truth_events(facts["truth"]), pipeline.events)
        summary["score"] = score.to_dict()
        print(f"against the truth: {score.summary()}")
        if not score.perfect and status == 0:
            status = 1
    seen_at = sorted({seat for tr in tracker.tricks.values() for seat in tr.plays}, key=int)
    players = find_game(facts["game"]).n_players
    if summary["tricks"] == 0 and 0 < len(seen_at) < players:
        print(f"trickvision video: no trick completed - read as {facts['game']} "
              f"({players} players) but cards were played at "
              f"{len(seen_at)} seats ({' '.join(str(s) for s in seen_at)}); is --game right?",
              file=sys.stderr)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    in_deals = f" in {len(deals)} deals" if len(deals) > 1 else ""
    withdrawn = f" ({summary['alerts_withdrawn']} withdrawn)" if summary["alerts_withdrawn"] \
        else ""
    print(f"{summary['tricks']} tricks{in_deals}, {summary['alerts']} alerts{withdrawn}; "
          f"{st.frames} frames, "
          f"{st.analysed} analysed, {wall:.1f} s ({summary['speed_x_realtime']}x real time); "
          f"outputs in {out}")
    return status
