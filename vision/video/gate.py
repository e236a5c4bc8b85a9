"""Change gate: decide per frame whether the analyser must look at it.

A still table must cost almost nothing, so every frame is reduced to a small blurred grey
thumbnail (about 160 px wide) and compared with the previous one (motion) and with the
thumbnail of the last analysed frame (change). The detector runs only when the scene has been
still for ``settle_s`` seconds after something changed (counted from the last frame that
moved), plus once every ``keepalive_s`` seconds
so slow changes (light, a card nudged) are not missed, ``recheck_s`` after each change (a
second, independent reading, so a single misreading is outvoted), and at least every ``max_blind_s``
seconds while hands keep moving (the tracker copes with covered cards; a long blind spell
would delay alerts). While the scene is unchanged since the
last analysis the gate says so (``SAME``), and the tracker may count the last reading as seen
again; while something moves (``MOVING``) there is no evidence at all.
"""

from __future__ import annotations

import enum
from typing import TypedDict

import cv2
import numpy as np

from vision.errors import TrickvisionError


class Decision(enum.Enum):
    ANALYSE = "analyse"  # run the analyser on this frame
    SAME = "same"  # still, and no different from the last analysed frame
    MOVING = "moving"  # something moves or is settling: no evidence from this frame


class ChangeGate:
    """Motion / settle / keep-alive decisions on thumbnails; time parameters in seconds.

    ``pixel_threshold`` is the grey-level difference that counts a thumbnail pixel as changed,
    ``motion_fraction`` the share of changed pixels that counts as motion or change. A card
    laid on the table changes about 1 % of the thumbnail; sensor noise changes almost none.
    ``fast_shrink`` shrinks a large frame bilinearly (each thumbnail pixel about the mean of
    2 x 2 pixels) instead of averaging a 3 x 3 grid of them: a 720p frame in 0.12 instead of
    0.43 ms, for a recorded video whose every frame the gate sees beside the decoder; but
    fingers and edges in motion stand out more, so the scene counts as still a few frames
    later (live, the benchmark video's tricks came 0.47 s after their turn instead of 0.37).
    """

    def __init__(
        self,
        *,
        settle_s: float = 0.1,
        keepalive_s: float = 2.0,
        max_blind_s: float = 0.3,
        recheck_s: float = 0.3,
        width: int = 160,
        pixel_threshold: int = 14,
        motion_fraction: float = 0.002,
        fast_shrink: bool = False,
    ) -> None:
        if settle_s < 0:
            raise TrickvisionError(f"settle_s must be >= 0 seconds, got {settle_s}")
        if keepalive_s <= 0:
            raise TrickvisionError(f"keepalive_s must be > 0 seconds, got {keepalive_s}")
        if recheck_s < 0:
            raise TrickvisionError(f"recheck_s must be >= 0 seconds, got {recheck_s}")
        if max_blind_s <= 0:
            raise TrickvisionError(f"max_blind_s must be > 0 seconds, got {max_blind_s}")
        if not 16 <= width <= 1024:
            raise TrickvisionError(f"gate width must be 16..1024 px, got {width}")
        if not 0 < motion_fraction < 1:
            raise TrickvisionError(f"motion_fraction must be in (0, 1), got {motion_fraction}")
        self.settle_s = settle_s
        self.keepalive_s = keepalive_s
        self.max_blind_s = max_blind_s
        self.recheck_s = recheck_s
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.motion_fraction = motion_fraction
        self.fast_shrink = fast_shrink
        self.reset()

    def reset(self) -> None:
        self._prev: np.ndarray | None = None
        self._prev_t: float | None = None
        self._ref: np.ndarray | None = None
        self._still_since: float | None = None
        self._moving_since: float | None = None
        self._recheck_at: float | None = None
        self._last_analysis: float | None = None
        self.analysed = 0
        self.frames = 0

    def thumbnail(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        tw = min(self.width, w)
        th = max(1, round(h * tw / w))
        if w > 3 * tw and self.fast_shrink:
            small = cv2.resize(image, (tw, th), interpolation=cv2.INTER_LINEAR)
        else:
            if w > 3 * tw:  # sample a 3x grid first (cheap): each thumbnail pixel averages 9
                image = cv2.resize(image, (3 * tw, 3 * th), interpolation=cv2.INTER_NEAREST)
            small = cv2.resize(image, (tw, th), interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(small, (3, 3), 0)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> bool:
        diff = cv2.absdiff(a, b)
        n = int(np.count_nonzero(diff > self.pixel_threshold))
        return n > self.motion_fraction * diff.size

    def check(self, image: np.ndarray, t: float) -> Decision:
        """The decision for this frame (call once per frame, in time order)."""
        self.frames += 1
        small = self.thumbnail(image)
        prev, self._prev = self._prev, small
        prev_t, self._prev_t = self._prev_t, t
        if prev is None or self._ref is None or prev.shape != small.shape:
            return self._analyse(small, t)
        if self._changed(prev, small):
            if self._still_since is not None or self._moving_since is None:
                self._moving_since = t
            self._still_since = None
            blind_from = max(self._moving_since, self._last_analysis or self._moving_since)
            if t - blind_from >= self.max_blind_s - 1e-9:
                return self._analyse(small, t)  # long motion: look anyway, hands and all
            return Decision.MOVING
        if self._still_since is None:
            # the motion ended after the last frame that moved: stillness counts from there,
            # so that at a low frame rate one still frame is a still spell of one frame's time
            self._still_since = prev_t if prev_t is not None else t
        settled = t - self._still_since >= self.settle_s - 1e-9
        if self._changed(self._ref, small):
            return self._analyse(small, t) if settled else Decision.MOVING
        assert self._last_analysis is not None
        if self._recheck_at is not None and t >= self._recheck_at - 1e-9:
            # a second, independent look at a changed scene: one misreading is then outvoted
            self._recheck_at = None
            return self._analyse(small, t, recheck=False)
        if settled and t - self._last_analysis >= self.keepalive_s - 1e-9:
            return self._analyse(small, t, recheck=False)
        return Decision.SAME

    def _analyse(self, small: np.ndarray, t: float, recheck: bool = True) -> Decision:
        self._ref = small
        self._last_analysis = t
        self._recheck_at = t + self.recheck_s if (recheck and self.recheck_s > 0) else None
        self.analysed += 1
        return Decision.ANALYSE


class GateSettings(TypedDict, total=False):
    """Keyword arguments of :class:`ChangeGate` (the timings of a mode)."""

    settle_s: float
    keepalive_s: float
    max_blind_s: float
    recheck_s: float
    width: int
    pixel_threshold: int
    motion_fraction: float
    fast_shrink: bool


#: Gate settings for a live camera: look often while hands move, so events come fast (a
#: look every 0.13 s instead of 0.2 s: in simulated live runs of five rendered 30 fps videos
#: the median delay from a trick turned to its event went 0.48 -> 0.37 s over 37 tricks,
#: the same tricks right, no more false alerts; a few tricks came later - more looks also
#: find more hands over the rows. See the README's video benchmark).
#: Stillness (``settle_s``) counts from the last frame that moved: 0.12 s looks at the same
#: 30 fps frame as 0.07 s from the first still one did, and at 8 fps at the first still frame
#: instead of the second (live, four held-out sets of 12 videos at 8 fps: alerts within 1 s
#: 76 -> 79 of 90, standing false alerts 7 -> 5, raised and withdrawn 7 -> 8, tricks right
#: 509 -> 508 of 512).
LIVE: GateSettings = {"settle_s": 0.12, "recheck_s": 0.13, "max_blind_s": 0.13, "keepalive_s": 2.0}
#: Gate settings for a recorded video: nobody waits for an alert, fewer looks (0.13 s of
#: stillness from the last frame that moved: the frames 0.1 s from the first still one gave,
#: at 8 fps as at 30).
#: Each frame is shrunk the fast way (``fast_shrink``): the gate shares a core with the
#: decoder and sets its pace (the benchmark's 720p video: 0.71-0.73x pure decoding before,
#: 0.76-0.78x with it alone, 0.84-0.90x with the analyser also giving a frame where nothing
#: changed the last look's reading again; two runs each, alternated).
OFFLINE: GateSettings = {"settle_s": 0.13, "recheck_s": 0.3, "max_blind_s": 1.0, "keepalive_s": 2.0,
                         "fast_shrink": True}
#: The gate settings of each mode ("live": ``watch``, "offline": ``video``).
SETTINGS: dict[str, GateSettings] = {"live": LIVE, "offline": OFFLINE}
#: The tracker's persistence that goes with each (seconds).
CONFIRM_S = {"live": 0.13, "offline": 0.3}
