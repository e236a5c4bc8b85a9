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
print measures grey).

Court cards print their figures in the same colours in every suit, and the suit's ink in
the index, the frame and the figure's trim: their print differs by suit less plainly than a
pip card's, but each suit's courts print alike. On the four-colour decks of the tuning
videos a suit's courts measured within 0.01-0.04 of their median, and 0.13 or more from
another suit's. So courts are learnt apart from pip cards. A deck whose diamond courts are
all misread never learns their ink (bridge 10806: DJ, DQ and DK read SJ, SQ and CK at
0.98-1.00): in a four-colour deck, once the other three suits' court inks are learnt, a
court far from all three (:data:`FAR`) is of the fourth suit.
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
#: A court is of the one suit whose court ink is not learnt yet when its ink lies FAR from
#: the other three suits' court inks, and those lie APART from each other. On the court
#: faces of the 15 four-colour tuning videos (825 readings): 19 of 26 named wrong renamed
#: right (bridge 10806's and 11004's diamonds), none named right renamed (FAR 0.15-0.25 gave
#: the same); the 7 left are a rank read wrong.
FAR = 0.2
APART = 0.1
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


class SuitInks:
    """The learnt ink of each suit, for one kind of face (pip cards, or court cards)."""

    def __init__(self) -> None:
        self.samples: dict[Suit, deque[np.ndarray]] = {s: deque(maxlen=MAX_SAMPLES)
                                                        for s in Suit}

    def ink(self, suit: Suit) -> np.ndarray | None:
        """The suit's learnt ink (median), or None before MIN_SAMPLES faces taught it."""
        seen = self.samples[suit]
        return np.median(np.stack(seen), axis=0) if len(seen) >= MIN_SAMPLES else None

    def known(self) -> dict[Suit, np.ndarray]:
        """The suits learnt so far, with their inks."""
        return {suit: v for suit in Suit if (v := self.ink(suit)) is not None}


class DeckInks:
    """The inks of one camera's deck, learnt as the session goes (:meth:`check`)."""

    def __init__(self) -> None:
        self.pips = SuitInks()
        self.courts = SuitInks()
        self.renamed = 0

    def four_colour(self) -> bool:
        """True once the deck's pip diamonds and hearts are learnt in two plain colours."""
        known = self.pips.known()
        if Suit.DIAMONDS not in known or Suit.HEARTS not in known:
            return False  # a two-colour deck's other red suit may be the one
        diamonds, hearts = colour_name(known[Suit.DIAMONDS]), colour_name(known[Suit.HEARTS])
        return diamonds not in (None, "grey") and hearts not in (None, "grey") \
            and diamonds != hearts

    def check(self, image: np.ndarray, reading: TableReading) -> None:
        """Learn from the faces of ``reading`` read surely; rename, in place, a face read in
        a suit whose ink it does not have (see the module's docstring)."""
        if image.ndim != 3:
            return
        four_colour = self.four_colour()
        for seen in reading.cards:
            card = seen.card
            if not seen.face_up or card is None:
                continue
            ink = face_ink(image, seen.quad)
            if ink is None:
                continue
            court = card.rank not in PIP_RANKS
            inks = self.courts if court else self.pips
            suit = self._suit_of(ink, card.suit, inks, court) if four_colour else None
            if suit is not None:
                seen.card = Card(suit, card.rank)
                seen.card_candidates = ()
                self.renamed += 1
            elif seen.card_confidence >= SURE:
                inks.samples[card.suit].append(ink)

    @staticmethod
    def _suit_of(ink: np.ndarray, read: Suit, inks: SuitInks, court: bool) -> Suit | None:
        """For a pip card, the one other suit whose learnt ink this face's plainly is; for a
        court, the other three suits' inks learnt and apart, the fourth suit, where this
        face's ink is far from all three; None otherwise. No face is renamed a spade: a
        face's print measured grey may be a coloured one faintly printed or blurred. (A
        court is not renamed to a near suit: a deck's club courts may print their green
        faintly, near the spades' grey - preferans 11311, a fresh video: S's SQ, its spade
        courts not yet learnt, was renamed CQ in every look.)"""
        known = inks.known()
        distance = {suit: float(np.linalg.norm(ink - v)) for suit, v in known.items()}
        others = [suit for suit in known if suit is not read]
        if others and not court:
            nearest = min(others, key=distance.__getitem__)
            if nearest is not Suit.SPADES and distance[nearest] <= NEAR and all(
                    distance[suit] >= RATIO * distance[nearest]
                    for suit in known if suit is not nearest):
                return nearest
        unknown = [suit for suit in Suit if suit not in known]
        if not court or len(unknown) != 1 or unknown[0] in (read, Suit.SPADES):
            return None
        inks_apart = min(float(np.linalg.norm(known[a] - known[b]))
                         for a in known for b in known if a is not b)
        return unknown[0] if inks_apart >= APART and min(distance.values()) >= FAR else None


def colour_name(ink: np.ndarray) -> str | None:
    """"B", "G" or "R" for an ink whose strongest channel leads the next by
    :data:`HUE_MARGIN` (chromaticity), "grey" for one near grey, None in between."""
    order = np.argsort(ink)[::-1]
    lead = float(ink[order[0]] - ink[order[1]])
    if lead >= HUE_MARGIN:
        return "BGR"[int(order[0])]
    return "grey" if lead < GREY_MARGIN else None
