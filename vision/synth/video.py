"""Animated games: a simulated deal played out frame by frame over one fixed table.

A :class:`VideoScript` turns a :class:`~vision.simulate.SimulatedDeal` into a timeline: each
player's hand reaches in and lays his card face up in front of him, the hand withdraws; when
the trick is complete every player picks his card up and lays it face down at the end of his
row, short or long side toward him; now and then a hand rests over the cards for a couple of
seconds. Every frame is drawn by the renderer's scene code (:func:`vision.synth.render.
render_scene`) with ONE :class:`~vision.synth.style.TableStyle`, so the camera, cloth, deck and
light never change while the cards and hands do.

Ground truth comes in two forms: per frame, the renderer's card list (visible fractions
include the hands), which :class:`vision.video.pipeline.TruthAnalyzer` turns into table
readings; and per video, the events a perfect tracker must report (card laid, trick complete,
cards turned, deal finished, alerts for a wrong orientation or a revoke, at the moment the
evidence appears).

>>> script = make_script("lhombre", seed=3, n_tricks=2)          # doctest: +SKIP
>>> for frame in script.frames(): ...                             # doctest: +SKIP
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import Card
from vision.contract import Contract
from vision.errors import InputFileError, TrickvisionError
from vision.games import find_game
from vision.record import Orientation, RowEntry
from vision.seats import Seat
from vision.simulate import SimulatedDeal, simulate_deal
from vision.synth.layout import CardPlacement, layout_current_trick, layout_row
from vision.synth.render import HandShape, render_scene
from vision.synth.style import TableStyle, sample_table_style
from vision.video.events import (
    Alert,
    CardLaid,
    CardsTurned,
    DealFinished,
    Event,
    TrickComplete,
)

SCHEMA = 1
_SKINS = ((120, 150, 200), (95, 125, 180), (70, 100, 150), (140, 170, 220), (50, 75, 120))


@dataclass(frozen=True)
class Timing:
    """How long things take at the table, in seconds."""

    reach_s: float = 0.5  # hand from the edge to the card spot
    withdraw_s: float = 0.45
    think_s: tuple[float, float] = (0.5, 1.2)  # pause before a player lays his card
    before_turn_s: tuple[float, float] = (0.6, 1.2)  # trick complete -> turning starts
    turn_stagger_s: tuple[float, float] = (0.15, 0.5)  # between players turning
    carry_s: float = 0.4  # trick spot -> end of row
    hover_p: float = 0.35  # chance per trick of a hand resting over the cards
    hover_s: tuple[float, float] = (1.2, 2.5)
    lead_in_s: float = 1.0
    tail_s: float = 1.5


@dataclass(frozen=True)
class _Move:
    """A hand following waypoints [(t, (x, y))] from and back to its seat's edge."""

    seat: Seat
    points: tuple[tuple[float, tuple[float, float]], ...]
    width: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]

    @property
    def t0(self) -> float:
        return self.points[0][0]

    @property
    def t1(self) -> float:
        return self.points[-1][0]

    def at(self, t: float) -> tuple[float, float] | None:
        if t < self.t0 or t > self.t1:
            return None
        for (ta, pa), (tb, pb) in zip(self.points, self.points[1:], strict=False):
            if ta <= t <= tb:
                u = 0.0 if tb <= ta else (t - ta) / (tb - ta)
                u = u * u * (3.0 - 2.0 * u)  # ease in and out
                return (pa[0] + (pb[0] - pa[0]) * u, pa[1] + (pb[1] - pa[1]) * u)
        return self.points[-1][1]


@dataclass
class VideoFrame:
    """One rendered frame and its per-card ground truth (contract 3 ``cards`` entries)."""

    index: int
    t: float
    image: np.ndarray
    cards: list[dict[str, Any]]


