#!/usr/bin/env python
"""Measure the identity reader: per-card accuracy, refusals, wrong reads, worst confusions.

    .venv/bin/python scripts/evaluate_identity.py --cards 1500 --out /work/runs/identity/eval.json
    .venv/bin/python scripts/evaluate_identity.py --scenes datasets/samples   # renderer scenes

Sets (seeds never used in training: training 1000+, validation 2000+, here 5000+ / 6000+):
* ``seen-styles``: cards in training styles, new seeds, half of them partly covered;
* ``held-out-styles``: cards in styles never trained on (font, suit shapes, palette) - the
  proxy for a real deck;
* ``one-corner``: the cards of both sets where exactly one whole index shows (an overlapping
  row's uncovered strip);
* ``scenes`` (with --scenes): face-up cards of renderer scenes (``<stem>.json`` ground truth
  next to the image), read with their true quads (cards no other card touches also with the
  whole-card view, when its model is installed);
* ``alone-seen-styles`` / ``alone-held-out-styles`` (with the whole-card model): cards that
  nothing covers, read from the corners only and with the whole-card view, same photos.
* ``strips-seen-styles`` / ``strips-held-out-styles`` (with the strip model): cards the next
  card of a row lies on, read from the corners only and with the strip view beside them (the
  covering card's box, off as a detector's is, masked), same photos;
* ``backs-seen-patterns`` / ``backs-held-out-patterns``: card backs lying alone (the
  renderer's training back designs / its held-out ones, seeds 9000+ / 9500+) passed to the
  reader as face-up cards - a detector's mistake; the share named as a card must be 0.

A card counts as *readable* when at least one whole index shows; the reader should name it.
For an unreadable card (every index covered, a back) the only right answer is to refuse.
``accuracy`` = correct / readable; ``wrong`` = confidently wrong / all cards (the figure that
must stay near zero); ``refused`` = None answers on readable cards / readable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.cards import Card  # noqa: E402
from vision.errors import TrickvisionError  # noqa: E402
from vision.identity.crops import as_grey  # noqa: E402
from vision.identity.reader import IdentityReader  # noqa: E402
from vision.identity.synth import (  # noqa: E402
    detector_like,
    label_crops,
    sample_card_photo,
)


class Tally:
    def __init__(self) -> None:
        self.n = self.readable = self.correct = self.wrong = self.refused = 0
        self.unreadable_refused = self.unreadable_correct = 0
        self.reasons: Counter[str] = Counter()
        self.confusions: Counter[tuple[str, str]] = Counter()

    def add(self, truth: Card, readable: bool, got: Card | None, reason: str | None) -> None:
        self.n += 1
        self.readable += readable
        if got is None:
            key = (reason or "?").split(":")[0].split("(")[0].strip()
            self.reasons[key] += 1
            if readable:
                self.refused += 1
            else:
                self.unreadable_refused += 1
        elif got == truth:
            if readable:
                self.correct += 1
            else:  # an index counted as covered still showed enough: right, not counted
                self.unreadable_correct += 1
        else:
            self.wrong += 1
            self.confusions[(str(truth), str(got))] += 1

    def summary(self) -> dict[str, object]:
        r = max(self.readable, 1)
        return {
            "cards": self.n, "readable": self.readable,
            "accuracy": round(self.correct / r, 4),
            "wrong": round(self.wrong / max(self.n, 1), 4), "wrong_count": self.wrong,
            "refused_readable": round(self.refused / r, 4),
            "unreadable_refused": f"{self.unreadable_refused}/{self.n - self.readable}",
            "unreadable_read_right": self.unreadable_correct,
            "refusal_reasons": dict(self.reasons.most_common()),
            "confusions": {f"{a}->{b}": n for (a, b), n in self.confusions.most_common(8)},
        }


def _camera(image: np.ndarray, grey: bool) -> np.ndarray:
    """The picture as a colour camera (unchanged) or a monochrome one would give it."""
    return as_grey(image) if grey else image


def evaluate_generated(reader: IdentityReader, n: int, seed: int, held_out: bool,
                       crop_stats: Counter[tuple[str, str]], one_corner: Tally,
                       by_width: dict[str, Tally], box_error: float = 0.05,
                       grey: bool = False) -> Tally:
    rng = np.random.default_rng(seed)
    tally = Tally()
    for _ in range(n):
        s = sample_card_photo(rng, held_out=held_out, box_error=box_error)
        readable = (not s.is_back) and s.readable_corners() >= 1
        res = reader.read(_camera(s.photo, grey), s.detected[None])[0]
        tally.add(s.card, readable, res.card, res.reason)
        if readable and s.readable_corners() == 1:
            one_corner.add(s.card, True, res.card, res.reason)
        if readable:
            w = s.card_width_px
            key = "24-40px" if w < 40 else "40-80px" if w < 80 else "80px+"
            by_width.setdefault(key, Tally()).add(s.card, True, res.card, res.reason)
        # crop-level top-1 (the classifier alone)
        crops = label_crops(s)
        if crops:
            probs = reader.classify(np.stack([_camera(c.crop, grey) for c in crops]))
            for c, p in zip(crops, probs, strict=True):
                crop_stats[(c.label, reader.class_names[int(p.argmax())])] += 1
    return tally


def evaluate_alone(reader: IdentityReader, n: int, seed: int, held_out: bool,
                   box_error: float = 0.05, grey: bool = False) -> dict[str, object]:
    """Cards lying alone (nothing covers them), read from the corners only and with the
    whole-card view beside them, on the same photos; by card width too."""
    rng = np.random.default_rng(seed)
    out: dict[str, object] = {}
    tallies = {"corners": Tally(), "corners+whole": Tally()}
    widths: dict[str, dict[str, Tally]] = {k: {} for k in tallies}
    for _ in range(n):
        s = sample_card_photo(rng, held_out=held_out, box_error=box_error, occlusion=0.0)
        readable = not s.is_back
        w = s.card_width_px
        band = "24-40px" if w < 40 else "40-80px" if w < 80 else "80px+"
        for key, alone in (("corners", False), ("corners+whole", True)):
            res = reader.read(_camera(s.photo, grey), s.detected[None],
                              alone=np.array([alone]))[0]
            tallies[key].add(s.card, readable, res.card, res.reason)
            if readable:
                widths[key].setdefault(band, Tally()).add(s.card, True, res.card, res.reason)
    for key, tally in tallies.items():
        out[key] = {**tally.summary(),
                    "by_width": {b: {"accuracy": v.summary()["accuracy"],
                                     "wrong": v.summary()["wrong"], "cards": v.n}
                                 for b, v in sorted(widths[key].items())}}
    return out


def evaluate_strips(reader: IdentityReader, n: int, seed: int, held_out: bool,
                    box_error: float = 0.05) -> dict[str, object]:
    """Cards the next card of a row lies on (20-80 % of them showing; no hands), read from the
    corners only and with the strip view beside them, on the same photos; by card width."""
    rng = np.random.default_rng(seed)
    tallies = {"corners": Tally(), "corners+strip": Tally()}
    widths: dict[str, dict[str, Tally]] = {k: {} for k in tallies}
    done = 0
    while done < n:
        s = sample_card_photo(rng, held_out=held_out, box_error=box_error, occlusion=1.0,
                              back_chance=0.0)
        if s.occluder is None:
            continue  # a hand: the reader cannot mask it
        done += 1
        w = s.card_width_px
        band = "24-40px" if w < 40 else "40-80px" if w < 80 else "80px+"
        top = detector_like(s.occluder, w, rng, box_error)[None]
        for key, on_top in (("corners", None), ("corners+strip", [top])):
            res = reader.read(s.photo, s.detected[None], on_top=on_top)[0]
            tallies[key].add(s.card, True, res.card, res.reason)
            widths[key].setdefault(band, Tally()).add(s.card, True, res.card, res.reason)
    return {key: {**tally.summary(),
                  "by_width": {b: {"accuracy": v.summary()["accuracy"],
                                   "wrong": v.summary()["wrong"], "cards": v.n}
                               for b, v in sorted(widths[key].items())}}
            for key, tally in tallies.items()}


def evaluate_backs(reader: IdentityReader, n: int, seed: int, held_out: bool,
                   grey: bool = False) -> dict[str, object]:
    """Card backs lying alone, passed to the reader as face-up cards (a detector that boxed a
    face-down card as face up): the only right answer is to name no card. ``held_out`` draws
    back patterns never used in training. Read with the whole-card view when it is loaded."""
    rng = np.random.default_rng(seed)
    named: Counter[str] = Counter()
    for _ in range(n):
        s = sample_card_photo(rng, held_out=held_out, back_chance=1.0, occlusion=0.0)
        res = reader.read(_camera(s.photo, grey), s.detected[None],
                          alone=np.array([reader.whole_path is not None]))[0]
        if res.card is not None:
            named[str(res.card)] += 1
    total = sum(named.values())
    return {"backs": n, "named_as_a_card": total,
            "share_named": round(total / max(n, 1), 4), "as": dict(named.most_common(5))}


def _top_confusions(stats: Counter[tuple[str, str]], k: int = 10) -> dict[str, int]:
    wrong = [(key, v) for key, v in stats.items() if key[0] != key[1]]
    wrong.sort(key=lambda kv: -kv[1])
    return {f"{a}->{b}": v for (a, b), v in wrong[:k]}


def crop_summary(stats: Counter[tuple[str, str]]) -> dict[str, object]:
    total = sum(stats.values())
    right = sum(v for (a, b), v in stats.items() if a == b)
    per_class: dict[str, list[int]] = {}
    for (a, b), v in stats.items():
        per_class.setdefault(a, [0, 0])
        per_class[a][0] += v if a == b else 0
        per_class[a][1] += v
    worst = sorted(per_class.items(), key=lambda kv: kv[1][0] / max(kv[1][1], 1))[:6]
    return {
        "crops": total, "top1": round(right / max(total, 1), 4),
        "worst_classes": {k: f"{c}/{t}" for k, (c, t) in worst},
        "top_confusions": _top_confusions(stats),
    }


def _alone(cards: list[dict], all_cards: list[dict]) -> np.ndarray:
    """Which of the truth's face-up ``cards`` show their whole face, by the pipeline's own
    rule (:func:`vision.pipeline.cards_lying_alone`)."""
    from vision.pipeline import cards_lying_alone
    from vision.seats import Seat
    from vision.table.reading import SeenCard

    seen = {id(c): SeenCard(quad=np.asarray(c["quad"], np.float32), face_up=bool(c.get("face_up")),
                            confidence=1.0, seat=Seat[c["seat"]] if c.get("seat") else None,
                            row_position=c.get("row_position"))
            for c in all_cards if c.get("quad")}
    return cards_lying_alone([seen[id(c)] for c in cards], list(seen.values()))


def evaluate_scenes(reader: IdentityReader, folder: Path) -> Tally:
    import cv2

    tally = Tally()
    for truth_file in sorted(folder.rglob("*.json")):
        try:
            truth = json.loads(truth_file.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(truth, dict) or "cards" not in truth or "image" not in truth:
            continue
        image = cv2.imread(str(truth_file.with_name(truth["image"])), cv2.IMREAD_COLOR)
        if image is None:
            continue
        cards = [c for c in truth["cards"] if c.get("face_up") and c.get("card")]
        if not cards:
            continue
        quads = np.array([c["quad"] for c in cards], np.float64)
        alone = _alone(cards, truth["cards"])
        for c, res in zip(cards, reader.read(image, quads, truth.get("game"), alone=alone),
                          strict=True):
            readable = float(c.get("visible_fraction", 1.0)) >= 0.25
            tally.add(Card.from_str(c["card"]), readable, res.card, res.reason)
    return tally


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", type=Path, default=None)
    p.add_argument("--whole-model", type=Path, default=None,
                   help="whole-card model (default: the shipped one, when installed)")
    p.add_argument("--grey-model", type=Path, default=None,
                   help="corner model for greyscale pictures (default: the shipped one, when "
                        "installed and --model is not given)")
    p.add_argument("--strip-model", type=Path, default=None,
                   help="strip model (default: the shipped one, when installed)")
    p.add_argument("--only-strips", action="store_true",
                   help="measure the strips-* sets alone")
    p.add_argument("--cards", type=int, default=1500, help="cards per generated set")
    p.add_argument("--min-confidence", type=float, default=0.9)
    p.add_argument("--scenes", type=Path, default=None)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--grey", action="store_true",
                   help="a monochrome camera: every generated photo turned grey before reading")
    p.add_argument("--box-error", type=float, default=0.05,
                   help="how far the given card quads are off (centre shift spread in card "
                        "widths; 0.05 is about the shipped detector's, 0 a perfect box)")
    args = p.parse_args(argv)
    try:
        reader = IdentityReader(args.model, min_confidence=args.min_confidence,
                                whole_model_path=args.whole_model,
                                grey_model_path=args.grey_model,
                                strip_model_path=args.strip_model)
    except TrickvisionError as exc:  # a missing model or checksum file
        print(f"evaluate_identity: {exc}", file=sys.stderr)
        return 2
    t0 = time.time()
    report: dict[str, object] = {"model": str(reader.path), "grey_model": str(reader.grey_path),
                                 "min_confidence": args.min_confidence,
                                 "box_error": args.box_error, "grey": args.grey}
    if reader.strip_path is not None:
        report["strip_model"] = str(reader.strip_path)
        report["strips-seen-styles"] = evaluate_strips(reader, args.cards, 7500, False,
                                                       args.box_error)
        report["strips-held-out-styles"] = evaluate_strips(reader, args.cards, 8500, True,
                                                           args.box_error)
    elif args.only_strips:
        print("evaluate_identity: --only-strips needs a strip model", file=sys.stderr)
        return 2
    one_corner = Tally()
    sets = () if args.only_strips else (("seen-styles", 5000, False),
                                        ("held-out-styles", 6000, True))
    for name, seed, held in sets:
        crop_stats: Counter[tuple[str, str]] = Counter()
        by_width: dict[str, Tally] = {}
        tally = evaluate_generated(reader, args.cards, seed, held, crop_stats, one_corner,
                                   by_width, args.box_error, args.grey)
        report[name] = {**tally.summary(), "crop_level": crop_summary(crop_stats),
                        "by_width": {k: {"accuracy": v.summary()["accuracy"],
                                         "wrong": v.summary()["wrong"], "cards": v.n}
                                     for k, v in sorted(by_width.items())}}
    if args.only_strips:
        return _write(report, args.out, t0)
    report["one-corner"] = one_corner.summary()
    report["backs-seen-patterns"] = evaluate_backs(reader, args.cards, 9000, False, args.grey)
    report["backs-held-out-patterns"] = evaluate_backs(reader, args.cards, 9500, True,
                                                       args.grey)
    if reader.whole_path is not None:
        report["alone-seen-styles"] = evaluate_alone(reader, args.cards, 7000, False,
                                                     args.box_error, args.grey)
        report["alone-held-out-styles"] = evaluate_alone(reader, args.cards, 8000, True,
                                                         args.box_error, args.grey)
    if args.scenes:
        report["scenes"] = evaluate_scenes(reader, args.scenes).summary()
    return _write(report, args.out, t0)


def _write(report: dict[str, object], out: Path | None, t0: float) -> int:
    report["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(report, indent=2)
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
