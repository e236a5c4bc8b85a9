"""Source -> change gate -> frame analyser -> tracker -> store and outputs.

The analyser is an interface with one verb, ``analyse(image, t, pos) -> TableReading``:

* :class:`PhotoAnalyzerAdapter` runs the shipped photo pipeline (detector, rows, identity
  reader) - the real thing;
* :class:`TruthAnalyzer` turns the renderer's per-frame ground truth into the same reading -
  for developing and testing the tracker, and as the reference in benchmarks.

The tracker sees only readings, so the two are interchangeable. :class:`VideoPipeline` ties a
source's frames to the gate (most frames of a still table never reach the analyser), feeds the
tracker, and hands every event to the sinks (the store, the console, a JSON Lines file) as it
is confirmed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from vision.cards import BRIDGE_DECK, Card
from vision.errors import TrickvisionError
from vision.identity.crops import GREY_MODEL_NOTE, GREYSCALE_NOTE
from vision.identity.deck_inks import DeckInks
from vision.models import model_exists, model_path
from vision.record import Observation, Orientation
from vision.seats import Seat
from vision.table.centre import FixedTableCentre
from vision.table.reading import SeenCard, TableReading
from vision.video.events import Event
from vision.video.gate import ChangeGate, Decision
from vision.video.readahead import ReadAhead
from vision.video.sources import Frame
from vision.video.tracker import TableTracker

EventSink = Callable[[Event, float], None]
_DECK: tuple[Card, ...] = tuple(BRIDGE_DECK)


class FrameAnalyzer(Protocol):
    """Anything that reads one frame into a :class:`TableReading`."""

    def analyse(self, image: np.ndarray, t: float, pos: float | None) -> TableReading: ...


#: The fixed camera's detector (``models/detector_video.onnx``); the photo detector otherwise.
VIDEO_DETECTOR = "detector_video"
#: The fixed camera's row strips (``models/row_strip_video.onnx``); the photos' otherwise.
VIDEO_ROW_STRIP = "row_strip_video"


class PhotoAnalyzerAdapter:
    """The shipped photo pipeline (``vision.pipeline.PhotoAnalyzer``) as a frame analyser."""

    def __init__(self, game: str | None, *, beside_decoder: bool = False,
                 changed_region: bool = True, **options: Any) -> None:
        from vision.detect.axis import AxisClassifier
        from vision.detect.onnx_detector import CardDetector
        from vision.pipeline import PhotoAnalyzer
        from vision.table.rows import RowSettings

        # The camera's frames are small (cards of 50-75 px): a second, partial box on a card's
        # uncovered end, one straddling two row cards, or one over bare cloth is common there
        # and would grow a row by a card (the three filters cost or do not help photos, where
        # they stay off). The fixed camera has its own detector, fine-tuned on video frames
        # (hands, half-turned cards, long tight rows), where it is installed. Giving back the
        # two cards a straddling box suppressed helps photos but not these frames (held-out
        # videos 6101-6106: 51 of 64 tricks with it, 56 without), so it stays off here.
        # The second look's mirrored reading of unsure boxes makes more photo rows exact, but
        # here it raised three more false alerts and read no more tricks (held-out videos
        # 7401-7412: 114 of 128 either way, 23 false alerts against 20), so it stays off.
        if options.get("detector") is None:
            video_model = model_path(VIDEO_DETECTOR) if model_exists(VIDEO_DETECTOR) else None
            axis = AxisClassifier(mirror_below=0.0) if model_exists("card_axis") else False
            # Beside a decoder on the other core (``trickvision video``'s read-ahead), the
            # detector runs on one thread that never spins: two threads fought the decoder
            # for the cores (the benchmark's 720p video: 0.48-0.54x decoding with two, 0.55-
            # 0.66x with one; each analysis gives the same boxes either way).
            cores: dict[str, Any] = {"threads": 1, "spin": False} if beside_decoder else {}
            # only the camera's own detector takes a part of a frame (any input size)
            region = changed_region and video_model is not None
            options["detector"] = CardDetector(video_model, axis=axis, fragment_ratio=0.6,
                                               ghost_check=True, split_straddles=False,
                                               changed_region=region, **cores)
        if options.get("row_settings") is None:
            options["row_settings"] = RowSettings(phantom_certainty=0.3)
        # Face-up boxes fitted to the cards' edges read more faces on photos, but not in these
        # frames (hands over cards just laid, small cards): held-out videos 7201-7212 111 of
        # 128 tricks right with the fit against 114 without, 7301-7312 98 against 102.
        options.setdefault("fit_edges", False)
        # the camera does not move: its frames keep the frame given (--south), not one turned
        # by each frame's few cards
        options.setdefault("straighten", False)
        # Each row is counted again along its length here too: on the tuning videos 7901-7912
        # and 8001-8012 the row strips raised no false alert against 9 and found 44 of 45
        # alerts against 39, with 251 of 256 tricks right against 252. The camera keeps the
        # strips trained on true rows alone (run 2, models/row_strip_video.onnx): those
        # trained on the photo detector's rows too (run 3, the photos' since 2026-12-04) read
        # 247 of 256 tricks there against 251, and 109 of 128 on the fresh videos 9901-9912
        # against 112.
        if options.get("row_strips") is None and model_exists(VIDEO_ROW_STRIP):
            from vision.detect.strips import RowStripReader

            options["row_strips"] = RowStripReader(model_path(VIDEO_ROW_STRIP))
        self.inner = PhotoAnalyzer(game=game, **options)
        # The face reader is loaded now, not with the first face-up card (as photos do): the
        # camera sees faces in every deal, and loading its four models and their code in the
        # middle of the stream held that card's analysis up by about 0.17 s.
        _ = self.inner.identity_reader
        # the camera does not move: the table's middle is learnt once, not guessed per frame
        self.centre = FixedTableCentre(self.inner.frame)
        self.warned_greyscale = False
        self.turned = TurnedCamera(self.inner.frame.south)
        # the deck's ink per suit, learnt over the session: names the suit of a pip card
        # read in one whose ink it does not have (a four-colour deck's blue diamonds)
        self.inks = DeckInks()

    def analyse(self, image: np.ndarray, t: float, pos: float | None) -> TableReading:
        centre = self.centre.value((int(image.shape[1]), int(image.shape[0])))
        reading = self.inner.read(image, table_centre=centre)
        self.inks.check(image, reading)
        self.centre.update(reading)
        grey = [n for n in reading.notes if n in (GREYSCALE_NOTE, GREY_MODEL_NOTE)]
        if grey and not self.warned_greyscale:
            self.warned_greyscale = True  # once per source: the camera does not change
            logging.getLogger("trickvision").warning("trickvision: warning: %s", grey[0])
        advice = self.turned.update(reading)
        if advice:
            logging.getLogger("trickvision").warning("trickvision: warning: %s", advice)
        return reading


class TurnedCamera:
    """Notices, once per source, a fixed camera whose table lies turned against the frame
    given (``--south``): its frames are read along that frame - a camera does not move, so
    nothing is turned per frame as for photos - and rows turned 15 degrees or more against
    it may go to the wrong players (as they did in photos read so). :meth:`update` returns
    the advice (the ``--south`` angle that reads the table) the first time five readings with
    enough cards agree on such a turn; once they agree on a straight table it stops looking.
    """

    MIN_CARDS = 8
    READINGS = 5
    FROM_DEGREES = 7.0

    def __init__(self, south: str | float) -> None:
        from vision.table.geometry import south_angle

        self.south = south_angle(south)
        self.turns: list[float] = []
        self.decided = False  # five readings agreed: turned (said so) or straight

    def update(self, reading: TableReading) -> str | None:
        from vision.pipeline import STRAIGHTEN_AGREEMENT
        from vision.table.geometry import table_turn

        if self.decided or len(reading.cards) < self.MIN_CARDS:
            return None
        found = table_turn(np.stack([c.quad for c in reading.cards]),
                           np.array([c.confidence for c in reading.cards]))
        if found is None or found[1] < STRAIGHTEN_AGREEMENT:
            return None
        # the turn against the frame given, in [-45, 45)
        self.turns.append((found[0] - self.south + 45.0) % 90.0 - 45.0)
        recent = self.turns[-self.READINGS:]
        if len(recent) < self.READINGS or max(recent) - min(recent) > 6.0:
            return None
        turn = float(np.median(recent))
        self.decided = True
        if abs(turn) < self.FROM_DEGREES:
            return None
        way = "clockwise" if turn > 0 else "counter-clockwise"
        return (f"the table lies turned about {abs(turn):.0f} degrees {way} against the "
                f"camera's frame (--south): rows may go to the wrong players; give --south "
                f"{(self.south + turn) % 360:.0f} to read it straight")


@dataclass(frozen=True)
class ReadingNoise:
    """Detector-like errors added to truth readings, per card and reading: a card not found
    (``miss``), a face read as a random other card (``misread``), an orientation flipped
    (``flip``). For testing that the tracker's persistence and voting absorb them."""

    miss: float = 0.0
    misread: float = 0.0
    flip: float = 0.0
    seed: int = 0


