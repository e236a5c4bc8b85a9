"""A fixed camera learns its deck's ink per suit and names a face's suit by it.

A four-colour deck prints each suit in its own ink - hearts red, diamonds blue, clubs green,
spades black. In a fixed camera's frames (cards of 30 x 50 px at 960 x 540) the index is a few
pixels and the reader takes these blue diamonds for clubs or spades: on the 48 offline videos
of the seventh session's sets, 17 of 34 cards wrong or unread were diamonds of two such decks.
Their pips, though, show their ink plainly: the median colour of a pip card's print against
its paper lies tight for each suit (blue, green, red, grey), and far apart between suits.

:class:`DeckInks` learns that colour per suit over a session from the pip cards read surely
(:data:`SURE`). Once its diamonds and hearts are learnt in two different colours
(:func:`colour_name`) the deck is a four-colour one, and a pip card whose ink lies plainly at
one other suit's learnt ink, far from every other's, is named that suit - the suits not yet
learnt need not wait: a blue diamond read as a club before any club was read surely is named
a diamond. In a two-colour deck diamonds and hearts share their red, clubs and spades their
black, so no face is renamed there; no face is renamed a spade (a faint or blurred coloured
print measures grey). Court cards print several colours and are left alone.
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
#: A face is renamed when its ink lies within NEAR (chromaticity) of another suit's learnt
#: ink and RATIO times as far from every other suit's, its read one's included where learnt.
#: Chosen on the logged pip faces of the offline tuning videos (13,647 readings of 96 videos:
#: 10001-10012, 10801-11212, and 24 of them at 15 fps): 74 readings renamed right and none
#: wrong, where the rule before (a face renamed by its colour's name once every suit's ink
#: was learnt) renamed 63 right and 9 wrong, the wrong ones in two-colour decks.
NEAR = 0.1
RATIO = 2.0
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
        """The one other suit whose learnt ink this face's plainly is, in a deck known to be
        four-colour (its diamonds' and hearts' inks of two colours), or None."""
        known = {suit: v for suit in Suit if (v := self.ink(suit)) is not None}
        if Suit.DIAMONDS not in known or Suit.HEARTS not in known:
            return None  # a two-colour deck's other red suit may be the one
        diamonds, hearts = colour_name(known[Suit.DIAMONDS]), colour_name(known[Suit.HEARTS])
        if diamonds in (None, "grey") or hearts in (None, "grey") or diamonds == hearts:
            return None  # a two-colour deck, or not yet plain which
        distance = {suit: float(np.linalg.norm(ink - v)) for suit, v in known.items()}
        others = [suit for suit in known if suit is not read]
        nearest = min(others, key=distance.__getitem__)
        # a face's print measured grey may be a coloured one faintly printed or blurred: no
        # face is renamed a spade
        if nearest is Suit.SPADES or distance[nearest] > NEAR:
            return None
        if any(distance[suit] < RATIO * distance[nearest] for suit in known if suit is not nearest):
            return None
        return nearest


def colour_name(ink: np.ndarray) -> str | None:
    """"B", "G" or "R" for an ink whose strongest channel leads the next by
    :data:`HUE_MARGIN` (chromaticity), "grey" for one near grey, None in between."""
    order = np.argsort(ink)[::-1]
    lead = float(ink[order[0]] - ink[order[1]])
    if lead >= HUE_MARGIN:
        return "BGR"[int(order[0])]
    return "grey" if lead < GREY_MARGIN else None
