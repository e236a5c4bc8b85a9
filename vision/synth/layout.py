"""Where every card lies on the table: rows per seat and the current trick.

The layout follows the project's image convention (contract 1): South at the bottom of the
image, a player's row runs from HIS left to HIS right (South left->right, North right->left,
West top->bottom, East bottom->top), each card covers 30-70 % of the previous one along the
row, and a "won" card lies with its long axis pointing at its player.

All positions are in pixels of the *canvas* (the table seen straight from above, before the
camera model). A card's own frame is portrait: ``angle`` is the clockwise rotation of its top
edge's direction from "up" in the image, so ``angle = 0`` is an upright card.

Stability for animation: the placement of row card ``k`` depends only on the style, the seat,
the random draws made at the start of :func:`layout_rows` and cards ``1..k`` of that row. A
video renderer that calls ``layout_rows`` with a generator seeded the same way for every frame
therefore sees earlier cards stay exactly where they were as the rows grow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.cards import Card
from vision.record import Orientation, RowEntry
from vision.seats import Seat
from vision.synth.style import TableStyle

STAGES: tuple[str, ...] = ("mid", "end", "faceup")

#: Unit vector from the table centre toward each player (image coordinates, y down).
TOWARD: dict[Seat, tuple[float, float]] = {
    Seat.S: (0.0, 1.0), Seat.N: (0.0, -1.0), Seat.W: (-1.0, 0.0), Seat.E: (1.0, 0.0),
}


def along(seat: Seat) -> tuple[float, float]:
    """Unit vector along the seat's row, from the player's left to his right."""
    vx, vy = TOWARD[seat]
    return (vy, -vx)


@dataclass(frozen=True)
class CardPlacement:
    """One card on the canvas.

    ``size`` is (short, long) in canvas pixels; ``z`` is the draw order (higher on top).
    ``seat``/``row_position`` (1-based) place it in a row; ``in_current_trick`` marks a card
    of the trick in progress; ``orientation`` is the row orientation (None outside rows).
    ``group`` says what the card is part of: a row, the current trick, a loose face-down
    pile (the talon; no seat) or bridge dummy's face-up hand (dummy's seat, no position).
    """

    card: Card
    seat: Seat | None
    row_position: int | None
    face_up: bool
    orientation: Orientation | None
    centre: tuple[float, float]
    angle: float
    size: tuple[float, float]
    z: int
    in_current_trick: bool = False
    group: str = "row"  # "row", "trick" (current trick), "talon" (loose pile), "dummy"

    def quad(self) -> np.ndarray:
        """Corners (4, 2) float64 in the card's own order TL, TR, BR, BL (TL->TR is short)."""
        return card_quad(self.centre, self.angle, self.size)


def card_quad(centre: Sequence[float], angle: float, size: Sequence[float]) -> np.ndarray:
    """Corners of a card of ``size`` (short, long) rotated by ``angle`` degrees about ``centre``."""
    a = math.radians(angle)
    up = np.array([math.sin(a), -math.cos(a)])
    right = np.array([math.cos(a), math.sin(a)])
    c = np.asarray(centre, float)
    hw, hh = size[0] / 2.0, size[1] / 2.0
    return np.array([
        c - right * hw + up * hh,
        c + right * hw + up * hh,
        c + right * hw - up * hh,
        c - right * hw - up * hh,
    ])


def _angle_of(direction: tuple[float, float]) -> float:
    """The ``angle`` that makes a card's top point along ``direction``."""
    return math.degrees(math.atan2(direction[0], -direction[1]))


def _extent_along_row(orientation: Orientation | None, size: tuple[float, float]) -> float:
    """How much of the row a card takes: short side for won cards, long side for lost ones."""
    return size[0] if orientation is Orientation.WON else size[1]


