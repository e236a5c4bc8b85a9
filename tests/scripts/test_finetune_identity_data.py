"""The identity fine-tune's crops from animated deals: the fixed camera's lone face-up cards,
labelled with the card each one is, and a few backs as ``none``."""

from __future__ import annotations

import numpy as np

from vision.identity.crops import CROP_SIZE
from vision.identity.synth import CLASS_NAMES, NONE_LABEL

from .script_module import load

finetune = load("finetune_identity")


def test_video_crops_are_lone_face_up_cards_labelled_and_some_backs() -> None:
    names = dict(enumerate(CLASS_NAMES))
    crops, labels = finetune.video_crops(names, 2, 6, seed=13, back_share=0.2)
    assert crops.shape[1:] == (CROP_SIZE, CROP_SIZE, 3) and crops.dtype == np.uint8
    assert len(crops) == len(labels) >= 6
    named = [names[int(i)] for i in labels]
    backs = named.count(NONE_LABEL)
    assert 0 < backs <= 0.2 * (len(named) - backs) + 1e-9
    assert all(n in CLASS_NAMES for n in named)
    # the same deals give the same crops (the training run can be reproduced)
    again, labels_again = finetune.video_crops(names, 2, 6, seed=13, back_share=0.2)
    assert np.array_equal(labels, labels_again) and np.array_equal(crops, again)


def test_video_corner_crops_are_the_two_main_corners_of_the_same_cards() -> None:
    names = dict(enumerate(CLASS_NAMES))
    whole, whole_labels = finetune.video_crops(names, 2, 6, seed=13, back_share=0.0)
    corners, labels = finetune.video_crops(names, 2, 6, seed=13, back_share=0.0,
                                           view="corners")
    assert corners.shape[1:] == (CROP_SIZE, CROP_SIZE, 3)
    # two corner crops per lone face-up card, each labelled with that card
    assert len(corners) == 2 * len(whole)
    assert np.array_equal(labels[0::2], whole_labels) and np.array_equal(labels[1::2],
                                                                         whole_labels)


def test_corner_crops_labelled_in_the_crop_name_their_card_less_often() -> None:
    # the same cards drawn; labelled by what shows inside each crop, a crop whose box cut the
    # index out no longer names the card
    names = dict(enumerate(CLASS_NAMES))
    none = CLASS_NAMES.index(NONE_LABEL)
    _, by_card = finetune.crops_for(names, 400, 21, 1.0)
    _, by_crop = finetune.crops_for(names, 400, 21, 1.0, in_crop=True)
    assert np.mean(by_crop != none) < np.mean(by_card != none)
    again = finetune.crops_for(names, 400, 21, 1.0, in_crop=True)[1]
    assert np.array_equal(by_crop, again)
