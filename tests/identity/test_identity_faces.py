"""Card faces: every style renders every card; held-out styles never occur in training."""

from __future__ import annotations

import dataclasses
import random

import cv2
import numpy as np
import pytest

from vision.cards import BRIDGE_DECK, Card, Rank, Suit
from vision.synth.faces import (
    CENTRE_STYLES,
    COURT_STYLES,
    HELD_OUT_FONTS,
    TRAINING_FONTS,
    FaceStyle,
    index_boxes,
    rank_text,
    render_face,
    sample_face_style,
    suit_polygon,
)

SIZE = (100, 140)


def _style_grid() -> list[FaceStyle]:
    """One style per font (training and held-out), crossed with the layout options."""
    base = sample_face_style(np.random.default_rng(0))
    styles = []
    for i, font in enumerate(TRAINING_FONTS + HELD_OUT_FONTS):
        styles.append(dataclasses.replace(
            base, font=font, italic=i % 2 == 1, court=COURT_STYLES[i % len(COURT_STYLES)],
            centre=CENTRE_STYLES[i % len(CENTRE_STYLES)], corner_indices=4 if i % 2 else 2,
            jumbo=i == 2, index_height=0.13 if i == 2 else 0.09,
            index_layout="side" if i == 3 else "stacked", four_colour=i % 3 == 0,
            shape=i % 4, wear=0.8 if i == 4 else 0.0, border=i % 2 == 0))
    return styles


@pytest.mark.parametrize("style", _style_grid(), ids=lambda s: f"font{s.font}")
def test_every_card_renders_in_every_style(style: FaceStyle) -> None:
    for card in BRIDGE_DECK:
        img = render_face(card, style, SIZE)
        assert img.shape == (SIZE[1], SIZE[0], 3)
        assert img.dtype == np.uint8
        # the index corner holds ink: much darker than the paper
        x0, y0, x1, y1 = (int(v) for v in index_boxes(style, SIZE, card.rank)[0])
        corner = img[y0:y1 + 1, x0:x1 + 1].astype(int).sum(axis=2)
        assert corner.min() < 0.7 * sum(style.paper), card


def test_sampled_styles_render_and_are_deterministic() -> None:
    rng = np.random.default_rng(7)
    for i in range(20):
        style = sample_face_style(rng, held_out=i % 4 == 0)
        card = BRIDGE_DECK[i * 5 % 52]
        a = render_face(card, style, (250, 350))
        assert a.shape == (350, 250, 3) and a.dtype == np.uint8
        assert np.array_equal(a, render_face(card, style, (250, 350)))


def test_stdlib_random_also_samples_styles() -> None:
    style = sample_face_style(random.Random(3))
    assert render_face(Card.from_str("SA"), style).shape == (350, 250, 3)


def test_held_out_styles_never_occur_in_training() -> None:
    rng = np.random.default_rng(11)
    train = [sample_face_style(rng) for _ in range(300)]
    held = [sample_face_style(rng, held_out=True) for _ in range(300)]
    assert all(s.held_out for s in held) and not any(s.held_out for s in train)
    assert {s.font for s in train}.isdisjoint({s.font for s in held})
    assert {s.shape for s in train}.isdisjoint({s.shape for s in held})
    assert {s.paper for s in train}.isdisjoint({s.paper for s in held})
    # training draws every training font and both index layouts, one and four indices
    assert {s.font for s in train} == set(TRAINING_FONTS)
    assert {s.index_layout for s in train} == {"stacked", "side"}
    assert {s.corner_indices for s in train} == {2, 4}
    assert any(s.jumbo for s in train) and any(s.four_colour for s in train)


def test_ten_is_printed_as_10() -> None:
    assert rank_text(Rank.TEN) == "10"
    assert rank_text(Rank.ACE) == "A"


def test_two_colour_and_four_colour_suits() -> None:
    style = dataclasses.replace(sample_face_style(np.random.default_rng(1)), four_colour=False,
                                wear=0.0, cast=(1.0, 1.0, 1.0))
    assert style.colour_of(Suit.HEARTS) == style.colour_of(Suit.DIAMONDS) == style.red
    four = dataclasses.replace(style, four_colour=True)
    colours = {four.colour_of(s) for s in Suit}
    assert len(colours) == 4
    # a red card's index is red ink (R channel well above B)
    img = render_face(Card.from_str("H7"), style, (250, 350))
    x0, y0, x1, y1 = (int(v) for v in index_boxes(style, (250, 350), Rank.SEVEN)[1])
    box = img[y0:y1 + 1, x0:x1 + 1].reshape(-1, 3).astype(int)
    ink = box[box.sum(axis=1) < 0.7 * sum(style.paper)]
    assert len(ink) > 0 and (ink[:, 2] - ink[:, 0]).mean() > 60


def test_index_is_repeated_turned_in_the_opposite_corner() -> None:
    style = dataclasses.replace(sample_face_style(np.random.default_rng(2)), wear=0.0,
                                cast=(1.0, 1.0, 1.0), corner_indices=2, border=False)
    img = render_face(Card.from_str("SQ"), style, (250, 350))
    x0, y0, x1, y1 = (int(v) for v in index_boxes(style, (250, 350), Rank.QUEEN)[0])
    soft = cv2.GaussianBlur(img, (0, 0), 2.0).astype(int)  # forgive a one-pixel offset
    tl = soft[y0:y1, x0:x1]
    br = np.rot90(soft, 2)[y0:y1, x0:x1]
    other = soft[y0 + 150:y1 + 150, x0 + 60:x1 + 60]  # the middle of the card: not an index
    diff = np.abs(tl - br).mean()
    assert diff < 8, diff
    assert np.abs(tl - other).mean() > 2 * diff


def test_suit_polygons_are_distinct_shapes_in_the_unit_box() -> None:
    masks = {}
    for suit in Suit:
        for shape in range(4):
            polys = suit_polygon(suit, shape)
            for p in polys:
                assert np.abs(p).max() <= 1.0 + 1e-6
        m = np.zeros((64, 64), np.uint8)
        for p in suit_polygon(suit, 0):
            cv2.fillPoly(m, [np.round(p * 30 + 32).astype(np.int32)], 255)
        masks[suit] = m > 0
    suits = list(Suit)
    for i, a in enumerate(suits):
        for b in suits[i + 1:]:
            iou = (masks[a] & masks[b]).sum() / (masks[a] | masks[b]).sum()
            assert iou < 0.85, (a, b, iou)


def test_too_small_size_is_refused() -> None:
    with pytest.raises(ValueError, match="too small"):
        render_face(Card.from_str("SA"), FaceStyle(), (4, 4))
