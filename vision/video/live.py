"""A live session: frames from a (resilient) source through the pipeline into the store.

:func:`watch` is the engine of ``trickvision watch``; it takes an already built pipeline,
store and source factory, so tests can hand it a source that drops out on purpose. Each
event is committed to the store before it is printed; the session's progress (time and file
position) is recorded every few seconds, so a restarted session resumes the same game:
the tracker is rebuilt from the stored events and a file source continues where it was.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from vision.video.events import Event
from vision.video.pipeline import VideoPipeline
from vision.video.sources import Frame, FrameSource, ResilientSource
from vision.video.store import EventStore


@dataclass
class Resume:
    """Where a restarted session picks up: stored events, last time and file position."""

    events: list[Event]
    t: float | None
    pos: float | None

    @classmethod
    def from_store(cls, store: EventStore) -> Resume:
        events = store.events()
        prog = store.last_progress()
        t = prog[0] if prog else None
        pos = prog[1] if prog else None
        if events and (t is None or max(e.t for e in events) > t):
            t = max(e.t for e in events)
        return cls(events=events, t=t, pos=pos)

    def describe(self) -> str:
        if not self.events:
            return "new session"
        deal = max(e.deal for e in self.events)
        tricks = [e for e in self.events if e.kind == "trick_complete" and e.deal == deal]
        return (f"resuming deal {deal} after {len(tricks)} complete tricks "
                f"({len(self.events)} stored events, t={self.t or 0:.1f} s)")


def watch(
    factory: Callable[[float | None], FrameSource],
    pipeline: VideoPipeline,
    store: EventStore,
    *,
    status: TextIO | None = None,
    max_s: float | None = None,
    max_frames: int | None = None,
    progress_every_s: float = 2.0,
    backoff_s: float = 0.5,
    max_backoff_s: float = 8.0,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Run until the source ends, for ``max_s`` seconds of source time or ``max_frames``
    frames; returns the number of frames processed.

    ``factory(resume_t)`` opens the source (see :class:`ResilientSource`); messages about
    drop-outs and reconnects go to ``status`` (stderr).
    """
    status = status or sys.stderr

    def say(msg: str) -> None:
        status.write(f"[watch] {msg}\n")
        status.flush()

    source = ResilientSource(factory, on_status=say, backoff_s=backoff_s,
                             max_backoff_s=max_backoff_s, sleep=sleep or time.sleep)
    n = 0
    last_mark: float | None = None
    frame: Frame | None = None
    t_first: float | None = None
    try:
        for frame in source:
            if t_first is None:
                t_first = frame.t
            pipeline.process(frame)
            n += 1
            if last_mark is None or frame.t - last_mark >= progress_every_s:
                store.mark_progress(frame.t, frame.pos)
                last_mark = frame.t
            if (max_s is not None and frame.t - t_first >= max_s) or (max_frames is not None
                                                              and n >= max_frames):
                break
    finally:
        if frame is not None:
            store.mark_progress(frame.t, frame.pos)
    return n
