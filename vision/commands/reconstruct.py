"""``trickvision reconstruct FILE``: observations (JSON or JSON Lines) in, reports out."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from vision.errors import TrickvisionError

NAME = "reconstruct"
HELP = "reconstruct the play from observed rows"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="observation JSON, a JSON list of them, or JSON Lines ('-': stdin)")
    parser.add_argument("--format", choices=("json", "text", "pbn"), default="json",
                        help="json: one report per observation (one per line for several); "
                             "text: the director's view; pbn: PBN 2.1 (bridge)")
    parser.add_argument("-o", "--output", metavar="OUT", default="-",
                        help="write here instead of standard output")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every report is free of issues, 1 when any lists issues, 2 on bad input."""
    from vision.notation.json_format import read_observations, report_to_dict
    from vision.reconstruct import reconstruct

    observations = list(read_observations(args.file))
    reports = [reconstruct(o) for o in observations]
    if args.format == "pbn":
        from vision.notation.pbn import dumps, game_from_report

        bad = [r.game for r in reports if r.game != "bridge"]
        if bad:
            raise TrickvisionError(f"{args.file}: PBN export is for bridge; this is {bad[0]}")
        text = dumps([game_from_report(r) for r in reports])
    elif args.format == "text":
        from vision.notation.text import report_to_text

        text = "\n".join(report_to_text(r) for r in reports)
    elif len(reports) == 1:
        text = json.dumps(report_to_dict(reports[0]), indent=2) + "\n"
    else:
        dumps_ = json.JSONEncoder(separators=(",", ":")).encode
        text = "".join(dumps_(report_to_dict(r)) + "\n" for r in reports)
    _write(args.output, text)
    return 1 if any(r.issues for r in reports) else 0


def _write(target: str, text: str) -> None:
    if target == "-":
        out: TextIO = sys.stdout
        try:
            out.write(text)
            out.flush()
        except BrokenPipeError:  # e.g. piped into `head`: the reader has what it wanted
            import os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return
    try:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise TrickvisionError(f"{target}: cannot write: {exc.strerror}") from None
