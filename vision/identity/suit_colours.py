"""One deck, one ink per suit: a face whose index ink contradicts its suit is doubted.

A photo shows one deck, and a deck prints each suit in one ink: hearts red, diamonds red as
the hearts (or blue, in a four-colour deck), spades black. The reader learnt suits from shape
and colour together, and on decks whose "black" is a dark blue, or under a bluish light, it
names clubs as diamonds - the blue diamonds of the four-colour decks it was trained on: on
the face-up photos of seeds 7.88e9 with decks of held-out designs, 43 of 65 faces named
wrong were black cards named as diamonds of their own rank.

The index ink of each red face is measured against the paper beside it, in the corner crop
that carried the reading (ink / paper per colour channel, so a coloured light cancels out),
and its *redness* (red ratio less the larger of green and blue) placed between the photo's
own surest hearts and spades. A heart - or a diamond, unless most diamonds are bluer than the
spades (a four-colour deck) - whose ink lies within :data:`DOUBT_SHARE` of the way from the
spades' to the hearts' is left unread with the reason, and its rank as read offered in the
two black suits for the rules to choose from (:mod:`vision.deduce`).

Chosen on the face-up tuning photos (``scripts/evaluate.py --n 30 --n-hard 15 --stages
faceup``): decks of held-out designs (seeds 7.88e9, ``--held-out-decks``) 77 -> 50 faces
named wrong, 896 named right before and after, 198 -> 209 of 320 tricks right; seeds 7.3e9
unchanged; seeds 7.31e9 23 -> 21 named wrong, 1,008 right before and after, 267 -> 269
tricks; the hard scenes unchanged. Ink was first taken from every dark pixel of the window:
a box a little off takes in cloth or the next card's print there, and 4-5 right faces a set
were doubted; blots touching the crop's edge are now left out (a larger window, or such
blots kept when short, doubted more wrong faces and 1-3 right ones). Black faces in red ink
were checked too and caught none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import is_dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.cards import Card, Suit
from vision.identity.crops import CORNER_NAMES, CROP_SIZE, corner_crops

#: Where a standard index lies in an upright corner crop of CROP_SIZE (64) px (rows,
#: columns): inside the card's edge by a few pixels so that a box a little off takes in no
#: cloth.
INK_WINDOW = (slice(5, 36), slice(4, 30))
#: How far past the window a blot may reach (px) and still be ink.
INK_MARGIN = 12
#: The window's paper must be this much lighter than its darkest pixels (0-255).
MIN_CONTRAST = 25.0
#: Fewer ink pixels than this (of a 64 px crop) give no evidence.
MIN_INK_PIXELS = 6
#: Ink must be at least this much darker than the paper in some channel (ratio), else the
#: window holds no clear index and gives no evidence.
MAX_INK_RATIO = 0.5
#: A face is doubted when its redness lies within this share of the way from the wrong
#: suit colour's reference to the right one's (0 = as the spades, 1 = as the hearts).
DOUBT_SHARE = 0.25
#: Diamonds mostly this much bluer than the spades (the same share) make a four-colour deck,
#: whose diamonds are not checked.
FOUR_COLOUR_SHARE = -0.5
#: The hearts' and spades' redness must differ by this much for the check to speak.
MIN_SEPARATION = 0.15
#: References come from faces named at least this surely, at least MIN_REFERENCES of each.
REFERENCE_CONFIDENCE = 0.99
MIN_REFERENCES = 2
#: The spades measured for the black reference: at most this many, the surest.
MAX_SPADE_REFERENCES = 6


def index_inks(image: np.ndarray, quads: Sequence[np.ndarray],
               corners: Sequence[str | None]) -> list[np.ndarray | None]:
    """The ink / paper ratio (B, G, R) of the index in the named corner of each card at
    ``quads``; None for a view that is not a corner, or a corner with no clear ink."""
    names = [(c or "").split(",")[0].strip() for c in corners]
    which = [i for i, name in enumerate(names) if name in CORNER_NAMES]
    out: list[np.ndarray | None] = [None] * len(names)
    if not which or image.ndim != 3:
        return out
    crops = np.stack([corner_crops(image, quads[i], CROP_SIZE, (CORNER_NAMES.index(names[i]),))[0]
                      for i in which])
    for i, ink in zip(which, crop_inks(crops), strict=True):
        out[i] = ink
    return out


def crop_inks(crops: np.ndarray) -> list[np.ndarray | None]:
    """The index ink / paper ratio of each upright 64 px corner crop (n, 64, 64, 3) BGR uint8.

    Ink is what is darker than halfway from the paper to the darkest pixels, in blots with
    their middle in :data:`INK_WINDOW` that reach neither the crop's edge nor
    :data:`INK_MARGIN` past the window: a box a little off takes in cloth or the next card's
    print along the crop's edge, whose colour says nothing of this card.
    """
    rows, cols = INK_WINDOW
    # only the crop's corner around the window is looked at: a blot reaching past it is no
    # index either (an index lies within the window's reach)
    crops = crops[:, :rows.stop + INK_MARGIN, :cols.stop + INK_MARGIN]
    light = crops.astype(np.float32).mean(axis=3)
    window = light[:, rows, cols].reshape(len(crops), -1)
    darkest, paper_from, paper_level = np.percentile(window, (3, 70, 85), axis=1)
    height, width = crops.shape[1:3]
    out: list[np.ndarray | None] = []
    for n, crop in enumerate(crops):
        if paper_level[n] - darkest[n] < MIN_CONTRAST:
            out.append(None)
            continue
        dark = (light[n] < (paper_level[n] + darkest[n]) / 2.0).astype(np.uint8)
        _, labels, stats, centres = cv2.connectedComponentsWithStats(dark, connectivity=8)
        x, y, w, h = stats[:, :4].T
        cx, cy = centres.T
        keep = ((x > 0) & (y > 0) & (x + w < width) & (y + h < height)
                & (rows.start <= cy) & (cy < rows.stop) & (cols.start <= cx) & (cx < cols.stop))
        keep[0] = False  # the background
        if int(stats[keep, cv2.CC_STAT_AREA].sum()) < MIN_INK_PIXELS:
            out.append(None)
            continue
        paper_mask = np.zeros(dark.shape, np.uint8)
        paper_mask[rows, cols] = light[n, rows, cols] >= paper_from[n]
        ink = np.median(crop[keep[labels]], axis=0)
        paper = cv2.mean(crop, paper_mask)[:3]
        ratio = (ink + 1.0) / (np.array(paper) + 1.0)
        out.append(ratio if float(ratio.min()) < MAX_INK_RATIO else None)
    return out


def redness(ratio: np.ndarray) -> float:
    """How red an ink is: its red ratio less the larger of its green and blue ones."""
    b, g, r = (float(x) for x in ratio)
    return r - max(g, b)


def doubted_suits(cards: Sequence[Card | None], confidences: Sequence[float],
                  inks: Sequence[np.ndarray | None]) -> list[str | None]:
    """For each named face, None, or why its ink contradicts its suit in this deck.

    The references are the median redness of the hearts and of the spades named at
    :data:`REFERENCE_CONFIDENCE`; without enough of both, or too alike (a grey picture), no
    face is doubted. Diamonds are not checked where most of them are bluer than the spades (a
    four-colour deck).
    """
    red = [None if ink is None or card is None else redness(ink)
           for card, ink in zip(cards, inks, strict=True)]

    def reference(suit: Suit) -> float | None:
        values = [v for c, p, v in zip(cards, confidences, red, strict=True)
                  if v is not None and c is not None and c.suit is suit
                  and p >= REFERENCE_CONFIDENCE]
        return float(np.median(values)) if len(values) >= MIN_REFERENCES else None

    hearts, spades = reference(Suit.HEARTS), reference(Suit.SPADES)
    out: list[str | None] = [None] * len(cards)
    if hearts is None or spades is None or hearts - spades < MIN_SEPARATION:
        return out
    share = [None if v is None else (v - spades) / (hearts - spades) for v in red]
    diamonds = [s for c, s in zip(cards, share, strict=True)
                if s is not None and c is not None and c.suit is Suit.DIAMONDS]
    # a four-colour deck's diamonds are bluer than its spades, by about as much again as its
    # hearts are redder; black cards misread as diamonds are as black as the spades
    four_colour = sum(s < FOUR_COLOUR_SHARE for s in diamonds) > len(diamonds) / 2
    for i, (card, s) in enumerate(zip(cards, share, strict=True)):
        if card is None or s is None:
            continue
        if (card.suit is Suit.HEARTS or (card.suit is Suit.DIAMONDS and not four_colour)) \
                and s < DOUBT_SHARE:
            out[i] = (f"read as {card}, but its index is printed in the ink of this deck's "
                      "spades, not in its hearts' red")
    return out


def cards_to_measure(cards: Sequence[Card | None], confidences: Sequence[float]) -> list[bool]:
    """Which named faces :func:`doubted_suits` needs the ink of: the red suits it checks, and
    the :data:`MAX_SPADE_REFERENCES` surest spades (the black reference)."""
    out = [c is not None and c.suit.is_red for c in cards]
    spades = sorted((i for i, c in enumerate(cards) if c is not None and c.suit is Suit.SPADES
                     and confidences[i] >= REFERENCE_CONFIDENCE),
                    key=lambda i: -confidences[i])
    for i in spades[:MAX_SPADE_REFERENCES]:
        out[i] = True
    return out


def other_colour_candidates(card: Card, confidence: float) -> tuple[tuple[Card, float], ...]:
    """The rank as read in the two suits of the other colour, each with half the reading's
    confidence: what a doubted face may be."""
    suits = (Suit.SPADES, Suit.CLUBS) if card.suit.is_red else (Suit.HEARTS, Suit.DIAMONDS)
    return tuple((Card(suit, card.rank), confidence / 2.0) for suit in suits)


def doubt_suit_colours(image: np.ndarray, quads: np.ndarray, results: list[Any]) -> list[Any]:
    """The reader's results (:class:`vision.identity.reader.IdentityResult`) for the cards at
    ``quads`` in ``image``, each face whose index ink contradicts its suit in this deck left
    unread with the reason, its rank offered in the suits of its ink's colour."""
    cards = [getattr(r, "card", None) for r in results]
    if sum(c is not None for c in cards) < 2 * MIN_REFERENCES:
        return results
    # the box the carrying corner was cut from: the card's, or the one a look around moved
    boxes = [q if getattr(r, "box", None) is None else r.box
             for q, r in zip(quads, results, strict=True)]
    confidences = [float(getattr(r, "confidence", 0.0) or 0.0) for r in results]
    measure = cards_to_measure(cards, confidences)
    inks = index_inks(image, boxes, [getattr(r, "corner", None) if m else None
                                     for m, r in zip(measure, results, strict=True)])
    out = list(results)
    for i, why in enumerate(doubted_suits(cards, confidences, inks)):
        card = cards[i]
        if why is not None and card is not None and is_dataclass(results[i]):
            out[i] = replace(results[i], card=None, reason=why,
                             candidates=other_colour_candidates(card, confidences[i]))
    return out
