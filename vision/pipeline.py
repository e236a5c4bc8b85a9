"""From one photo to the reconstruction: detect, group into rows, read faces, reconstruct.

>>> analyzer = PhotoAnalyzer(game="bridge")                       # doctest: +SKIP
>>> reading, report = analyzer.analyze(cv2.imread("table.jpg"))    # doctest: +SKIP
>>> report.result                                                  # doctest: +SKIP
{'NS': 7, 'EW': 6}

``read`` gives the :class:`~vision.table.reading.TableReading` (every card with its seat, row
position, orientation and confidence, identity where face up); ``analyze`` turns it into an
:class:`~vision.record.Observation` and runs :func:`vision.reconstruct.reconstruct`.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np

from vision.contract import Contract
from vision.detect.detections import CARD_UP
from vision.detect.obb import RawBoxes
from vision.errors import InputFileError, TrickvisionError
from vision.identity.crops import (
    GREY_MODEL_NOTE,
    GREYSCALE_NOTE,
    covered_corners_of_cards,
    is_monochrome,
)
from vision.identity.edges import fit_to_cloth_edges
from vision.identity.grey import grey_alternatives
from vision.identity.row_angle import row_turns
from vision.identity.suit_colours import doubt_suit_colours
from vision.record import Observation, Orientation, RowEntry
from vision.seats import Seat
from vision.table.geometry import SOUTH_ANGLES, Calibration, TableFrame, south_angle, table_turn
from vision.table.reading import SeenCard, TableReading
from vision.table.recount import recount_rows
from vision.table.rows import RowReader, RowSettings
from vision.table.tilt import level_from_cards
from vision.workers import in_background

GAMES = ("bridge", "preferans", "lhombre")


def read_photo_bytes(path: str | Path) -> bytes:
    """A photo file's bytes; a clear :class:`InputFileError` when there is no usable file."""
    path = Path(path)
    if not path.exists():
        raise InputFileError(f"photo not found: {path}")
    if path.is_dir():
        raise InputFileError(f"{path} is a folder, expected an image file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not data:
        raise InputFileError(f"{path} is empty (0 bytes), expected an image file")
    return data


#: ISO media brands of pictures OpenCV does not decode, and what to do about them.
HEIC_BRANDS = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1")
_PHONE_FORMATS = {
    HEIC_BRANDS: "it is an HEIC/HEIF photo (iPhones save these): install the heic extra "
                 "(pip install 'trickvision[heic]') to read it, or export it as JPEG",
    (b"avif", b"avis"): "it is an AVIF picture: save it as JPEG or PNG",
}


def unreadable_image(source: str | Path, data: bytes) -> InputFileError:
    """The error for a file no decoder here reads, saying what to do when it is a phone's
    format (the first thing a director's iPhone photo would meet)."""
    message = f"{source} is not an image OpenCV can read (expected a JPEG, PNG, BMP, TIFF, WebP " \
              "or - with the heic extra - HEIC)"
    if data[4:8] == b"ftyp":
        for brands, advice in _PHONE_FORMATS.items():
            if data[8:12] in brands:
                message += f" - {advice}"
    return InputFileError(message)


def decode_other(data: bytes, source: str | Path) -> np.ndarray:
    """A picture OpenCV does not decode: an HEIC/HEIF photo, read with ``pillow-heif`` (the
    ``heic`` extra; its rotation and mirroring applied, as shown), as BGR uint8; else the
    :func:`unreadable_image` error."""
    if data[4:8] != b"ftyp" or data[8:12] not in HEIC_BRANDS:
        raise unreadable_image(source, data)
    try:
        import pillow_heif
    except ImportError:
        raise unreadable_image(source, data) from None
    try:
        heif = pillow_heif.open_heif(data, convert_hdr_to_8bit=True)
        rgb = np.asarray(heif)
    except Exception as exc:  # a damaged file: libheif says why
        raise InputFileError(f"{source}: a damaged HEIC/HEIF photo ({exc})") from None
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        raise InputFileError(f"{source}: an HEIC/HEIF picture of shape {rgb.shape}, expected "
                             "a colour photo")
    return np.ascontiguousarray(rgb[:, :, 2::-1])


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as BGR uint8; a clear :class:`InputFileError` for anything unusable."""
    import cv2

    data = read_photo_bytes(path)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        image = decode_other(data, path)
    if image.shape[0] < 32 or image.shape[1] < 32:
        raise InputFileError(f"{path} is {image.shape[1]}x{image.shape[0]} px: too small")
    return image


#: Straightening (``PhotoAnalyzer(straighten=True)``): the fewest cards to judge the table's
#: direction by, how well they must agree on it (``table_turn``), and the turns it applies
#: to - below: the rows are read along the picture's edges as they are; above (near 45
#: degrees): which quarter is South's is a guess, so only a note asks for the angle.
STRAIGHTEN_MIN_CARDS = 6
STRAIGHTEN_AGREEMENT = 0.5
STRAIGHTEN_FROM_DEGREES = 5.0
STRAIGHTEN_UP_TO_DEGREES = 40.0
#: A fixed camera's reading is given again for a frame where nothing changed only while the
#: table centre it learns (:class:`~vision.table.centre.FixedTableCentre`) has moved less than
#: this (pixels) since: the centre places the trick in progress.
REUSE_CENTRE_PX = 4.0
#: Cards this much smaller across half the picture (:func:`~vision.table.tilt.level_from_cards`)
#: mean a camera looking from about 25 degrees or more: of 15 rendered scenes each tilted
#: 15 / 25 / 30 / 40 degrees, 0 / 5 / 6 / 11 came above it (with the shipped detector's boxes),
#: and that detector read 76.7 / 30.0 % of photos tilted 30 / 40 degrees exact (100 % from
#: straight above).
STEEP_FALLOFF = 0.3


class _ShippedModel:
    """A model's reader as given to the analyser, turned off (``False``), or (``None``) the
    shipped one, loaded on first use - None when that model is not shipped."""

    def __init__(self, given: Any, name: str, load: Callable[[], Any]) -> None:
        self.value = given or None
        self.pending = given is None
        self.name, self.load = name, load

    def get(self) -> Any:
        if self.pending:
            self.pending = False
            from vision.models import model_exists

            if model_exists(self.name):
                self.value = self.load()
        return self.value


def _identity_reader() -> Any:
    try:
        from vision.identity.reader import IdentityReader
    except ImportError:
        return None
    return IdentityReader()


def _row_strip_reader() -> Any:
    from vision.detect.strips import RowStripReader

    return RowStripReader()


class PhotoAnalyzer:
    """Reads the table in photos; keeps the loaded models between photos.

    ``game`` is bridge, preferans or lhombre (``None``: guessed from the number of rows and
    their lengths, with a note). ``detector`` defaults to the shipped ``models/detector.onnx``;
    ``identity_reader`` to the shipped ``models/identity.onnx`` when it exists (``False``
    turns face reading off); ``row_strips`` to ``models/row_strip.onnx``, which counts each
    row again along its length (:mod:`vision.table.recount`; ``False``: off).
    ``south``/``calibration`` place the table (see :mod:`vision.table.geometry`); with
    ``south`` a side of the picture and no calibration, ``straighten`` reads the rows along
    the table's own direction in each photo (a phone held askew turns them against the
    picture's edges) and levels a photo taken at an angle when its cards show it
    (:mod:`vision.table.tilt`). ``fit_edges`` and ``turn_to_rows`` place face-up cards' boxes
    better before their faces are read (:mod:`vision.identity.edges`,
    :mod:`vision.identity.row_angle`); ``check_suit_colours`` leaves a face unread whose index
    ink contradicts its suit in the photo's deck (:mod:`vision.identity.suit_colours`).
    """

    def __init__(
        self,
        game: str | None = "bridge",
        detector: Any = None,
        identity_reader: Any = None,
        south: str = "bottom",
        calibration: Calibration | str | Path | None = None,
        *,
        row_settings: RowSettings | None = None,
        fit_edges: bool = True,
        straighten: bool = True,
        row_strips: Any = None,
        turn_to_rows: bool = True,
        check_suit_colours: bool = True,
    ) -> None:
        if game is not None and game not in GAMES:
            from vision.games import find_game

            game = find_game(game).name
        self.game = game
        if isinstance(calibration, (str, Path)):
            calibration = Calibration.load(calibration)
        self.frame = TableFrame(south=south, calibration=calibration)
        from vision.games import find_game

        players = find_game(game).n_players if game is not None else None
        #: the most cards a row can hold: the game's hand, or the largest of the three games'
        self.largest_hand = max(find_game(g).hand_size for g in ([game] if game else GAMES))
        self.rows = RowReader(self.frame, row_settings, players=players)
        #: an angle or a calibration is taken as given; a side of the picture is refined
        self.straighten = straighten and calibration is None and \
            str(south).strip().lower() in SOUTH_ANGLES
        if detector is None:
            from vision.detect.onnx_detector import CardDetector

            detector = CardDetector()
        self.detector = detector
        #: whether the detector announces its network's boxes before finishing (test doubles
        #: and the evaluation's truth detector do not)
        self._announces = "on_candidates" in inspect.signature(detector.detect).parameters
        self._identity = _ShippedModel(identity_reader, "identity", _identity_reader)
        #: fit face-up cards' boxes to their edges against the cloth before reading them
        self.fit_edges = fit_edges
        #: read face-up row cards left unread again from boxes turned to their row's direction
        self.turn_to_rows = turn_to_rows
        #: doubt faces whose index ink contradicts their suit in this photo's deck
        self.check_suit_colours = check_suit_colours
        #: counts each row again along its length
        self._strips = _ShippedModel(row_strips, "row_strip", _row_strip_reader)
        #: the last reading of a detector that looks only where the picture changed (a fixed
        #: camera's), with the table centre it was read with
        self._last_read: tuple[Any, TableReading] | None = None

    # ------------------------------------------------------------------------- identity
    @property
    def identity_reader(self) -> Any:
        """The face reader, loaded on first use; None when no identity model is shipped."""
        return self._identity.get()

    @property
    def row_strips(self) -> Any:
        """The row-strip reader (:mod:`vision.detect.strips`), loaded on first use; None when
        turned off or no row-strip model is shipped."""
        return self._strips.get()

    # ----------------------------------------------------------------------------- read
    def read(self, image: np.ndarray, *, table_centre: Any = None) -> TableReading:
        """Every card of one BGR photo, grouped into rows (and the trick in progress).

        ``table_centre``: the table's middle in image pixels when it is known (a fixed camera).
        A fixed camera's detector (``changed_region``) that saw nothing change since its last
        look gives the reading of that look again, copied: the same pixels, the same cards
        (the benchmark video: 15 of its 44 looks; see :data:`REUSE_CENTRE_PX`).
        """
        if image is None or not hasattr(image, "shape") or image.ndim not in (2, 3):
            raise InputFileError("expected an image array (H, W, 3)")
        detections = self.detector.detect(image)
        centre = None if table_centre is None else \
            np.asarray(table_centre, dtype=np.float64).ravel()
        if getattr(self.detector, "unchanged", False) and self._last_read is not None \
                and _near(self._last_read[0], centre, REUSE_CENTRE_PX):
            # a fixed camera's frame where the detector saw nothing change since its last
            # look: the cards, their rows and faces are those read then
            return copy.deepcopy(self._last_read[1])
        reading = self._read_rows(image, 1, table_centre=table_centre, detections=detections)
        self._read_faces(image, reading)
        if getattr(self.detector, "changed_region", None) is not None:
            self._last_read = (centre, copy.deepcopy(reading))
        return reading

    def read_encoded(self, data: bytes, source: str = "<photo>") -> TableReading:
        """Read a JPEG/PNG/... file's bytes (card positions in the full photo's pixels).

        The detector sees the photo at ``imgsz`` pixels anyway, so a large JPEG is decoded
        at 1/2, 1/4 or 1/8 of its size directly (much faster than decoding it whole and
        shrinking it); the full image is decoded only when face-up cards must be read.
        """
        import cv2

        buffer = np.frombuffer(data, dtype=np.uint8)
        factor = self._reduction(buffer)
        flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
        image = cv2.imdecode(buffer, flags)
        if image is None:
            image, factor = decode_other(data, source), 1
        faces = factor > 1 and self.identity_reader is not None
        full: list[Future] = []

        def decode_full_size(raw: RawBoxes) -> None:
            # face-up cards among the network's boxes: decode the full photo for their faces
            # on the other core while the detection and the rows are finished
            if (raw.class_id == CARD_UP).any():
                full.append(in_background(cv2.imdecode, buffer, cv2.IMREAD_COLOR))

        reading = self._read_rows(image, factor, on_candidates=decode_full_size if faces else None)
        if faces and any(c.face_up for c in reading.cards):
            whole = full[0].result() if full else None
            if whole is None:
                whole = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
            # the reduced decode above read this JPEG, so the full-size one does too
            assert whole is not None
            self._read_faces(whole, reading)
        else:
            self._read_faces(image, reading, scale=factor)
        return reading

    def _reduction(self, buffer: np.ndarray) -> int:
        """The largest JPEG scale factor that keeps the photo at least the network's size."""
        if len(buffer) < 4 or not (buffer[0] == 0xFF and buffer[1] == 0xD8):
            return 1  # only JPEG decodes faster at reduced size
        size = _jpeg_size(buffer)
        if size is None:
            return 1
        need = int(getattr(self.detector, "imgsz", 640))
        long_side = max(size)
        factor = 1
        while factor < 8 and long_side / (factor * 2) >= need:
            factor *= 2
        return factor

    def _read_rows(self, image: np.ndarray, factor: int, table_centre: Any = None,
                   on_candidates: Callable[[RawBoxes], None] | None = None,
                   detections: Any = None) -> TableReading:
        if detections is None:
            detections = self.detector.detect(image, on_candidates=on_candidates) \
                if on_candidates is not None and self._announces else self.detector.detect(image)
        rows, note = self._rows_for(detections, (int(image.shape[1]), int(image.shape[0])))
        reading = rows.read(
            detections.quads,
            detections.face_up,
            detections.confidence,
            image=image if image.ndim == 3 else None,
            image_size=(int(image.shape[1]), int(image.shape[0])),
            axis_certainty=detections.data.get("axis_certainty"),
            table_centre=None if table_centre is None
            else np.asarray(table_centre, dtype=np.float64) / factor,
        )
        if note:
            reading.notes.append(note)
        if reading.rows and self.row_strips is not None:
            seats = list(reading.rows)
            quads = [np.stack([c.quad for c in reading.rows[s]]) for s in seats]
            ways = [rows.frame.along_in_image(s, q.reshape(-1, 2).mean(axis=0))
                    for s, q in zip(seats, quads, strict=True)]
            strips = self.row_strips.read(image, quads, ways)
            recount_rows(reading, strips, seats, hand_size=self.largest_hand)
        if len(detections) and getattr(self.detector, "axis", True) is None:
            reading.notes.append(
                "no card-axis model (models/card_axis.onnx) is installed: orientations rest on "
                "the detector's boxes alone, which often turn a half-covered won card"
            )
        if factor != 1:
            for card in reading.cards:
                card.quad = card.quad * factor
            w, h = reading.image_size
            reading.image_size = (w * factor, h * factor)
        return reading

    def _rows_for(self, detections: Any, image_size: tuple[int, int]
                  ) -> tuple[RowReader, str | None]:
        """The row reader for this photo - the usual one, or (``straighten``) one whose table
        frame undoes the camera's tilt (:func:`~vision.table.tilt.level_from_cards`) and is
        turned by the cards' own direction (:func:`~vision.table.geometry.table_turn`) - and
        a note saying so."""
        if not self.straighten or len(detections) < STRAIGHTEN_MIN_CARDS:
            return self.rows, None
        tilt, falloff = level_from_cards(detections.quads, image_size, detections.confidence)
        level = Calibration(homography=tilt) if tilt is not None else None
        quads = detections.quads if level is None else \
            TableFrame(calibration=level).to_table(detections.quads)
        found = table_turn(quads, detections.confidence)
        turn = found[0] if found is not None and found[1] >= STRAIGHTEN_AGREEMENT else 0.0
        notes = []
        if level is not None:
            notes.append("the photo was taken at an angle: the table was levelled from its "
                         "cards' sizes and shapes")
        elif falloff >= STEEP_FALLOFF:
            notes.append(
                f"the photo was taken at a steep angle (the far cards about "
                f"{100 * falloff:.0f} % smaller than the middle ones): rows are misread "
                "more often so - hold the camera more nearly above the table, or "
                "calibrate (trickvision calibrate)")
        way = "clockwise" if turn > 0 else "counter-clockwise"
        if abs(turn) > STRAIGHTEN_UP_TO_DEGREES:
            notes.append(
                f"the table lies turned about {abs(turn):.0f} degrees {way} in the picture: "
                f"which row is South's cannot be told from --south {self.frame.south}; give the "
                "angle instead (--south 45: South at the bottom left, --south 315: at the "
                "bottom right)")
            turn = 0.0
        elif abs(turn) < STRAIGHTEN_FROM_DEGREES:
            turn = 0.0
        else:
            notes.append(f"the table lies turned {abs(turn):.0f} degrees {way} in the picture: "
                         "its rows were read along it")
        if level is None and not turn:
            return self.rows, "; ".join(notes) or None
        frame = TableFrame(south=south_angle(self.frame.south) + turn, calibration=level)
        return (RowReader(frame, self.rows.settings, players=self.rows.players),
                "; ".join(notes))

    def _read_faces(self, image: np.ndarray, reading: TableReading, scale: int = 1) -> None:
        face_up = [c for c in reading.cards if c.face_up]
        if not face_up:
            return
        reader = self.identity_reader
        if reader is None:
            for card in face_up:
                card.unreadable_reason = "no identity model is installed"
            reading.notes.append(
                f"{len(face_up)} face-up card(s) seen; no identity model (models/identity.onnx) "
                "is installed, so their faces were not read"
            )
            return
        quads = np.stack([c.quad for c in face_up]) / scale
        if self.fit_edges and image.ndim == 3:
            index = {id(c): i for i, c in enumerate(reading.cards)}
            quads, _ = fit_to_cloth_edges(
                image, quads, np.stack([c.quad for c in reading.cards]) / scale,
                np.array([index[id(c)] for c in face_up]))
        game = self.game or "bridge"
        later = _later_cards(face_up, quads)
        covered = covered_corners_of_cards(quads, later)
        # only a reader with the whole-card view has a use for it
        alone = (cards_lying_alone(face_up, reading.cards, scale)
                 if getattr(reader, "whole_path", None) is not None else None)
        # only a reader with the strip view has a use for the cards lying on each card
        strips = getattr(reader, "strip_path", None) is not None
        try:
            results = reader.read(image, quads, game, covered=covered, alone=alone,
                                  **({"on_top": _boxes_on(quads, later)} if strips else {}))
        except TrickvisionError as exc:
            reading.notes.append(f"face reading failed: {exc}")
            return
        read_from = quads
        if self.turn_to_rows:
            results, read_from = self._read_turned_to_row(image, reader, game, face_up, quads,
                                                          results)
        monochrome = is_monochrome(image)
        if self.check_suit_colours and not monochrome:
            results = doubt_suit_colours(image, read_from, results)
        if monochrome and any(getattr(r, "card", None) for r in results):
            reading.notes.append(GREY_MODEL_NOTE if getattr(reader, "reads_grey_apart", False)
                                 else GREYSCALE_NOTE)
        for card, result in zip(face_up, results, strict=True):
            card.card = getattr(result, "card", None)
            card.card_confidence = float(getattr(result, "confidence", 0.0) or 0.0)
            reason = getattr(result, "reason", None)
            if card.card is None:
                card.unreadable_reason = reason or "face could not be read"
                card.card_candidates = tuple(getattr(result, "candidates", ()) or ())
            elif monochrome:
                # a face named in grey may be its suit's grey look-alike: should the same card
                # be read elsewhere too, the rules then know what this face most likely is
                card.card_candidates = grey_alternatives(card.card, card.card_confidence)

    @staticmethod
    def _read_turned_to_row(image: np.ndarray, reader: Any, game: str,
                            face_up: list[SeenCard], quads: np.ndarray,
                            results: list[Any]) -> tuple[list[Any], np.ndarray]:
        """The face-up row cards left unread, read again from their boxes turned to their
        row's direction where they lie far from it (:mod:`vision.identity.row_angle`); a
        turned box's reading is taken when it names a card. Also gives the box each result
        was read from."""
        unread = [i for i, r in enumerate(results) if getattr(r, "card", None) is None]
        rows = [c.seat if c.row_position is not None else None for c in face_up]
        turned = row_turns(quads, rows, unread)
        if not turned:
            return results, quads
        which = sorted(turned)
        moved = quads.copy()
        for i in which:
            moved[i] = turned[i]
        later = _later_cards(face_up, moved)
        covered = covered_corners_of_cards(moved, later)[which]
        extra = {}
        if getattr(reader, "strip_path", None) is not None:
            on_top = _boxes_on(moved, later)
            extra["on_top"] = [on_top[i] for i in which]
        try:
            again = reader.read(image, moved[which], game, covered=covered, **extra)
        except TrickvisionError:
            return results, quads
        results = list(results)
        read_from = quads.copy()
        for i, r in zip(which, again, strict=True):
            if getattr(r, "card", None) is not None:
                results[i] = r
                read_from[i] = moved[i]
        return results, read_from

    # -------------------------------------------------------------------------- analyze
    def observation(
        self,
        reading: TableReading,
        contract: Contract | None = None,
        *,
        dealer: Seat | None = None,
        first_leader: Seat | None = None,
    ) -> Observation:
        """The rows of a reading as the reconstruction's input."""
        game = self.game or guess_game(reading)
        rows: dict[Seat, list[RowEntry]] = {}
        for seat, cards in reading.rows.items():
            rows[seat] = [row_entry(card) for card in cards]
        # Cards of a trick still lying in the middle: the deal is being played, so the rows
        # are as long as the tricks played so far, not a full hand.
        complete = False if reading.current_trick else None
        return Observation(
            game=game, rows=rows, dealer=dealer, first_leader=first_leader, contract=contract,
            complete=complete,
        )

    def analyze(
        self,
        image: np.ndarray | bytes,
        contract: Contract | None = None,
        *,
        dealer: Seat | None = None,
        first_leader: Seat | None = None,
    ) -> tuple[TableReading, Any]:
        """Read one photo (array or encoded file bytes) and reconstruct the play."""
        reading = self.read_encoded(image) if isinstance(image, bytes) else self.read(image)
        report = self.reconstruct(reading, contract, dealer=dealer, first_leader=first_leader)
        return reading, report

    def reconstruct(
        self,
        reading: TableReading,
        contract: Contract | None = None,
        *,
        dealer: Seat | None = None,
        first_leader: Seat | None = None,
    ) -> Any:
        """The reconstruction report of a reading."""
        from vision.reconstruct import reconstruct

        observation = self.observation(
            reading, contract, dealer=dealer, first_leader=first_leader
        )
        if self.game is None:
            note = f"game not given; read as {observation.game}"
            if note not in reading.notes:
                reading.notes.append(note)
        return reconstruct(observation)


