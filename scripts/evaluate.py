"""Accuracy of the photo pipeline on held-out renderer scenes (seeds training never used).

    flock /work/cpu-heavy.lock .venv/bin/python scripts/evaluate.py --n 200 --n-hard 100 \
        --out /work/runs/eval

Renders a normal and a hard set (tilt, clutter, hands, glare, mixed sizes) with seeds from
``--seed-base`` (training sets use ``2 * (seed * 10**7 + i)`` with small seeds; the default
base 9e9 is far away), runs the shipped detector and row reader on each photo and compares
with the ground truth:

- per-card orientation accuracy over row cards (a missed card counts as wrong) and the
  won/lost/unknown/missed confusion;
- confident-wrong readings (won read as lost or the reverse; ``unknown`` is not wrong);
- rows with the exact number of cards, cards in the right seat and position;
- photos whose totals (the reconstruction's result) are all exact; reports raising no issue
  (what a director can take as it stands) and how many of them are exact; wrong totals the
  report does not flag;
- face-up identity accuracy when an identity model is installed: face-up row cards, and the
  face-up cards of the trick in progress (mid-play scenes);
- on photos of rows turned face up: tricks of the real play the report gives with every card
  and the winner right, and games fully reconstructed (every trick right).

``--oracle`` feeds the true card rectangles instead of the detector's (tests the table logic
alone). Writes ``summary.json`` and a Markdown table to ``--out``.
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

from vision.detect.detections import Detections  # noqa: E402
from vision.identity.crops import as_grey, card_size_px  # noqa: E402
from vision.seats import Seat  # noqa: E402

GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("end", "mid", "faceup")


class TruthDetector:
    """Gives the scene's true rectangles, as a detector would (for ``--oracle``)."""

    def __init__(self) -> None:
        self.truth: dict | None = None

    def detect(self, image: np.ndarray) -> Detections:
        assert self.truth is not None
        cards = [c for c in self.truth["cards"] if c["visible_fraction"] >= 0.1]
        if not cards:
            return Detections.empty()
        return Detections(
            np.array([c["quad"] for c in cards], dtype=np.float64),
            np.full(len(cards), 0.95),
            np.array([1 if c["face_up"] else 0 for c in cards]),
        )


def match(truth_quads: np.ndarray, found_quads: np.ndarray, short: float) -> dict[int, int]:
    """Greedy one-to-one matching by centre distance (< 0.45 of a short side)."""
    if len(truth_quads) == 0 or len(found_quads) == 0:
        return {}
    tc = truth_quads.mean(axis=1)
    fc = found_quads.mean(axis=1)
    d = np.linalg.norm(tc[:, None] - fc[None], axis=-1)
    pairs = np.argwhere(d < 0.45 * short)
    order = np.argsort(d[pairs[:, 0], pairs[:, 1]])
    out: dict[int, int] = {}
    used: set[int] = set()
    for k in order:
        t, f = (int(v) for v in pairs[k])
        if t in out or f in used:
            continue
        out[t] = f
        used.add(f)
    return out


#: Card-width bands (the card's short side in image pixels) the face-up identity figures are
#: also given by: how large the cards must be in a photo for their faces to be read.
WIDTH_BANDS: tuple[tuple[str, float, float], ...] = (
    ("< 40 px", 0.0, 40.0), ("40-60 px", 40.0, 60.0), ("60-90 px", 60.0, 90.0),
    (">= 90 px", 90.0, float("inf")))


def width_band(width: float) -> str:
    """The :data:`WIDTH_BANDS` label of a card ``width`` pixels wide."""
    return next(label for label, lo, hi in WIDTH_BANDS if lo <= width < hi)


