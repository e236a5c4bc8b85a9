"""``trickvision analyze PHOTO [PHOTO ...]``: read the rows in a photo and report the tricks.

Prints the reconstruction report (JSON as ``trickvision reconstruct`` writes it, each row
position also carrying its ``confidence`` and ``polygon``, plus a ``photo`` section with every
card found) and writes the annotated image and the report into ``--out``.

Several photos, or folders of them (a session's tables, photographed one after the other), are
read with the models loaded once: each gets its files in ``--out``, standard output one line
per photo (JSON, or text with ``--format text``), and a photo that cannot be read is reported
and skipped - the others are still read.

Exit codes: 0 a consistent reading, 1 the report lists problems (conflicts, row lengths,
undetermined tricks), 2 unusable input (not an image, no cards, a single row). With several
photos: the worst of them - an unreadable one among readable ones counting as a problem (1) -
and 2 only when no photo could be read at all.
"""

from __future__ import annotations

import argparse
import dataclasses
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
    parser.add_argument("photo", metavar="PHOTO", nargs="+",
                        help="photo of the table (JPEG, PNG, ...); several photos or folders "
                             "of them are read one after the other")
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
    parser.add_argument("--played-out", action="store_true",
                        help="the deal was played to its last trick (no claim): a row "
                             "shorter than a full hand was misread, not left unfinished")
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


def deal_options(args: argparse.Namespace) -> tuple[Contract | None, Seat | None, Seat | None]:
    """The deal's facts given as options: contract, dealer, first leader (checked)."""
    return (parse_contract(args.contract, args.declarer),
            Seat.from_str(args.dealer) if args.dealer else None,
            Seat.from_str(args.first_leader) if args.first_leader else None)


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


def analyze_photo(args: argparse.Namespace, photo: str | Path, analyzer: Any = None,
                  printed: dict[str, Any] | None = None) -> int:
    """Shared by ``analyze`` and ``demo``: read, reconstruct, print, write files.

    ``printed``: for one of several photos - instead of printing the report, its result,
    problems and files are put there (the caller prints one line per photo)."""
    from vision.pipeline import full_report_dict, load_image, read_photo_bytes, reading_to_dict

    contract, dealer, first = deal_options(args)
    image = load_image(photo)  # checks the file and gives the picture to draw on
    analyzer = analyzer or build_analyzer(args)
    reading = analyzer.read_encoded(read_photo_bytes(photo), str(photo))
    stem = Path(photo).stem
    if not reading.cards:
        _write_outputs(args, stem, image, reading, None, {"photo": reading_to_dict(reading)})
        raise InputFileError(f"{photo}: no cards found in the photo")
    observation = analyzer.observation(reading, contract, dealer=dealer, first_leader=first)
    if args.played_out:
        if reading.current_trick:
            reading.notes.append("--played-out given, but cards of a trick lie in the middle "
                                 "of the table")
        observation = dataclasses.replace(observation, complete=True)
    if analyzer.game is None:
        reading.notes.append(f"game not given (--game); read as {observation.game}")
    if len(reading.rows) < 2:
        found = ", ".join(f"{s.name}: {len(r)} cards" for s, r in reading.rows.items()) or "none"
        data = {"photo": reading_to_dict(reading)}
        _write_outputs(args, stem, image, reading, None, data)
        message = (f"{photo}: {len(reading.cards)} card(s) found but only "
                   f"{len(reading.rows)} row(s) ({found}); a table needs 3 or 4 rows to "
                   "reconstruct")
        if printed is not None:
            raise InputFileError(message)
        print(json.dumps(data, indent=2))
        print(f"trickvision analyze: {message}", file=sys.stderr)
        return 2
    from vision.reconstruct import reconstruct

    report = reconstruct(observation)  # the observation above carries contract and seats
    data = full_report_dict(reading, report)
    code = 0 if report.ok else 1
    written = _write_outputs(args, stem, image, reading, report, data)
    if printed is not None:
        printed.update(game=report.game, result=dict(report.result),
                       problems=len(report.issues), undetermined=list(report.undetermined),
                       files=[str(p) for p in written])
        return code
    _print(args, report, data)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return code


def _print(args: argparse.Namespace, report: Any, data: dict[str, Any]) -> None:
    if args.format == "pbn":
        if report.game != "bridge":
            raise TrickvisionError(f"PBN export is for bridge; this is {report.game}")
        from vision.notation.pbn import dumps, game_from_report

        sys.stdout.write(dumps([game_from_report(report)]))
    elif args.format == "text":
        from vision.notation.text import report_to_text

        sys.stdout.write(report_to_text(report) + "\n")
        for line in unread_faces(data):
            sys.stdout.write(line + "\n")
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


def unread_faces(data: dict[str, Any]) -> list[str]:
    """The text report's lines on the face-up row cards left unread and why (the JSON report
    gives the same as each row position's ``unreadable_reason``), in row order."""
    faces = [f"  {seat} card {n}: {entry['unreadable_reason']}"
             for seat, entries in data.get("rows", {}).items()
             for n, entry in enumerate(entries, 1) if entry.get("unreadable_reason")]
    return [f"faces not read ({len(faces)}):", *faces] if faces else []


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


#: Picture files taken from a folder given as PHOTO.
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif")


def photos_of(paths: list[str]) -> list[Path]:
    """The photos named, a folder standing for the pictures in it (by name)."""
    out: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.suffix.lower() in PICTURE_SUFFIXES and p.is_file())
            if not found:
                raise InputFileError(f"{given}: a folder without pictures (expected "
                                     f"{', '.join(PICTURE_SUFFIXES)} files)")
            out += found
        else:
            out.append(path)
    return out


def run(args: argparse.Namespace) -> int:
    photos = photos_of(args.photo)
    if len(photos) == 1 and not Path(args.photo[0]).is_dir():
        return analyze_photo(args, photos[0])
    if args.format == "pbn":
        raise TrickvisionError("--format pbn is for one photo at a time (one deal's play)")
    stems = [p.stem for p in photos]
    if args.out and len(set(stems)) < len(stems):
        twice = sorted({s for s in stems if stems.count(s) > 1})
        raise InputFileError(f"photos named alike ({', '.join(twice)}) would overwrite each "
                             "other's files in --out; give them one at a time or rename them")
    deal_options(args)  # a bad option is said once, not for every photo
    analyzer = build_analyzer(args)
    codes = []
    for photo in photos:
        line: dict[str, Any] = {"photo": str(photo)}
        try:
            code = analyze_photo(args, photo, analyzer, printed=line)
        except TrickvisionError as exc:  # this photo is unusable: say so, go on
            code = 2
            line["error"] = str(exc)
            print(f"trickvision analyze: {exc}", file=sys.stderr)
        line["exit"] = code
        codes.append(code)
        if args.format == "text":
            print(_summary_text(line), flush=True)
        else:
            print(json.dumps(line), flush=True)
    # an unusable photo among readable ones is a problem (1), not unusable input (2)
    return 2 if all(c == 2 for c in codes) else max(1 if c == 2 else c for c in codes)


def _summary_text(line: dict[str, Any]) -> str:
    if "error" in line:
        return f"{line['photo']}: not read - {line['error']}"
    result = ", ".join(f"{k} {v}" for k, v in line["result"].items()) or "no result"
    extra = []
    if line["problems"]:
        extra.append(f"{line['problems']} problem(s)")
    if line["undetermined"]:
        extra.append("undetermined tricks " + ", ".join(map(str, line["undetermined"])))
    return f"{line['photo']}: {line['game']}, {result}" + (f" ({'; '.join(extra)})" if extra
                                                             else "")