def _later_cards(cards: list[SeenCard], quads: np.ndarray) -> np.ndarray:
    """(n, n) bool: ``[i, j]`` when card j lies later in card i's row and their boxes meet
    (a row's later cards lie on its earlier ones)."""
    low, high = quads.min(axis=1), quads.max(axis=1)
    seat = np.array([-1 if c.seat is None else int(c.seat) for c in cards])
    pos = np.array([-1 if c.row_position is None else c.row_position for c in cards])
    meet = ((low[None] < high[:, None]).all(axis=2) & (low[:, None] < high[None]).all(axis=2))
    return meet & (seat[:, None] == seat[None]) & (pos[:, None] >= 0) & (pos[None] > pos[:, None])


def _boxes_on(quads: np.ndarray, later: np.ndarray) -> list[np.ndarray]:
    """For each card, the boxes (k, 4, 2) of the later cards of its row that lie on it
    (``later``: :func:`_later_cards`)."""
    return [quads[row] for row in later]


def cards_lying_alone(face_up: list[SeenCard], cards: list[SeenCard], scale: int = 1,
                 touch: float = 0.03) -> np.ndarray:
    """(n,) bool: the face-up cards whose whole face shows - no other card overlaps them by
    more than ``touch`` of their area, except earlier cards of their own row, which lie
    under them (so the last card of a face-up row counts), and the cards of a player's row
    under his card of the trick in progress. Pips and picture can be read."""
    import cv2

    polys = [np.asarray(c.quad, np.float32) / scale for c in cards]
    out = np.ones(len(face_up), dtype=bool)
    index = {id(c): i for i, c in enumerate(cards)}
    low = np.array([p.min(axis=0) for p in polys]) if polys else np.zeros((0, 2))
    high = np.array([p.max(axis=0) for p in polys]) if polys else np.zeros((0, 2))
    for n, card in enumerate(face_up):
        i = index[id(card)]  # face_up is a subset of cards
        mine = polys[i]
        area = abs(float(cv2.contourArea(mine)))
        lo, hi = mine.min(axis=0), mine.max(axis=0)
        near = np.flatnonzero((low < hi).all(axis=1) & (lo < high).all(axis=1))
        for j in near:
            if j == i or _lies_under(cards[j], card):
                continue
            inter, _ = cv2.intersectConvexConvex(mine, polys[j])
            if inter > touch * area:
                out[n] = False
                break
    return out