@dataclass
class VideoScript:
    """The timeline of one animated deal; :meth:`frames` renders it."""

    game: str
    seed: int
    fps: float
    style: TableStyle
    deal: SimulatedDeal
    lays: list[tuple[float, Seat, Card, int]]  # (t appears, seat, card, trick)
    turns: list[tuple[float, float, Seat, int, Orientation]]  # (t picked, t in row, ...)
    moves: list[_Move]
    duration: float
    events: list[Event] = field(default_factory=list)
    flipped: list[tuple[Seat, int]] = field(default_factory=list)

    @property
    def n_frames(self) -> int:
        return int(math.floor(self.duration * self.fps)) + 1

    # ------------------------------------------------------------------ state
    def state_at(self, t: float) -> tuple[dict[Seat, list[RowEntry]], list[tuple[Seat, Card]],
                                          list[HandShape]]:
        rows: dict[Seat, list[RowEntry]] = {s: [] for s in self.deal.seats}
        for _, t_row, seat, k, o in sorted(self.turns, key=lambda x: x[3]):
            if t_row <= t:
                rows[seat].append(RowEntry(orientation=o, card=self._card(seat, k)))
        picked = {(seat, k) for t_pick, _, seat, k, _ in self.turns if t_pick <= t}
        current = [(seat, card) for t_lay, seat, card, k in self.lays
                   if t_lay <= t and (seat, k) not in picked]
        hands = []
        for m in self.moves:
            p = m.at(t)
            if p is None:
                continue
            hands.append(HandShape(start=self._home(m.seat, far=True), end=p, width=m.width,
                                   skin=m.skin, sleeve=m.sleeve, sleeve_frac=0.45))
        return rows, current, hands

    def _card(self, seat: Seat, k: int) -> Card:
        card = self.deal.tricks[k - 1].card_of(seat)
        assert card is not None
        return card

    def _home(self, seat: Seat, far: bool = False) -> tuple[float, float]:
        w, h = self.style.image_size
        cx, cy = self.style.table_centre
        d = self.style.card_long_px * (4.0 if far else 1.2)
        return {Seat.S: (cx, h + d), Seat.N: (cx, -d), Seat.W: (-d, cy),
                Seat.E: (w + d, cy)}[seat]

    def placements(self, rows: dict[Seat, list[RowEntry]], current: Sequence[tuple[Seat, Card]]
                   ) -> list[CardPlacement]:
        out: list[CardPlacement] = []
        for seat in sorted(rows):
            rng = np.random.default_rng([self.seed, 11, int(seat)])
            out += layout_row(seat, rows[seat], self.style, rng, face_up=False,
                              z0=100 * (int(seat) + 1))
        if current:
            # cards of the trick in progress; a card still waiting to be turned sits where it
            # was laid, so place each trick's cards with that trick's own draws
            laid_k = {(s, c): k for _, s, c, k in self.lays}
            for k in sorted({laid_k[(s, c)] for s, c in current}):
                these = [(s, c) for s, c in current if laid_k[(s, c)] == k]
                rng = np.random.default_rng([self.seed, 12, k])
                out += layout_current_trick(these, self.style, rng, z0=1000 + 10 * k)
        return sorted(out, key=lambda p: p.z)

    # ------------------------------------------------------------------ frames
    def frames(self, *, start: int = 0, stop: int | None = None) -> Iterator[VideoFrame]:
        """Render frames ``start..stop-1`` (all by default), deterministic per seed."""
        stop = self.n_frames if stop is None else min(stop, self.n_frames)
        last_key: Any = None
        image: np.ndarray | None = None
        cards: list[dict[str, Any]] = []
        for i in range(start, stop):
            t = i / self.fps
            rows, current, hands = self.state_at(t)
            key = (tuple((s, len(r)) for s, r in sorted(rows.items())), tuple(current),
                   tuple(h.end for h in hands))
            if key != last_key or image is None:
                # a still table is drawn once; its frames differ only in sensor noise
                placements = self.placements(rows, current)
                rng = np.random.default_rng([self.seed, 13, i])
                image, cards = render_scene(placements, self.style, rng, hands=hands)
                last_key = key
                out = image
            else:
                out = _resample_noise(image, self.style.noise, i)
            yield VideoFrame(index=i, t=t, image=out, cards=cards)

    def truth_dict(self) -> dict[str, Any]:
        """The video's ground truth: deal, tricks and the events a tracker must report."""
        d = self.deal
        c = d.contract
        return {
            "schema": SCHEMA,
            "game": self.game,
            "seed": self.seed,
            "fps": self.fps,
            "width": self.style.image_size[0],
            "height": self.style.image_size[1],
            "n_frames": self.n_frames,
            "duration": round(self.duration, 3),
            "dealer": d.dealer.name,
            "seats": [s.name for s in d.seats],
            "first_leader": d.first_leader.name,
            "contract": {"trump": c.trump.value if c.trump is not None else "NT",
                         "declarer": c.declarer.name if c.declarer is not None else None,
                         "kind": c.kind.value, "level": c.level},
            "tricks": [{"number": t.number, "leader": t.leader.name, "winner": t.winner.name,
                        "plays": [[s.name, str(card)] for s, card in t.plays]}
                       for t in d.tricks],
            "irregularities": list(d.applied) + [
                {"kind": "wrong_orientation", "seat": s.name, "trick": k}
                for s, k in self.flipped],
            "events": [e.to_dict() for e in self.events],
        }


