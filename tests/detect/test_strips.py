"""Row strips: where a strip lies, what it shows, and how its score is read into centres."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect.strips import (
    LONG_SIDE_PX,
    STRIP_HEIGHT,
    cut_strip,
    find_peaks,
    strip_frame,
    to_batch,
)


def _card(cx: float, cy: float, long_side: float, short_side: float, across: bool) -> np.ndarray:
    """Corners of an upright card (long side vertical when ``across`` a horizontal row)."""
    hx, hy = (short_side / 2, long_side / 2) if across else (long_side / 2, short_side / 2)
    return np.array([[cx - hx, cy - hy], [cx + hx, cy - hy], [cx + hx, cy + hy],
                     [cx - hx, cy + hy]])


def _row(n: int = 5, step: float = 30.0, angle_deg: float = 0.0) -> np.ndarray:
    quads = np.stack([_card(100 + step * k, 200, 80, 56, across=k % 2 == 0) for k in range(n)])
    if angle_deg:
        a = np.radians(angle_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quads = (quads - [200, 200]) @ rot.T + [200, 200]
    return quads


def test_frame_runs_from_first_card_to_last_at_the_cards_scale():
    quads = _row(5, angle_deg=20)
    frame = strip_frame(quads)
    along = frame.to_strip(quads.mean(axis=1))
    assert np.all(np.diff(along) > 0)  # laying order kept
    # 30 px steps of 80 px cards: 15 strip px per step at 40 px a long side
    assert np.allclose(np.diff(along), 30 * LONG_SIDE_PX / 80, atol=1e-6)
    assert along[0] == pytest.approx(0.9 * LONG_SIDE_PX)  # the margin before the first card
    assert np.allclose(frame.to_image(along), quads.mean(axis=1), atol=1e-6)
    # the reversed row runs the other way
    back = strip_frame(quads[::-1])
    assert np.allclose(back.direction, -frame.direction)


def test_a_row_of_one_card_runs_the_way_it_is_given():
    # an East card lying along its (upright) row: lost
    card = _card(300, 200, 80, 56, across=True)[None]
    assert np.allclose(strip_frame(card).direction, [1.0, 0.0])  # no way given: the x axis
    frame = strip_frame(card, direction=np.array([0.0, -3.0]))
    assert np.allclose(frame.direction, [0.0, -1.0])
    assert np.allclose(frame.to_image(frame.to_strip(card.mean(axis=1))), card.mean(axis=1))
    # the card's long side runs along that strip, so it does not lie across the row
    long_axis = card[0, 3] - card[0, 0]
    assert abs(long_axis @ frame.direction) == pytest.approx(80.0)
    # a row of three or more keeps its own line when it runs about the way given...
    quads = _row(5)
    a = np.radians(20)
    near = np.array([np.cos(a), np.sin(a)])
    assert np.allclose(strip_frame(quads, direction=near).direction, strip_frame(quads).direction)
    # ... not when it runs another way (boxes strewn across the row), nor with two cards
    assert np.allclose(strip_frame(quads, direction=np.array([0.0, 1.0])).direction, [0, 1])
    two = np.stack([_card(100, 200, 80, 56, True), _card(130, 240, 80, 56, False)])
    assert np.allclose(strip_frame(two, direction=np.array([1.0, 0.0])).direction, [1, 0])
    assert not np.allclose(strip_frame(two).direction, [1, 0])  # their own line


def test_cut_strip_shows_the_row_on_its_middle_line():
    image = np.zeros((400, 400, 3), np.uint8)
    quads = _row(4)
    import cv2

    for q in quads:
        cv2.fillConvexPoly(image, q.round().astype(np.int32), (255, 255, 255))
    frame = strip_frame(quads)
    strip = cut_strip(image, frame)
    assert strip.shape == (STRIP_HEIGHT, frame.width, 3)
    # the cards are bright in the middle of the strip, the cloth dark at its ends
    middle = STRIP_HEIGHT // 2
    x0 = int(frame.to_strip(quads[0].mean(axis=0))[()])
    assert strip[middle, x0].min() > 200
    assert strip[middle, 2].max() < 50 and strip[middle, frame.width - 3].max() < 50
    # a won card (long side across the row) reaches further from the middle line than a lost
    # one: 18 strip px are 36 image px, inside the won card's 40 and beyond the lost one's 28
    apart = _row(2, step=100)
    image[:] = 0
    for q in apart:
        cv2.fillConvexPoly(image, q.round().astype(np.int32), (255, 255, 255))
    frame = strip_frame(apart)
    strip = cut_strip(image, frame)
    won_x, lost_x = (int(x) for x in frame.to_strip(apart.mean(axis=1)))
    assert strip[middle - 18, won_x].min() > 200
    assert strip[middle - 18, lost_x].max() < 50


def test_to_batch_pads_to_the_widest_strip_as_rgb():
    a = np.zeros((STRIP_HEIGHT, 40, 3), np.uint8)
    a[..., 0] = 255  # blue in BGR
    b = np.zeros((STRIP_HEIGHT, 61, 3), np.uint8)
    batch = to_batch([a, b])
    assert batch.shape == (2, 3, STRIP_HEIGHT, 64)
    assert batch[0, 2, 0, 0] == 1.0 and batch[0, 0, 0, 0] == 0.0  # blue is the last channel
    assert batch[0, :, :, 40:].max() == 0.0


def test_find_peaks_takes_local_maxima_above_the_threshold_once():
    score = np.array([0.1, 0.5, 0.9, 0.5, 0.1, 0.1, 0.2, 0.3, 0.7, 0.7, 0.2, 0.95, 0.0])
    # 0.9 at 2; the plateau 0.7/0.7 at 8-9 lies within 3 cells of 0.95 at 11
    assert find_peaks(score, 0.4, 3, dip=1.0).tolist() == [2, 11]
    assert find_peaks(score, 0.4, 1, dip=1.0).tolist() == [2, 8, 11]
    assert find_peaks(np.zeros(0)).tolist() == []
    # highest first: 0.8 (ruled out by 0.9) does not in turn rule out 0.7 six cells from 0.9
    chain = np.array([0.9, 0.1, 0.1, 0.8, 0.1, 0.1, 0.7])
    assert find_peaks(chain, 0.4, 3).tolist() == [0, 6]


def test_two_cards_laid_close_peak_apart_where_the_score_dips_between_them():
    # the demo photo's North row: a card a sixth of a card beside the next, 0.97 and 0.99
    # with 0.55 between them (3 cells apart)
    close = np.array([0.05, 0.19, 0.96, 0.97, 0.60, 0.55, 0.99, 0.96, 0.06])
    assert find_peaks(close, 0.4, 3, dip=0.3).tolist() == [3, 6]
    # one card's ragged peak (a shallow dip) stays one card
    ragged = np.array([0.05, 0.80, 0.97, 0.85, 0.90, 0.99, 0.30])
    assert find_peaks(ragged, 0.4, 3, dip=0.3).tolist() == [5]
