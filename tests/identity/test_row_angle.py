"""Face-up row cards turned to their row's direction (``vision.identity.row_angle``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.identity.row_angle import (
    MIN_TURN_DEGREES,
    long_axis_degrees,
    row_direction,
    row_turns,
    turned_to_row,
)


def card(centre: tuple[float, float], degrees: float, size=(60.0, 90.0)) -> np.ndarray:
    """A card's corners, its long side running ``degrees`` from the image's x axis."""
    w, h = size
    corners = np.array([[-h / 2, -w / 2], [h / 2, -w / 2], [h / 2, w / 2], [-h / 2, w / 2]])
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return corners @ turn.T + np.asarray(centre)


def gap(a: float, b: float, period: float = 180.0) -> float:
    return abs((a - b + period / 2) % period - period / 2)


def test_a_card_s_long_side_is_measured_whichever_corner_its_box_starts_at() -> None:
    for degrees in (0.0, 17.0, 95.0, 170.0):
        q = card((100, 100), degrees)
        for k in range(4):
            assert gap(long_axis_degrees(np.roll(q, k, axis=0)), degrees) < 1e-6


def test_a_row_s_direction_takes_won_and_lost_cards_alike_and_outvotes_a_stray_box() -> None:
    # lost cards along a row at 5 degrees, won cards across it, one box 30 degrees off
    assert gap(row_direction([5.0, 95.0, 4.0, 96.0, 35.0]), 5.0, 90.0) < 1.5  # type: ignore[arg-type]
    # the same across the wrap at 0 / 90 degrees
    assert gap(row_direction([179.0, 1.0, 89.5, 0.5]), 0.5, 90.0) < 1.5  # type: ignore[arg-type]
    assert row_direction([10.0]) is None  # one neighbour says too little


def test_a_box_far_off_its_row_is_turned_about_its_centre_to_the_nearer_direction() -> None:
    q = card((200, 150), 25.0)
    turned = turned_to_row(q, 2.0)
    assert turned is not None
    assert gap(long_axis_degrees(turned), 2.0) < 1e-6  # 25 -> 2, not to 92
    assert np.allclose(turned.mean(axis=0), q.mean(axis=0))
    sides = np.linalg.norm(np.roll(turned, -1, axis=0) - turned, axis=1)
    assert np.allclose(sorted(sides), [60, 60, 90, 90])
    # a won card's box (long side across the row) turns to the row's other direction
    assert gap(long_axis_degrees(turned_to_row(card((0, 0), 70.0), 2.0)), 92.0) < 1e-6  # type: ignore[arg-type]
    # within a few degrees it is left alone
    assert turned_to_row(card((0, 0), 2.0 + MIN_TURN_DEGREES - 1), 2.0) is None


def test_only_the_cards_asked_for_that_lie_far_off_their_row_are_turned() -> None:
    quads = np.stack([card((100 * k, 0), a) for k, a in enumerate((0.0, 91.0, 20.0, 1.0))]
                     + [card((0, 300), 40.0)])
    rows = ["N", "N", "N", "N", None]
    turned = row_turns(quads, rows, [1, 2, 4])
    assert sorted(turned) == [2]  # card 1 lies across its row as a won card should; 4 has no row
    assert gap(long_axis_degrees(turned[2]), 0.0, 90.0) < 2.0


@pytest.mark.parametrize("others", [[], [3.0]])
def test_a_row_of_too_few_other_cards_turns_nothing(others: list[float]) -> None:
    quads = np.stack([card((0, 0), 30.0)] + [card((100, 0), a) for a in others])
    assert row_turns(quads, ["N"] * len(quads), [0]) == {}