def evaluate_set(analyzers, scenes, *, oracle: TruthDetector | None, label: str,
                 grey: bool = False, contract_given: bool = False) -> dict:
    """Compare the readings of ``scenes`` with their truth; ``analyzers`` maps game names;
    ``grey``: each photo turned grey first (a monochrome camera); ``contract_given``: the
    reconstruction is told each deal's contract (trump, declarer), as a director would type
    it with ``--contract``/``--declarer``."""
    from vision.notation.json_format import contract_from_dict
    from vision.reconstruct import reconstruct

    confusion: Counter[tuple[str, str]] = Counter()
    stats = Counter()
    identity = Counter()
    per_stage: dict[str, Counter] = {}
    failures: list[dict] = []
    wrong_cards: list[dict] = []
    missed: Counter[str] = Counter()  # why face-up tricks are not right
    by_width: dict[str, Counter] = {}  # face-up row cards by their width in pixels
    by_size: dict[str, Counter] = {}  # face-up row cards and tricks by photo size
    faces_per_photo: list[dict] = []  # each photo's face-up row cards, named right and wrong
    unread: Counter[str] = Counter()  # why face-up row cards were left unread
    t0 = time.time()
    for scene in scenes:
        truth = scene.truth
        if oracle is not None:
            oracle.truth = truth
        analyzer = analyzers[truth["game"]]
        reading = analyzer.read(as_grey(scene.image) if grey else scene.image)
        given = (truth.get("observation") or {}).get("contract") if contract_given else None
        contract = contract_from_dict(given, "the scene's contract") if given else None
        observation = analyzer.observation(reading, contract)
        report = reconstruct(observation)
        cards = truth["cards"]
        tq = np.array([c["quad"] for c in cards], dtype=np.float64).reshape(-1, 4, 2)
        fq = np.array([c.quad for c in reading.cards]).reshape(-1, 4, 2)
        sides = np.linalg.norm(tq[:, 1] - tq[:, 0], axis=1)
        short = float(np.median(sides)) if len(sides) else 1.0
        widths = [card_size_px(q)[0] for q in tq]
        size_name = f"{scene.image.shape[1]}x{scene.image.shape[0]}"
        size = by_size.setdefault(size_name, Counter())
        photo_faces: Counter[str] = Counter()  # this photo's face-up row cards
        m = match(tq, fq, short)
        st = per_stage.setdefault(truth["stage"], Counter())
        photo_ok = True
        for ti, c in enumerate(cards):
            in_row = c["row_position"] is not None and c["seat"] is not None
            if not in_row:
                if c["face_up"] and c.get("card"):  # the trick in progress, lying face up
                    identity["trick_cards"] += 1
                    seen = reading.cards[m[ti]] if ti in m else None
                    if seen is not None and seen.card is not None:
                        identity["trick_right"] += int(str(seen.card) == c["card"])
                        identity["trick_wrong"] += int(str(seen.card) != c["card"])
                continue
            stats["row_cards"] += 1
            st["row_cards"] += 1
            fi = m.get(ti)
            true_o = c["orientation"]
            if fi is None:
                got = "missed"
            else:
                seen = reading.cards[fi]
                got = seen.orientation.value
                if seen.seat is not None and seen.seat.name == c["seat"] and (
                    seen.row_position == c["row_position"]
                ):
                    stats["seat_position_right"] += 1
                if c["face_up"]:
                    identity["face_up_row_cards"] += 1
                    band = by_width.setdefault(width_band(float(widths[ti])), Counter())
                    for counts in (band, size, photo_faces):
                        counts["cards"] += 1
                        if seen.card is not None:
                            counts["right"] += int(str(seen.card) == c["card"])
                            counts["wrong"] += int(str(seen.card) != c["card"])
                    if seen.card is not None:
                        identity["read"] += 1
                        identity["right"] += int(str(seen.card) == c["card"])
                        identity["wrong"] += int(str(seen.card) != c["card"])
                    else:
                        unread[_reason_kind(seen.unreadable_reason)] += 1
            confusion[(true_o, got)] += 1
            if got == true_o:
                stats["orientation_right"] += 1
                st["orientation_right"] += 1
            elif got in ("won", "lost"):
                stats["confident_wrong"] += 1
                if len(wrong_cards) < 30:
                    seen = reading.cards[m[ti]]
                    wrong_cards.append({
                        "seed": truth["seed"], "seat": c["seat"], "position": c["row_position"],
                        "true": true_o, "read": got,
                        "read_seat": None if seen.seat is None else seen.seat.name,
                        "read_position": seen.row_position,
                        "confidence": round(seen.orientation_confidence, 3),
                    })
            if got != true_o:
                photo_ok = False
        # rows with the exact number of cards
        true_rows = Counter(
            c["seat"] for c in cards if c["row_position"] is not None and c["seat"] is not None
        )
        for seat_name, n in true_rows.items():
            stats["rows"] += 1
            got_n = len(reading.rows.get(Seat[seat_name], []))
            stats["rows_exact"] += int(got_n == n)
        stats["extra_rows"] += sum(1 for s in reading.rows if s.name not in true_rows)
        if photo_faces["cards"]:
            faces_per_photo.append({"seed": truth["seed"], "game": truth["game"],
                                    "size": size_name,
                                    **photo_faces})
        if truth["stage"] == "faceup" and truth.get("tricks"):
            faults = [_trick_faults(report, t) for t in truth["tricks"]]
            right = sum(1 for f in faults if not f)
            stats["faceup_tricks"] += len(truth["tricks"])
            stats["faceup_tricks_right"] += right
            stats["faceup_photos"] += 1
            stats["faceup_games_right"] += int(right == len(truth["tricks"]))
            size["tricks"] += len(truth["tricks"])
            size["tricks_right"] += right
            for f in faults:
                missed.update(f)
        true_result = (truth.get("report") or {}).get("result")
        totals_ok = true_result is not None and dict(report.result) == dict(true_result)
        stats["photos"] += 1
        st["photos"] += 1
        stats["photos_totals_exact"] += int(totals_ok)
        st["photos_totals_exact"] += int(totals_ok)
        stats["photos_all_cards_right"] += int(photo_ok)
        # what a director sees: a report raising no issue and leaving no trick open, and
        # whether its totals can be trusted; a wrong total the report does not flag is the
        # error that matters most
        flagged = not report.ok
        stats["clean_reports"] += int(not flagged)
        stats["clean_reports_exact"] += int(not flagged and totals_ok)
        stats["unflagged_wrong_totals"] += int(not flagged and not totals_ok)
        if not totals_ok and len(failures) < 20:
            failures.append({
                "seed": truth["seed"], "game": truth["game"], "stage": truth["stage"],
                "true": true_result, "read": dict(report.result),
                "rows_read": {s.name: len(r) for s, r in reading.rows.items()},
                "rows_true": dict(true_rows), "notes": reading.notes,
            })
    seconds = time.time() - t0
    n_cards = max(stats["row_cards"], 1)
    summary = {
        "set": label,
        "photos": stats["photos"],
        "row_cards": stats["row_cards"],
        "orientation_accuracy": stats["orientation_right"] / n_cards,
        "confident_wrong": stats["confident_wrong"],
        "seat_and_position_right": stats["seat_position_right"] / n_cards,
        "rows_exact": stats["rows_exact"] / max(stats["rows"], 1),
        "rows": stats["rows"],
        "extra_rows": stats["extra_rows"],
        "photos_totals_exact": stats["photos_totals_exact"] / max(stats["photos"], 1),
        "photos_all_cards_right": stats["photos_all_cards_right"] / max(stats["photos"], 1),
        "clean_reports": stats["clean_reports"],
        "clean_reports_exact": stats["clean_reports_exact"],
        "unflagged_wrong_totals": stats["unflagged_wrong_totals"],
        "confusion": {f"{t}->{g}": n for (t, g), n in sorted(confusion.items())},
        "per_stage": {
            k: {
                "photos": v["photos"],
                "orientation_accuracy": v["orientation_right"] / max(v["row_cards"], 1),
                "photos_totals_exact": v["photos_totals_exact"] / max(v["photos"], 1),
            }
            for k, v in sorted(per_stage.items())
        },
        "identity": dict(identity),
        "unread_faces": dict(unread),
        "seconds": round(seconds, 1),
        "failures": failures,
        "confident_wrong_cards": wrong_cards,
    }
    if identity["face_up_row_cards"]:
        summary["identity_accuracy"] = identity["right"] / identity["face_up_row_cards"]
    if identity["trick_cards"]:
        summary["trick_identity_accuracy"] = identity["trick_right"] / identity["trick_cards"]
    if stats["faceup_photos"]:
        summary["faceup_tricks"] = stats["faceup_tricks"]
        summary["faceup_tricks_right"] = stats["faceup_tricks_right"] / stats["faceup_tricks"]
        summary["faceup_photos"] = stats["faceup_photos"]
        summary["faceup_games_right"] = stats["faceup_games_right"] / stats["faceup_photos"]
        summary["faceup_tricks_missed"] = dict(missed)
    if by_width:
        order = [label for label, _, _ in WIDTH_BANDS]
        summary["identity_by_width"] = {k: dict(by_width[k]) for k in order if k in by_width}
        summary["faceup_by_photo_size"] = {k: dict(v) for k, v in sorted(by_size.items())
                                           if v["cards"]}
        summary["faceup_per_photo"] = faces_per_photo
    return summary


