"""From card rectangles to rows: seat, trick order and won/lost orientation of every card.

The steps, all in the table frame (:mod:`vision.table.geometry`):

1. **Chains.** Two cards belong together when their full rectangles overlap deeply (a row card
   covers 30-70 % of the previous one); connected groups of such cards are row pieces.
2. **Seats.** A piece lying along a horizontal line below the table centre is South's, above it
   North's; vertical pieces left/right are West's/East's. Single cards go by the side of the
   table they lie on. Several pieces of one side form one row.
3. **Current trick.** A face-up card lying alone nearer the centre than its player's row is a
   card of the trick in progress, not a row card.
4. **Order.** A row runs from its player's left to his right; each new card lies on top of the
   previous one. The position along the row gives the order; the occlusion (whose border is
   visible where two cards overlap - the top card's edge crosses the lower card) checks it, and
   a row whose overlaps all say the opposite is reversed (with a note).
5. **Orientation.** A card whose long axis points at its player (is perpendicular to the row's
   line) is ``won``, along the line ``lost``. The confidence falls as the card approaches 45
   degrees or looks square (an unsure box); below ``min_confidence`` the card is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.record import Orientation
from vision.seats import Seat
from vision.table.geometry import TOWARD, TableFrame, along
from vision.table.reading import SeenCard, TableReading

#: Typical long/short ratio of a playing card (bridge 88.9/57.2 = 1.55, poker 1.40).
CARD_ASPECT = 1.45
#: A row starts at its player's left, so a short one does not lie across the table's middle;
#: and early in a deal a card boxed twice looks like a row of two. Only a row of this many
#: boxes, alone on its axis, places the middle (with 2, held-out photos read a lone card's
#: double box as a row and put the middle beside it: every seat of the photo went wrong).
MIN_CENTRING_ROW = 4
#: A row's own line (the fit through its cards' centres) is believed from this many cards on,
#: and only when it turns less than ROW_LINE_MAX_TURN degrees from its side of the table.
ROW_LINE_MIN_CARDS = 3
ROW_LINE_MAX_TURN = 30.0
#: A group of mostly face-up boxes among face-down rows is an exposed hand unless it is a
#: row: this many boxes or more on a line whose spread across it is under ROW_LINE_SPREAD
#: short sides, running along the table's edge (within ROW_LINE_MAX_TURN degrees).
FACE_UP_ROW_MIN_CARDS = 4
ROW_LINE_SPREAD = 0.35
# detector scores of a sure box and of a doubtful one (a ghost beside a face-up card)
_SURE_BOX = 0.8
_UNSURE_BOX = 0.6


@dataclass(frozen=True)
class RowSettings:
    """Thresholds of the row reader (fractions of the median card's short side or plain)."""

    link_depth: float = 0.12  # overlap depth (x short side) that chains two cards
    link_distance: float = 1.6  # centres farther apart than this (x short side) never chain
    # orientation confidence below this -> UNKNOWN; 0.6 since 2026-12-05 (with the row
    # strips settling many unknowns: tuning totals exact 341 -> 344 of 360 photos,
    # confident errors 34 -> 30; 0.7 the same; models/detector.md)
    min_confidence: float = 0.6
    trick_margin: float = 0.5  # face-up single nearer the centre by this (x long side) = trick
    phantom_certainty: float = 0.0  # a box's long side this unsure between sure neighbours...
    phantom_gap: float = 0.75  # ...closer than this (x the first's extent along the row)
    check_occlusion: bool = True
    face_up_share: float = 0.6  # a row this much face up lies face up (0: trust each box)


@dataclass(frozen=True)
class CardGeometry:
    """Per-card measurements in the table frame."""

    centers: np.ndarray  # (N, 2)
    long_axis: np.ndarray  # (N, 2) unit vectors
    long_len: np.ndarray  # (N,)
    short_len: np.ndarray  # (N,)

    @property
    def aspect(self) -> np.ndarray:
        return self.long_len / np.maximum(self.short_len, 1e-9)


def measure(quads: np.ndarray) -> CardGeometry:
    """Centre, long axis and side lengths of (N, 4, 2) quads (any corner order around)."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    e01 = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2
    e12 = (q[:, 2] - q[:, 1] + q[:, 3] - q[:, 0]) / 2
    l01 = np.linalg.norm(e01, axis=1)
    l12 = np.linalg.norm(e12, axis=1)
    first_long = l01 >= l12
    long_vec = np.where(first_long[:, None], e01, e12)
    long_len = np.maximum(l01, l12)
    short_len = np.minimum(l01, l12)
    axis = long_vec / np.maximum(long_len[:, None], 1e-9)
    return CardGeometry(q.mean(axis=1), axis, long_len, short_len)


def principal_axis(points: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Unit direction of most spread of 2-D ``points`` and the spreads (sums of squares)
    along it and across it - the 2x2 eigenproblem in closed form (np.linalg.eigh costs
    ~50 us a call, and the row reader asks for every piece of every row)."""
    d = np.asarray(points, dtype=np.float64) - np.mean(points, axis=0)
    sxx, syy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1])
    sxy = float(d[:, 0] @ d[:, 1])
    half_gap = float(np.hypot(0.5 * (sxx - syy), sxy))
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    mean = 0.5 * (sxx + syy)
    return np.array([np.cos(theta), np.sin(theta)]), mean + half_gap, mean - half_gap


