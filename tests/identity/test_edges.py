"""Face-up card boxes fitted to the card's edges against the cloth."""

from __future__ import annotations

import cv2
import numpy as np

from vision.identity.crops import canonical_quad
from vision.identity.edges import fit_to_cloth_edges

CLOTH = (40, 110, 30)  # BGR green


def card_quad(centre: tuple[float, float], degrees: float, size=(60.0, 90.0)) -> np.ndarray:
    """A card's corners (clockwise in image coordinates, short edge first)."""
    w, h = size
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return corners @ turn.T + centre


def draw(image: np.ndarray, quad: np.ndarray) -> None:
    """A white card face with a thin grey rim and a dark index near two corners."""
    cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), (235, 238, 240),
                       lineType=cv2.LINE_AA, shift=4)
    for corner, inward in ((0, 2), (2, 0)):
        at = quad[corner] + 0.18 * (quad[inward] - quad[corner])
        cv2.circle(image, tuple(int(v) for v in at), 4, (20, 20, 20), -1)


def turned_by(quad: np.ndarray, degrees: float, shift=(0.0, 0.0)) -> np.ndarray:
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    centre = quad.mean(axis=0)
    return (quad - centre) @ turn.T + centre + shift


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, whichever short end each quad starts at."""
    a, b = canonical_quad(found), canonical_quad(truth)
    return min(float(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).max()) for k in (0, 2))


def picture() -> np.ndarray:
    rng = np.random.default_rng(3)
    image = np.empty((400, 500, 3), np.uint8)
    image[:] = CLOTH
    noise = rng.normal(0, 4, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def test_a_box_turned_and_shifted_off_a_lone_card_is_put_back_on_it() -> None:
    image = picture()
    truth = card_quad((250, 200), 12.0)
    draw(image, truth)
    box = turned_by(truth, -7.0, (4.0, -3.0))
    assert corner_error(box, truth) > 8
    fitted, ok = fit_to_cloth_edges(image, box[None], box[None], np.array([0]))
    assert ok.tolist() == [True]
    assert corner_error(fitted[0], truth) < 2.0


def test_the_card_under_another_is_fitted_from_the_edges_that_show() -> None:
    image = picture()
    under = card_quad((220, 200), 3.0)
    on_top = card_quad((255, 205), -2.0)  # covers the right half of the first card
    draw(image, under)
    draw(image, on_top)
    box = turned_by(under, 6.0, (2.0, 2.0))
    boxes = np.stack([box, on_top])
    fitted, ok = fit_to_cloth_edges(image, box[None], boxes, np.array([0]))
    assert ok[0]
    a, b = canonical_quad(fitted[0]), canonical_quad(under)
    # the turn comes from the top, bottom and left edges; it must be the card's own
    direction = lambda q: np.degrees(np.arctan2(*(q[3] - q[0])[::-1])) % 180  # noqa: E731
    assert abs(direction(a) - direction(b)) < 1.0
    # the visible (left) end is where the card's is
    left = lambda q: q[np.argsort(q[:, 0])[:2]].mean(axis=0)  # noqa: E731
    assert np.linalg.norm(left(fitted[0]) - left(under)) < 2.0


def test_a_card_that_does_not_stand_out_from_the_cloth_keeps_its_box() -> None:
    image = np.full((400, 500, 3), 236, np.uint8)  # a white cloth
    truth = card_quad((250, 200), 10.0)
    draw(image, truth)
    box = turned_by(truth, 5.0)
    fitted, ok = fit_to_cloth_edges(image, box[None], box[None], np.array([0]))
    assert not ok[0]
    assert np.array_equal(fitted[0], box)


def test_a_box_turned_up_to_45_degrees_off_is_turned_back_and_further_off_is_left() -> None:
    image = picture()
    truth = card_quad((250, 200), 0.0)
    draw(image, truth)
    box = turned_by(truth, 35.0)
    fitted, ok = fit_to_cloth_edges(image, box[None], box[None], np.array([0]))
    assert ok[0] and corner_error(fitted[0], truth) < 2.0
    # 60 degrees off: beyond the turns searched, the box is left as it is
    box = turned_by(truth, 60.0)
    fitted, ok = fit_to_cloth_edges(image, box[None], box[None], np.array([0]))
    assert not ok[0]
    assert np.array_equal(fitted[0], box)


def test_no_cards_and_grey_pictures_come_back_unchanged() -> None:
    empty, ok = fit_to_cloth_edges(picture(), np.zeros((0, 4, 2)), np.zeros((0, 4, 2)),
                                   np.zeros(0, int))
    assert empty.shape == (0, 4, 2) and ok.shape == (0,)
    box = card_quad((250, 200), 0.0)
    grey = cv2.cvtColor(picture(), cv2.COLOR_BGR2GRAY)
    fitted, ok = fit_to_cloth_edges(grey, box[None], box[None], np.array([0]))
    assert not ok[0] and np.array_equal(fitted[0], box)


def test_degenerate_boxes_are_left_alone_beside_a_card_that_is_fitted() -> None:
    image = picture()
    truth = card_quad((250, 200), 5.0)
    draw(image, truth)
    boxes = np.stack([np.full((4, 2), 100.0),                      # a point
                      np.array([[50, 50], [51, 50], [51, 50], [50, 50]], float),  # a sliver
                      card_quad((-500, -500), 0.0),                 # outside the picture
                      truth + 3.0])
    fitted, ok = fit_to_cloth_edges(image, boxes, boxes, np.arange(4))
    assert ok.tolist() == [False, False, False, True]
    assert np.isfinite(fitted).all()
    assert np.array_equal(fitted[:3], boxes[:3])
    assert corner_error(fitted[3], truth) < 1.5
