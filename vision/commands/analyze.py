"""``trickvision analyze PHOTO``: read the rows in a photo and report the tricks.

Prints the reconstruction report (JSON as ``trickvision reconstruct`` writes it, each row
position also carrying its ``confidence`` and ``polygon``, plus a ``photo`` section with every
card found) and writes the annotated image and the report into ``--out``.

Exit codes: 0 a consistent reading, 1 the report lists problems (conflicts, row lengths,
undetermined tricks), 2 unusable input (not an image, no cards, a single row).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vision.cards import Suit
from vision.contract import Contract, ContractKind
from vision.errors import InputFileError, TrickvisionError
from vision.seats import Seat
from vision.table.geometry import south_argument

NAME = "analyze"
HELP = "read the rows in a photo and report the tricks"
KINDS = {k.value: k for k in ContractKind}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", help="photo of the table (JPEG, PNG, ...)")
    add_analysis_arguments(parser)


def add_analysis_arguments(parser: argparse.ArgumentParser, *, out_default: str = ".") -> None:
    parser.add_argument("--game", choices=("bridge", "preferans", "lhombre", "auto"),
                        default="auto",
                        help="the game (auto: bridge for four rows, else from row lengths)")
    parser.add_argument("--contract", metavar="C",
                        help="e.g. 4S, 3NT, 6H, misere, raspasy, nolo (trump and kind)")
    parser.add_argument("--declarer", metavar="SEAT", help="N, E, S or W")
    parser.add_argument("--dealer", metavar="SEAT", help="N, E, S or W")
    parser.add_argument("--first-leader", metavar="SEAT", help="who led the first trick")
    parser.add_argument("--south", type=south_argument, default="bottom",
                        metavar="bottom|top|left|right|DEGREES",
                        help="where South sits in the image (default bottom), or the angle "
                             "clockwise from the bottom to South (45: bottom left - a photo "
                             "taken from a corner of the table)")
    parser.add_argument("--calibration", metavar="FILE",
                        help="table calibration from 'trickvision calibrate' (tilted camera)")
    parser.add_argument("--format", choices=("json", "text", "pbn"), default="json",
                        help="what to print (pbn: bridge play record)")
    parser.add_argument("--out", metavar="DIR", default=out_default,
                        help="folder for <photo>.annotated.jpg and <photo>.report.json "
                             f"(default {out_default!r}; '' writes nothing)")
    parser.add_argument("--model", metavar="ONNX", help="detector model (default: shipped)")
    parser.add_argument("--conf", type=float, default=None,
                        help="detector score threshold (default: the detector's, 0.25)")
    parser.add_argument("--no-faces", action="store_true", help="do not read face-up cards")


def parse_contract(text: str | None, declarer: str | None) -> Contract | None:
    """``4S`` / ``3NT`` / ``S`` / ``NT`` / ``misere`` / ``raspasy`` ... into a Contract."""
    seat = Seat.from_str(declarer) if declarer else None
    if not text:
        if seat is not None:
            raise TrickvisionError("--declarer needs --contract (e.g. --contract 4S)")
        return None
    raw = text.strip().upper()
    if raw.lower() in KINDS and raw.lower() != "tricks":
        return Contract(trump=None, declarer=seat, kind=KINDS[raw.lower()])
    digits = ""
    while raw and raw[0].isdigit():
        digits, raw = digits + raw[0], raw[1:]
    level = int(digits) if digits else None
    if raw in ("NT", "N", "BT", "SA"):
        trump = None
    elif raw in ("S", "H", "D", "C"):
        trump = Suit(raw)
    else:
        raise TrickvisionError(
            f"--contract {text!r}: expected a level and a strain like 4S or 3NT, or one of "
            f"{', '.join(k for k in KINDS if k != 'tricks')}"
        )
    return Contract(trump=trump, declarer=seat, kind=ContractKind.TRICKS, level=level)


def build_analyzer(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from vision.detect.onnx_detector import CardDetector
    from vision.pipeline import PhotoAnalyzer

    options = {} if args.conf is None else {"conf": args.conf}
    detector = CardDetector(args.model, **options)
    return PhotoAnalyzer(
        game=None if args.game == "auto" else args.game,
        detector=detector,
        identity_reader=False if args.no_faces else None,
        south=args.south,
        calibration=args.calibration,
    )


def analyze_photo(args: argparse.Namespace, photo: str | Path) -> int:
    """Shared by ``analyze`` and ``demo``: read, reconstruct, print, write files."""
    from vision.pipeline import full_report_dict, load_image, read_photo_bytes, reading_to_dict

    contract = parse_contract(args.contract, args.declarer)
    dealer = Seat.from_str(args.dealer) if args.dealer else None
    first = Seat.from_str(args.first_leader) if args.first_leader else None
    image = load_image(photo)  # checks the file and gives the picture to draw on
    analyzer = build_analyzer(args)
    reading = analyzer.read_encoded(read_photo_bytes(photo), str(photo))
    stem = Path(photo).stem
    if not reading.cards:
        _write_outputs(args, stem, image, reading, None, {"photo": reading_to_dict(reading)})
        raise InputFileError(f"{photo}: no cards found in the photo")
    observation = analyzer.observation(reading, contract, dealer=dealer, first_leader=first)
    if analyzer.game is None:
        reading.notes.append(f"game not given (--game); read as {observation.game}")
    if len(reading.rows) < 2:
        found = ", ".join(f"{s.name}: {len(r)} cards" for s, r in reading.rows.items()) or "none"
        data = {"photo": reading_to_dict(reading)}
        _write_outputs(args, stem, image, reading, None, data)
        print(json.dumps(data, indent=2))
        print(
            f"trickvision analyze: {photo}: {len(reading.cards)} card(s) found but only "
            f"{len(reading.rows)} row(s) ({found}); a table needs 3 or 4 rows to reconstruct",
            file=sys.stderr,
        )
        return 2
    from vision.reconstruct import reconstruct

    report = reconstruct(observation)  # the observation above carries contract and seats
    data = full_report_dict(reading, report)
    _print(args, report, data)
    written = _write_outputs(args, stem, image, reading, report, data)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 1 if (report.issues or report.undetermined) else 0


def _print(args: argparse.Namespace, report: Any, data: dict[str, Any]) -> None:
    if args.format == "pbn":
        if report.game != "bridge":
            raise TrickvisionError(f"PBN export is for bridge; this is {report.game}")
        from vision.notation.pbn import dumps, game_from_report

        sys.stdout.write(dumps([game_from_report(report)]))
    elif args.format == "text":
        from vision.notation.text import report_to_text

        sys.stdout.write(report_to_text(report) + "\n")
        photo = data.get("photo", {})
        if photo.get("current_trick"):
            current = photo["current_trick"].items()
            trick = ", ".join(f"{s}: {c['card'] or 'face up, not read'}" for s, c in current)
            sys.stdout.write(f"trick in progress: {trick}\n")
        for note in photo.get("notes", []):
            sys.stdout.write(f"note: {note}\n")
    else:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    sys.stdout.flush()


def _write_outputs(args: argparse.Namespace, stem: str, image: Any, reading: Any,
                   report: Any, data: dict[str, Any]) -> list[Path]:
    if not args.out:
        return []
    import cv2

    from vision.render.annotate import annotate

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputFileError(f"--out {out} is a file (expected a folder)")
    out.mkdir(parents=True, exist_ok=True)
    picture = out / f"{stem}.annotated.jpg"
    if not cv2.imwrite(str(picture), annotate(image, reading, report)):
        raise InputFileError(f"could not write {picture}")
    report_path = out / f"{stem}.report.json"
    report_path.write_text(json.dumps(data, indent=2) + "\n")
    return [picture, report_path]


def run(args: argparse.Namespace) -> int:
    return analyze_photo(args, args.photo)