def overlap_depth(quads: np.ndarray) -> np.ndarray:
    """(N, N) penetration depth of convex quads (separating-axis test); 0 where disjoint.

    For rectangles the two edge normals of each card are the only candidate separating axes;
    the depth is the smallest overlap of the two projections over those four axes.
    """
    q = np.asarray(quads, dtype=np.float64)
    n = len(q)
    if n == 0:
        return np.zeros((0, 0))
    edges = np.roll(q, -1, axis=1) - q  # (N, 4, 2)
    normals = np.stack([-edges[:, :2, 1], edges[:, :2, 0]], axis=-1)  # (N, 2, 2)
    normals /= np.maximum(np.linalg.norm(normals, axis=-1, keepdims=True), 1e-9)
    depth = np.full((n, n), np.inf)
    for owner in range(2):
        axis = normals[:, owner]  # (K, 2): axis of card k
        proj = np.einsum("icd,kd->ikc", q, axis)  # card i projected on card k's axis
        lo, hi = proj.min(axis=2), proj.max(axis=2)  # (i, k)
        own_lo, own_hi = np.diag(lo), np.diag(hi)
        ov = np.minimum(hi, own_hi[None, :]) - np.maximum(lo, own_lo[None, :])
        depth = np.minimum(depth, np.minimum(ov, ov.T))
    depth = np.clip(depth, 0, None)
    np.fill_diagonal(depth, 0)
    return depth


def _components(adjacency: np.ndarray) -> list[list[int]]:
    n = len(adjacency)
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for i, j in zip(*np.nonzero(np.triu(adjacency, 1)), strict=True):
        ri, rj = find(int(i)), find(int(j))
        if ri != rj:
            parent[rj] = ri
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _row_along_edge(points: np.ndarray, centre: np.ndarray, short: float) -> bool:
    """Whether card centres (table frame) form a row: at least ``FACE_UP_ROW_MIN_CARDS`` of
    them on one thin line (spread across it under ``ROW_LINE_SPREAD`` short sides) that runs
    across the direction from the table's middle, i.e. along the table's edge."""
    if len(points) < FACE_UP_ROW_MIN_CARDS:
        return False
    along, _, minor = principal_axis(points)
    toward = points.mean(axis=0) - centre
    reach = float(np.linalg.norm(toward))
    if reach < 1e-9:
        return False
    spread = float(np.sqrt(max(minor, 0.0) / len(points)))  # standard deviation across
    turn = abs(float(along @ toward)) / reach  # the sine of the line's turn off the edge
    return spread < ROW_LINE_SPREAD * short and turn < np.sin(np.radians(ROW_LINE_MAX_TURN))


def _lone_face_up(piece: list[int], face_up: np.ndarray) -> bool:
    """One face-up card on its own: a card of the trick in progress, not (yet) a row."""
    return len(piece) == 1 and bool(face_up[piece[0]])


def _side_of(vector: np.ndarray) -> Seat:
    x, y = float(vector[0]), float(vector[1])
    if abs(y) >= abs(x):
        return Seat.S if y > 0 else Seat.N
    return Seat.E if x > 0 else Seat.W


