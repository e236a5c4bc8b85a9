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

from pathlib import Path
from typing import Any

import numpy as np

from vision.contract import Contract
from vision.errors import InputFileError, TrickvisionError
from vision.record import Observation, Orientation, RowEntry
from vision.seats import Seat
from vision.table.geometry import Calibration, TableFrame
from vision.table.reading import SeenCard, TableReading
from vision.table.rows import RowReader, RowSettings

GAMES = ("bridge", "preferans", "lhombre")


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as BGR uint8; a clear :class:`InputFileError` for anything unusable."""
    import cv2

    path = Path(path)
    if not path.exists():
        raise InputFileError(f"photo not found: {path}")
    if path.is_dir():
        raise InputFileError(f"{path} is a folder, expected an image file")
    if path.stat().st_size == 0:
        raise InputFileError(f"{path} is empty (0 bytes), expected an image file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise InputFileError(
            f"{path} is not an image OpenCV can read (expected a JPEG, PNG, BMP, TIFF or WebP)"
        )
    if image.shape[0] < 32 or image.shape[1] < 32:
        raise InputFileError(f"{path} is {image.shape[1]}x{image.shape[0]} px: too small")
    return image


class PhotoAnalyzer:
    """Reads the table in photos; keeps the loaded models between photos.

    ``game`` is bridge, preferans or lhombre (``None``: guessed from the number of rows and
    their lengths, with a note). ``detector`` defaults to the shipped ``models/detector.onnx``;
    ``identity_reader`` to the shipped ``models/identity.onnx`` when it exists (``False``
    turns face reading off). ``south``/``calibration`` place the table (see
    :mod:`vision.table.geometry`).
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
    ) -> None:
        if game is not None and game not in GAMES:
            from vision.games import find_game

            game = find_game(game).name
        self.game = game
        if isinstance(calibration, (str, Path)):
            calibration = Calibration.load(calibration)
        self.frame = TableFrame(south=south, calibration=calibration)
        self.rows = RowReader(self.frame, row_settings)
        if detector is None:
            from vision.detect.onnx_detector import CardDetector

            detector = CardDetector()
        self.detector = detector
        self._identity = identity_reader
        self._identity_loaded = identity_reader is not None

    # ------------------------------------------------------------------------- identity
    @property
    def identity_reader(self) -> Any:
        """The face reader, loaded on first use; None when no identity model is shipped."""
        if not self._identity_loaded:
            self._identity_loaded = True
            from vision.models import model_exists

            if model_exists("identity"):
                try:
                    from vision.identity.reader import IdentityReader
                except ImportError:
                    self._identity = None
                else:
                    self._identity = IdentityReader()
        return self._identity or None

    # ----------------------------------------------------------------------------- read
    def read(self, image: np.ndarray) -> TableReading:
        """Every card of one BGR photo, grouped into rows (and the trick in progress)."""
        if image is None or not hasattr(image, "shape") or image.ndim not in (2, 3):
            raise InputFileError("expected an image array (H, W, 3)")
        detections = self.detector.detect(image)
        reading = self.rows.read(
            detections.quads,
            detections.face_up,
            detections.confidence,
            image=image if image.ndim == 3 else None,
            image_size=(int(image.shape[1]), int(image.shape[0])),
        )
        self._read_faces(image, reading)
        return reading

    def _read_faces(self, image: np.ndarray, reading: TableReading) -> None:
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
        quads = np.stack([c.quad for c in face_up])
        game = self.game or "bridge"
        try:
            results = reader.read(image, quads, game)
        except TrickvisionError as exc:
            reading.notes.append(f"face reading failed: {exc}")
            return
        for card, result in zip(face_up, results, strict=True):
            card.card = getattr(result, "card", None)
            card.card_confidence = float(getattr(result, "confidence", 0.0) or 0.0)
            reason = getattr(result, "reason", None)
            if card.card is None:
                card.unreadable_reason = reason or "face could not be read"

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
        return Observation(
            game=game, rows=rows, dealer=dealer, first_leader=first_leader, contract=contract
        )

    def analyze(
        self,
        image: np.ndarray,
        contract: Contract | None = None,
        *,
        dealer: Seat | None = None,
        first_leader: Seat | None = None,
    ) -> tuple[TableReading, Any]:
        """Read one photo and reconstruct the play; returns (reading, report)."""
        from vision.reconstruct import reconstruct

        reading = self.read(image)
        observation = self.observation(
            reading, contract, dealer=dealer, first_leader=first_leader
        )
        if self.game is None:
            reading.notes.append(f"game not given; read as {observation.game}")
        report = reconstruct(observation)
        return reading, report


def row_entry(card: SeenCard) -> RowEntry:
    polygon = tuple((float(x), float(y)) for x, y in np.asarray(card.quad))
    return RowEntry(
        orientation=card.orientation,
        card=card.card,
        confidence=round(float(card.orientation_confidence), 4),
        card_confidence=(round(float(card.card_confidence), 4) if card.card is not None else None),
        polygon=polygon,
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
