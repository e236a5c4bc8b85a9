"""The identity reader on the fixed camera's face-up cards lying alone, in rendered videos.

    .venv/bin/python scripts/evaluate_identity_video.py DIR [DIR ...] [--whole MODEL]

Each DIR holds rendered videos (``*.mp4``) with their per-frame truth beside them
(``*.frames.jsonl.gz``, as ``scripts/evaluate_video.py`` and ``vision.synth.video`` write
them). Every ``--every``-th frame, the face-up cards at least 97 % visible (the trick in
progress, a card just laid: the reader's whole-card view applies) are read from their true
rectangles moved as the detector's boxes are off (``vision.identity.synth.detector_like``:
centre 5 %, size 4 %, turn 2.5 degrees, corners 1.5 % of the card's width) - the reader
alone, without the detector or the tracker. Prints the cards named right, named wrong and
left unread, and the commonest confusions.
``--whole`` reads with another whole-card model (a candidate) in place of the shipped one.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: The games of the rendered videos' names (``held-<game>-<seed>.mp4``).
GAMES = ("bridge", "preferans", "lhombre")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--whole", type=Path, default=None,
                        help="whole-card model to read with (default: the shipped one)")
    parser.add_argument("--every", type=int, default=6, help="read every N-th frame")
    parser.add_argument("--seed", type=int, default=5, help="seed of the box errors")
    args = parser.parse_args(argv)

    from vision.errors import TrickvisionError
    from vision.identity.reader import IdentityReader
    from vision.identity.synth import detector_like

    try:
        reader = IdentityReader(whole_model_path=args.whole) if args.whole else IdentityReader()
    except TrickvisionError as exc:
        print(f"evaluate_identity_video: {exc}", file=sys.stderr)
        return 2
    videos = [v for d in args.folders for v in sorted(d.glob("*.mp4"))
              if v.with_name(v.name.removesuffix(".mp4") + ".frames.jsonl.gz").is_file()]
    if not videos:
        print("evaluate_identity_video: no video with its .frames.jsonl.gz truth in "
              + ", ".join(map(str, args.folders)), file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    outcome: Counter[str] = Counter()
    confusions: Counter[tuple[str, str]] = Counter()
    for video in videos:
        game = next((g for g in GAMES if f"-{g}-" in f"-{video.stem}-"), None)
        truth_path = video.with_name(video.name.removesuffix(".mp4") + ".frames.jsonl.gz")
        with gzip.open(truth_path, "rt") as f:
            frames = [json.loads(line)["cards"] for line in f]
        cap = cv2.VideoCapture(str(video))
        i = 0
        while i < len(frames):
            ok, image = cap.read()
            if not ok:
                break
            # [seat, position, orientation, face_up, card, visible_fraction, current, quad]
            lone = [c for c in frames[i] if c[3] and c[5] >= 0.97] if i % args.every == 0 else []
            if lone:
                quads = np.stack([detector_like(np.asarray(c[7], float).reshape(4, 2), None, rng)
                                  for c in lone])
                results = reader.read(image, quads, game, alone=np.ones(len(lone), bool))
                for c, r in zip(lone, results, strict=True):
                    got = getattr(r, "card", None)
                    if got is None:
                        outcome["unread"] += 1
                    elif str(got) == c[4]:
                        outcome["right"] += 1
                    else:
                        outcome["wrong"] += 1
                        confusions[(c[4], str(got))] += 1
            i += 1
        cap.release()
    n = max(sum(outcome.values()), 1)
    print(f"{len(videos)} videos, {sum(outcome.values())} lone face-up cards: "
          + ", ".join(f"{k} {outcome[k]} ({100 * outcome[k] / n:.1f} %)"
                      for k in ("right", "wrong", "unread")))
    by_suits = Counter((t[0], g[0], t[1:] == g[1:]) for (t, g), k in confusions.items()
                       for _ in range(k))
    print("wrong, by (true suit, read suit, same rank):",
          ", ".join(f"{a}->{b}{' same rank' if same else ''}: {k}"
                    for (a, b, same), k in by_suits.most_common(6)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