class RowReader:
    """Groups one image's cards into rows per seat, in trick order, with orientations."""

    def __init__(
        self,
        frame: TableFrame | None = None,
        settings: RowSettings | None = None,
        seats: Sequence[Seat] | None = None,
        players: int | None = None,
    ) -> None:
        self.frame = frame or TableFrame()
        self.settings = settings or RowSettings()
        self.seats = tuple(seats) if seats is not None else None
        self.players = players

    def read(
        self,
        quads: np.ndarray,
        face_up: np.ndarray,
        confidence: np.ndarray,
        *,
        image: np.ndarray | None = None,
        image_size: tuple[int, int] | None = None,
        axis_certainty: np.ndarray | None = None,
        table_centre: Sequence[float] | np.ndarray | None = None,
    ) -> TableReading:
        """Assign every card (image-pixel ``quads`` (N, 4, 2)) to a seat's row or the trick.

        ``axis_certainty`` (N,) in [0, 1], when a second look judged each box's long side
        (:mod:`vision.detect.axis`), replaces the box's own aspect as the measure of how sure
        the long axis is. ``table_centre`` (image pixels), when the table's middle is known - a
        fixed camera that has watched the table a while - replaces the estimate from this
        image's cards, which a short row or a duplicate box can pull toward one side.
        """
        quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
        face_up = np.asarray(face_up, dtype=bool).reshape(-1)
        confidence = np.asarray(confidence, dtype=np.float64).reshape(-1)
        n = len(quads)
        if axis_certainty is not None:
            axis_certainty = np.asarray(axis_certainty, dtype=np.float64).reshape(-1)
            if axis_certainty.shape != (n,):
                raise ValueError(f"axis_certainty must have shape ({n},)")
        if image_size is None:
            image_size = (image.shape[1], image.shape[0]) if image is not None else (0, 0)
        cards = [
            SeenCard(
                quad=quads[i].copy(), face_up=bool(face_up[i]), confidence=float(confidence[i])
            )
            for i in range(n)
        ]
        reading = TableReading(cards=cards, image_size=image_size)
        if n == 0:
            reading.notes.append("no cards found")
            return reading
        tq = self.frame.to_table(quads)
        geo = measure(tq)
        short = float(np.median(geo.short_len))
        long_ = float(np.median(geo.long_len))
        s = self.settings

        overlap = overlap_depth(tq)
        dist = np.linalg.norm(geo.centers[:, None] - geo.centers[None], axis=-1)
        linked = (overlap > s.link_depth * short) & (dist < s.link_distance * long_)
        pieces = _components(linked)

        # Table centre: first the middle of all cards, then refined from the rows found.
        lo, hi = geo.centers.min(axis=0), geo.centers.max(axis=0)
        known_centre = table_centre is not None
        if table_centre is not None:
            centre = self.frame.to_table(np.asarray(table_centre, dtype=np.float64).reshape(2))
        else:
            centre = (lo + hi) / 2
        narrow = np.zeros(2, dtype=bool)
        if not known_centre and image_size is not None and min(image_size) > 0:
            # cards all in one band (a single row): the image centre tells the side
            image_centre = self.frame.to_table(np.array([image_size[0] / 2, image_size[1] / 2]))
            narrow = (hi - lo) < 2 * long_
            centre = np.where(narrow, image_centre, centre)
        piece_seat = [self._piece_seat(geo, p, centre) for p in pieces]
        if not known_centre:
            centre = self._refine_centre(geo, pieces, piece_seat, centre)
        pieces = self._split_corners(
            geo, pieces, centre if known_centre else np.where(narrow, centre, (lo + hi) / 2))
        pieces, loose = self._set_aside_loose(geo, pieces, face_up, short, centre,
                                              confidence if known_centre else None)
        for _ in range(2):
            piece_seat = [self._piece_seat(geo, p, centre) for p in pieces]
            if not known_centre:
                centre = self._refine_centre(geo, pieces, piece_seat, centre)
        # Rows lie at the table's edge: a face-down group in the middle (the talon, a pile)
        # is not one.
        depth = [float(np.mean((geo.centers[p] - centre) @ TOWARD[t])) for p, t in
                 zip(pieces, piece_seat, strict=True)]
        row_like = [d for p, d in zip(pieces, depth, strict=True) if len(p) >= 3]
        if known_centre:
            # early in a deal every row is a card or two; with the middle known, those still
            # show where the rows lie (face-down cards near the middle are being gathered)
            row_like = [d for p, d in zip(pieces, depth, strict=True)
                        if not _lone_face_up(p, face_up)]
        if row_like:
            typical = float(np.median(row_like))
            inner = [
                k for k, p in enumerate(pieces)
                if depth[k] < 0.55 * typical and not _lone_face_up(p, face_up)
            ]
            for k in inner:
                loose.extend(pieces[k])
            pieces = [p for k, p in enumerate(pieces) if k not in inner]
            piece_seat = [t for k, t in enumerate(piece_seat) if k not in inner]
        if known_centre:
            pieces, piece_seat = self._set_aside_played(geo, pieces, piece_seat, face_up,
                                                        long_, loose)
        pieces, piece_seat = self._lift_laid_faces(geo, pieces, piece_seat, face_up, long_)
        if loose:
            reading.notes.append(
                f"{len(loose)} card(s) lie outside the rows (a pile such as the talon, an "
                "exposed hand such as dummy's, or stray cards) and were left out"
            )

        # Current trick: lone face-up cards lying off their side's row line, toward the centre.
        row_points: dict[Seat, list[int]] = {}
        for p, seat in zip(pieces, piece_seat, strict=True):
            if not _lone_face_up(p, face_up):
                row_points.setdefault(seat, []).extend(p)
        row_lines = {seat: self._row_line(geo, idx, seat) for seat, idx in row_points.items()}
        depths = [float((mid - centre) @ TOWARD[seat]) for seat, (mid, _) in row_lines.items()]
        typical_depth = float(np.median(depths)) if depths else None
        any_face_down = bool((~face_up).any())
        seat_members: dict[Seat, list[int]] = {}
        for p, seat in zip(pieces, piece_seat, strict=True):
            if _lone_face_up(p, face_up):
                i = p[0]
                if seat in row_lines:
                    mid, normal = row_lines[seat]
                    is_trick = float((geo.centers[i] - mid) @ normal) < -s.trick_margin * long_
                elif typical_depth is not None:
                    card_depth = float((geo.centers[i] - centre) @ TOWARD[seat])
                    is_trick = card_depth < typical_depth - s.trick_margin * long_
                else:
                    is_trick = any_face_down
                if is_trick:
                    if seat in reading.current_trick:
                        reading.notes.append(f"two face-up cards in front of {seat}")
                        continue
                    cards[i].seat = seat
                    reading.current_trick[seat] = cards[i]
                    continue
            seat_members.setdefault(seat, []).extend(p)

        if self.seats is not None:
            for seat in list(seat_members):
                if seat not in self.seats:
                    reading.notes.append(
                        f"{len(seat_members[seat])} card(s) on the {seat.name} side, where no "
                        "player of this game sits; left out of the rows"
                    )
                    del seat_members[seat]

        def rows_under(i: int, side: Seat | None = None) -> set[Seat]:
            """The sides (other than ``side``) whose row card ``i`` lies on."""
            return {other for other, members in seat_members.items()
                    if other != side and any(linked[i, j] for j in members)}

        if self.players is not None and len(seat_members) > self.players:
            # a three-handed game with cards on all four sides: a side whose every card lies
            # on one other side's row is that row's end, bent round the table's corner
            for seat in sorted(seat_members, key=lambda t: len(seat_members[t])):
                if len(seat_members) <= self.players:
                    break
                lies_on = [rows_under(i, seat) for i in seat_members[seat]]
                onto = set().union(*lies_on)
                if len(onto) == 1 and all(lies_on):
                    seat_members[onto.pop()].extend(seat_members.pop(seat))
        if self.players is not None and len(seat_members) > self.players:
            # a three-handed game: the fourth side's few cards are not a player's row
            by_size = sorted(seat_members, key=lambda t: len(seat_members[t]))
            others = [len(seat_members[t]) for t in by_size[1:]]
            smallest = by_size[0]
            if len(seat_members[smallest]) <= 0.5 * float(np.median(others)):
                stray = seat_members.pop(smallest)
                # a card there lying on one player's row is that row's end, bent round the
                # table's corner (a preferans row's last card had been left out so)
                for i in list(stray):
                    under = rows_under(i)
                    if len(under) == 1:
                        seat_members[under.pop()].append(i)
                        stray.remove(i)
                if stray:
                    reading.notes.append(
                        f"{len(stray)} card(s) on the {smallest.name} side of a "
                        f"{self.players}-player table: not a row, left out"
                    )
                for i in stray:
                    cards[i].seat = None

        orders = self._orders(
            geo, seat_members, quads, face_up, image if s.check_occlusion else None, reading
        )
        if axis_certainty is not None and s.phantom_certainty > 0:
            for seat, order in orders.items():
                orders[seat] = self._drop_phantoms(geo, order, seat, face_up, axis_certainty)
                if len(orders[seat]) < len(order):
                    reading.notes.append(
                        f"row {seat.name}: {len(order) - len(orders[seat])} box(es) lying across "
                        "two cards of the row, no card of their own, left out")
        if s.face_up_share > 0:
            for order in orders.values():
                self._turn_face_up_rows(cards, order)
        for seat in sorted(orders):
            order = orders[seat]
            normal = self._row_normal(geo, order, seat)
            orients, confs = self._orientations(
                geo,
                order,
                normal,
                confidence[order],
                None if axis_certainty is None else axis_certainty[order],
            )
            for pos, (i, orient, conf) in enumerate(zip(order, orients, confs, strict=True), 1):
                card = cards[i]
                card.seat = seat
                card.row_position = pos
                card.orientation = orient
                card.orientation_confidence = float(conf)
            reading.rows[seat] = [cards[i] for i in order]
        if len(reading.rows) == 1:
            reading.notes.append(
                f"only one row found ({next(iter(reading.rows)).name}); a table needs 3 or 4"
            )
        return reading

    def _turn_face_up_rows(self, cards: list[SeenCard], order: list[int]) -> None:
        """A row is turned over as a whole (the director has it turned in place): in a row
        mostly read face up, a card read face down is a face the detector took for a back."""
        up = [cards[i].face_up for i in order]
        if len(order) < 3 or all(up) or sum(up) < self.settings.face_up_share * len(order):
            return
        for i in order:
            cards[i].face_up = True

    def _lift_laid_faces(
        self, geo: CardGeometry, pieces: list[list[int]], piece_seat: list[Seat],
        face_up: np.ndarray, long_: float,
    ) -> tuple[list[list[int]], list[Seat]]:
        """Face-up cards chained into a face-down row that lie well off its line toward the
        table's middle, each made a piece of its own (judged then as any lone face-up card).

        A player lays his card of the trick just in front of his row; laid close, it
        overlaps the row's near edge and the overlap chains it into the row, where it was
        neither a row card nor his card of the trick (the fixed camera's tuning videos:
        six plays of S in three deals never read, the row counted again without them). A
        box across that face and the row card beneath lies nearer the row: the farthest
        face comes first, and the row reader keeps one face per player.
        """
        out_pieces: list[list[int]] = []
        out_seats: list[Seat] = []
        for p, seat in zip(pieces, piece_seat, strict=True):
            down = [i for i in p if not face_up[i]]
            up = [i for i in p if face_up[i]]
            off: list[int] = []
            if up and len(down) >= 2 and len(down) > len(up):
                mid, normal = self._row_line(geo, down, seat)
                depth = {i: float((geo.centers[i] - mid) @ normal) for i in up}
                off = sorted((i for i in up if depth[i] < -self.settings.trick_margin * long_),
                             key=lambda i: depth[i])
            if not off:
                out_pieces.append(p)
                out_seats.append(seat)
                continue
            out_pieces.append([i for i in p if i not in off])
            out_seats.append(seat)
            for i in off:
                out_pieces.append([i])
                out_seats.append(seat)
        return out_pieces, out_seats

    def _set_aside_played(
        self, geo: CardGeometry, pieces: list[list[int]], piece_seat: list[Seat],
        face_up: np.ndarray, long_: float, loose: list[int],
    ) -> tuple[list[list[int]], list[Seat]]:
        """A lone face-down card well in front of its side's row is being played or turned
        (a hand half over it hides the face), not a card of the row."""
        keep = []
        for k, (p, seat) in enumerate(zip(pieces, piece_seat, strict=True)):
            if len(p) == 1 and not face_up[p[0]]:
                rest = [i for q, t in zip(pieces, piece_seat, strict=True) if t == seat
                        and q is not p and not _lone_face_up(q, face_up) for i in q]
                if rest:
                    mid, normal = self._row_line(geo, rest, seat)
                    if float((geo.centers[p[0]] - mid) @ normal) < \
                            -self.settings.trick_margin * long_:
                        loose.extend(p)
                        continue
            keep.append(k)
        return [pieces[k] for k in keep], [piece_seat[k] for k in keep]

    def _drop_phantoms(self, geo: CardGeometry, order: list[int], seat: Seat,
                       face_up: np.ndarray, certainty: np.ndarray) -> list[int]:
        """Drop boxes lying across two neighbours of a row that are no card of their own.

        Such a box straddles the visible halves of two cards, so the second look cannot tell
        its long side (low certainty), and without it its neighbours lie only one step apart:
        the next card covers part of the previous one, so the step is less than the previous
        card's extent along the row. A real card between them makes the gap two steps.
        """
        if len(order) < 3:
            return order
        direction = along(seat)
        # extent along the row: the long side when the card lies along it, else the short one
        lying = np.abs(geo.long_axis @ direction)
        extent = geo.long_len * lying + geo.short_len * np.sqrt(np.clip(1 - lying**2, 0, 1))
        keep = list(order)
        k = 1
        while k < len(keep) - 1:
            i, a, b = keep[k], keep[k - 1], keep[k + 1]
            gap = abs(float((geo.centers[b] - geo.centers[a]) @ direction))
            if (certainty[i] < self.settings.phantom_certainty and not face_up[i]
                    and min(certainty[a], certainty[b]) >= 0.9
                    and gap < self.settings.phantom_gap * extent[a]):
                del keep[k]
                continue
            k += 1
        return keep

    # -- seats --------------------------------------------------------------------------

    @staticmethod
    def _piece_seat(geo: CardGeometry, piece: list[int], centre: np.ndarray) -> Seat:
        pts = geo.centers[piece]
        mid = pts.mean(axis=0)
        offset = mid - centre
        if len(piece) == 2:
            # two overlapping cards of a row are displaced along the row
            step = pts[1] - pts[0]
            if abs(step[0]) > 2 * abs(step[1]):
                return Seat.S if offset[1] > 0 else Seat.N
            if abs(step[1]) > 2 * abs(step[0]):
                return Seat.E if offset[0] > 0 else Seat.W
        if len(piece) >= 3:
            # a row's line: horizontal rows are N/S, vertical ones W/E (principal axis of
            # the centres, in closed form for 2x2)
            direction, major, minor = principal_axis(pts)
            if major > 4 * max(minor, 1e-9):
                if abs(direction[0]) >= abs(direction[1]):
                    return Seat.S if offset[1] > 0 else Seat.N
                return Seat.E if offset[0] > 0 else Seat.W
        return _side_of(offset)

    @staticmethod
    def _set_aside_loose(
        geo: CardGeometry, pieces: list[list[int]], face_up: np.ndarray, short: float,
        centre: np.ndarray, confidence: np.ndarray | None = None,
    ) -> tuple[list[list[int]], list[int]]:
        """Separate groups that are not rows: piles and exposed hands.

        A pile (talon, a stack of cards) has its cards on top of each other rather than
        shifted along a line; an exposed hand (dummy's cards in columns) is a group of
        several face-up cards while the rows lie face down - unless it is one thin line
        running along the table's edge, as a row does (dummy's columns point at the middle
        and stand side by side): that is a row whose backs the detector took for faces, as
        it does with plain backs in a grey picture. Single face-up cards stay: they may be
        the trick in progress. With ``confidence`` (a fixed camera, whose small cards draw
        the odd ghost box), a face-up group of one sure box and only unsure others is the
        sure card alone.
        """
        mostly_down = float(np.mean(~face_up)) >= 0.5
        keep: list[list[int]] = []
        loose: list[int] = []
        for p in pieces:
            if len(p) >= 2:
                pts = geo.centers[p]
                d = np.linalg.norm(pts[:, None] - pts[None], axis=-1)
                np.fill_diagonal(d, np.inf)
                if float(np.median(d.min(axis=1))) < 0.2 * short:
                    loose.extend(p)
                    continue
                if confidence is not None and face_up[p].all():
                    sure, *unsure = sorted(p, key=lambda i: -confidence[i])
                    if confidence[sure] >= _SURE_BOX and \
                            all(confidence[i] < _UNSURE_BOX for i in unsure):
                        keep.append([sure])
                        loose.extend(unsure)
                        continue
                if mostly_down and face_up[p].mean() > 0.5 and \
                        not _row_along_edge(pts, centre, short):
                    loose.extend(p)
                    continue
            keep.append(p)
        return keep, loose

    @staticmethod
    def _split_corners(
        geo: CardGeometry, pieces: list[list[int]], centre: np.ndarray
    ) -> list[list[int]]:
        """Cut pieces where two rows touch at a corner of the table (an L-shaped chain).

        Each card's side is first taken from its position scaled by the spread of all cards
        (so a wide table does not favour N/S). A piece whose cards fall on two sides is cut:
        a straight line is fitted through the unambiguous cards of each side, and every card
        of the piece goes to the nearer line - the cards at the corner itself included.
        """
        offset = geo.centers - centre
        spread = np.maximum(np.abs(offset).max(axis=0), 1e-9)
        scaled = offset / spread
        sides = [_side_of(v) for v in scaled]
        ratio = np.abs(scaled[:, 0]) / np.maximum(np.abs(scaled[:, 1]), 1e-9)
        clear = (ratio < 0.75) | (ratio > 1.33)
        out: list[list[int]] = []
        for p in pieces:
            groups: dict[Seat, list[int]] = {}
            for i in p:
                groups.setdefault(sides[i], []).append(i)
            big = {seat: g for seat, g in groups.items() if len(g) >= 2}
            if len(p) < 4 or len(big) < 2:
                out.append(p)
                continue
            lines = []
            for seat, g in big.items():
                core = [i for i in g if clear[i]] or g
                pts = geo.centers[core]
                mid = pts.mean(axis=0)
                direction = along(seat)
                if len(core) >= 3:
                    main, major, minor = principal_axis(pts)
                    if major > 4 * max(minor, 1e-9) and abs(main @ direction) > 0.8:
                        direction = main
                lines.append((mid, np.array([-direction[1], direction[0]])))
            dist = np.array(
                [[abs((geo.centers[i] - mid) @ normal) for mid, normal in lines] for i in p]
            )
            nearest = dist.argmin(axis=1)
            for k in range(len(lines)):
                part = [i for i, j in zip(p, nearest, strict=True) if j == k]
                if part:
                    out.append(part)
        return out

    @staticmethod
    def _refine_centre(
        geo: CardGeometry, pieces: list[list[int]], seats: list[Seat], centre: np.ndarray
    ) -> np.ndarray:
        """The table's middle from the rows: between opposite rows where both were found;
        else from the middle of the rows running that way: both where both hold
        :data:`MIN_CENTRING_ROW` boxes or more and about as many, else the longer one when it
        holds that many."""
        big: dict[Seat, list[int]] = {}
        for p, seat in zip(pieces, seats, strict=True):
            if len(p) >= 2:
                big.setdefault(seat, []).extend(p)
        new = centre.copy()
        for axis, (a, b), (c, d) in ((0, (Seat.W, Seat.E), (Seat.S, Seat.N)),
                                     (1, (Seat.N, Seat.S), (Seat.W, Seat.E))):
            if a in big and b in big:  # the rows facing each other across this axis
                new[axis] = (geo.centers[big[a], axis].mean()
                             + geo.centers[big[b], axis].mean()) / 2
                continue
            # else along the rows that run this way: each begins at its player's left, so a
            # short row's middle lies off the table's towards that end - South's and North's
            # (West's and East's) lie off it opposite ways, and together they cancel. Rows of
            # one deal hold as many cards, give or take one: a row found with fewer boxes than
            # that lacks some at an end, and the longer row alone places the middle.
            running = sorted((big[s] for s in (c, d) if len(big.get(s, ())) >= MIN_CENTRING_ROW),
                             key=len, reverse=True)
            if len(running) == 2 and len(running[0]) - len(running[1]) > 1:
                running = running[:1]
            if running:
                new[axis] = float(np.mean([geo.centers[row, axis].mean() for row in running]))
        return new

    # -- order --------------------------------------------------------------------------

    def _orders(
        self,
        geo: CardGeometry,
        seat_members: dict[Seat, list[int]],
        image_quads: np.ndarray,
        face_up: np.ndarray,
        image: np.ndarray | None,
        reading: TableReading,
    ) -> dict[Seat, list[int]]:
        """Each row's cards from the player's left to his right, checked by the occlusion."""
        orders: dict[Seat, list[int]] = {}
        for seat, members in seat_members.items():
            pos = geo.centers[members] @ along(seat)
            orders[seat] = [members[k] for k in np.argsort(pos, kind="stable")]
        if image is None:
            return orders
        pairs = [
            (seat, a, b) for seat, o in orders.items() for a, b in zip(o[:-1], o[1:], strict=True)
        ]
        if not pairs:
            return orders
        first = np.array([a for _, a, _ in pairs])
        second = np.array([b for _, _, b in pairs])
        top, clarity = which_on_top(image, image_quads[first], image_quads[second])
        # Printed faces put strong edges everywhere near a card's border: only pairs of
        # face-down cards vote.
        clarity = np.where(face_up[first] | face_up[second], 0.0, clarity)
        for seat in orders:
            mine = np.array([p[0] == seat for p in pairs])
            # Reversing a row is drastic: only on clear, near-unanimous evidence from at least
            # half of its overlaps (backs without a border show their edges poorly).
            sure = mine & (clarity >= 0.5)
            n_sure = int(sure.sum())
            reversed_votes = int((sure & (top == 0)).sum())
            if n_sure >= max(4, 0.5 * mine.sum()) and reversed_votes >= 0.9 * n_sure:
                reading.notes.append(
                    f"row {seat.name}: each card lies under its right-hand neighbour, so the "
                    "row was laid from the player's right; read in the order the cards were laid"
                )
                orders[seat] = orders[seat][::-1]
        return orders

    @staticmethod
    def _row_line(geo: CardGeometry, idx: list[int], seat: Seat) -> tuple[np.ndarray, np.ndarray]:
        """A row's centre point and its unit normal pointing at the player."""
        pts = geo.centers[idx]
        mid = pts.mean(axis=0)
        normal = TOWARD[seat]
        if len(idx) >= 3:
            direction, major, minor = principal_axis(pts)
            candidate = np.array([-direction[1], direction[0]])
            if candidate @ normal < 0:
                candidate = -candidate
            if major > 4 * max(minor, 1e-9) and candidate @ normal > np.cos(np.radians(35)):
                normal = candidate
        return mid, normal

    @staticmethod
    def _row_normal(geo: CardGeometry, order: list[int], seat: Seat) -> np.ndarray:
        """Unit vector pointing at the player, from the row's own line when it has one."""
        toward = TOWARD[seat]
        if len(order) >= ROW_LINE_MIN_CARDS:
            direction, major, minor = principal_axis(geo.centers[order])
            if major > 9 * max(minor, 1e-9):
                normal = np.array([-direction[1], direction[0]])
                if normal @ toward < 0:
                    normal = -normal
                # a row is never turned by more than ~30 degrees from its side of the table
                if normal @ toward > np.cos(np.radians(ROW_LINE_MAX_TURN)):
                    return normal
        return toward

    def _orientations(
        self,
        geo: CardGeometry,
        idx: list[int],
        normal: np.ndarray,
        det_conf: np.ndarray,
        axis_certainty: np.ndarray | None = None,
    ) -> tuple[list[Orientation], np.ndarray]:
        """Won/lost of a row's cards against the row's normal, with a confidence each.

        The confidence is the weakest of three margins: how far the card is from 45 degrees,
        how sure its long axis is (the box clearly oblong rather than square, or the axis
        classifier's certainty), and the detector's score.
        """
        cos = np.clip(np.abs(geo.long_axis[idx] @ normal), 0.0, 1.0)
        angle = np.degrees(np.arccos(cos))  # 0: points at the player, 90: along the row
        # cards lie sloppily: up to ~30 degrees off still reads, beyond that it is unknown
        angle_margin = np.clip(np.abs(angle - 45.0) / 45.0 * 1.5, 0, 1)
        if axis_certainty is None:
            aspect_margin = np.clip((geo.aspect[idx] - 1.0) / (CARD_ASPECT - 1.0) * 1.5, 0, 1)
        else:
            aspect_margin = np.clip(np.asarray(axis_certainty, dtype=np.float64) * 1.5, 0, 1)
        det_margin = np.clip(np.asarray(det_conf, dtype=np.float64) / 0.6, 0, 1)
        conf = np.minimum(np.minimum(angle_margin, aspect_margin), det_margin)
        out = [
            Orientation.UNKNOWN
            if c < self.settings.min_confidence
            else (Orientation.WON if a < 45.0 else Orientation.LOST)
            for a, c in zip(angle, conf, strict=True)
        ]
        return out, conf


