"""Training crops: shapes, labels from the truth, determinism, held-out styles on demand."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.cards import Card
from vision.identity.crops import CROP_SIZE
from vision.identity.synth import (
    CLASS_NAMES,
    first_true_corner,
    label_crops,
    label_whole_card,
    sample_card_photo,
    sample_crops,
    sample_whole_cards,
)
from vision.synth.faces import sample_face_style


def test_class_names_are_the_52_cards_and_none_sorted() -> None:
    assert len(CLASS_NAMES) == 53 and "none" in CLASS_NAMES
    assert list(CLASS_NAMES) == sorted(CLASS_NAMES)
    assert len({Card.from_str(n) for n in CLASS_NAMES if n != "none"}) == 52


def test_uncovered_two_index_card_labels_two_corners() -> None:
    rng = np.random.default_rng(5)
    style = dataclasses.replace(sample_face_style(rng), corner_indices=2)
    card = Card.from_str("HQ")
    photo = sample_card_photo(rng, card=card, style=style, occlusion=0.0, back_chance=0.0,
                              min_width=80, max_width=120)
    assert photo.readable_corners() == 2
    crops = label_crops(photo)
    assert len(crops) == 4
    assert all(c.crop.shape == (CROP_SIZE, CROP_SIZE, 3) and c.crop.dtype == np.uint8
               for c in crops)
    labels = [c.label for c in crops]
    # the index corners are opposite each other, whichever corner the quad started at
    assert sorted(labels) == ["HQ", "HQ", "none", "none"]
    assert labels[0] == labels[2] and labels[1] == labels[3]


def test_four_index_card_labels_every_corner() -> None:
    rng = np.random.default_rng(6)
    style = dataclasses.replace(sample_face_style(rng), corner_indices=4)
    photo = sample_card_photo(rng, card=Card.from_str("C7"), style=style, occlusion=0.0,
                              back_chance=0.0, min_width=80, max_width=120)
    assert [c.label for c in label_crops(photo)] == ["C7"] * 4


def test_samples_are_deterministic_and_labels_known() -> None:
    a = sample_crops(np.random.default_rng(9))
    b = sample_crops(np.random.default_rng(9))
    assert [c.label for c in a] == [c.label for c in b]
    assert all(np.array_equal(x.crop, y.crop) for x, y in zip(a, b, strict=True))
    rng = np.random.default_rng(10)
    for _ in range(10):
        for c in sample_crops(rng, held_out=True):
            assert c.label in CLASS_NAMES


def test_whole_card_samples_label_uncovered_cards_and_backs_only() -> None:
    rng = np.random.default_rng(11)
    face = sample_card_photo(rng, card=Card.from_str("SQ"), occlusion=0.0, back_chance=0.0)
    [crop] = label_whole_card(face)
    assert crop.label == "SQ" and crop.crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    back = sample_card_photo(rng, occlusion=0.0, back_chance=1.0)
    assert [c.label for c in label_whole_card(back)] == ["none"]
    covered = sample_card_photo(rng, occlusion=1.0, back_chance=0.0)
    assert covered.covered and label_whole_card(covered) == []
    labels = {c.label for _ in range(40) for c in sample_whole_cards(rng)}
    assert labels <= set(CLASS_NAMES) and len(labels) > 20


def test_backs_come_in_the_renderers_designs_and_keep_held_out_patterns_apart(
        monkeypatch) -> None:  # noqa: ANN001
    """`none` must cover backs with logos, letters, rings, frames - not only plain lattices -
    and the back patterns kept for evaluation never appear in training samples."""
    import vision.identity.synth as synth
    from vision.synth.style import HELD_OUT_BACK_PATTERNS

    drawn: list[tuple[str, bool]] = []
    real = synth.sample_back_style

    def spy(rng, *, held_out=False):  # noqa: ANN001, ANN202
        style = real(rng, held_out=held_out)
        drawn.append((style.pattern, held_out))
        return style

    monkeypatch.setattr(synth, "sample_back_style", spy)
    rng = np.random.default_rng(12)
    backs = [sample_card_photo(rng, occlusion=0.0, back_chance=1.0) for _ in range(40)]
    assert all(b.is_back for b in backs)
    patterns = {p for p, _ in drawn}
    assert len(drawn) >= 20 and len(patterns) >= 4
    assert not patterns & set(HELD_OUT_BACK_PATTERNS)
    drawn.clear()
    for _ in range(10):
        sample_card_photo(rng, occlusion=0.0, back_chance=1.0, held_out=True)
    assert drawn and {p for p, _ in drawn} <= set(HELD_OUT_BACK_PATTERNS)


def test_glyph_variety_bends_the_rank_glyphs_and_leaves_the_default_draws_alone() -> None:
    # no variety: exactly what the generator drew before (evaluation sets stay comparable)
    a = sample_card_photo(np.random.default_rng(21))
    b = sample_card_photo(np.random.default_rng(21), glyph_variety=0.0)
    assert np.array_equal(a.photo, b.photo) and a.card == b.card
    # with it, a deck's rank glyphs take other shapes
    from vision.synth.faces import index_boxes, render_face

    style = dataclasses.replace(sample_face_style(np.random.default_rng(22)), corner_indices=2,
                                wear=0.0)
    bent = dataclasses.replace(style, glyph_warp=0.06, glyph_weight=0.05, seed=7)
    card = Card.from_str("DQ")
    plain, varied = render_face(card, style, (250, 350)), render_face(card, bent, (250, 350))
    changed = np.abs(plain.astype(int) - varied.astype(int)).max(axis=2) > 40
    x, y, w, h = (int(round(v)) for v in index_boxes(style, (250, 350), card.rank)[0])
    assert changed[y:y + h, x:x + w].mean() > 0.05  # the rank glyph itself differs
    # the same deck otherwise: paper, colours and layout
    assert np.abs(plain.astype(int) - varied.astype(int)).mean() < 4.0
    photo = sample_card_photo(np.random.default_rng(23), glyph_variety=1.0)
    assert photo.photo.shape[0] > 0


def test_an_index_shows_in_its_crop_no_more_than_on_the_card_and_as_much_with_a_true_box(
) -> None:
    # a crop cut from a box that is off shows at most what the card shows; cut from the true
    # box (only the corners' 1.5 % jitter left) it shows the same
    rng = np.random.default_rng(11)
    same = total = 0
    for _ in range(60):
        photo = sample_card_photo(rng, box_error=0.0, in_crop=True)
        for shown, inside in zip(photo.index_visible, photo.index_in_crop, strict=True):
            assert (shown is None) == (inside is None)
            if shown is not None:
                assert inside <= shown + 1e-9  # type: ignore[operator]
                total += 1
                same += abs(shown - inside) < 0.02  # type: ignore[operator]
    assert same >= 0.95 * total > 0


def test_labels_in_crop_leave_out_a_card_whose_box_cut_its_index_out() -> None:
    # a box a fifth of a card off moves the crops off the indices: labelled by what shows
    # on the card every index corner says its card, by what shows in the crop hardly any
    rng = np.random.default_rng(12)
    style = dataclasses.replace(sample_face_style(rng), corner_indices=4)
    by_card = by_crop = 0
    for _ in range(20):
        photo = sample_card_photo(rng, card=Card.from_str("D9"), style=style, occlusion=0.0,
                                  back_chance=0.0, box_error=0.2, min_width=80, in_crop=True)
        by_card += sum(c.label == "D9" for c in label_crops(photo))
        in_crop = label_crops(photo, in_crop=True)
        by_crop += sum(c.label == "D9" for c in in_crop)
        start = first_true_corner(photo.quad, photo.detected)
        for c in in_crop:  # a crop labelled with the card shows 90 % of its index
            if c.label == "D9":
                assert photo.index_in_crop[(start + c.corner) % 4] >= 0.9  # type: ignore[operator]
    assert by_card == 80
    assert by_crop < 0.6 * by_card