def _reason_kind(reason: str | None) -> str:
    """The kind of an unread face's reason, its words before the first colon or parenthesis
    (``card too small``, ``too blurred``, ``unsure``, ...)."""
    if not reason:
        return "no reason given"
    return reason.split(":")[0].split("(")[0].strip()


def _trick_faults(report, trick: dict) -> set[str]:  # noqa: ANN001
    """What keeps the report from giving one trick of the real play right: ``not in the
    report``, ``a face unread``, ``a face misread`` (both may hold), ``the winner`` (every
    face right); empty when the trick is right."""
    if trick["number"] > len(report.tricks):
        return {"not in the report"}
    got = report.tricks[trick["number"] - 1]
    cards = {s.name: (str(c) if c is not None else None) for s, c in got.cards.items()}
    faults = set()
    if any(cards.get(seat) is None for seat, _ in trick["plays"]):
        faults.add("a face unread")
    if any(cards.get(seat) not in (None, card) for seat, card in trick["plays"]):
        faults.add("a face misread")
    if not faults and (got.winner is None or got.winner.name != trick["winner"]):
        faults.add("the winner")
    return faults


def _tricks_right(report, true_tricks: list[dict]) -> int:  # noqa: ANN001
    """How many tricks of the real play the report gives with every card and the winner."""
    return sum(1 for t in true_tricks if not _trick_faults(report, t))


