"""A fixed camera learns its deck's ink per suit and names a face's suit by it.

A four-colour deck prints each suit in its own ink - hearts red, diamonds blue, clubs green,
spades black. In a fixed camera's frames (cards of 30 x 50 px at 960 x 540) the index is a few
pixels and the reader takes these blue diamonds for clubs or spades: on the 48 offline videos
of the seventh session's sets, 17 of 34 cards wrong or unread were diamonds of two such decks.
Their pips, though, show their ink plainly: the median colour of a pip card's print against
its paper lies tight for each suit (blue, green, red, grey), and far apart between suits.

:class:`DeckInks` learns that colour per suit over a session from the pip cards read surely
(:data:`SURE`) and, once it knows all four, names a pip card printed plainly in a colour
(:func:`colour_name`) but read in a suit whose ink is of another by the one suit whose ink
is of its colour: in a two-colour deck diamonds and hearts share their red, clubs and spades
their black, so no face is renamed there, and no face is renamed a spade. Court cards print
several colours and are left alone.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from vision.cards import Card, Rank, Suit
from vision.identity.crops import whole_card_crop
from vision.table.reading import TableReading

#: A face read at least this surely teaches its suit's ink.
SURE = 0.95
#: Inks learnt of a suit before it is used (and at most this many kept, the latest).
MIN_SAMPLES = 4
MAX_SAMPLES = 40
#: A face's ink must lie this far (chromaticity) from its own suit's learnt ink.
MIN_DISTANCE = 0.08
#: An ink is of a colour when its strongest channel leads the next by this much
#: (chromaticity, the channels summing to 3), grey when by less than GREY_MARGIN: the
#: learnt inks of the seventh session's two four-colour decks lead by 0.11-0.16 (clubs,
#: green), 0.14-0.25 (diamonds, blue), 0.31-0.61 (hearts, red) and their spades by 0.05-0.08;
#: a two-colour deck's diamonds and hearts are both red, its clubs and spades both grey.
HUE_MARGIN = 0.1
GREY_MARGIN = 0.09
#: The face is cut to a square crop of this side to measure it (:func:`whole_card_crop`).
FACE_SIZE = 64
#: Print is what is this much darker than the paper (grey levels), at least MIN_PRINT pixels.
PRINT_CONTRAST = 40.0
MIN_PRINT = 8

PIP_RANKS = frozenset(r for r in Rank if r not in (Rank.JACK, Rank.QUEEN, Rank.KING))


def face_ink(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The chromaticity (B, G, R summing to 3) of a face-up card's print against its paper,
    or None when too little print shows."""
    face = whole_card_crop(image, np.asarray(quad, np.float64), FACE_SIZE)
    face = face[3:-3, 3:-3].reshape(-1, 3).astype(np.float32)  # off the card's edge
    light = face.mean(axis=1)
    paper = face[light >= np.percentile(light, 70)].mean(axis=0) + 1.0
    dark = light < np.percentile(light, 80) - PRINT_CONTRAST
    if int(dark.sum()) < MIN_PRINT:
        return None
    ratio = (np.median(face[dark], axis=0) + 1.0) / paper
    return 3.0 * ratio / float(ratio.sum())


class DeckInks:
    """The inks of one camera's deck, learnt as the session goes (:meth:`check`)."""

    def __init__(self) -> None:
        self.samples: dict[Suit, deque[np.ndarray]] = {s: deque(maxlen=MAX_SAMPLES)
                                                        for s in Suit}
        self.renamed = 0

    def ink(self, suit: Suit) -> np.ndarray | None:
        """The suit's learnt ink (median), or None before MIN_SAMPLES faces taught it."""
        seen = self.samples[suit]
        return np.median(np.stack(seen), axis=0) if len(seen) >= MIN_SAMPLES else None

    def check(self, image: np.ndarray, reading: TableReading) -> None:
        """Learn from the pip faces of ``reading`` read surely; rename, in place, a pip face
        read in a suit whose ink it does not have (see the module's docstring)."""
        if image.ndim != 3:
            return
        for seen in reading.cards:
            card = seen.card
            if not seen.face_up or card is None or card.rank not in PIP_RANKS:
                continue
            ink = face_ink(image, seen.quad)
            if ink is None:
                continue
            suit = self._suit_of(ink, card.suit)
            if suit is not None:
                seen.card = Card(suit, card.rank)
                seen.card_candidates = ()
                self.renamed += 1
            elif seen.card_confidence >= SURE:
                self.samples[card.suit].append(ink)

    def _suit_of(self, ink: np.ndarray, read: Suit) -> Suit | None:
        """The one other suit whose learnt ink's colour this face's is, where the read
        suit's ink is of another colour."""
        learnt = {suit: self.ink(suit) for suit in Suit}
        known = {suit: v for suit, v in learnt.items() if v is not None}
        if len(known) < len(learnt):
            return None  # the deck is not known yet: its other red suit may be the one
        own = known[read]
        colour = colour_name(ink)
        # a face's print measured grey may be a coloured one faintly printed or blurred: only
        # a plain colour renames it
        if colour in (None, "grey") or colour_name(own) == colour:
            return None
        if float(np.linalg.norm(ink - own)) < MIN_DISTANCE:
            return None
        alike = [suit for suit, v in known.items() if suit is not read and colour_name(v) == colour]
        return alike[0] if len(alike) == 1 else None


def colour_name(ink: np.ndarray) -> str | None:
    """"B", "G" or "R" for an ink whose strongest channel leads the next by
    :data:`HUE_MARGIN` (chromaticity), "grey" for one near grey, None in between."""
    order = np.argsort(ink)[::-1]
    lead = float(ink[order[0]] - ink[order[1]])
    if lead >= HUE_MARGIN:
        return "BGR"[int(order[0])]
    return "grey" if lead < GREY_MARGIN else None