def layout_row(
    seat: Seat,
    entries: Sequence[RowEntry],
    style: TableStyle,
    rng: np.random.Generator,
    *,
    face_up: bool,
    z0: int = 0,
) -> list[CardPlacement]:
    """Placements of one seat's row (see the module docstring for the conventions)."""
    n_max = max(len(entries), 20)
    # Draw every per-position number up front so card k never depends on the row's length.
    overlaps = rng.uniform(style.overlap[0], style.overlap[1], n_max)
    across = rng.normal(0.0, style.row_jitter, n_max)
    spins = rng.normal(0.0, style.angle_jitter, n_max)
    flips = rng.random(n_max) < 0.5
    sloppy = rng.random(n_max) < style.sloppy
    slop_shift = rng.uniform(0.15, 0.4, n_max) * np.where(rng.random(n_max) < 0.5, -1, 1)
    slop_spin = rng.normal(0.0, 10.0, n_max)
    row_flip = bool(rng.random() < 0.5)
    row_angle = float(rng.normal(0.0, style.row_angle))
    row_shift = float(rng.normal(0.0, 0.03)) * style.row_length
    row_depth = float(rng.normal(0.0, 0.1)) * style.card_long_px
    sag = float(rng.uniform(-1, 1)) * style.row_curve * style.row_length

    w, L = style.card_size
    v = np.array(TOWARD[seat])
    u = np.array(along(seat))
    ra = math.radians(row_angle)
    # rotate the row's frame slightly
    rot = np.array([[math.cos(ra), -math.sin(ra)], [math.sin(ra), math.cos(ra)]])
    u_r, v_r = rot @ u, rot @ v
    origin = np.asarray(style.table_centre) + v * (style.row_distance + row_depth)
    start = -style.row_length / 2.0 + row_shift

    out: list[CardPlacement] = []
    lead = start  # position of the previous card's leading (left) edge along the row
    prev_extent = 0.0
    for k, entry in enumerate(entries):
        o = entry.orientation
        ext = _extent_along_row(o, (w, L))
        if k > 0:
            lead = lead + (1.0 - overlaps[k]) * prev_extent
        t = lead + ext / 2.0
        frac = (t - start) / max(style.row_length, 1.0)
        depth = sag * (4.0 * (frac - 0.5) ** 2 - 1.0) + across[k] * L
        if sloppy[k]:  # a careless player: the card lies off the line and askew
            depth += float(slop_shift[k]) * L
        centre = origin + u_r * t + v_r * depth
        if o is Orientation.WON:
            top = -v_r if not (flips[k] if face_up else row_flip) else v_r
        else:
            top = u_r if not (flips[k] if face_up else row_flip) else -u_r
        angle = _angle_of((float(top[0]), float(top[1]))) + float(spins[k])
        if sloppy[k]:
            angle += float(slop_spin[k])
        assert entry.card is not None, "simulated rows always know their cards"
        out.append(CardPlacement(
            card=entry.card, seat=seat, row_position=k + 1, face_up=face_up,
            orientation=o if o in (Orientation.WON, Orientation.LOST) else None,
            centre=(float(centre[0]), float(centre[1])), angle=angle, size=(w, L), z=z0 + k,
        ))
        prev_extent = ext
    return out


def layout_current_trick(
    plays: Iterable[tuple[Seat, Card]], style: TableStyle, rng: np.random.Generator, *,
    z0: int = 1000,
) -> list[CardPlacement]:
    """The trick in progress: each card face up in front of its player, near the centre."""
    w, L = style.card_size
    out = []
    jit = rng.normal(0.0, 1.0, (4, 3))
    for i, (seat, card) in enumerate(plays):
        v = np.array(TOWARD[seat])
        u = np.array(along(seat))
        d = style.trick_distance * style.row_distance
        centre = (np.asarray(style.table_centre) + v * d + u * jit[seat, 0] * 0.12 * L
                  + v * jit[seat, 1] * 0.06 * L)
        angle = _angle_of((-v[0], -v[1])) + jit[seat, 2] * 6.0
        out.append(CardPlacement(
            card=card, seat=seat, row_position=None, face_up=True, orientation=None,
            centre=(float(centre[0]), float(centre[1])), angle=float(angle), size=(w, L),
            z=z0 + i, in_current_trick=True, group="trick",
        ))
    return out


#: Loose cards a scene can add beside the rows (see :func:`layout_loose`).
LOOSE_KINDS: tuple[str, ...] = ("talon", "dummy")