def _lies_under(a: SeenCard, b: SeenCard) -> bool:
    """``a`` is an earlier card of ``b``'s row (the later cards of a row lie on the earlier),
    or ``b`` is that player's card of the trick in progress, laid after his row - close to
    it, over its near edge (:meth:`vision.table.rows.RowReader._lift_laid_faces`)."""
    return (a.seat is not None and a.seat == b.seat and a.row_position is not None
            and (b.row_position is None or a.row_position < b.row_position))


def _near(a: np.ndarray | None, b: np.ndarray | None, tolerance: float) -> bool:
    """Both None, or both points within ``tolerance`` of each other in x and y."""
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and np.allclose(a, b, rtol=0.0, atol=tolerance)


def _jpeg_size(buffer: np.ndarray) -> tuple[int, int] | None:
    """(width, height) from a JPEG's start-of-frame marker, without decoding it."""
    data = buffer.tobytes() if len(buffer) < 1 << 16 else buffer[: 1 << 20].tobytes()
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return width, height
        i += 2 + length
    return None


def row_entry(card: SeenCard) -> RowEntry:
    polygon = tuple((float(x), float(y)) for x, y in np.asarray(card.quad))
    return RowEntry(
        orientation=card.orientation,
        card=card.card,
        confidence=round(float(card.orientation_confidence), 4),
        card_confidence=(round(float(card.card_confidence), 4) if card.card is not None else None),
        polygon=polygon,
        candidates=card.card_candidates,
    )