def _resample_noise(image: np.ndarray, sigma: float, i: int) -> np.ndarray:
    """A still frame again, with fresh low sensor noise (cheaper than redrawing it)."""
    if sigma <= 0.2:
        return image
    noise = np.empty(image.shape, np.int16)
    cv2.setRNGSeed(i)
    # the stubs want arrays for mean and stddev; OpenCV takes plain numbers too
    cv2.randn(noise, 0, max(1.0, sigma / 2))  # type: ignore[call-overload]
    return cv2.add(image, noise, dtype=cv2.CV_8U)


def _rand(rng: np.random.Generator, lo_hi: tuple[float, float]) -> float:
    return float(rng.uniform(lo_hi[0], lo_hi[1]))


def video_style(seed: int, game: str, image_size: tuple[int, int] = (640, 360)) -> TableStyle:
    """A table look for videos: drawn like a photo's, but calm (a fixed overhead camera)."""
    rng = np.random.default_rng([seed, 0x51DE0])
    style = sample_table_style(rng, game=game, image_size=image_size)
    cam = style.camera
    from dataclasses import replace

    cam = replace(cam, tilt_deg=min(cam.tilt_deg, 8.0), roll_deg=max(-2.0, min(2.0,
                  cam.roll_deg)), k1=0.0)
    return style.with_(camera=cam, glare=0.0, blur=min(style.blur, 0.7),
                       noise=min(style.noise, 3.0), motion_blur=0.0, hands=0,
                       clutter=min(style.clutter, 2))