def scenes_for(n: int, seed_base: int, *, hard: bool, sizes: list[tuple[int, int] | None],
               stages: tuple[str, ...] = STAGES, held_out_decks: bool = False,
               roll: float = 0.0, tilt: float | None = None):
    """The scenes of one set; ``held_out_decks``: the same deals and tables, the decks (faces
    and backs) drawn only from designs no model was trained on; ``roll``: each camera turned
    by up to that many degrees more either way (drawn from the scene's seed), as a phone held
    askew; ``tilt``: every camera looking that many degrees away from straight down."""
    from vision.synth.scene import render_game_scene

    for i in range(n):
        seed = seed_base + i
        game = GAMES[i % 3]
        stage = stages[(i // 3) % len(stages)]
        size = sizes[i % len(sizes)]
        turn = float(np.random.default_rng([seed, 0x2011]).uniform(-roll, roll)) if roll else 0.0
        yield render_game_scene(game, stage, seed, hard=hard, image_size=size,
                                held_out=held_out_decks, roll_deg=turn, tilt_deg=tilt)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} % of {whole}" if whole else "none of 0"


def markdown(summaries: list[dict]) -> str:
    lines = [
        "| set | photos | row cards | orientation | confident wrong | rows exact | "
        "totals exact | seat+position |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        lines.append(
            f"| {s['set']} | {s['photos']} | {s['row_cards']} | "
            f"{100 * s['orientation_accuracy']:.2f} % | {s['confident_wrong']} | "
            f"{100 * s['rows_exact']:.1f} % | {100 * s['photos_totals_exact']:.1f} % | "
            f"{100 * s['seat_and_position_right']:.2f} % |"
        )
    lines.append("")
    for s in summaries:
        lines.append(f"- {s['set']}: confusion (truth->read) {s['confusion']}")
        lines.append(
            f"- {s['set']}: reports raising no issue (no conflict, row length, revoke or trick "
            f"left open): {s['clean_reports']} of {s['photos']}, totals exact on "
            f"{s['clean_reports_exact']} of them; wrong totals the report did not flag: "
            f"{s['unflagged_wrong_totals']}"
        )
        if "identity_accuracy" in s:
            lines.append(
                f"- {s['set']}: face-up identity {100 * s['identity_accuracy']:.2f} % of "
                f"{s['identity']['face_up_row_cards']} face-up row cards"
            )
        if s.get("unread_faces"):
            lines.append(f"- {s['set']}: face-up row cards left unread, by reason: "
                         + ", ".join(f"{k} {v}" for k, v in
                                     sorted(s["unread_faces"].items(), key=lambda kv: -kv[1])))
        if "trick_identity_accuracy" in s:
            lines.append(
                f"- {s['set']}: the trick in progress: {100 * s['trick_identity_accuracy']:.2f} %"
                f" of {s['identity']['trick_cards']} face-up cards read right "
                f"({s['identity'].get('trick_wrong', 0)} read wrong, the rest unread or not found)"
            )
        if "faceup_tricks" in s:
            lines.append(
                f"- {s['set']}: face-up photos: {100 * s['faceup_tricks_right']:.1f} % of "
                f"{s['faceup_tricks']} tricks with every card and the winner right, "
                f"{100 * s['faceup_games_right']:.1f} % of {s['faceup_photos']} games fully "
                "reconstructed"
            )
            for band, n in (s.get("identity_by_width") or {}).items():
                lines.append(f"- {s['set']}: face-up row cards {band} wide: "
                             f"{_share(n.get('right', 0), n['cards'])} named right, "
                             f"{n.get('wrong', 0)} wrong")
            for size, n in (s.get("faceup_by_photo_size") or {}).items():
                tricks = (f"; {n.get('tricks_right', 0)} of {n['tricks']} tricks right"
                          if n.get("tricks") else "")
                lines.append(f"- {s['set']}: {size} photos: face-up row cards "
                             f"{_share(n.get('right', 0), n['cards'])} named right{tricks}")
            why = s.get("faceup_tricks_missed") or {}
            if why:
                lines.append(f"- {s['set']}: face-up tricks not right, by what is wrong in "
                             "them (a trick may have more than one): "
                             + ", ".join(f"{k} {v}" for k, v in sorted(why.items())))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=150, help="normal scenes")
    parser.add_argument("--n-hard", type=int, default=75, help="hard scenes")
    parser.add_argument("--seed-base", type=int, default=9_000_000_000)
    parser.add_argument("--model", default=None, help="detector ONNX (default: shipped)")
    parser.add_argument("--conf", type=float, default=None, help="default: the detector's")
    parser.add_argument("--iou", type=float, default=None, help="default: the detector's")
    parser.add_argument("--candidate-iou", type=float, default=None,
                        help="NMS before the second look (default: the detector's)")
    parser.add_argument("--fragment-ratio", type=float, default=None,
                        help="drop boxes this small inside another (default: the detector's)")
    parser.add_argument("--ghost-check", action="store_true",
                        help="drop boxes over bare cloth (the video path's filter)")
    parser.add_argument("--axis", default=None, help="card-axis ONNX (default: shipped)")
    parser.add_argument("--no-axis", action="store_true", help="trust the detector's boxes")
    parser.add_argument("--oracle", action="store_true", help="true rectangles, no detector")
    parser.add_argument("--no-faces", action="store_true")
    parser.add_argument("--phantom-certainty", type=float, default=None,
                        help="row reader: drop unsure boxes between two neighbours "
                        "(default: the reader's)")
    parser.add_argument("--min-confidence", type=float, default=None,
                        help="row reader: orientation confidence below which a card is "
                        "unknown (default: the reader's)")
    parser.add_argument("--sizes", default="1920x1080,1280x960,1280x720,640x480",
                        help="photo sizes WxH, commas (taken in turn)")
    parser.add_argument("--stages", default=",".join(STAGES),
                        help=f"stages of play, commas (of {', '.join(STAGES)})")
    parser.add_argument("--grey", action="store_true",
                        help="turn every photo grey first (a monochrome camera)")
    parser.add_argument("--no-edge-fit", action="store_true",
                        help="read faces from the detector's boxes as they are, not fitted to "
                        "the cards' edges against the cloth")
    parser.add_argument("--no-grey-model", action="store_true",
                        help="read grey pictures with the colour identity model too")
    parser.add_argument("--held-out-decks", action="store_true",
                        help="decks (faces and backs) of designs no model was trained on - the "
                             "nearest the renderer comes to a deck of its own")
    parser.add_argument("--roll", type=float, default=0.0, metavar="DEG",
                        help="turn each scene's camera by up to DEG degrees more either way "
                             "(photos taken askew)")
    parser.add_argument("--tilt", type=float, default=None, metavar="DEG",
                        help="every scene's camera tilted DEG degrees from straight down "
                             "(default: the style's own, up to 15 / 25 degrees)")
    parser.add_argument("--no-straighten", action="store_true",
                        help="read the rows along the picture's edges, not the table's own "
                             "direction (PhotoAnalyzer(straighten=False))")
    parser.add_argument("--row-strip", default=None, metavar="MODEL",
                        help="row-strip ONNX that counts each row again (default: shipped)")
    parser.add_argument("--no-ink-check", action="store_true",
                        help="take every face as the reader names it, whatever its index's ink "
                             "(PhotoAnalyzer(check_suit_colours=False))")
    parser.add_argument("--no-recount", action="store_true",
                        help="keep the row reader's rows as the boxes give them "
                             "(PhotoAnalyzer(row_strips=False))")
    parser.add_argument("--strip-model", default=None, metavar="MODEL",
                        help="strip identity ONNX for row cards the corners leave unread "
                             "(default: shipped, when installed; none: without it)")
    parser.add_argument("--identity", default=None, metavar="MODEL",
                        help="corner identity ONNX (default: shipped), read beside the shipped "
                             "whole-card and greyscale models")
    parser.add_argument("--contract-given", action="store_true",
                        help="tell the reconstruction each deal's true contract (trump and "
                             "declarer), as a director would with --contract / --declarer")
    parser.add_argument("--out", default="/work/runs/eval")
    args = parser.parse_args(argv)
    try:
        sizes = [(int(w), int(h)) for w, h in (v.lower().split("x") for v in args.sizes.split(","))]
    except ValueError:
        parser.error(f"--sizes: expected WxH[,WxH...], e.g. 3264x2448, got {args.sizes!r}")
    stages = tuple(v.strip() for v in args.stages.split(","))
    if not stages or any(v not in STAGES for v in stages):
        parser.error(f"--stages: expected some of {', '.join(STAGES)}, got {args.stages!r}")

    from vision.pipeline import PhotoAnalyzer

    oracle = TruthDetector() if args.oracle else None
    if oracle is not None:
        detector = oracle
    else:
        from vision.detect.onnx_detector import CardDetector

        axis = None
        if args.no_axis:
            axis = False
        elif args.axis:
            from vision.detect.axis import AxisClassifier

            axis = AxisClassifier(args.axis)
        options = {k: v for k, v in (("conf", args.conf), ("iou", args.iou),
                                     ("candidate_iou", args.candidate_iou),
                                     ("fragment_ratio", args.fragment_ratio)) if v is not None}
        detector = CardDetector(args.model, axis=axis, ghost_check=args.ghost_check, **options)
    from vision.table.rows import RowSettings

    row_options = {k: v for k, v in (("phantom_certainty", args.phantom_certainty),
                                     ("min_confidence", args.min_confidence)) if v is not None}
    row_settings = RowSettings(**row_options)
    row_strips: object = None
    if args.no_recount:
        row_strips = False
    elif args.row_strip:
        from vision.detect.strips import RowStripReader

        row_strips = RowStripReader(args.row_strip)
    summaries = []
    for label, n, hard, base in (
        ("normal", args.n, False, args.seed_base),
        ("hard", args.n_hard, True, args.seed_base + 1_000_000),
    ):
        if n <= 0:
            continue
        reader: object = False if args.no_faces else None
        if reader is None and (args.no_grey_model or args.identity or args.strip_model):
            from vision.identity import IdentityReader
            from vision.models import model_exists, model_path

            # a corner model given: the shipped whole-card and greyscale models beside it
            # (None: the reader's own choice, which is those beside the shipped corner model)
            whole = model_path("identity_whole") if args.identity else None
            grey = model_path("identity_grey") if args.identity else None
            strip = (False if args.strip_model == "none" else
                     Path(args.strip_model) if args.strip_model else
                     model_path("identity_strip") if args.identity and model_exists(
                         "identity_strip") else None)
            reader = IdentityReader(args.identity, whole_model_path=whole,
                                    grey_model_path=False if args.no_grey_model else grey,
                                    strip_model_path=strip)
        analyzers = {
            g: PhotoAnalyzer(
                game=g, detector=detector, identity_reader=reader, row_settings=row_settings,
                fit_edges=not args.no_edge_fit, straighten=not args.no_straighten,
                row_strips=row_strips, check_suit_colours=not args.no_ink_check,
            )
            for g in GAMES
        }
        scenes = scenes_for(n, base, hard=hard, sizes=sizes, stages=stages,
                            held_out_decks=args.held_out_decks, roll=args.roll,
                            tilt=args.tilt)
        summary = evaluate_set(analyzers, scenes, oracle=oracle, label=label, grey=args.grey,
                               contract_given=args.contract_given)
        if args.oracle:
            summary["set"] += " (true rectangles)"
        summaries.append(summary)
        printable = {
            k: v for k, v in summary.items() if k not in ("failures", "confident_wrong_cards")
        }
        print(json.dumps(printable, indent=2), flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summaries, indent=2) + "\n")
    table = markdown(summaries)
    (out / "summary.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
