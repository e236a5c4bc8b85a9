"""Small builders of table readings for tracker tests that need no rendering."""

from __future__ import annotations

import numpy as np

from vision.cards import Card
from vision.record import Orientation
from vision.seats import Seat
from vision.synth.video import VideoScript
from vision.table.reading import SeenCard, TableReading
from vision.video.pipeline import TruthAnalyzer

_QUAD = np.zeros((4, 2), np.float32)


def reading(faceup: dict[Seat, str | None] | None = None,
            rows: dict[Seat, list[str]] | None = None,
            unsure: dict[Seat, list[tuple[str, float]]] | None = None) -> TableReading:
    """``faceup``: seat -> card ('SA', or None for an unreadable face); ``rows``: seat ->
    orientations ('won'/'lost') in trick order; ``unsure``: seat -> the candidates the reader
    gives a face it left unread (that seat's ``faceup`` entry is None)."""
    r = TableReading()
    for seat, card in (faceup or {}).items():
        sc = SeenCard(quad=_QUAD, face_up=True, confidence=1.0, seat=seat,
                      card=Card.from_str(card) if card else None,
                      card_confidence=1.0 if card else 0.0,
                      card_candidates=tuple((Card.from_str(c), p)
                                            for c, p in (unsure or {}).get(seat, ())))
        r.cards.append(sc)
        r.current_trick[seat] = sc
    for seat, orients in (rows or {}).items():
        for i, o in enumerate(orients, start=1):
            sc = SeenCard(quad=_QUAD, face_up=False, confidence=1.0, seat=seat, row_position=i,
                          orientation=Orientation(o))
            r.cards.append(sc)
            r.rows.setdefault(seat, []).append(sc)
    return r


def script_readings(script: VideoScript, fps: float) -> list[tuple[float, TableReading]]:
    """Readings of every frame straight from the script's layout (no hands, no pixels)."""
    analyzer = TruthAnalyzer({}, fps)
    out = []
    n = int(script.duration * fps) + 1
    for i in range(n):
        t = i / fps
        rows, current, _ = script.state_at(t)
        cards = []
        for p in script.placements(rows, current):
            cards.append({"seat": p.seat.name if p.seat is not None else None,
                          "row_position": p.row_position,
                          "orientation": p.orientation.value if p.orientation else None,
                          "face_up": p.face_up, "card": str(p.card), "visible_fraction": 1.0,
                          "in_current_trick": p.in_current_trick,
                          "quad": p.quad().tolist()})
        out.append((t, analyzer.reading(cards)))
    return out


def two_bridge_deals(fps: float) -> tuple[VideoScript, VideoScript,
                                          list[tuple[float, TableReading]]]:
    """Two bridge deals one after the other, the table cleared for 3 s between them: 6D by N
    (2 tricks) and 4H by S (4 tricks, one won by a heart where diamonds would lose it)."""
    from vision.cards import Suit
    from vision.contract import Contract
    from vision.synth.video import make_script

    one = make_script("bridge", 20, n_tricks=2, hover=False)
    two = make_script("bridge", 44, n_tricks=4, hover=False, dealer=Seat.E,
                      contract=Contract(trump=Suit.HEARTS, declarer=Seat.S, level=4))
    stream = list(script_readings(one, fps))
    end = stream[-1][0]
    stream += [(end + i / fps, reading()) for i in range(1, int(3 * fps) + 1)]
    start = stream[-1][0] + 1 / fps
    stream += [(start + t, r) for t, r in script_readings(two, fps)]
    return one, two, stream