def make_script(
    game: str,
    seed: int,
    *,
    fps: float = 10.0,
    image_size: tuple[int, int] = (640, 360),
    n_tricks: int | None = None,
    wrong_orientation: int = 0,
    revoke: bool = False,
    hover: bool = True,
    timing: Timing | None = None,
    style: TableStyle | None = None,
    dealer: Seat | None = None,
    seats: tuple[Seat, ...] | None = None,
    contract: Contract | None = None,
) -> VideoScript:
    """Plan an animated deal of ``game``: who lays what when, hands, and the true events.

    ``n_tricks`` limits the video to the first tricks (default: the whole deal);
    ``wrong_orientation`` is how many cards are turned the wrong way; ``revoke`` asks the
    simulation for a revoke (it happens only where a player can revoke).
    """
    g = find_game(game)
    if fps <= 0 or fps > 120:
        raise TrickvisionError(f"fps must be in (0, 120], got {fps}")
    timing = timing or Timing()
    rng = np.random.default_rng([seed, 0xF1D])
    deal = simulate_deal(g.name, seed=seed, dealer=dealer, seats=seats, contract=contract,
                         irregularities=("revoke",) if revoke else ())
    n = len(deal.tricks) if n_tricks is None else max(1, min(n_tricks, len(deal.tricks)))
    style = style if style is not None else video_style(seed, g.name, image_size)
    script = VideoScript(game=g.name, seed=seed, fps=fps, style=style, deal=deal, lays=[],
                         turns=[], moves=[], duration=0.0)
    flips: set[tuple[Seat, int]] = set()
    for _ in range(wrong_orientation):
        k = int(rng.integers(1, n + 1))
        s = deal.seats[int(rng.integers(len(deal.seats)))]
        flips.add((s, k))
    script.flipped = sorted(flips, key=lambda x: (x[1], x[0]))

    L = style.card_long_px
    hand_look = {s: (float(rng.uniform(0.55, 0.8)) * L,
                     _SKINS[int(rng.integers(len(_SKINS)))],
                     tuple(int(v) for v in rng.integers(20, 230, 3))) for s in deal.seats}

    def move(seat: Seat, pts: list[tuple[float, tuple[float, float]]]) -> None:
        width, skin, sleeve = hand_look[seat]
        home = script._home(seat)
        full = [(pts[0][0] - timing.reach_s, home)] + pts + [(pts[-1][0] + timing.withdraw_s,
                                                              home)]
        script.moves.append(_Move(seat=seat, points=tuple(full), width=width, skin=skin,
                                  sleeve=sleeve))  # type: ignore[arg-type]

    t = timing.lead_in_s
    rows: dict[Seat, list[RowEntry]] = {s: [] for s in deal.seats}
    events: list[Event] = []
    for trick in deal.tricks[:n]:
        k = trick.number
        spots = {p.seat: p.centre for p in layout_current_trick(
            trick.plays, style, np.random.default_rng([seed, 12, k]))}
        last_lay = t
        for seat, card in trick.plays:
            t += _rand(rng, timing.think_s) + timing.reach_s
            spot = spots[seat]
            move(seat, [(t, spot), (t + 0.15, spot)])
            script.lays.append((t, seat, card, k))
            events.append(CardLaid(t=t, seat=seat, card=card, trick=k))
            last_lay = t
            t += 0.15 + timing.withdraw_s
            if hover and rng.random() < timing.hover_p / len(trick.plays):
                # someone rests a hand over the cards on the table for a while
                who = deal.seats[int(rng.integers(len(deal.seats)))]
                target = spots[seat]
                stay = _rand(rng, timing.hover_s)
                move(who, [(t + timing.reach_s, target), (t + timing.reach_s + stay, target)])
                t += timing.reach_s + stay + timing.withdraw_s
        events.append(TrickComplete(t=last_lay, number=k, leader=trick.leader,
                                    winner=trick.winner, cards=tuple(trick.plays)))
        t += _rand(rng, timing.before_turn_s)
        t_turn = t
        turned_at = []
        for seat, _card in trick.plays:
            o = g.orientation(seat, trick.winner)
            wrong = (seat, k) in flips
            if wrong:
                o = Orientation.LOST if o is Orientation.WON else Orientation.WON
            rows[seat].append(RowEntry(orientation=o, card=_card))
            row_rng = np.random.default_rng([seed, 11, int(seat)])
            end = layout_row(seat, rows[seat], style, row_rng, face_up=False)[-1].centre
            t_pick = t_turn + timing.reach_s
            t_row = t_pick + timing.carry_s
            move(seat, [(t_pick, spots[seat]), (t_row, end), (t_row + 0.1, end)])
            script.turns.append((t_pick, t_row, seat, k, o))
            turned_at.append(t_row)
            if wrong:
                events.append(Alert(t=t_row, alert="wrong_orientation", seat=seat, trick=k,
                                    message=f"{seat} turned trick {k} the wrong way"))
            t_turn += _rand(rng, timing.turn_stagger_s)
        events.append(CardsTurned(t=max(turned_at), number=k, orientations=tuple(
            (s, rows[s][-1].orientation) for s, _ in trick.plays)))
        t = max(turned_at) + 0.1 + timing.withdraw_s
    if n == g.hand_size:
        result: dict[str, int] = {side: 0 for side in g.sides(deal.seats)}
        for tr in deal.tricks:
            result[g.side(tr.winner)] += 1
        events.append(DealFinished(t=max(x[1] for x in script.turns), tricks=n,
                                   result=tuple(result.items())))
    events += _revoke_alerts(deal, n, script.lays)
    script.events = sorted(events, key=lambda e: e.t)
    script.duration = t + timing.tail_s
    return script


def _revoke_alerts(deal: SimulatedDeal, n: int, lays: list[tuple[float, Seat, Card, int]]
                   ) -> list[Event]:
    """Each revoke as the tracker can first prove it: when a later card shows the suit."""
    g = find_game(deal.game)
    out: list[Event] = []
    lay_t = {(s, k): t for t, s, _, k in lays}
    for j, tr in enumerate(deal.tricks[:n], start=1):
        order = [s for s, _ in tr.plays]
        for i, (seat, card) in enumerate(tr.plays):
            before = [c for _, c in tr.plays[:i]]
            if not before:
                continue
            later = [(k, deal.tricks[k - 1].card_of(seat)) for k in range(j + 1, n + 1)]
            hand = [card]
            for k, c in later:
                assert c is not None
                hand.append(c)
                if card not in g.legal_cards(hand, before, deal.contract):
                    out.append(Alert(t=lay_t[(seat, k)], alert="revoke", seat=seat, trick=j,
                                     message=f"{seat} revoked in trick {j}"))
                    break
        del order
    return out


