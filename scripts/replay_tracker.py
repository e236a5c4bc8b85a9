"""Record what the video tracker is given, then replay it in seconds to try tracker changes.

    .venv/bin/python scripts/replay_tracker.py record --out REC.pkl VIDEO.mp4 [video options]
    .venv/bin/python scripts/replay_tracker.py replay REC.pkl [REC2.pkl ...] [--detail]

Analysing a rendered video with the shipped models takes a minute; the tracker's share of
that is a few per cent, and the tracker never sees pixels - only the readings
(``TableReading``) and their times. ``record`` runs the pipeline of ``trickvision video``
(the offline gate and persistence) on a video with its ``.truth.json`` beside it and stores
every ``update`` call; ``replay`` feeds those calls to the tracker code of the working tree
and scores its events against the truth: tricks right, missed and invented, alerts found and
false (and how long after the true moment each alert was raised, by the time of the reading
that raised it), and row cards whose confirmed orientation is not the true one. Recordings
are Python pickles: replay only files you recorded yourself.

A change chosen by replaying some videos has to be checked on videos it was not chosen on
(render new seeds with ``scripts/evaluate_video.py``), as with any tuning.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.errors import TrickvisionError  # noqa: E402
from vision.video.events import CardsTurned, Event, TrickComplete  # noqa: E402
from vision.video.tracker import TableTracker  # noqa: E402

FORMAT = 1
#: An alert raised later than this after its moment misses the issue's goal.
LATE_S = 1.0


class RecordingTracker(TableTracker):
    """A tracker that keeps every reading it is given, with its time and freshness."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.calls: list[tuple[Any, float, bool]] = []
        self.init = (args, kwargs)
        super().__init__(*args, **kwargs)

    def update(self, reading: Any, t: float, *, fresh: bool = True) -> list[Any]:
        self.calls.append((reading, t, fresh))
        return super().update(reading, t, fresh=fresh)


def record(video_args: list[str]) -> dict[str, Any]:
    """Run ``trickvision video``'s pipeline (its own option parsing, deal facts, analyser,
    offline gate and persistence) over a video; the tracker's inputs."""
    from vision.commands.video import add_arguments
    from vision.video.options import confirm_s, deal_facts, make_analyzer, make_gate
    from vision.video.pipeline import VideoPipeline
    from vision.video.sources import VideoFileSource

    parser = argparse.ArgumentParser(prog="replay_tracker.py record")
    add_arguments(parser)
    args = parser.parse_args(video_args)
    if not args.truth:
        raise TrickvisionError("record needs the video's --truth file to score replays")
    facts = deal_facts(args)
    source = VideoFileSource(Path(args.file), sample_fps=args.sample_fps or None,
                             decoder_threads=1)
    rate = min(source.fps, args.sample_fps) if args.sample_fps else source.fps
    mode = "live" if args.thorough else "offline"  # as `trickvision video` sets them
    tracker = RecordingTracker(facts["game"], rate, seats=facts["seats"],
                               dealer=facts["dealer"], contract=facts["contract"],
                               confirm_s=confirm_s(args, mode))
    pipeline = VideoPipeline(make_analyzer(args, facts["game"], source.fps, beside_decoder=True),
                             tracker, gate=make_gate(args, mode))
    pipeline.run(source, read_ahead=True)
    return {"format": FORMAT, "init": tracker.init, "calls": tracker.calls,
            "truth": str(Path(args.truth).resolve()), "video": args.file}


