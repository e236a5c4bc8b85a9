"""Decode and gate a recorded video on a thread of its own, ahead of the analyser.

Why: offline, decoding every frame and the change gate's look at it are about half of the
work, and neither depends on what the analyser finds - the gate decides from pixels alone.
On a second core they run beside the analyser instead of between its runs. The gate still
sees every frame once and in order, so its decisions, and with them the tracker's events,
are exactly those of the sequential pipeline.

Frames the analyser will not look at travel without their pixels (a queue of full 1080p
frames would hold hundreds of megabytes), unless the caller needs every image (an annotated
video). A source error (a truncated file) is raised in the consumer at its place in the
stream, after every frame read before it.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Iterable, Iterator

from vision.video.gate import ChangeGate, Decision
from vision.video.sources import Frame

_END = object()


class ReadAhead:
    """Iterate ``(frame, decision, gate_seconds)`` of ``frames``, decoded and gated up to
    ``depth`` frames ahead on a worker thread.

    Use as a context manager (or call :meth:`close`) so that a consumer that stops early
    also stops the worker.
    """

    def __init__(self, frames: Iterable[Frame], gate: ChangeGate, *, depth: int = 32,
                 keep_images: bool = False) -> None:
        if depth < 1:
            raise ValueError(f"read-ahead depth must be >= 1 frame, got {depth}")
        self.frames = frames
        self.gate = gate
        self.keep_images = keep_images
        self._queue: queue.Queue[object] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[tuple[Frame, Decision, float]]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._produce, name="trickvision-readahead",
                                            daemon=True)
            self._thread.start()
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]

    def close(self) -> None:
        """Stop the worker (it may be waiting for room in the queue) and wait for it."""
        self._stop.set()
        if self._thread is not None:
            while self._thread.is_alive():
                try:  # make room so that a worker blocked on a full queue sees the stop
                    self._queue.get_nowait()
                except queue.Empty:
                    pass
                self._thread.join(timeout=0.05)

    def _put(self, item: object) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _produce(self) -> None:
        try:
            for frame in self.frames:
                c0 = time.perf_counter()
                decision = self.gate.check(frame.image, frame.t)
                gate_s = time.perf_counter() - c0
                if decision is not Decision.ANALYSE and not self.keep_images:
                    # no stage after the gate looks at these pixels
                    frame = dataclasses.replace(frame, image=None)  # type: ignore[arg-type]
                if not self._put((frame, decision, gate_s)):
                    return
        except BaseException as exc:  # handed to the consumer at its place in the stream
            self._put(exc)
            return
        self._put(_END)
