"""Where frames come from: video files, cameras, stream URLs and folders of stills.

Every source is an iterable of :class:`Frame` (image, time in seconds, index), so the pipeline
has one code path for all of them. Files and folders are read as fast as they decode (offline
analysis); cameras and URLs are *live*: a reader thread keeps only the newest frame, so a slow
analyser drops frames instead of building a backlog, and a camera that stops delivering raises
:class:`SourceDropped` after ``stall_s`` seconds. :class:`ResilientSource` wraps any source
factory and turns drop-outs into a message, a back-off and a reconnect.

Problems a user can cause (a missing file, a file that is not a video, an unsupported codec, a
camera index that does not exist) raise a :class:`~vision.errors.TrickvisionError` subclass
with a message naming the input.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # quiet: we report problems ourselves

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.errors import InputFileError, TrickvisionError  # noqa: E402

try:  # cv2 may have been imported before the environment variable was set
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
except AttributeError:  # pragma: no cover - older OpenCV builds
    pass

VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".mov", ".m4v", ".webm", ".mpg", ".mpeg", ".wmv")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(TrickvisionError):
    """A source could not be opened or read at all."""


class CorruptVideoError(SourceError):
    """A video file stopped decoding before its end (truncated or damaged)."""

    def __init__(self, message: str, frames_read: int) -> None:
        super().__init__(message)
        self.frames_read = frames_read


class SourceDropped(Exception):
    """A live source stopped delivering frames; :class:`ResilientSource` reconnects.

    Not a ``TrickvisionError``: it is an expected condition of cameras, handled, not reported
    as bad input.
    """


@dataclass(frozen=True)
class Frame:
    """One frame: BGR ``image`` (uint8, H x W x 3), ``t`` seconds and ``index`` (0-based).

    ``t`` is the media time for files and folders, and seconds since the session clock started
    for live sources. ``pos`` is the position in the underlying file when there is one (it
    differs from ``t`` when a file loops or stands in for a camera).
    """

    image: np.ndarray
    t: float
    index: int
    pos: float | None = None


class VideoFileSource:
    """Frames of a video file (mp4, mkv, avi, ...), decoded in order.

    ``start_s`` seeks before the first frame; ``loop`` restarts at the end with time running on;
    ``sample_fps`` retrieves (colour-converts) only that many frames per second of video and
    merely decodes the others, which is how a change gate at 10 Hz stays cheap on 30 fps input.
    ``speed`` > 0 paces the frames at that multiple of real time (a file standing in for a
    camera); 0 reads as fast as the file decodes. ``decoder_threads`` sets the decoder's threads
    (default: FFmpeg's choice, one per core); one, when the analyser runs on the other core
    beside it (:class:`~vision.video.readahead.ReadAhead`), decodes as fast for a third less
    processor time (the benchmark's 720p video, every other frame converted: 0.76 s either
    way, 0.76 s of processor time against 1.16 s).
    A file that stops decoding well before the frame count its header announces raises
    :class:`CorruptVideoError` after the frames that could be read.
    """

    live = False

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        start_s: float = 0.0,
        loop: bool = False,
        sample_fps: float | None = None,
        speed: float = 0.0,
        decoder_threads: int | None = None,
    ) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise InputFileError(f"video file not found: {str(self.path)!r}")
        if self.path.is_dir():
            raise InputFileError(f"{str(self.path)!r} is a folder, not a video file")
        if self.path.stat().st_size == 0:
            raise InputFileError(f"video file {str(self.path)!r} is empty")
        if sample_fps is not None and sample_fps <= 0:
            raise TrickvisionError(f"sample_fps must be > 0, got {sample_fps}")
        self.start_s = max(0.0, float(start_s))
        self.loop = loop
        self.sample_fps = sample_fps
        if speed < 0:
            raise TrickvisionError(f"speed must be >= 0 (0 = as fast as it decodes), got {speed}")
        self.speed = speed
        if decoder_threads is not None and decoder_threads < 1:
            raise TrickvisionError(f"decoder_threads must be >= 1, got {decoder_threads}")
        self.decoder_threads = decoder_threads
        cap = self._open()
        self.fps = float(cap.get(cv2.CAP_PROP_FPS)) or 0.0
        if not (0.1 < self.fps < 1000.0):
            self.fps = 25.0
        self.frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.width = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        self.height = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        ok, _ = cap.read()
        cap.release()
        if not ok:
            raise SourceError(
                f"no frame of {str(self.path)!r} could be decoded "
                "(unsupported codec, or a corrupt or truncated file)"
            )
        self.name = str(self.path)

    @property
    def duration(self) -> float:
        return self.frame_count / self.fps if self.frame_count > 0 else 0.0

    def _open(self) -> cv2.VideoCapture:
        params = [cv2.CAP_PROP_N_THREADS, self.decoder_threads] if self.decoder_threads else []
        cap = cv2.VideoCapture(str(self.path), cv2.CAP_FFMPEG, params)
        if not cap.isOpened():
            cap.release()
            raise SourceError(
                f"cannot open {str(self.path)!r} as a video (not a video file, an unsupported "
                "codec, or a truncated file whose index is missing)"
            )
        return cap

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        offset = 0.0  # media time added per completed loop
        start = self.start_s
        wall0 = time.monotonic()
        while True:
            cap = self._open()
            first = int(round(start * self.fps))
            if first > 0:
                cap.set(cv2.CAP_PROP_POS_FRAMES, first)
            n = first
            next_sample = -1.0
            try:
                while True:
                    pos = n / self.fps
                    want = True
                    if self.sample_fps is not None:
                        want = pos + 1e-9 >= next_sample
                    if want:
                        ok, image = cap.read()
                    else:
                        ok, image = cap.grab(), None
                    if not ok:
                        break
                    n += 1
                    if not want:
                        continue
                    if self.sample_fps is not None:
                        next_sample = max(next_sample + 1.0 / self.sample_fps, pos - 0.5 / self.fps)
                    t = offset + pos
                    if self.speed > 0:
                        delay = wall0 + (t - self.start_s) / self.speed - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                    # read (not grabbed) and ok: cap.read() gave the image
                    assert image is not None
                    yield Frame(image=image, t=t, index=index, pos=pos)
                    index += 1
            finally:
                cap.release()
            expected = self.frame_count
            if expected > 0 and n < 0.98 * expected - 1:
                raise CorruptVideoError(
                    f"{str(self.path)!r} stopped decoding at frame {n} of {expected} "
                    f"({n / self.fps:.1f} s of {expected / self.fps:.1f} s): the file is "
                    "truncated or damaged",
                    frames_read=index,
                )
            if not self.loop:
                return
            offset += n / self.fps
            start = 0.0


class FolderSource:
    """Still images of a folder in name order, ``1 / fps`` seconds apart."""

    live = False

    def __init__(self, path: str | os.PathLike[str], *, fps: float = 1.0) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise InputFileError(f"not a folder of frames: {str(self.path)!r}")
        if fps <= 0:
            raise TrickvisionError(f"fps must be > 0, got {fps}")
        self.files = sorted(p for p in self.path.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise InputFileError(
                f"folder {str(self.path)!r} holds no images ({', '.join(IMAGE_SUFFIXES)})"
            )
        self.fps = float(fps)
        self.name = str(self.path)
        first = cv2.imread(str(self.files[0]), cv2.IMREAD_COLOR)
        self.height: int
        self.width: int
        self.height, self.width = (0, 0) if first is None else first.shape[:2]
        self.frame_count = len(self.files)
        self.duration = len(self.files) / self.fps

    def __iter__(self) -> Iterator[Frame]:
        for i, p in enumerate(self.files):
            image = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if image is None:
                raise InputFileError(f"cannot read frame image {str(p)!r} (not an image?)")
            yield Frame(image=image, t=i / self.fps, index=i, pos=i / self.fps)


class LiveSource:
    """A camera index or a stream URL, read by a thread that keeps only the newest frame.

    Opening fails with :class:`SourceError` when the camera does not exist or the URL does not
    answer. Iteration raises :class:`SourceDropped` when no frame arrived for ``stall_s``
    seconds or the device reports an error; ``clock`` gives the frame times, so times keep
    running across reconnects.
    """

    live = True

    def __init__(
        self,
        target: int | str,
        *,
        stall_s: float = 3.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if stall_s <= 0:
            raise TrickvisionError(f"stall_s must be > 0, got {stall_s}")
        self.target = target
        self.stall_s = stall_s
        self.clock = clock or _monotonic_clock()
        self.name = f"camera {target}" if isinstance(target, int) else str(target)
        self._cap = self._open()
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        if not (0.1 < self.fps < 1000.0):
            self.fps = 30.0
        self.width = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        self.height = int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        self.frame_count = 0
        self.duration = 0.0
        self._latest: tuple[np.ndarray, float] | None = None
        self._failed = False
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def _open(self) -> cv2.VideoCapture:
        if isinstance(self.target, int):
            # OpenCV's camera backends log errors of their own while probing an index that
            # is not there; the message below says it plainly
            level = cv2.utils.logging.getLogLevel()
            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
            try:
                cap = cv2.VideoCapture(self.target)
            finally:
                cv2.utils.logging.setLogLevel(level)
            what = f"camera {self.target} does not exist or cannot be opened"
        else:
            timeout_ms = int(max(1.0, self.stall_s) * 1000)
            cap = cv2.VideoCapture(self.target, cv2.CAP_FFMPEG,
                                   [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, max(timeout_ms, 5000),
                                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, timeout_ms])
            what = f"cannot open stream {self.target!r} (wrong URL, not reachable, or no video)"
        if not cap.isOpened():
            cap.release()
            raise SourceError(what)
        return cap

    def _reader(self) -> None:
        # The thread owns the capture: releasing it while a read is in progress would crash.
        try:
            while not self._stop.is_set():
                ok, image = self._cap.read()
                with self._cond:
                    if not ok:
                        self._failed = True
                        self._cond.notify_all()
                        return
                    self._latest = (image, self.clock())
                    self._cond.notify_all()
        finally:
            self._cap.release()

    def __iter__(self) -> Iterator[Frame]:
        thread = threading.Thread(target=self._reader, name="trickvision-capture", daemon=True)
        self._thread = thread
        thread.start()
        index = 0
        try:
            while True:
                with self._cond:
                    got = self._cond.wait_for(
                        lambda: self._latest is not None or self._failed, timeout=self.stall_s
                    )
                    if self._latest is not None:
                        image, t = self._latest
                        self._latest = None
                    elif self._failed:
                        raise SourceDropped(f"{self.name}: the device stopped delivering frames")
                    else:
                        assert not got
                        raise SourceDropped(f"{self.name}: no frame for {self.stall_s:.1f} s")
                yield Frame(image=image, t=t, index=index)
                index += 1
        finally:
            self.close()

    def close(self) -> None:
        """Stop reading; the capture is released by the reader thread when it stops."""
        self._stop.set()
        thread = self._thread
        if thread is None:
            self._cap.release()
        elif thread is not threading.current_thread():
            thread.join(timeout=2.0)


class Shifted:
    """A source whose frame times are moved by ``offset`` seconds (a resumed session's clock)."""

    def __init__(self, inner: VideoFileSource | FolderSource | LiveSource,
                 offset: float = 0.0) -> None:
        self.inner = inner
        self.offset = offset
        self.name: str = inner.name
        self.fps: float = inner.fps
        self.live: bool = inner.live
        self.duration: float = getattr(inner, "duration", 0.0)

    def __iter__(self) -> Iterator[Frame]:
        for f in self.inner:
            yield Frame(image=f.image, t=f.t + self.offset, index=f.index, pos=f.pos)


_T0 = time.monotonic()


def _monotonic_clock() -> Callable[[], float]:
    """Seconds since this module was loaded: one timeline for every reopened live source."""
    return lambda: time.monotonic() - _T0


FrameSource = VideoFileSource | FolderSource | LiveSource | Shifted


def open_source(
    spec: str | int | os.PathLike[str],
    *,
    loop: bool = False,
    start_s: float = 0.0,
    sample_fps: float | None = None,
    speed: float = 0.0,
    folder_fps: float = 1.0,
    stall_s: float = 3.0,
    clock: Callable[[], float] | None = None,
) -> VideoFileSource | FolderSource | LiveSource:
    """Open a source from what a user types: a camera index, a URL, a folder or a file."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return LiveSource(int(spec), stall_s=stall_s, clock=clock)
    text = os.fspath(spec)
    if "://" in text:
        return LiveSource(text, stall_s=stall_s, clock=clock)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path, fps=folder_fps)
    return VideoFileSource(path, loop=loop, start_s=start_s, sample_fps=sample_fps,
                           speed=speed)


class ResilientSource:
    """Keeps frames coming from a source that may drop out: message, back-off, reconnect.

    ``factory(resume_t)`` opens the source; ``resume_t`` is the time of the last frame seen
    (None at first), for sources that can seek. The first open is not retried, so a camera that
    does not exist is an error at once; later failures (:class:`SourceDropped`, or a
    ``SourceError`` while reopening) are reported through ``on_status`` and retried after
    ``backoff_s`` seconds, doubling up to ``max_backoff_s``. A source that simply ends (a file
    without ``--loop``) ends the iteration.
    """

    def __init__(
        self,
        factory: Callable[[float | None], FrameSource],
        *,
        on_status: Callable[[str], None] | None = None,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        max_retries: int | None = None,
    ) -> None:
        if backoff_s <= 0 or max_backoff_s < backoff_s:
            raise TrickvisionError(
                f"back-off must satisfy 0 < backoff_s <= max_backoff_s, got {backoff_s}, "
                f"{max_backoff_s}"
            )
        self.factory = factory
        self.on_status = on_status or (lambda msg: None)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.sleep = sleep
        self.max_retries = max_retries
        self.dropouts = 0
        self.source: FrameSource | None = None

    def __iter__(self) -> Iterator[Frame]:
        last_t: float | None = None
        index = 0
        delay = self.backoff_s
        retries = 0
        first = True
        while True:
            try:
                self.source = self.factory(last_t)
                first = False
                got_frame = False
                for frame in self.source:
                    if last_t is not None and frame.t <= last_t:
                        continue  # a reopened source that restarts earlier
                    if not got_frame and retries:
                        self.on_status(f"{self.source.name}: frames again, carrying on")
                    got_frame = True
                    delay, retries = self.backoff_s, 0
                    last_t = frame.t
                    yield Frame(image=frame.image, t=frame.t, index=index, pos=frame.pos)
                    index += 1
                return
            except CorruptVideoError:
                raise
            except SourceDropped as exc:
                self.dropouts += 1
                message = f"{exc}; reconnecting in {delay:.1f} s"
            except SourceError as exc:
                if first:
                    raise
                message = f"reconnect failed: {exc}; retrying in {delay:.1f} s"
            retries += 1
            if self.max_retries is not None and retries > self.max_retries:
                raise SourceError(f"gave up after {self.max_retries} reconnect attempts")
            self.on_status(message)
            self.sleep(delay)
            delay = min(delay * 2.0, self.max_backoff_s)
