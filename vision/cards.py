"""Cards, suits, ranks and the three decks.

Notation is suit letter then rank: ``SA``, ``HT``, ``D7``, ``C2`` (``10`` is accepted on input
for ``T``). ``Card.from_str(str(card)) == card`` always holds.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from vision.errors import InvalidCardError


class Suit(enum.Enum):
    """A suit; the value is its letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def is_black(self) -> bool:
        return not self.is_red

    @property
    def twin(self) -> Suit:
        """The other suit of this one's colour (hearts - diamonds, spades - clubs): the suit
        a small, worn or blurred index is most easily taken for."""
        return _TWIN_SUITS[self]

    @classmethod
    def from_str(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise InvalidCardError(f"invalid suit: {text!r} (expected S, H, D or C)") from None

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


#: Suits in the order PBN and most bridge software use (spades first).
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_TWIN_SUITS = {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES,
               Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}


class Rank(enum.IntEnum):
    """A rank; the integer is its natural (bridge) strength, 2 lowest, ace highest."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]

    @classmethod
    def from_str(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            key = "T"
        try:
            return _LETTER_RANKS[key]
        except KeyError:
            raise InvalidCardError(
                f"invalid rank: {text!r} (expected one of A K Q J T 9 8 7 6 5 4 3 2)"
            ) from None

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_LETTERS = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}
_LETTER_RANKS = {letter: rank for rank, letter in _RANK_LETTERS.items()}

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

#: Ranks from highest to lowest, as written in a PBN hand.
RANKS_HIGH_TO_LOW: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))


@functools.total_ordering
@dataclass(frozen=True)
class Card:
    """One playing card. ``str(card)`` is its notation, ``repr`` evaluates back to it."""

    suit: Suit
    rank: Rank

    def __post_init__(self) -> None:
        # Cards are hashed, sorted and printed constantly (thousands of deals per run): cache
        # the hash, the sort key and the notation once.
        object.__setattr__(self, "_hash", hash((self.suit.value, int(self.rank))))
        object.__setattr__(self, "_key", _SUIT_INDEX[self.suit] * 16 + int(self.rank))
        object.__setattr__(self, "_str", f"{self.suit.value}{_RANK_LETTERS[self.rank]}")

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        # Pickle suit and rank only: the cached hash is of a string, which another process
        # (a worker, a later run reading a pickle) hashes differently.
        return (Card, (self.suit, self.rank))

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse ``'SA'``, ``'HT'``, ``'H10'``, ``'c2'``."""
        if not isinstance(text, str):
            raise InvalidCardError(f"invalid card: {text!r} (expected a string such as 'SA')")
        t = text.strip()
        if len(t) < 2 or len(t) > 3:
            raise InvalidCardError(f"invalid card: {text!r} (expected suit then rank, e.g. 'SA')")
        try:
            return cls(Suit.from_str(t[0]), Rank.from_str(t[1:]))
        except InvalidCardError:
            raise InvalidCardError(
                f"invalid card: {text!r} (expected suit S/H/D/C then rank A K Q J T 9-2)"
            ) from None

    @property
    def twin(self) -> Card:
        """The card of the same rank in the other suit of this one's colour (DK - HK): the
        card a camera most often reads it as."""
        return Card(self.suit.twin, self.rank)

    def __str__(self) -> str:
        return self._str  # type: ignore[attr-defined, no-any-return]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        """Sort by suit in the order S H D C, then by rank (so a sorted hand reads like PBN,
        reversed within each suit)."""
        if not isinstance(other, Card):
            return NotImplemented
        return self._key < other._key  # type: ignore[attr-defined, no-any-return]


def make_deck(ranks: tuple[Rank, ...]) -> tuple[Card, ...]:
    """All cards of the given ranks, spades first, high to low."""
    order = sorted(ranks, reverse=True)
    return tuple(Card(s, r) for s in SUITS for r in order)


#: 52 cards.
BRIDGE_DECK: tuple[Card, ...] = make_deck(tuple(Rank))
#: 32 cards: A K Q J 10 9 8 7.
PIQUET_DECK: tuple[Card, ...] = make_deck(
    (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
)
#: 40 cards: no 8, 9 or 10.
LHOMBRE_DECK: tuple[Card, ...] = make_deck(
    tuple(r for r in Rank if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN))
)