def which_on_top(
    image: np.ndarray, quads_a: np.ndarray, quads_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For pairs of overlapping cards: which one lies on top (0: a, 1: b) and how clearly.

    Where two cards overlap, only the upper card's border is visible: compare the contrast
    across each card's border inside the other card's rectangle. ``quads_a``/``quads_b`` are
    (P, 4, 2) image-pixel quads; returns ``top`` (P,) in {0, 1} and ``clarity`` (P,) in
    [0, 1] (0: no evidence).
    """
    qa = np.asarray(quads_a, dtype=np.float64).reshape(-1, 4, 2)
    qb = np.asarray(quads_b, dtype=np.float64).reshape(-1, 4, 2)
    if len(qa) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    ca = _border_contrast(image, qa, qb)
    cb = _border_contrast(image, qb, qa)
    total = ca + cb
    clarity = np.where(total > 1e-6, np.abs(ca - cb) / np.maximum(total, 1e-6), 0.0)
    top = np.where(ca > cb, 0, 1)
    return top, clarity


_T = np.linspace(0.1, 0.9, 12)


def _border_contrast(image: np.ndarray, quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Mean intensity step across each quad's border at the points lying inside the other."""
    a = quads  # (P, 4, 2)
    b = np.roll(quads, -1, axis=1)
    pts = a[:, :, None, :] + _T[None, None, :, None] * (b - a)[:, :, None, :]  # (P, 4, T, 2)
    edge = b - a
    normal = np.stack([-edge[..., 1], edge[..., 0]], axis=-1)
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-9)
    centre = quads.mean(axis=1, keepdims=True)
    outward = np.sign(np.sum(normal * (a - centre), axis=-1, keepdims=True))
    normal = normal * np.where(outward == 0, 1.0, outward)
    pts = pts.reshape(len(quads), -1, 2)  # (P, 4T, 2)
    nrm = np.repeat(normal, len(_T), axis=1)  # (P, 4T, 2)
    mid = others.mean(axis=1, keepdims=True)
    shrunk = mid + (others - mid) * 0.85
    inside = _inside(pts, shrunk)  # (P, 4T)
    step = 2.5
    diff = np.abs(_sample(image, pts + nrm * step) - _sample(image, pts - nrm * step))
    count = inside.sum(axis=1)
    return np.where(count > 0, (diff * inside).sum(axis=1) / np.maximum(count, 1), 0.0)


def _inside(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(P, K) mask of points (P, K, 2) inside convex quads (P, 4, 2), either winding."""
    a = quads[:, None, :, :]  # (P, 1, 4, 2)
    b = np.roll(quads, -1, axis=1)[:, None, :, :]
    p = points[:, :, None, :]  # (P, K, 1, 2)
    cross = (b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (
        p[..., 0] - a[..., 0]
    )
    return np.all(cross >= 0, axis=2) | np.all(cross <= 0, axis=2)


def _sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Grey value (sum of the channels) at the nearest pixel of each point (..., 2)."""
    h, w = image.shape[:2]
    x = np.clip(np.rint(pts[..., 0]).astype(np.int64), 0, w - 1)
    y = np.clip(np.rint(pts[..., 1]).astype(np.int64), 0, h - 1)
    flat = y * w + x
    if image.ndim == 2:
        return image.reshape(-1)[flat].astype(np.float64)
    pixels = image.reshape(-1, image.shape[2])[flat.reshape(-1)]
    return pixels.sum(axis=-1, dtype=np.float64).reshape(flat.shape) / image.shape[2]
