"""Command-line options shared by ``trickvision video`` and ``trickvision watch``.

What the director knows about the deal (game, dealer, active seats, contract) lets the rules
name the leader and the winner of every trick; the analyser option chooses between the real
photo pipeline and rendered ground truth. Every bad value raises a ``TrickvisionError`` that
names it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from vision.cards import Suit
from vision.contract import Contract, ContractKind
from vision.errors import InputFileError, TrickvisionError
from vision.games import find_game
from vision.seats import Seat
from vision.table.geometry import south_argument
from vision.video.events import Event, event_from_dict

_KINDS = {"misere": ContractKind.MISERE, "nolo": ContractKind.NOLO,
          "nolo_ouvert": ContractKind.NOLO_OUVERT, "raspasy": ContractKind.RASPASY,
          "allpass": ContractKind.RASPASY}


def add_deal_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default=None,
                   help="bridge, preferans or lhombre (default: bridge, or the --truth file's)")
    p.add_argument("--contract", default=None,
                   help="e.g. 4S, 3NT, 6H (level optional: S, NT), misere, nolo, raspasy; the "
                        "first deal's (later deals of the session: inferred)")
    p.add_argument("--declarer", default=None, help="declarer's seat (N, E, S, W)")
    p.add_argument("--dealer", default=None,
                   help="dealer's seat (gives the first leader); the first deal's, like "
                        "--contract")
    p.add_argument("--seats", default=None,
                   help="active seats of a three-handed game, e.g. NES (default: learned)")
    p.add_argument("--analyzer", choices=("photo", "truth"), default="photo",
                   help="photo: the shipped detector and identity models (default); truth: "
                        "rendered ground truth (needs --truth-frames or --truth)")
    p.add_argument("--truth", default=None,
                   help="a rendered video's <stem>.truth.json: scores the result against it "
                        "and supplies the deal's known facts not given as options")
    p.add_argument("--truth-frames", default=None,
                   help="per-frame ground truth <stem>.frames.jsonl.gz for --analyzer truth")
    p.add_argument("--south", default="bottom", type=south_argument,
                   metavar="bottom|top|left|right|DEGREES",
                   help="where South sits in the image, or the angle clockwise from the "
                        "bottom to South (photo analyser)")
    p.add_argument("--confirm", type=float, default=None,
                   help="seconds a change must persist before it is an event (default 0.13 "
                        "live, 0.3 for a recorded video)")
    p.add_argument("--settle", type=float, default=None,
                   help="seconds of stillness, from the last frame that moved, before a "
                        "frame is analysed (default 0.12 live, 0.13 for a recorded video)")
    p.add_argument("--keepalive", type=float, default=2.0,
                   help="analyse a still table at least this often, seconds (default 2)")
    p.add_argument("--no-gate", action="store_true",
                   help="analyse every frame (slow; the reference for the gate)")


def parse_contract(text: str | None, declarer: str | None) -> Contract | None:
    """``4S`` / ``3NT`` / ``H`` / ``NT`` / ``misere`` ... plus the declarer's seat."""
    if text is None:
        if declarer is not None:
            return Contract(trump=None, declarer=Seat.from_str(declarer), level=None)
        return None
    t = text.strip().upper().replace(" ", "")
    dec = Seat.from_str(declarer) if declarer else None
    if t.lower() in _KINDS:
        return Contract(trump=None, declarer=dec, kind=_KINDS[t.lower()])
    level = None
    if t[:1].isdigit():
        level, t = int(t[0]), t[1:]
        if not 1 <= level <= 10:
            raise TrickvisionError(f"invalid contract {text!r}: level must be 1..10")
    if t in ("NT", "N", "SA", "BT"):
        trump = None
    else:
        try:
            trump = Suit.from_str(t)
        except TrickvisionError:
            raise TrickvisionError(
                f"invalid contract {text!r} (expected e.g. 4S, 3NT, H, NT, misere, raspasy)"
            ) from None
    return Contract(trump=trump, declarer=dec, kind=ContractKind.TRICKS, level=level)


def load_truth(path: str) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise InputFileError(f"truth file not found: {path!r}")
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputFileError(f"truth file {path!r} is not JSON text (expected the "
                             f".truth.json file written with the video): {exc}") from None
    except OSError as exc:
        raise InputFileError(f"cannot read truth file {path!r}: {exc.strerror}") from None
    if not isinstance(d, dict) or "events" not in d:
        raise InputFileError(f"{path!r} is not a video truth file (no 'events')")
    return d


def truth_events(truth: dict[str, Any]) -> list[Event]:
    return [event_from_dict(e) for e in truth["events"]]


def contract_from_truth(c: dict[str, Any] | None) -> Contract | None:
    if not c:
        return None
    trump = None if c.get("trump") in (None, "NT") else Suit.from_str(c["trump"])
    return Contract(trump=trump, declarer=Seat.from_str(c["declarer"]) if c.get("declarer")
                    else None, kind=ContractKind(c.get("kind", "tricks")), level=c.get("level"))