# ---------------------------------------------------------------------------------- files


def write_video(script: VideoScript, out_dir: str | os.PathLike[str], stem: str, *,
                fourcc: str = "mp4v", ext: str = ".mp4", frame_truth: bool = True,
                progress: Any = None, frames: Sequence[VideoFrame] | None = None) -> Path:
    """Render the script to ``<stem><ext>`` plus ``<stem>.truth.json`` (events and deal) and,
    with ``frame_truth``, ``<stem>.frames.jsonl.gz`` (per-frame cards for the TruthAnalyzer).
    ``frames`` reuses frames already rendered from this script.
    """
    d = Path(out_dir)
    if d.exists() and not d.is_dir():
        raise InputFileError(f"output folder {str(d)!r} is a file (expected a folder)")
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{stem}{ext}"
    w, h = script.style.image_size
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), script.fps, (w, h))
    if not writer.isOpened():
        raise InputFileError(f"cannot write video {str(path)!r} with codec {fourcc!r}")
    ftruth = gzip.open(d / f"{stem}.frames.jsonl.gz", "wt") if frame_truth else None
    try:
        for frame in (script.frames() if frames is None else frames):
            writer.write(frame.image)
            if ftruth is not None:
                ftruth.write(json.dumps({"i": frame.index, "t": round(frame.t, 4),
                                         "cards": compact_cards(frame.cards)},
                                        separators=(",", ":")) + "\n")
            if progress is not None:
                progress(frame.index + 1, script.n_frames)
    finally:
        writer.release()
        if ftruth is not None:
            ftruth.close()
    truth = script.truth_dict()
    truth["video"] = path.name
    (d / f"{stem}.truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return path


#: Frame sizes of exported training frames, and how often each is drawn.
FRAME_SIZES: tuple[tuple[int, int], ...] = ((960, 540), (1280, 720), (640, 360))
FRAME_SIZE_WEIGHTS: tuple[float, ...] = (0.6, 0.25, 0.15)


def training_script(seed: int, rng: np.random.Generator, games: Sequence[str]) -> VideoScript:
    """An animated deal to draw training frames from: any of ``games``, a frame size from
    :data:`FRAME_SIZES`, now and then a revoke or a card turned the wrong way."""
    game = games[int(rng.integers(len(games)))]
    size = FRAME_SIZES[int(rng.choice(len(FRAME_SIZES), p=FRAME_SIZE_WEIGHTS))]
    return make_script(game, seed, fps=8.0, image_size=size,
                       wrong_orientation=int(rng.integers(0, 2)),
                       revoke=bool(rng.random() < 0.5))


def export_video_obb_dataset(out_dir: str | os.PathLike[str], n_videos: int,
                             frames_per_video: int, n_val_videos: int, seed: int, *,
                             games: Sequence[str] | None = None, min_visible: float = 0.1,
                             progress: bool = False) -> Path:
    """Detector training frames from animated deals, in the OBB layout of
    :func:`vision.synth.export.export_obb_dataset`; returns the ``data.yaml`` path.

    Photos show a table at rest; the fixed camera mostly sees it in motion: hands reaching in,
    a card half turned, small cards in long tight rows, compression blocks. Each deal (seed
    :func:`~vision.synth.export.scene_seed` of ``seed``, its own table style, any game, now and
    then a revoke or a card turned the wrong way) gives ``frames_per_video`` frames drawn at
    random moments, saved as JPEG of quality 45-85 like a stream's frames.
    """
    from vision.synth.export import (
        GAMES,
        _check_out,
        _progress,
        obb_label_lines,
        scene_seed,
        write_data_yaml,
    )

    games = tuple(games) if games else GAMES
    if min(n_videos, n_val_videos) < 0 or frames_per_video < 1:
        raise TrickvisionError(f"need videos >= 0 and frames per video >= 1, got {n_videos}, "
                               f"{n_val_videos} and {frames_per_video}")
    out = _check_out(out_dir)
    total = (n_videos + n_val_videos) * frames_per_video
    done = 0
    for split, n in (("train", n_videos), ("val", n_val_videos)):
        img_dir, lab_dir = out / "images" / split, out / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        for v in range(n):
            s = scene_seed(seed, v, split)
            rng = np.random.default_rng([s, 0xF4A])
            script = training_script(s, rng, games)
            size = script.style.image_size
            picks = rng.choice(script.n_frames, size=min(frames_per_video, script.n_frames),
                               replace=False)
            for i in sorted(int(x) for x in picks):
                frame = next(script.frames(start=i, stop=i + 1))
                stem = f"{split}_{v:05d}_{i:04d}"
                quality = int(rng.integers(45, 86))
                cv2.imwrite(str(img_dir / f"{stem}.jpg"), frame.image,
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
                truth = {"width": size[0], "height": size[1], "cards": frame.cards}
                lines = obb_label_lines(truth, min_visible=min_visible)
                (lab_dir / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
                done += 1
                if progress:
                    _progress(done, total, "frames")
    return write_data_yaml(out, f"video frames, seed {seed}, {n_videos} train / "
                                f"{n_val_videos} val deals x {frames_per_video} frames")


def compact_cards(cards: list[dict[str, Any]]) -> list[list[Any]]:
    """Per-frame card truth, short: [seat, row_position, orientation, face_up, card,
    visible_fraction, in_current_trick, quad (4x2, 0.1 px)] per card."""
    out = []
    for c in cards:
        out.append([c["seat"], c["row_position"], c["orientation"], int(c["face_up"]),
                    c["card"], round(float(c["visible_fraction"]), 3),
                    int(c["in_current_trick"]),
                    [round(v, 1) for xy in c["quad"] for v in xy]])
    return out


def expand_cards(rows: list[list[Any]]) -> list[dict[str, Any]]:
    """The inverse of :func:`compact_cards` (keys of contract 3)."""
    out = []
    for i, (seat, pos, o, up, card, frac, cur, quad) in enumerate(rows):
        out.append({"id": i, "seat": seat, "row_position": pos, "orientation": o,
                    "face_up": bool(up), "card": card, "visible_fraction": frac,
                    "in_current_trick": bool(cur),
                    "quad": [quad[j:j + 2] for j in range(0, 8, 2)], "z": i})
    return out


def read_frame_truth(path: str | os.PathLike[str]) -> dict[int, list[dict[str, Any]]]:
    """Per-frame card truth written by :func:`write_video`, by frame index."""
    p = Path(path)
    if not p.exists():
        raise InputFileError(f"frame truth not found: {str(p)!r}")
    out: dict[int, list[dict[str, Any]]] = {}
    with gzip.open(p, "rt") as f:
        for line in f:
            rec = json.loads(line)
            out[int(rec["i"])] = expand_cards(rec["cards"])
    return out


__all__ = ["FRAME_SIZES", "Timing", "VideoFrame", "VideoScript", "compact_cards",
           "expand_cards", "export_video_obb_dataset", "make_script", "read_frame_truth",
           "training_script", "video_style", "write_video"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.synth.video --game lhombre --seed 5 --out DIR``: write one video."""
    import argparse
    import sys

    p = argparse.ArgumentParser(prog="python -m vision.synth.video", description=main.__doc__)
    p.add_argument("--game", default="lhombre")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tricks", type=int, default=None, help="first N tricks only")
    p.add_argument("--fps", type=float, default=10.0)
    p.add_argument("--size", default="640x360", help="WxH")
    p.add_argument("--wrong-orientation", type=int, default=1)
    p.add_argument("--revoke", action="store_true")
    p.add_argument("--no-hover", action="store_true")
    p.add_argument("--stem", default=None)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size {args.size!r}: expected WxH, e.g. 640x360", file=sys.stderr)
        return 2
    script = make_script(args.game, args.seed, fps=args.fps, image_size=(w, h),
                         n_tricks=args.tricks, wrong_orientation=args.wrong_orientation,
                         revoke=args.revoke, hover=not args.no_hover)
    stem = args.stem or f"{script.game}-{args.seed}"

    def progress(i: int, n: int) -> None:
        if i % 50 == 0 or i == n:
            print(f"\r{i}/{n} frames", end="", file=sys.stderr, flush=True)

    path = write_video(script, args.out, stem, progress=progress)
    print(f"\n{path} ({script.n_frames} frames, {script.duration:.1f} s, "
          f"{len(script.events)} true events)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
