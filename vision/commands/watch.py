"""``trickvision watch``: follow a live table and report every trick and alert as it happens.

Sources: ``--camera 0``, ``--url rtsp://...`` (or http), or ``--source PATH`` (a video file or
a folder of stills standing in for a camera, paced in real time unless ``--speed 0``;
``--loop`` plays a file over and over). Every event is committed to the session database
(``--db``, SQLite, append-only, WAL) before it is printed; a restarted ``watch`` with the same
``--db`` resumes the same game. A camera that drops out is reported on stderr and reopened
with back-off; a camera that does not exist at all is an error (exit 2).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from vision.video.options import add_deal_arguments

NAME = "watch"
HELP = "follow a live camera over the table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, default=None, metavar="INDEX",
                     help="camera index (0 = the first camera)")
    src.add_argument("--url", default=None, help="stream URL (rtsp://, http://, ...)")
    src.add_argument("--source", default=None, metavar="PATH",
                     help="a video file or folder of stills standing in for a camera")
    parser.add_argument("--loop", action="store_true", help="play --source over and over")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="--source pace as a multiple of real time (default 1; 0 = as "
                             "fast as it decodes)")
    parser.add_argument("--db", default="trickvision-session.db",
                        help="session database (default ./trickvision-session.db); the same "
                             "file again resumes the game")
    add_deal_arguments(parser)
    parser.add_argument("--stall", type=float, default=3.0,
                        help="seconds without a frame before a live source counts as dropped")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop after this many seconds of source time (demos, tests)")
    parser.add_argument("--alerts-only", action="store_true", help="print only the alerts")


def run(args: argparse.Namespace) -> int:
    from vision.errors import TrickvisionError
    from vision.video.live import Resume, watch
    from vision.video.options import confirm_s, deal_facts, make_analyzer, make_gate
    from vision.video.outputs import ConsoleSink, StoreSink
    from vision.video.pipeline import VideoPipeline
    from vision.video.sources import LiveSource, Shifted, open_source
    from vision.video.store import EventStore
    from vision.video.tracker import TableTracker

    if args.speed < 0:
        raise TrickvisionError(f"--speed must be >= 0, got {args.speed}")
    facts = deal_facts(args)
    target = args.camera if args.camera is not None else (args.url or args.source)
    store = EventStore(args.db, game=facts["game"], source=str(target))
    resume = Resume.from_store(store)
    print(f"[watch] {store.path}: {resume.describe()}", file=sys.stderr)

    t_base = resume.t or 0.0
    wall0 = time.monotonic()

    def clock() -> float:
        return t_base + (time.monotonic() - wall0)

    is_file = args.source is not None
    start_pos = (resume.pos or 0.0) if is_file else 0.0

    def factory(last_t: float | None):  # type: ignore[no-untyped-def]
        if not is_file:
            return LiveSource(target, stall_s=args.stall, clock=clock)
        pos = start_pos
        offset = t_base - start_pos if resume.t is not None else 0.0
        if last_t is not None:  # reopened after a failure: carry on from the last frame
            pos = last_t - offset
        src = open_source(args.source, loop=args.loop, start_s=max(0.0, pos), speed=args.speed)
        duration = getattr(src, "duration", 0.0) or 0.0
        if args.loop and duration > 0 and pos >= duration:
            loops = int(pos // duration)
            src = open_source(args.source, loop=True, start_s=pos - loops * duration,
                              speed=args.speed)
            offset += loops * duration
        return Shifted(src, offset)

    first = factory(None)
    fps = first.fps
    if isinstance(first.inner, LiveSource):
        first.inner.close()
    opened = [first]

    def factory_once(last_t: float | None):  # type: ignore[no-untyped-def]
        if opened:
            return opened.pop()
        return factory(last_t)

    analyzer = make_analyzer(args, facts["game"], fps)
    tracker = TableTracker(facts["game"], fps, seats=facts["seats"], dealer=facts["dealer"],
                           contract=facts["contract"], confirm_s=confirm_s(args, "live"))
    tracker.restore(resume.events)
    gate = make_gate(args, "live")
    sinks: list[Any] = [StoreSink(store),
                        ConsoleSink(sys.stdout, alerts_only=args.alerts_only)]
    pipeline = VideoPipeline(analyzer, tracker, gate=gate, sinks=sinks)
    if not is_file:
        opened.clear()  # a live source is reopened by the first iteration
    try:
        n = watch(factory_once, pipeline, store, max_s=args.max_seconds)
    finally:
        store.close()
    print(f"[watch] {n} frames, {pipeline.stats.analysed} analysed, "
          f"{pipeline.stats.events} new events", file=sys.stderr)
    return 0