class TruthAnalyzer:
    """Readings from rendered ground truth, as a perfect (but not clairvoyant) analyser.

    ``frames`` maps a frame index to that frame's card truth (contract 3 entries). A card
    hidden below ``min_visible`` of its area (by hands or other cards) is not seen; a face-up
    card showing less than ``min_face_visible`` is seen but its identity is not read - the same
    limits a camera has.
    """

    def __init__(self, frames: Mapping[int, list[dict[str, Any]]], fps: float, *,
                 min_visible: float = 0.2, min_face_visible: float = 0.5,
                 noise: ReadingNoise | None = None) -> None:
        if fps <= 0:
            raise TrickvisionError(f"fps must be > 0, got {fps}")
        self.frames = frames
        self.fps = fps
        self.min_visible = min_visible
        self.min_face_visible = min_face_visible
        self.noise = noise
        self._rng = np.random.default_rng(noise.seed if noise else 0)

    @classmethod
    def from_file(cls, path: str, fps: float, **kw: Any) -> TruthAnalyzer:
        from vision.synth.video import read_frame_truth

        return cls(read_frame_truth(path), fps, **kw)

    def analyse(self, image: np.ndarray | None, t: float, pos: float | None) -> TableReading:
        index = int(round((t if pos is None else pos) * self.fps))
        cards = self.frames.get(index)
        if cards is None:
            return TableReading(notes=[f"no ground truth for frame {index}"])
        size = (0, 0) if image is None else (int(image.shape[1]), int(image.shape[0]))
        return self.reading(cards, size)

    def reading(self, cards: Iterable[dict[str, Any]], size: tuple[int, int] = (0, 0)
                ) -> TableReading:
        out = TableReading(image_size=size)
        noise, rng = self.noise, self._rng
        for c in cards:
            frac = float(c.get("visible_fraction", 1.0))
            if frac < self.min_visible:
                continue
            if noise is not None and rng.random() < noise.miss:
                continue
            seat = Seat.from_str(c["seat"]) if c.get("seat") else None
            face_up = bool(c["face_up"])
            card = None
            if face_up and frac >= self.min_face_visible and c.get("card"):
                card = Card.from_str(c["card"])
                if noise is not None and rng.random() < noise.misread:
                    card = _DECK[int(rng.integers(len(_DECK)))]
            o = c.get("orientation")
            if o and noise is not None and rng.random() < noise.flip:
                o = "lost" if o == "won" else "won"
            sc = SeenCard(
                quad=np.asarray(c["quad"], np.float32).reshape(4, 2),
                face_up=face_up,
                confidence=1.0,
                seat=seat,
                row_position=c.get("row_position"),
                orientation=Orientation(o) if o else Orientation.UNKNOWN,
                orientation_confidence=1.0 if o else 0.0,
                card=card,
                card_confidence=1.0 if card is not None else 0.0,
                unreadable_reason=None if card is not None or not face_up else "covered",
            )
            out.cards.append(sc)
            if seat is None:
                continue
            if c.get("in_current_trick"):
                out.current_trick[seat] = sc
            elif c.get("row_position") is not None:
                out.rows.setdefault(seat, []).append(sc)
        for seat in out.rows:
            out.rows[seat].sort(key=lambda s: s.row_position or 0)
        return out


