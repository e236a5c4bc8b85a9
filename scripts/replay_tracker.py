"""Record what the video tracker is given, then replay it in seconds to try tracker changes.

    .venv/bin/python scripts/replay_tracker.py record VIDEO.mp4 --out REC.pkl
    .venv/bin/python scripts/replay_tracker.py replay REC.pkl [REC2.pkl ...]

Analysing a rendered video with the shipped models takes a minute; the tracker's share of
that is a few per cent, and the tracker never sees pixels - only the readings
(``TableReading``) and their times. ``record`` runs the pipeline of ``trickvision video``
(the offline gate and persistence) on a video with its ``.truth.json`` beside it and stores
every ``update`` call; ``replay`` feeds those calls to the tracker code of the working tree
and scores its events against the truth: tricks right, missed and invented, alerts found and
false, and row cards whose confirmed orientation is not the true one. Recordings are Python
pickles: replay only files you recorded yourself.

A change chosen by replaying some videos has to be checked on videos it was not chosen on
(render new seeds with ``scripts/evaluate_video.py``), as with any tuning.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.errors import TrickvisionError  # noqa: E402
from vision.seats import Seat  # noqa: E402
from vision.video.events import CardsTurned  # noqa: E402
from vision.video.tracker import TableTracker  # noqa: E402

FORMAT = 1


class RecordingTracker(TableTracker):
    """A tracker that keeps every reading it is given, with its time and freshness."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.calls: list[tuple[Any, float, bool]] = []
        self.init = (args, kwargs)
        super().__init__(*args, **kwargs)

    def update(self, reading: Any, t: float, *, fresh: bool = True) -> list[Any]:
        self.calls.append((reading, t, fresh))
        return super().update(reading, t, fresh=fresh)


def record(video: Path, truth_path: Path, analyzer_kind: str) -> dict[str, Any]:
    """Run ``trickvision video``'s pipeline over ``video``; the tracker's inputs."""
    from vision.video.gate import CONFIRM_S, SETTINGS, ChangeGate
    from vision.video.options import contract_from_truth, load_truth
    from vision.video.pipeline import PhotoAnalyzerAdapter, TruthAnalyzer, VideoPipeline
    from vision.video.sources import VideoFileSource

    truth = load_truth(str(truth_path))
    source = VideoFileSource(video)
    seats = tuple(Seat.from_str(s) for s in truth["seats"]) if truth.get("seats") else None
    if seats is not None and len(seats) == 4:
        seats = None  # four-handed: every seat plays, as `trickvision video` leaves it
    tracker = RecordingTracker(
        truth["game"], source.fps, seats=seats,
        dealer=Seat.from_str(truth["dealer"]) if truth.get("dealer") else None,
        contract=contract_from_truth(truth.get("contract")), confirm_s=CONFIRM_S["offline"])
    if analyzer_kind == "truth":
        stem = truth_path.name.removesuffix(".truth.json")
        analyzer: Any = TruthAnalyzer.from_file(str(truth_path.with_name(
            f"{stem}.frames.jsonl.gz")), source.fps)
    else:
        analyzer = PhotoAnalyzerAdapter(truth["game"])
    pipeline = VideoPipeline(analyzer, tracker, gate=ChangeGate(**SETTINGS["offline"]))
    for frame in source:
        pipeline.process(frame)
    return {"format": FORMAT, "init": tracker.init, "calls": tracker.calls,
            "truth": str(truth_path.resolve()), "video": str(video)}


def replay(recording: dict[str, Any]) -> dict[str, Any]:
    """The working tree's tracker on recorded inputs, scored against the truth."""
    from vision.video.compare import score_events
    from vision.video.options import load_truth, truth_events

    args, kwargs = recording["init"]
    tracker = TableTracker(*args, **kwargs)
    events = []
    for reading, t, fresh in recording["calls"]:
        events += tracker.update(reading, t, fresh=fresh)
    if recording["calls"]:
        events += tracker.end_of_stream(recording["calls"][-1][1])
    truth = load_truth(recording["truth"])
    score = score_events(truth_events(truth), events)
    true_rows = {(e.number, s): o for e in truth_events(truth) if isinstance(e, CardsTurned)
                 for s, o in e.orientations}
    wrong_rows = []
    for (k, seat), o in sorted(true_rows.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
        tr = tracker.tricks.get(k)
        seen = tr.turned.get(seat) if tr is not None else None
        if seen is None or seen[0] is not o:
            wrong_rows.append(f"{seat}{k}")
    return {"score": score, "rows": len(true_rows), "wrong_rows": wrong_rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the video pipeline, keep the tracker's inputs")
    rec.add_argument("video", type=Path)
    rec.add_argument("--truth", type=Path, default=None,
                     help="default: the .truth.json beside the video")
    rec.add_argument("--analyzer", choices=("photo", "truth"), default="photo",
                     help="the shipped models (default) or the rendered ground truth")
    rec.add_argument("--out", type=Path, required=True)
    rep = sub.add_parser("replay", help="score the working tree's tracker on recordings")
    rep.add_argument("recordings", type=Path, nargs="+")
    args = p.parse_args(argv)
    try:
        if args.command == "record":
            truth = args.truth or args.video.with_name(
                args.video.name.removesuffix(".mp4") + ".truth.json")
            data = record(args.video, truth, args.analyzer)
            args.out.write_bytes(pickle.dumps(data))
            print(f"{args.out}: {len(data['calls'])} readings")
            return 0
        totals = [0, 0, 0, 0, 0, 0, 0, 0]
        for path in args.recordings:
            data = pickle.loads(path.read_bytes())
            if data.get("format") != FORMAT:
                raise TrickvisionError(f"{path}: not a recording of this script")
            r = replay(data)
            s = r["score"]
            print(f"{path.name:32s} {s.summary()}; row cards wrong {len(r['wrong_rows'])}"
                  f"/{r['rows']} {' '.join(r['wrong_rows'])}")
            for i, v in enumerate((s.tricks_right, s.tricks_true, len(s.missed),
                                   len(s.invented), s.alerts_found - len(s.alerts_extra),
                                   len(s.alerts_extra), len(r["wrong_rows"]), r["rows"])):
                totals[i] += v
        print(f"total: {totals[0]} of {totals[1]} tricks right, {totals[2]} missed, "
              f"{totals[3]} invented; alerts {totals[4]} right, {totals[5]} false; row cards "
              f"wrong {totals[6]} of {totals[7]}")
        return 0
    except (TrickvisionError, OSError, pickle.UnpicklingError) as exc:
        print(f"replay_tracker: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