def guess_game(reading: TableReading) -> str:
    """Bridge for four rows; with three, l'hombre if no row is longer than 9, else preferans.

    Read faces settle it when there are any: 2-6 only exist in l'hombre, 8-T only in
    preferans (and bridge).
    """
    ranks = {c.card.rank.value for c in reading.cards if c.card is not None}
    if len(reading.rows) >= 4:
        return "bridge"
    if ranks & {2, 3, 4, 5, 6}:
        return "lhombre"
    if ranks & {8, 9, 10}:
        return "preferans"
    longest = max((len(r) for r in reading.rows.values()), default=0)
    return "preferans" if longest >= 10 else "lhombre" if len(reading.rows) == 3 else "bridge"


def reading_to_dict(reading: TableReading) -> dict[str, Any]:
    """Every card seen, for the JSON report (``cards``/``current_trick``)."""
    from vision.notation.json_format import candidates_to_list


    def card_dict(c: SeenCard) -> dict[str, Any]:
        return {
            "seat": None if c.seat is None else c.seat.name,
            "row_position": c.row_position,
            "face_up": c.face_up,
            "detection_confidence": round(c.confidence, 4),
            "orientation": c.orientation.value,
            "confidence": round(c.orientation_confidence, 4),
            "card": None if c.card is None else str(c.card),
            "card_confidence": round(c.card_confidence, 4) if c.card is not None else None,
            "unreadable_reason": c.unreadable_reason,
            "candidates": candidates_to_list(c.card_candidates),
            "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in c.quad],
        }

    return {
        "image_size": list(reading.image_size),
        "cards_found": len(reading.cards),
        "rows_found": {s.name: len(r) for s, r in sorted(reading.rows.items())},
        "current_trick": {
            s.name: card_dict(c) for s, c in sorted(reading.current_trick.items())
        },
        "loose_cards": [
            card_dict(c) for c in reading.cards if c.seat is None and c.row_position is None
        ],
        "notes": list(reading.notes),
    }


def full_report_dict(reading: TableReading, report: Any) -> dict[str, Any]:
    """The core's report JSON plus, per row position, ``confidence`` and ``polygon``."""
    from vision.notation.json_format import report_to_dict

    out = report_to_dict(report)
    for seat_name, entries in out.get("rows", {}).items():
        seen = reading.rows.get(Seat[seat_name], [])
        for entry, card in zip(entries, seen, strict=False):
            entry["confidence"] = round(float(card.orientation_confidence), 4)
            entry["polygon"] = [[round(float(x), 1), round(float(y), 1)] for x, y in card.quad]
            if card.face_up and card.card is None and card.unreadable_reason:
                entry["unreadable_reason"] = card.unreadable_reason
    out["photo"] = reading_to_dict(reading)
    return out


__all__ = [
    "PhotoAnalyzer",
    "full_report_dict",
    "guess_game",
    "load_image",
    "reading_to_dict",
    "row_entry",
    "Orientation",
]
