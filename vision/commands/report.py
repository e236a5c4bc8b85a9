"""``trickvision report SESSION.db``: every deal's report from a stored session.

``watch`` commits each event to its session database and prints it; the reports come from
here, at any time - during the session, after it, or after a crash (the database holds what
was committed). ``video`` writes the same files itself and keeps its database beside them.
Outputs in ``--out``: ``report.json`` / ``report.txt`` (one deal: its report; several: every
deal's, numbered) and ``play.pbn`` for bridge (one game per deal).
"""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "report"
HELP = "write every deal's report from a session database (watch --db, video's session.db)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", metavar="SESSION.db", help="session database written by watch "
                        "(--db) or video (session.db in its --out)")
    parser.add_argument("--out", default=None,
                        help="output folder (default: ./<database stem>-report)")


def run(args: argparse.Namespace) -> int:
    from vision.errors import InputFileError
    from vision.reconstruct import reconstruct
    from vision.video.outputs import write_reports
    from vision.video.store import read_session
    from vision.video.tracker import deals_from_events

    meta, events = read_session(args.db)
    game = meta["game"]
    path = Path(args.db)
    out = Path(args.out) if args.out else Path.cwd() / f"{path.stem}-report"
    if out.exists() and not out.is_dir():
        raise InputFileError(f"--out {str(out)!r} is a file, expected a folder")
    deals = deals_from_events(game, events)
    if not deals:
        print(f"trickvision report: {path} holds no events yet ({game} session); nothing "
              "to report")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    reports = [(n, reconstruct(observation)) for n, observation in deals]
    paths = write_reports(out, reports, game=game)
    for n, report in reports:
        result = ", ".join(f"{side} {k}" for side, k in report.result.items()) or "no trick"
        undetermined = f", {len(report.undetermined)} undetermined" \
            if report.undetermined else ""
        print(f"deal {n}: {len(report.tricks)} tricks - {result}{undetermined}")
    print(f"{len(deals)} deal(s) of a {game} session; outputs in {out}: "
          + ", ".join(p.name for p in paths.values()))
    return 0
