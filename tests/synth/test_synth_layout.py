"""Row layout: overlaps within range, stable as rows grow, style validation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.record import Orientation
from vision.seats import Seat
from vision.simulate import simulate_deal
from vision.synth import StyleError, layout_rows, plain_table_style, sample_table_style
from vision.synth.layout import along, layout_row
from vision.synth.style import BACK_PATTERNS, HELD_OUT_BACK_PATTERNS


@pytest.mark.parametrize("overlap", [(0.3, 0.3), (0.45, 0.55), (0.7, 0.7)])
def test_each_card_covers_the_asked_share_of_the_previous_one(overlap) -> None:
    style = plain_table_style(overlap=overlap)
    deal = simulate_deal("bridge", seed=6)
    for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
        row = layout_row(seat, deal.rows[seat], style, np.random.default_rng(1), face_up=False)
        u = np.array(along(seat))
        spans = []
        for p in row:
            t = p.quad() @ u
            spans.append((t.min(), t.max()))
        for (a0, a1), (b0, _) in zip(spans, spans[1:], strict=False):
            covered = (a1 - b0) / (a1 - a0)
            assert overlap[0] - 0.01 <= covered <= overlap[1] + 0.01
        # won cards stand across the row (short side along it), lost ones lie along it
        for p, e in zip(row, deal.rows[seat], strict=True):
            ext = spans[row.index(p)][1] - spans[row.index(p)][0]
            short, long = style.card_size
            expected = short if e.orientation is Orientation.WON else long
            assert ext == pytest.approx(expected, abs=0.5)


def test_earlier_cards_stay_put_as_the_rows_grow() -> None:
    style = sample_table_style(np.random.default_rng(4))
    full = simulate_deal("preferans", seed=9)
    part = simulate_deal("preferans", seed=9, n_tricks=4)
    a = layout_rows(part, style, np.random.default_rng(77), "end")
    b = layout_rows(full, style, np.random.default_rng(77), "end")
    by_key = {(p.seat, p.row_position): p for p in b}
    assert a
    for p in a:
        q = by_key[(p.seat, p.row_position)]
        assert p.card == q.card and p.centre == q.centre and p.angle == q.angle


def test_impossible_overlap_is_refused() -> None:
    with pytest.raises(StyleError, match="overlap"):
        sample_table_style(np.random.default_rng(0), overlap=(0.3, 1.5))


def test_held_out_looks_use_held_out_designs() -> None:
    for i in range(20):
        s = sample_table_style(np.random.default_rng(i), held_out=True)
        assert s.back.pattern in HELD_OUT_BACK_PATTERNS
        assert s.face is None or s.face.held_out
        t = sample_table_style(np.random.default_rng(i))
        assert t.back.pattern in BACK_PATTERNS and (t.face is None or not t.face.held_out)