def replay(recording: dict[str, Any]) -> dict[str, Any]:
    """The working tree's tracker on recorded inputs, scored against the truth."""
    from vision.video.compare import score_events
    from vision.video.options import load_truth, truth_events

    args, kwargs = recording["init"]
    tracker = TableTracker(*args, **kwargs)
    events: list[Event] = []
    raised: list[float] = []  # the time of the reading that raised each event
    for reading, t, fresh in recording["calls"]:
        new = tracker.update(reading, t, fresh=fresh)
        events += new
        raised += [t] * len(new)
    if recording["calls"]:
        t_end = recording["calls"][-1][1]
        new = tracker.end_of_stream(t_end)
        events += new
        raised += [t_end] * len(new)
    truth = load_truth(recording["truth"])
    score = score_events(truth_events(truth), events, confirmed=raised)
    true_rows = {(e.number, s): o for e in truth_events(truth) if isinstance(e, CardsTurned)
                 for s, o in e.orientations}
    wrong_rows = []
    for (k, seat), o in sorted(true_rows.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
        tr = tracker.tricks.get(k)
        seen = tr.turned.get(seat) if tr is not None else None
        if seen is None or seen[0] is not o:
            wrong_rows.append(f"{seat}{k}")
    details = trick_details(truth_events(truth), events, score.wrong)
    return {"score": score, "rows": len(true_rows), "wrong_rows": wrong_rows, "details": details}


def trick_details(true_events: list[Event], events: list[Event], numbers: list[int]
                  ) -> list[str]:
    """One line per trick of ``numbers``: its true cards and winner against the tracker's
    last report of it (a trick may be reported again)."""
    def last_reports(evs: list[Event]) -> dict[int, TrickComplete]:
        return {e.number: e for e in evs if isinstance(e, TrickComplete)}

    def text(e: TrickComplete | None) -> str:
        if e is None:
            return "not reported"
        cards = " ".join(f"{s.name}:{c if c is not None else '?'}" for s, c in e.cards)
        return f"{cards}, won by {e.winner.name if e.winner is not None else '?'}"

    truth, got = last_reports(true_events), last_reports(events)
    return [f"trick {k}: true {text(truth.get(k))}; read {text(got.get(k))}" for k in numbers]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the video pipeline, keep the tracker's inputs")
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("video_args", nargs=argparse.REMAINDER,
                     help="VIDEO and `trickvision video` options (--truth is needed; default: "
                          "the .truth.json beside the video)")
    rep = sub.add_parser("replay", help="score the working tree's tracker on recordings")
    rep.add_argument("recordings", type=Path, nargs="+")
    rep.add_argument("--detail", action="store_true",
                     help="under each recording, its wrong tricks: true cards and winner "
                          "against the tracker's")
    args = p.parse_args(argv)
    try:
        if args.command == "record":
            video_args = list(args.video_args)
            if video_args and "--truth" not in video_args:
                video = Path(video_args[0])
                video_args += ["--truth",
                               str(video.with_name(video.name.removesuffix(".mp4") +
                                                   ".truth.json"))]
            data = record(video_args)
            args.out.write_bytes(pickle.dumps(data))
            print(f"{args.out}: {len(data['calls'])} readings")
            return 0
        totals = [0] * 9
        delays: list[float] = []
        for path in args.recordings:
            data = pickle.loads(path.read_bytes())
            if data.get("format") != FORMAT:
                raise TrickvisionError(f"{path}: not a recording of this script")
            r = replay(data)
            s = r["score"]
            late = " ".join(f"{d:.2f}" for d in sorted(s.alert_delays) if d > LATE_S)
            print(f"{path.name:32s} {s.summary()}; row cards wrong {len(r['wrong_rows'])}"
                  f"/{r['rows']} {' '.join(r['wrong_rows'])}"
                  + (f"; alerts late by {late} s" if late else ""))
            delays += s.alert_delays
            if args.detail:
                for line in r["details"]:
                    print(f"    {line}")
            for i, v in enumerate((s.tricks_right, s.tricks_true, len(s.missed),
                                   len(s.invented), s.alerts_found - len(s.alerts_extra),
                                   len(s.alerts_extra), len(r["wrong_rows"]), r["rows"],
                                   len(s.alerts_withdrawn))):
                totals[i] += v
        print(f"total: {totals[0]} of {totals[1]} tricks right, {totals[2]} missed, "
              f"{totals[3]} invented; alerts {totals[4]} right, {totals[5]} false "
              f"({totals[8]} more raised and withdrawn); row cards wrong {totals[6]} of "
              f"{totals[7]}")
        if delays:
            print(f"alerts raised {statistics.median(delays):.2f} s after their moment "
                  f"(median), {max(delays):.2f} s at most; "
                  f"{sum(d <= LATE_S for d in delays)} of {len(delays)} within {LATE_S:g} s")
        return 0
    except (TrickvisionError, OSError, pickle.UnpicklingError) as exc:
        print(f"replay_tracker: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