def rendered_video_facts(video: str | Path) -> dict[str, Any]:
    """A rendered video's deal as its truth file (``<stem>.truth.json`` beside it) gives it:
    ``truth``, ``game``, ``seats``, ``dealer`` and ``contract`` - what a tracker of that video
    is told (evaluations and benchmarks)."""
    video = Path(video)
    truth = load_truth(str(video.with_name(f"{video.name.removesuffix('.mp4')}.truth.json")))
    return {"truth": truth, "game": truth["game"], "dealer": Seat.from_str(truth["dealer"]),
            "seats": tuple(Seat.from_str(s) for s in truth["seats"]),
            "contract": contract_from_truth(truth["contract"])}


def deal_facts(args: argparse.Namespace) -> dict[str, Any]:
    """game, seats, dealer, contract from the options, completed from ``--truth``."""
    truth = load_truth(args.truth) if getattr(args, "truth", None) else None
    game = args.game or (truth["game"] if truth else "bridge")
    if not args.game and not truth:
        print("note: game not given (--game); read as bridge (4 players): a preferans or "
              "l'hombre table completes no trick that way", file=sys.stderr)
    g = find_game(game)
    seats = None
    if args.seats:
        seats = tuple(Seat.from_str(ch) for ch in args.seats.replace(",", "").strip())
    elif truth and g.n_players == 3:
        seats = tuple(Seat.from_str(s) for s in truth["seats"])
    if seats is not None and len(set(seats)) != g.n_players:
        raise TrickvisionError(
            f"--seats {args.seats!r}: {g.name} needs {g.n_players} different seats")
    dealer = Seat.from_str(args.dealer) if args.dealer else (
        Seat.from_str(truth["dealer"]) if truth and truth.get("dealer") else None)
    contract = parse_contract(args.contract, args.declarer)
    if contract is None and truth:
        contract = contract_from_truth(truth.get("contract"))
    return {"game": g.name, "seats": seats, "dealer": dealer, "contract": contract,
            "truth": truth}


def make_analyzer(args: argparse.Namespace, game: str, fps: float, *,
                  beside_decoder: bool = False) -> Any:
    """The frame analyser the options ask for; ``beside_decoder`` when frames are decoded on
    the other core meanwhile (offline read-ahead)."""
    from vision.video.pipeline import PhotoAnalyzerAdapter, TruthAnalyzer

    if args.analyzer == "truth":
        frames = args.truth_frames
        if frames is None and args.truth:
            stem = Path(args.truth).name.removesuffix(".truth.json")
            frames = str(Path(args.truth).with_name(f"{stem}.frames.jsonl.gz"))
        if frames is None:
            raise TrickvisionError("--analyzer truth needs --truth-frames (or --truth)")
        return TruthAnalyzer.from_file(frames, fps)
    return PhotoAnalyzerAdapter(game, south=args.south, beside_decoder=beside_decoder)


class Progress:
    """A one-line progress bar with speed and ETA on stderr (redrawn at most 5 times/s)."""

    def __init__(self, total: int, label: str = "", stream: Any = None,
                 enabled: bool = True) -> None:
        self.total = max(0, total)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.last = 0.0
        self.done = 0

    def update(self, done: int, extra: str = "") -> None:
        self.done = done
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.2 and done < self.total):
            return
        self.last = now
        elapsed = max(now - self.t0, 1e-6)
        rate = done / elapsed
        if self.total:
            frac = min(1.0, done / self.total)
            bar = "#" * int(frac * 30) + "." * (30 - int(frac * 30))
            eta = (self.total - done) / rate if rate > 0 else 0.0
            text = (f"\r{self.label} [{bar}] {frac * 100:5.1f}% {done}/{self.total} frames "
                    f"{rate:6.1f} fps ETA {_hms(eta)} {extra}")
        else:
            text = f"\r{self.label} {done} frames {rate:6.1f} fps {extra}"
        self.stream.write(text)
        self.stream.flush()

    def clear(self) -> None:
        """Blank the bar so a printed line does not mix with it (it is redrawn later)."""
        if self.enabled and self.last:
            self.stream.write("\r" + " " * 110 + "\r")
            self.stream.flush()
            self.last = 0.0

    def close(self) -> None:
        if self.enabled:
            self.update(self.done)
            self.stream.write("\n")
            self.stream.flush()


def _hms(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def make_gate(args: argparse.Namespace, mode: str) -> Any:
    """The change gate for ``mode`` ("live" or "offline") with the user's overrides."""
    from vision.video.gate import SETTINGS, ChangeGate

    if args.no_gate:
        return None
    settings = SETTINGS[mode].copy()
    if args.settle is not None:
        settings["settle_s"] = args.settle
    settings["keepalive_s"] = args.keepalive
    return ChangeGate(**settings)


def confirm_s(args: argparse.Namespace, mode: str) -> float:
    from vision.video.gate import CONFIRM_S

    return float(args.confirm) if args.confirm is not None else CONFIRM_S[mode]