@dataclass
class PipelineStats:
    """What the pipeline did: frames seen, analysed, time spent per stage (seconds)."""

    frames: int = 0
    analysed: int = 0
    same: int = 0
    moving: int = 0
    gate_s: float = 0.0
    analyse_s: float = 0.0
    track_s: float = 0.0
    events: int = 0
    latencies: list[float] = field(default_factory=list)  # confirm time - event time

    def to_dict(self) -> dict[str, Any]:
        return {"frames": self.frames, "analysed": self.analysed, "same": self.same,
                "moving": self.moving, "gate_s": round(self.gate_s, 3),
                "analyse_s": round(self.analyse_s, 3), "track_s": round(self.track_s, 3),
                "events": self.events}


class VideoPipeline:
    """One frame at a time: gate, analyse when needed, track, and pass events to the sinks.

    ``gate=None`` analyses every frame (the reference for measuring what the gate saves).
    """

    def __init__(self, analyzer: FrameAnalyzer, tracker: TableTracker, *,
                 gate: ChangeGate | None = None, sinks: Iterable[EventSink] = ()) -> None:
        self.analyzer = analyzer
        self.tracker = tracker
        self.gate = gate
        self.sinks = list(sinks)
        self.stats = PipelineStats()
        self.last_reading: TableReading | None = None
        self.events: list[Event] = []
        self.last_t: float | None = None

    def process(self, frame: Frame, decision: Decision | None = None,
                gate_s: float = 0.0) -> list[Event]:
        """Gate, analyse and track one frame; ``decision`` (with the ``gate_s`` it took) when
        the gate already looked at it (:class:`~vision.video.readahead.ReadAhead`)."""
        st = self.stats
        st.frames += 1
        self.last_t = frame.t
        c0 = time.perf_counter()
        if decision is None:
            decision = Decision.ANALYSE if self.gate is None else self.gate.check(frame.image,
                                                                                     frame.t)
        c1 = time.perf_counter()
        st.gate_s += c1 - c0 + gate_s
        reading: TableReading | None
        if decision is Decision.ANALYSE:
            reading = self.analyzer.analyse(frame.image, frame.t, frame.pos)
            self.last_reading = reading
            st.analysed += 1
            c2 = time.perf_counter()
            st.analyse_s += c2 - c1
        elif decision is Decision.SAME:
            reading = self.last_reading
            st.same += 1
            c2 = c1
        else:
            reading = None
            st.moving += 1
            c2 = c1
        events: list[Event] = []
        if reading is not None:
            events = self.tracker.update(reading, frame.t,
                                         fresh=decision is Decision.ANALYSE)
        st.track_s += time.perf_counter() - c2
        self._hand_out(events, frame.t)
        return events

    def _hand_out(self, events: list[Event], t: float) -> None:
        """Record events raised at stream time ``t`` and pass them to the sinks."""
        for e in events:
            self.stats.events += 1
            self.stats.latencies.append(t - e.t)
            self.events.append(e)
            for sink in self.sinks:
                sink(e, t)

    def run(self, frames: Iterable[Frame],
            progress: Callable[[Frame], None] | None = None, *,
            read_ahead: bool = False, keep_images: bool = False) -> list[Event]:
        """Process every frame, then the end of the stream; returns all events (also handed
        to the sinks as they came).

        ``read_ahead`` decodes and gates the frames on a second thread (a recorded video: the
        same events, sooner); the frames handed to ``progress`` then carry their pixels only
        where the analyser looked, unless ``keep_images``. A source's error (a truncated
        file) is raised after every frame read before it has been processed; ``finish`` is
        then the caller's.
        """
        if not read_ahead or self.gate is None:
            for frame in frames:
                self.process(frame)
                if progress is not None:
                    progress(frame)
        else:
            with ReadAhead(frames, self.gate, keep_images=keep_images) as ahead:
                for frame, decision, gate_s in ahead:
                    self.process(frame, decision, gate_s)
                    if progress is not None:
                        progress(frame)
        self.finish()
        return self.events

    def finish(self) -> list[Event]:
        """The stream ended: let the tracker settle what it can no longer wait for."""
        if self.last_t is None:
            return []
        events = self.tracker.end_of_stream(self.last_t)
        self._hand_out(events, self.last_t)
        return events

    def deals(self) -> list[tuple[int, Observation]]:
        """Every deal of the session so far, ``(number, observation)``: the closed ones and
        the one in progress (left out when nothing of it has been seen after a closed one)."""
        out = [(d.deal, d.observation) for d in self.tracker.closed_deals]
        if self.tracker.tricks or not out:
            out.append((self.tracker.deal, self.tracker.observation()))
        return out
