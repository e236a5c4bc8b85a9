"""The committed sample photos (``datasets/samples``) end to end: whose totals come out exact.

    .venv/bin/python scripts/evaluate_samples.py [--row-strip MODEL | --no-recount]

Each sample's JSON holds its truth; every photo is analysed as ``trickvision analyze`` does
(its game given, the shipped models) and its totals compared with the truth's. A few dozen
photos rendered with seeds no training used: a quick check beside ``scripts/evaluate.py``,
not a substitute for it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SAMPLES = REPO / "datasets" / "samples"


def main(argv: list[str] | None = None) -> int:
    from vision.detect.strips import RowStripReader
    from vision.pipeline import PhotoAnalyzer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row-strip", default=None, metavar="MODEL",
                        help="another row-strip model (default: the shipped one)")
    parser.add_argument("--no-recount", action="store_true", help="rows not counted again")
    args = parser.parse_args(argv)
    strips = False if args.no_recount else (
        RowStripReader(Path(args.row_strip)) if args.row_strip else None)
    exact, wrong = 0, []
    analyzers: dict[str, PhotoAnalyzer] = {}  # one per game: the models load once
    photos = sorted(p for p in SAMPLES.glob("*.jpg") if p.with_suffix(".json").exists())
    for photo in photos:
        truth = json.loads(photo.with_suffix(".json").read_text())
        result = (truth.get("report") or {}).get("result")
        if result is None:
            continue
        if truth["game"] not in analyzers:
            analyzers[truth["game"]] = PhotoAnalyzer(game=truth["game"], row_strips=strips)
        analyzer = analyzers[truth["game"]]
        _, report = analyzer.analyze(photo.read_bytes())  # as `trickvision analyze` reads it
        if dict(report.result) == dict(result):
            exact += 1
        else:
            wrong.append(photo.stem)
    print(f"{exact} of {exact + len(wrong)} sample photos with exact totals")
    if wrong:
        print("not exact: " + ", ".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
