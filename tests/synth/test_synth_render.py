"""The renderer's ground truth matches its pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth import CameraStyle, plain_table_style, render_game_scene

TABLE = (0, 160, 0)
BACK = (200, 40, 40)


def _plain(camera: CameraStyle | None = None, game: str = "bridge"):
    return plain_table_style(game=game, image_size=(640, 480), table_colour=TABLE,
                             back_colour=BACK, camera=camera)


def _mask(shape: tuple[int, int], polys: list, erode: int = 0, dilate: int = 0) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    for p in polys:
        if len(p) >= 3:
            cv2.fillPoly(m, [np.round(np.asarray(p)).astype(np.int32)], 255)
    k = np.ones((3, 3), np.uint8)
    if erode:
        m = cv2.erode(m, k, iterations=erode)
    if dilate:
        m = cv2.dilate(m, k, iterations=dilate)
    return m > 0


def _close(img: np.ndarray, colour: tuple[int, int, int], tol: int = 25) -> np.ndarray:
    return (np.abs(img.astype(int) - np.asarray(colour)).max(axis=2) <= tol)


CAMERAS = [
    None,
    CameraStyle(tilt_deg=22.0, tilt_dir_deg=35.0, roll_deg=4.0, focal=1.0),
    CameraStyle(tilt_deg=12.0, tilt_dir_deg=200.0, roll_deg=-3.0, focal=1.3, k1=-0.06),
]


@pytest.mark.parametrize("camera", CAMERAS, ids=["straight", "tilted", "tilted+distorted"])
@pytest.mark.parametrize("game", ["bridge", "lhombre"])
def test_every_quad_lies_where_its_card_is_drawn(camera, game) -> None:
    scene = render_game_scene(game, "end", seed=11, style=_plain(camera, game))
    img = scene.image
    h, w = img.shape[:2]
    cards = scene.truth["cards"]
    assert len(cards) == sum(len(r) for r in scene.deal.rows.values())
    quads = [c["quad"] for c in cards]
    inside = _mask((h, w), quads, erode=2)
    outside = ~_mask((h, w), quads, dilate=2)
    # inside any quad (2 px from its edges): the back colour; a quad 1 px off fails this
    assert _close(img, BACK)[inside].mean() > 0.9995
    # outside every quad: the table
    assert _close(img, TABLE)[outside].mean() > 0.999
    # and each card really is there: its own visible region is back-coloured
    for c in cards:
        vis = _mask((h, w), [c["visible_polygon"]], erode=2)
        if vis.sum() > 20:
            assert _close(img, BACK)[vis].mean() > 0.99, c["id"]


@pytest.mark.parametrize("camera", CAMERAS[:2], ids=["straight", "tilted"])
def test_visible_polygons_follow_the_draw_order(camera) -> None:
    scene = render_game_scene("bridge", "mid", seed=5, n_tricks=8, style=_plain(camera))
    cards = scene.truth["cards"]
    h, w = scene.image.shape[:2]
    assert [c["z"] for c in cards] == sorted(c["z"] for c in cards)
    for i, c in enumerate(cards):
        vis = _mask((h, w), [c["visible_polygon"]], erode=1)
        above = _mask((h, w), [d["quad"] for d in cards[i + 1:]], erode=1)
        assert (vis & above).sum() <= 0.02 * max(vis.sum(), 1) + 5, c["id"]
        own = _mask((h, w), [c["quad"]], dilate=1)
        assert (vis & ~own).sum() == 0
    # a card nothing covers is fully visible; every row card shows at least part of itself
    top = max(cards, key=lambda c: c["z"])
    assert top["visible_fraction"] > 0.95
    assert all(c["visible_fraction"] > 0.15 for c in cards)


def test_a_hand_hides_what_it_covers() -> None:
    from vision.simulate import simulate_deal
    from vision.synth import layout_rows, render_scene, sample_hands

    style = _plain()
    deal = simulate_deal("bridge", seed=3)
    placements = layout_rows(deal, style, np.random.default_rng(0), "end")
    target = placements[5]
    hands = sample_hands(style, np.random.default_rng(1), n=1, targets=[target.centre])
    _, truth = render_scene(placements, style, np.random.default_rng(2), hands=hands)
    _, clear = render_scene(placements, style, np.random.default_rng(2), hands=[])
    assert truth[5]["visible_fraction"] < clear[5]["visible_fraction"]
    assert truth[5]["quad"] == clear[5]["quad"]


def test_same_seed_same_scene_other_seed_other_scene() -> None:
    a = render_game_scene("preferans", "mid", seed=42, image_size=(320, 240))
    b = render_game_scene("preferans", "mid", seed=42, image_size=(320, 240))
    c = render_game_scene("preferans", "mid", seed=43, image_size=(320, 240))
    assert np.array_equal(a.image, b.image)
    assert a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


def test_rows_follow_the_image_convention() -> None:
    scene = render_game_scene("bridge", "end", seed=2, style=_plain())
    by_seat: dict[str, list] = {}
    for c in scene.truth["cards"]:
        by_seat.setdefault(c["seat"], []).append(c)
    centre = {s: [np.mean(np.asarray(c["quad"]), 0) for c in sorted(
        cs, key=lambda c: c["row_position"])] for s, cs in by_seat.items()}
    # South left->right, North right->left, West top->bottom, East bottom->top
    assert centre["S"][-1][0] > centre["S"][0][0]
    assert centre["N"][-1][0] < centre["N"][0][0]
    assert centre["W"][-1][1] > centre["W"][0][1]
    assert centre["E"][-1][1] < centre["E"][0][1]
    for c in scene.truth["cards"]:
        q = np.asarray(c["quad"])
        long_axis = q[3] - q[0]  # top-left -> bottom-left: the long edge
        vertical = abs(long_axis[1]) > abs(long_axis[0])
        toward_player_vertical = c["seat"] in ("N", "S")
        assert (c["orientation"] == "won") == (vertical == toward_player_vertical)
        # quad[0] -> quad[1] is a short edge
        assert np.linalg.norm(q[1] - q[0]) < np.linalg.norm(q[3] - q[0])