def _empty_side(deal, style: TableStyle) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Toward and along vectors of a side without a row (or the dealer's side)."""
    free = [s for s in (Seat.N, Seat.E, Seat.S, Seat.W) if s not in deal.rows]
    seat = free[0] if free else deal.dealer
    return np.array(TOWARD[seat]), np.array(along(seat))


def layout_loose(deal, style: TableStyle, rng: np.random.Generator, stage: str,  # type: ignore[no-untyped-def]
                 kinds: Iterable[str] = LOOSE_KINDS) -> list[CardPlacement]:
    """Cards on the table outside the rows: distractors a reader must not put in a row.

    ``"talon"``: the undealt cards (preferans, l'hombre) in an untidy face-down pile on a side
    without a row. ``"dummy"``: in a bridge "mid" scene, dummy's remaining cards face up in
    suit columns in front of dummy, pointing at the table centre.
    """
    from vision.cards import SUITS
    from vision.games import find_game

    game = find_game(deal.game)
    w, L = style.card_size
    centre = np.asarray(style.table_centre)
    out: list[CardPlacement] = []
    kinds = tuple(kinds)
    if "talon" in kinds:
        dealt = {c for h in deal.hands.values() for c in h}
        spare = [c for c in game.deck if c not in dealt]
        if spare:
            order = rng.permutation(len(spare))
            n = len(spare) if len(spare) <= 3 else int(rng.integers(3, len(spare) + 1))
            v, u = _empty_side(deal, style)
            spot = centre + v * style.row_distance * float(rng.uniform(0.55, 0.85)) + u * float(
                rng.normal(0, 0.6)) * L
            base = float(rng.uniform(0, 180))
            for k in range(n):
                c = spare[int(order[k])]
                jitter = rng.normal(0.0, 0.06, 2) * L
                out.append(CardPlacement(
                    card=c, seat=None, row_position=None, face_up=False, orientation=None,
                    centre=(float(spot[0] + jitter[0]), float(spot[1] + jitter[1])),
                    angle=base + float(rng.normal(0, 8.0)), size=(w, L), z=3000 + k,
                    group="talon"))
    if ("dummy" in kinds and game.name == "bridge" and stage == "mid"
            and deal.contract.declarer is not None):
        dummy = deal.contract.declarer.partner
        played = {c for t in deal.tricks for _, c in t.plays} | {
            c for _, c in deal.current_trick}
        left = [c for c in deal.hands[dummy] if c not in played]
        suits = [s for s in SUITS if any(c.suit == s for c in left)]
        v = np.array(TOWARD[dummy])
        u = np.array(along(dummy))
        step = float(rng.uniform(0.22, 0.32)) * L
        gap = float(rng.uniform(1.05, 1.25)) * w
        start = style.row_distance - 1.25 * L  # clear of dummy's own row
        angle = _angle_of((float(v[0]), float(v[1])))  # tops toward dummy: declarer reads them
        for j, suit in enumerate(suits):
            col = sorted((c for c in left if c.suit == suit), key=lambda c: -c.rank)
            offset = (j - (len(suits) - 1) / 2.0) * gap
            for k, c in enumerate(col):
                pos = centre + v * (start - k * step) + u * offset
                pos = pos + rng.normal(0, 0.02, 2) * L
                out.append(CardPlacement(
                    card=c, seat=dummy, row_position=None, face_up=True, orientation=None,
                    centre=(float(pos[0]), float(pos[1])),
                    angle=angle + float(rng.normal(0, 1.5)), size=(w, L),
                    z=2000 + 20 * j + k, group="dummy"))
    return out


def layout_rows(deal, style: TableStyle, rng: np.random.Generator, stage: str,  # type: ignore[no-untyped-def]
                *, loose: Iterable[str] = ()) -> list[CardPlacement]:
    """All cards of a simulated deal for a stage.

    ``deal`` is a :class:`vision.simulate.SimulatedDeal` (only ``rows`` and ``current_trick``
    are used). Stages: ``"mid"`` (rows face down plus the current trick face up), ``"end"``
    (rows face down), ``"faceup"`` (rows turned face up in place, order and orientation kept).
    Rows are drawn with z increasing along the row, the current trick on top. ``loose``
    adds cards outside the rows (:data:`LOOSE_KINDS`, see :func:`layout_loose`).
    """
    if stage not in STAGES:
        from vision.synth.style import StyleError

        raise StyleError(f"unknown stage {stage!r} (expected one of {', '.join(STAGES)})")
    rows: Mapping[Seat, Sequence[RowEntry]] = deal.rows
    seeds = rng.integers(0, 2**31, size=5)
    out: list[CardPlacement] = []
    for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
        if seat not in rows:
            continue
        row_rng = np.random.default_rng([int(seeds[int(seat)]), int(seat)])
        out += layout_row(seat, rows[seat], style, row_rng, face_up=(stage == "faceup"),
                          z0=100 * (int(seat) + 1))
    if stage == "mid" and deal.current_trick:
        out += layout_current_trick(deal.current_trick, style,
                                    np.random.default_rng(int(seeds[4])))
    loose = tuple(loose)
    if loose:
        for kind in loose:
            if kind not in LOOSE_KINDS:
                from vision.synth.style import StyleError

                raise StyleError(f"unknown loose-card kind {kind!r} (expected one of "
                                 f"{', '.join(LOOSE_KINDS)})")
        out += layout_loose(deal, style, np.random.default_rng([int(seeds[4]), 5]), stage,
                            loose)
    return sorted(out, key=lambda p: p.z)


def renumber_z(placements: Sequence[CardPlacement]) -> list[CardPlacement]:
    """Placements sorted by z with z renumbered 0..n-1 (the truth's draw order)."""
    ordered = sorted(placements, key=lambda p: p.z)
    return [replace(p, z=i) for i, p in enumerate(ordered)]
