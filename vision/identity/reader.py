"""Read the rank and suit of face-up cards from their quads: :class:`IdentityReader`.

For each card the reader cuts the four corner crops (:mod:`vision.identity.crops`), runs the
shipped classifier (``models/identity.onnx``: 52 cards + ``none``) on all crops of all cards
in one batch, and combines the corners: a card is named only when a corner reads it with high
probability and no other corner reads a different card. Probabilities of cards outside the
game's deck are dropped, never moved to other cards, so restricting the deck cannot turn an
unsure read into a confident one.

Cards that cannot be read honestly come back with ``card=None`` and a reason: too small, too
blurred, no index visible, corners disagree, or simply unsure.
"""

from __future__ import annotations

import ast
import collections
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from vision.cards import BRIDGE_DECK, LHOMBRE_DECK, PIQUET_DECK, Card
from vision.errors import TrickvisionError, UnknownGameError
from vision.identity.crops import (
    CORNER_NAMES,
    STRIP_CARD,
    WHOLE_CARD,
    canonical_quad,
    card_size_px,
    corner_crops,
    is_monochrome,
    sharpness_of_cards,
    strip_crop,
    to_tensor,
    whole_card_crop,
)
from vision.identity.outline import trace_lone_card
from vision.models import SplitBatchSession, model_exists
from vision.models import verify_checksum as verify_model_checksum
from vision.table.reading import NO_INDEX

MODEL_NAME = "identity"
#: The whole-card classifier, for cards lying alone (optional: read without it if missing).
WHOLE_MODEL_NAME = "identity_whole"
#: The corner model for greyscale pictures: the colour model trained further on grey crops.
GREY_MODEL_NAME = "identity_grey"
#: The strip classifier, for row cards whose strip shows (optional: read without it if missing).
STRIP_MODEL_NAME = "identity_strip"
#: The whole-card classifier for greyscale pictures (optional: without it a grey picture's
#: lone cards are read by their corners only - the colour whole-card model is fooled by grey).
GREY_WHOLE_MODEL_NAME = "identity_whole_grey"
#: Names of the views a reading may rest on: the four corners, the whole card, and the strip
#: of a row card that shows, the cards lying on it masked.
VIEW_NAMES = (*CORNER_NAMES, "whole card", "strip")
STRIP_VIEW = STRIP_CARD
#: A row card left unread is named by its strip when the strip model gives that card at least
#: this (cards read elsewhere in the picture taken out) ...
STRIP_MIN_CONFIDENCE = 0.8
#: ... and one of the corners read gives it at least this (the corners of a card whose index
#: is a few pixels high still lean its way; a strip read off a box far from its card does not
#: find them so).
STRIP_CORNER_SUPPORT = 0.02
NONE_LABEL = "none"
#: Below this card width (short edge, px) the index is a few pixels high: refuse.
MIN_CARD_WIDTH_PX = 24.0
#: Below this sharpness (see :func:`vision.identity.crops.sharpness`) no ink edge is legible.
MIN_SHARPNESS = 4.0

#: Reasons of cards left unread that still carry a reading worth weighing.
UNSURE = ("unsure", "corners disagree")
#: An unsure card is read again from its rectangle scaled by these factors about its centre.
LOOK_AGAIN_SCALES = (1.07, 0.93)
#: ... only at the corners whose best card reads at least this likely.
LOOK_AGAIN_MIN_P = 0.2
#: Cards still unread are read again from their box moved each way by so many card widths,
#: ring after ring for the cards the nearer rings leave unread; a moved box's reading counts
#: when it is at least that sure (the farther rings, which look past more of the neighbours,
#: ask more). Chosen on two tuning sets of face-up photos (seeds 7.3e9 and 7.31e9, 90 photos):
#: against one ring of 0.12 at 0.95, 58 more of 3,270 face-up row cards named right, 3 more
#: wrong, 40 more of 960 tricks right.
LOOK_AROUND_RINGS = ((0.08, 0.95), (0.16, 0.98), (0.24, 0.98))
#: The least probability one of a lone card's two main corners must give the whole view's
#: card for that view to be taken. The whole-card model is sure of *something* on any face
#: it was not trained for - a card back passed as a face, a box turned 45 degrees off its
#: card - and then the corners give that card next to nothing (on generated cards lying
#: alone: every sure right whole-view answer had >= 0.024 of 716; 96 of 113 sure answers on
#: boxes turned 30-60 degrees and 53 of 78 on card backs had < 0.02).
WHOLE_VIEW_SUPPORT = 0.02
#: A lone card read again from its traced outline (a second chance after the first look
#: named nothing) must be read at least this surely: a card back passed as a face traces
#: as cleanly as a face, and its pattern then reads as some card at 0.91-0.99 (on generated
#: backs: 10 of 800; the faces rescued read at >= 0.999).
TRACED_MIN_CONFIDENCE = 0.995
#: A card the corners leave unsure or disagree on is named after all when their readings,
#: joined as independent witnesses, give it at least this probability: each corner speaks
#: for a card with its probability of that card plus ``JOINT_NONE_WEIGHT`` times its
#: probability of showing no index (a covered or blank corner is no evidence against any
#: card), and one corner at least must read the card at ``JOINT_MIN_CORNER_P``. On 1,500 +
#: 800 generated cards (training / held-out styles, boxes off like the detector's) this read
#: 46 / 21 more right and 2 / 1 more wrong; 0.99 read 12 / 3 more right, 3 / 1 more wrong.
JOINT_MIN_CONFIDENCE = 0.995
JOINT_NONE_WEIGHT = 0.5
JOINT_MIN_CORNER_P = 0.5
#: Candidates of an unsure card: at most this many, each at least this likely.
MAX_CANDIDATES = 3
CANDIDATE_MIN_P = 0.2
_DECKS = {"bridge": BRIDGE_DECK, "preferans": PIQUET_DECK, "lhombre": LHOMBRE_DECK}


class IdentityModelError(TrickvisionError):
    """The identity model is missing, damaged (checksum) or not the expected classifier."""


@dataclass(frozen=True)
class IdentityResult:
    """What one card reads as. ``card`` is None when it could not be read; ``reason`` says why.

    ``confidence`` is the probability the classifier gives the returned card (for None: the
    best candidate's, so a caller can see how close it was). ``corner`` names the crop that
    carried the reading.
    """

    card: Card | None
    confidence: float
    reason: str | None = None
    corner: str | None = None
    #: For a card left unread as unsure: the deck cards it may be, most likely first, with
    #: their probability (the reconstruction takes one only when the rules leave no other).
    candidates: tuple[tuple[Card, float], ...] = ()
    #: The box (4, 2) the carrying corner was cut from where it is not the card's box as
    #: given (a look around moved it, or the card's outline was traced); None otherwise.
    box: np.ndarray | None = field(default=None, compare=False, repr=False)


def _unsure(result: IdentityResult) -> bool:
    """Left unread, but with a reading worth weighing (not too small, blurred or blank)."""
    return (result.card is None and result.reason is not None
            and result.reason.startswith(UNSURE))


def _moved(quad: np.ndarray, other: np.ndarray, share: float = 0.15) -> bool:
    """True when two card rectangles differ by more than ``share`` of the card's width at
    some corner, whatever corner each starts from and whichever way it winds."""
    a = canonical_quad(np.asarray(quad, dtype=np.float64).reshape(4, 2))
    b = canonical_quad(np.asarray(other, dtype=np.float64).reshape(4, 2))
    width, _ = card_size_px(a)
    gap = min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).max()) for k in range(4))
    return gap > share * width


def deck_for(game: str | None) -> tuple[Card, ...]:
    """The cards of ``game`` (bridge 52, preferans 32, l'hombre 40); all 52 for None."""
    if game is None:
        return BRIDGE_DECK
    try:
        from vision.games import find_game

        deck = tuple(find_game(game).deck)
        if deck:
            return deck
    except ImportError:  # pragma: no cover - the games package is part of the core
        pass
    key = str(game).strip().lower().replace("'", "")
    if key not in _DECKS:
        raise UnknownGameError(f"unknown game: {game!r} (expected one of {', '.join(_DECKS)})")
    return _DECKS[key]


def _default_model_path(name: str = MODEL_NAME) -> Path:
    try:
        from vision.models import model_path

        return Path(model_path(name, verify=False))
    except ImportError:  # pragma: no cover
        import vision

        folder = os.environ.get("TRICKVISION_MODELS")
        base = Path(folder) if folder else Path(vision.__file__).resolve().parent.parent / "models"
        return base / f"{name}.onnx"
    except TrickvisionError as exc:  # missing model: say so in our own words
        raise IdentityModelError(str(exc)) from None


def verify_checksum(path: Path) -> None:
    """Raise a :class:`TrickvisionError` unless ``path`` matches ``<stem>.sha256``.

    Every model is checked the same way, by :func:`vision.models.verify_checksum`.
    """
    path = Path(path)
    if not path.is_file():
        raise IdentityModelError(f"identity model not found: {path}")
    verify_model_checksum(path)


class IdentityReader:
    """Reads card identities from the quads of face-up cards.

    ``min_confidence`` is the probability below which a card is left unread (None with a
    reason) rather than guessed. ``whole_model_path``: the whole-card classifier for cards
    whose whole face shows (``models/identity_whole.onnx``, used by default with the shipped
    corner model when installed; False: corners only). ``grey_model_path``: the corner model
    for greyscale pictures (``models/identity_grey.onnx``, likewise by default; False: the
    colour model reads grey pictures too) - the colour model leans on colour and reads grey
    diamonds as clubs; grey pictures get the whole-card view only from their own model
    (``grey_whole_model_path``, ``models/identity_whole_grey.onnx`` by default when
    installed): the colour one is fooled by grey.
    """

    def __init__(self, model_path: Path | None = None, *, min_confidence: float = 0.9,
                 threads: int = 2, whole_model_path: Path | Literal[False] | None = None,
                 grey_model_path: Path | Literal[False] | None = None,
                 strip_model_path: Path | Literal[False] | None = None,
                 grey_whole_model_path: Path | Literal[False] | None = None) -> None:
        if not 0.0 < min_confidence <= 1.0:
            raise ValueError(f"min_confidence must be in (0, 1], got {min_confidence}")
        path = Path(model_path) if model_path is not None else _default_model_path()
        verify_checksum(path)
        self._threads = threads
        self._session = SplitBatchSession(path, threads)
        meta = self._session.get_modelmeta().custom_metadata_map
        try:
            names = ast.literal_eval(meta["names"])
            self.class_names: tuple[str, ...] = tuple(names[i] for i in range(len(names)))
        except (KeyError, ValueError, SyntaxError):
            raise IdentityModelError(
                f"identity model {path}: no class names in its metadata") from None
        inp = self._session.get_inputs()[0]
        self._input = inp.name
        self.input_size = int(ast.literal_eval(meta.get("imgsz", "[64, 64]"))[0])
        self._none = self.class_names.index(NONE_LABEL) if NONE_LABEL in self.class_names else -1
        self._cards: list[Card | None] = [
            None if n == NONE_LABEL else Card.from_str(n) for n in self.class_names
        ]
        self.min_confidence = float(min_confidence)
        self.path = path
        # the whole-card view: with the shipped corner model, the shipped whole-card model when
        # it is installed (None); a given file; or off (False)
        self.whole_path = self._choose(whole_model_path, model_path, WHOLE_MODEL_NAME)
        self._whole, self._whole_input, size = self._companion(self.whole_path, names, path)
        self.whole_size = size or self.input_size
        # the corner model for greyscale pictures, chosen the same way
        self.grey_path = self._choose(grey_model_path, model_path, GREY_MODEL_NAME)
        self._grey, self._grey_input, _ = self._companion(self.grey_path, names, path,
                                                          self.input_size)
        # the strip view of row cards, chosen the same way
        self.strip_path = self._choose(strip_model_path, model_path, STRIP_MODEL_NAME)
        self._strip, self._strip_input, strip_size = self._companion(self.strip_path, names,
                                                                     path)
        self.strip_size = strip_size or self.input_size
        # the whole-card model for greyscale pictures, chosen the same way (only beside a
        # colour one: it reads the same crops); its file is checked now, but it is loaded
        # with the first grey picture - most pictures are in colour, and loading it took
        # 20-27 ms of every reader's start
        self.grey_whole_path = (self._choose(grey_whole_model_path, model_path,
                                             GREY_WHOLE_MODEL_NAME)
                                if self._whole is not None else None)
        if self.grey_whole_path is not None:
            verify_checksum(self.grey_whole_path)
        self._names = names
        self._grey_whole: Any = None
        self._grey_whole_input = ""
        self._corners = (self._session, self._input)  # the corner model of the picture read
        self._whole_view = (self._whole, self._whole_input)  # its whole-card model

    @staticmethod
    def _choose(given: Path | Literal[False] | None, main: Path | None, name: str
                ) -> Path | None:
        """A companion model's file: the one given, the shipped one when the shipped corner
        model is used and it is installed (None), or none (False)."""
        if given is False:
            return None
        if given is not None:
            return Path(given)
        if main is None and model_exists(name):
            return _default_model_path(name)
        return None

    def _companion(self, path: Path | None, names: object, main: Path,
                   size: int | None = None) -> tuple[Any, str, int | None]:
        """Load a companion model (checksum verified); its classes, and its input size when
        ``size`` is given, must be the corner model's."""
        if path is None:
            return None, "", None
        verify_checksum(path)
        session = SplitBatchSession(path, self._threads)
        meta = session.get_modelmeta().custom_metadata_map
        own = int(ast.literal_eval(meta.get("imgsz", "[64, 64]"))[0])
        if ast.literal_eval(meta.get("names", "{}")) != names or \
                (size is not None and own != size):
            raise IdentityModelError(
                f"model {path}: its classes or input size differ from {main.name}'s")
        return session, session.get_inputs()[0].name, own

    # -- model ---------------------------------------------------------------------------------

    def classify(self, crops: np.ndarray, *, whole: bool = False,
                 strip: bool = False) -> np.ndarray:
        """Class probabilities (n, classes) of BGR uint8 crops (n, s, s, 3): corner crops,
        whole-card crops (``whole``) for the whole-card model, or strip crops (``strip``) for
        the strip model."""
        if len(crops) == 0:
            return np.zeros((0, len(self.class_names)), np.float32)
        session, name = (self._whole_view if whole
                         else (self._strip, self._strip_input) if strip else self._corners)
        if session is None:
            raise IdentityModelError(f"no {'whole-card' if whole else 'strip'} model is loaded")
        out = []
        for i in range(0, len(crops), 256):
            x = to_tensor(crops[i:i + 256])
            p = session.run(None, {name: x})[0]
            out.append(p)
        probs = np.concatenate(out).astype(np.float64)
        sums = probs.sum(axis=1, keepdims=True)
        if probs.min() >= 0.0 and np.allclose(sums, 1.0, atol=0.1):
            # probabilities; an 8-bit model's sum to 1 only within its rounding
            return probs / sums
        e = np.exp(probs - probs.max(axis=1, keepdims=True))  # logits: softmax them
        return e / e.sum(axis=1, keepdims=True)

    # -- reading -------------------------------------------------------------------------------

    def read(self, image: np.ndarray, quads: np.ndarray | Sequence[np.ndarray],
             game: str | None = None, covered: np.ndarray | None = None,
             alone: np.ndarray | None = None,
             on_top: Sequence[np.ndarray] | None = None) -> list[IdentityResult]:
        """Read each card at ``quads`` ((n, 4, 2) image px) in ``image`` (BGR uint8).

        ``game`` (bridge, preferans, lhombre) restricts the answers to that game's deck.
        ``covered`` ((n, 4) bool, optional) marks corners known to lie under another card
        (:func:`vision.identity.crops.covered_corners`): they show that card, so they count
        as showing no index. ``alone`` ((n,) bool, optional) marks cards whose whole face
        shows: with the whole-card model loaded, such a card is named by its whole face
        (pips, picture) when that view is sure and the corners are not surer of another.
        ``on_top`` (n arrays (k, 4, 2), optional) gives the boxes of the cards lying on each
        card (the later cards of its row): with the strip model loaded, a card the corners
        leave unread is read from the strip of it that shows, those boxes masked.
        A greyscale picture is read with the greyscale corner model when one is loaded.
        """
        grey = self._grey is not None and np.asarray(image).size > 0 and \
            is_monochrome(np.asarray(image))
        if grey:
            self._corners = (self._grey, self._grey_input)
            # the colour whole-card model is fooled by grey faces (24-26 % of lone grey cards
            # read wrong): lone cards get the whole view only from the grey one; the strip
            # model is a colour one too
            if self._grey_whole is None and self.grey_whole_path is not None:
                self._grey_whole, self._grey_whole_input, _ = self._companion(
                    self.grey_whole_path, self._names, self.path, self.whole_size)
            self._whole_view = (self._grey_whole, self._grey_whole_input)
            if self._grey_whole is None:
                alone = None
            on_top = None
        try:
            return self._read(image, quads, game, covered, alone, on_top=on_top)
        finally:
            self._corners = (self._session, self._input)
            self._whole_view = (self._whole, self._whole_input)

    @property
    def reads_grey_apart(self) -> bool:
        """True when greyscale pictures get their own corner model."""
        return self._grey is not None

    def _read(self, image: np.ndarray, quads: np.ndarray | Sequence[np.ndarray],
              game: str | None = None, covered: np.ndarray | None = None,
              alone: np.ndarray | None = None, trace: bool = True,
              on_top: Sequence[np.ndarray] | None = None) -> list[IdentityResult]:
        """:meth:`read` with the corner model for this picture already chosen; ``trace``: read
        lone cards left unread again from their traced outline."""
        image = np.asarray(image)
        if image.ndim not in (2, 3) or image.size == 0:
            raise ValueError(f"image must be an (h, w, 3) or (h, w) array, got {image.shape}")
        q = np.asarray(quads, dtype=np.float64)
        if q.size == 0:
            return []
        q = q.reshape(-1, 4, 2)
        deck = deck_for(game)
        in_deck = np.array([c is not None and c in set(deck) for c in self._cards])

        results: list[IdentityResult | None] = [None] * len(q)
        sized: list[int] = []
        for i, quad in enumerate(q):
            width, _ = card_size_px(quad)
            if width < MIN_CARD_WIDTH_PX:
                results[i] = IdentityResult(None, 0.0, f"card too small: {width:.0f} px wide "
                                            f"(at least {MIN_CARD_WIDTH_PX:.0f} px needed)")
            else:
                sized.append(i)
        todo: list[int] = []
        alone_mask = (np.asarray(alone, bool).reshape(-1) if alone is not None and
                      self._whole_view[0] is not None else np.zeros(len(q), bool))
        main = (0, 2)
        extra = (1, 3)
        if sized:
            # the main corners first; the other two are cut only where they are needed: for the
            # sharpness of a card whose main corners look blurred, or to read it
            s = self.input_size
            cut = np.zeros((len(sized), 4, s, s, 3), np.uint8)
            cut[:, main] = [corner_crops(image, q[i], s, main) for i in sized]
            sharp = sharpness_of_cards(cut[:, main])
            side_cut = sharp < MIN_SHARPNESS  # which cards' side corners are cut already
            for j in np.flatnonzero(side_cut).tolist():
                cut[j, extra] = corner_crops(image, q[sized[j]], s, extra)
                sharp[j] = max(sharp[j], sharpness_of_cards(cut[j:j + 1, extra])[0])
            for i, sharp_i in zip(sized, sharp.tolist(), strict=True):
                if sharp_i < MIN_SHARPNESS:
                    results[i] = IdentityResult(None, 0.0, f"too blurred (sharpness {sharp_i:.1f}"
                                                f", at least {MIN_SHARPNESS:.0f} needed)")
                else:
                    todo.append(i)
            readable = sharp >= MIN_SHARPNESS
            crops = cut[readable]  # (n, 4, s, s, 3), side corners mostly not cut
            side_cut = side_cut[readable]
        if todo:
            # first the two corners where every deck prints its index (top-left and the turned
            # bottom-right: whichever strip of a card shows, one of them is in it); the other
            # two corners only for cards those leave unsure - half the work for most photos
            # views: the four corners, then the whole card (WHOLE_CARD) for cards alone
            probs = np.zeros((len(todo), len(VIEW_NAMES), len(self.class_names)))
            hidden = np.zeros((len(todo), len(VIEW_NAMES)), bool)
            if covered is not None:
                hidden[:, :4] = np.asarray(covered, bool).reshape(-1, 4)[todo]
            self._classify_corners(crops, probs, hidden, np.arange(len(todo)), main)
            whole = alone_mask[todo]
            if whole.any():
                js = np.flatnonzero(whole)
                probs[js, WHOLE_CARD] = self.classify(
                    np.stack([whole_card_crop(image, q[todo[j]], self.whole_size) for j in js]),
                    whole=True)
                self._drop_unsupported_whole_views(probs, js.tolist(), main, in_deck)
            used: list[tuple[int, ...]] = [main] * len(todo)
            first = [self._combine(p[list(main)], main, in_deck, game) for p in probs]
            for j in np.flatnonzero(whole).tolist():
                first[j] = self._with_whole_view(first[j], probs[j, WHOLE_CARD], in_deck)
            again = [j for j, r in enumerate(first) if r.card is None]
            if again:
                for j in again:
                    if not side_cut[j]:
                        crops[j, extra] = corner_crops(image, q[todo[j]], self.input_size, extra)
                self._classify_corners(crops, probs, hidden, np.asarray(again), extra)
                for j in again:
                    used[j] = (0, 1, 2, 3)
                    first[j] = self._combine(probs[j][list(used[j])], used[j], in_deck, game)
            self._look_again(image, q[todo], first, probs, used, hidden, in_deck, game)
            self._look_around(image, q[todo], first, probs, used, hidden, in_deck, game)
            self._discount_neighbours(first, probs, used, q[todo], in_deck, game)
            self._exclude_taken(first, probs, used, in_deck, game)
            stripped = np.zeros(len(todo), bool)
            if on_top is not None and self._strip is not None:
                stripped = self._read_strips(image, q[todo], [on_top[i] for i in todo], first,
                                             probs, used, whole, in_deck)
            for j, r in enumerate(first):
                if _unsure(r) or (stripped[j] and r.card is None):
                    views = [*used[j], WHOLE_CARD] if whole[j] else list(used[j])
                    if stripped[j]:
                        views.append(STRIP_VIEW)
                    first[j] = replace(r, candidates=self._candidates(probs[j][views], in_deck))
            for i, r in zip(todo, first, strict=True):
                results[i] = r
        # too blurred for the indices, but lying alone: its pips and picture may still show
        blurred = [i for i in sized if alone_mask[i] and i not in todo]
        if blurred:
            p = self.classify(np.stack([whole_card_crop(image, q[i], self.whole_size)
                                        for i in blurred]), whole=True)
            for i, pi in zip(blurred, p, strict=True):
                results[i] = self._with_whole_view(results[i], pi, in_deck)  # type: ignore[arg-type]
        if trace:  # lone cards large enough to read
            self._read_traced(image, q, results, [i for i in sized if alone_mask[i]], game)
        return [r for r in results if r is not None]

    def _read_traced(self, image: np.ndarray, quads: np.ndarray,
                     results: list[IdentityResult | None], lone: list[int],
                     game: str | None) -> None:
        """A card lying alone and left unread may lie under a box turned off it: read it again
        from its outline traced against the cloth (:mod:`vision.identity.outline`), in place.
        A card that reading names at :data:`TRACED_MIN_CONFIDENCE` is taken unless another
        card of the picture already is it (one deck)."""
        named = {r.card for r in results if r is not None and r.card is not None}
        for i in lone:
            r = results[i]
            if r is None or r.card is not None:
                continue
            traced = trace_lone_card(image, quads[i])
            if traced is None or not _moved(quads[i], traced):
                continue
            [again] = self._read(image, traced[None], game, None, np.ones(1, bool), trace=False)
            if again.card is not None and again.confidence >= TRACED_MIN_CONFIDENCE \
                    and again.card not in named:
                results[i] = replace(again, corner=f"{again.corner}, card outline traced",
                                     box=traced)
                named.add(again.card)

    def _read_strips(self, image: np.ndarray, quads: np.ndarray,
                     on_top: Sequence[np.ndarray], results: list[IdentityResult],
                     probs: np.ndarray, used: list[tuple[int, ...]], whole: np.ndarray,
                     in_deck: np.ndarray) -> np.ndarray:
        """Cards still unread that other cards lie on, read from the strip of them that shows
        (``probs[j, STRIP_VIEW]``, in place); returns which cards were so read.

        A card is named by its strip at :data:`STRIP_MIN_CONFIDENCE`, the cards read elsewhere
        in the picture taken out (one deck), when a corner read gives that card at least
        :data:`STRIP_CORNER_SUPPORT`; two cards whose strips name the same card both stay
        unread. The strip's answer joins the candidates of a card it does not name.
        """
        js = [j for j, r in enumerate(results)
              if r.card is None and not whole[j] and len(on_top[j])
              and (_unsure(r) or (r.reason or "").startswith(NO_INDEX))]
        read = np.zeros(len(results), bool)
        if not js:
            return read
        crops = np.stack([strip_crop(image, quads[j], on_top[j], self.strip_size) for j in js])
        probs[js, STRIP_VIEW] = self.classify(crops, strip=True)
        read[js] = True
        owners = collections.Counter(r.card for r in results if r.card is not None)
        taken = np.array([c is not None and owners[c] == 1 for c in self._cards])
        named: dict[int, IdentityResult] = {}
        for j in js:
            p = np.where(in_deck & ~taken, probs[j, STRIP_VIEW], 0.0)
            k = int(np.argmax(p))
            support = float(probs[j, list(used[j]), k].max())
            if p[k] >= STRIP_MIN_CONFIDENCE and support >= STRIP_CORNER_SUPPORT:
                named[j] = IdentityResult(self._cards[k], float(p[k]), None,
                                          VIEW_NAMES[STRIP_VIEW])
        claims = collections.Counter(r.card for r in named.values())
        for j, r in named.items():
            if claims[r.card] == 1:
                results[j] = r
        return read

    @staticmethod
    def _drop_unsupported_whole_views(probs: np.ndarray, rows: Sequence[int],
                                      corners: tuple[int, ...], in_deck: np.ndarray) -> None:
        """Blank (in place) the whole view of each card in ``rows`` whose best deck card gets
        less than :data:`WHOLE_VIEW_SUPPORT` from every one of ``corners``: that view then
        neither names the card nor joins its candidates."""
        for j in rows:
            k = int(np.argmax(np.where(in_deck, probs[j, WHOLE_CARD], 0.0)))
            if probs[j, list(corners), k].max() < WHOLE_VIEW_SUPPORT:
                probs[j, WHOLE_CARD] = 0.0

    def _with_whole_view(self, corners: IdentityResult, p: np.ndarray,
                         in_deck: np.ndarray) -> IdentityResult:
        """A card lying alone: the whole-card view's card when it is sure (``min_confidence``,
        deck cards only) and the corners are not surer of another; else the corners'
        reading. On generated cards lying alone the whole view reads small cards far better
        than their indices (``models/identity_whole.md``)."""
        cards = np.where(in_deck, p, 0.0)
        k = int(np.argmax(cards))
        conf = float(cards[k])
        if conf < self.min_confidence:
            return corners
        if corners.card == self._cards[k]:
            return replace(corners, confidence=max(conf, corners.confidence))
        if corners.card is not None and corners.confidence >= conf:
            return corners  # both sure of different cards: the surer one
        return IdentityResult(self._cards[k], conf, None, VIEW_NAMES[WHOLE_CARD])

    def _classify_corners(self, crops: np.ndarray, probs: np.ndarray, hidden: np.ndarray,
                          rows: np.ndarray, corners: tuple[int, ...]) -> None:
        """Fill ``probs[rows, corners]`` (in place) from the corner ``crops`` (n, 4, s, s, 3):
        a corner under another card reads "no index" without being classified (it shows
        that card; a face-up row hides a third of its main corners so)."""
        seen = [(j, k) for j in rows.tolist() for k in corners if not hidden[j, k]]
        if seen:
            js, ks = np.array(seen).T
            probs[js, ks] = self.classify(crops[js, ks])
        for k in corners:
            under = rows[hidden[rows, k]]
            if len(under):
                probs[under, k] = 0.0
                if self._none >= 0:
                    probs[under, k, self._none] = 1.0

    def _discount_neighbours(self, results: list[IdentityResult], probs: np.ndarray,
                             used: list[tuple[int, ...]], quads: np.ndarray,
                             in_deck: np.ndarray, game: str | None) -> None:
        """Re-read unsure cards without corner votes that show an overlapping neighbour.

        In an overlapping row a covered corner of one card shows the index of the card lying
        on it. When a corner of an unread card reads exactly the card that an overlapping
        neighbour was confidently read as, that vote belongs to the neighbour: it is replaced
        by "no index" and the card is combined again (in place).
        """
        read_as: dict[Card, list[int]] = {}
        for j, r in enumerate(results):
            if r.card is not None:
                read_as.setdefault(r.card, []).append(j)
        if not read_as:
            return
        polys = [np.asarray(qd, np.float32) for qd in quads]

        def overlaps(a: int, b: int) -> bool:
            area, _ = cv2.intersectConvexConvex(polys[a], polys[b])
            return area > 1.0

        for j, r in enumerate(results):
            if r.card is not None:
                continue
            p = probs[j].copy()
            changed = False
            for k in used[j]:
                scores = np.where(np.arange(p.shape[1]) == self._none, -1.0, p[k])
                c = self._cards[int(np.argmax(scores))]
                if c is None or float(scores.max()) < 0.3:
                    continue
                if any(z != j and overlaps(j, z) for z in read_as.get(c, [])):
                    p[k] = 0.0
                    if self._none >= 0:
                        p[k, self._none] = 1.0
                    changed = True
            if changed:
                results[j] = self._combine(p[list(used[j])], used[j], in_deck, game)

    def _look_again(self, image: np.ndarray, quads: np.ndarray, results: list[IdentityResult],
                    probs: np.ndarray, used: list[tuple[int, ...]], hidden: np.ndarray,
                    in_deck: np.ndarray, game: str | None) -> None:
        """Unsure cards read again from crops of slightly larger and smaller rectangles.

        The detector's rectangles are a few per cent off, enough to cut an index or take in
        the table beside it. A corner whose best card is the same in all three crops (as
        detected, ``LOOK_AGAIN_SCALES`` larger and smaller) keeps the surest of the three
        readings; one where they disagree keeps the first. On the tuning scenes, all three
        agreeing read 23 more of about 870 face-up row cards right and 4 more wrong; two of
        three would read 44 more right but 10 more wrong (in place).
        """
        cards_only = np.arange(probs.shape[2]) != self._none
        looks = []
        for j in (j for j, r in enumerate(results) if _unsure(r)):
            # the corners that show some index (the others hold nothing to confirm)
            corners = [k for k in used[j] if not hidden[j, k]
                       and float(probs[j, k, cards_only].max()) >= LOOK_AGAIN_MIN_P]
            if corners:
                q = quads[j]
                centre = q.mean(axis=0)
                looks.append((j, corners, [centre + (q - centre) * f for f in LOOK_AGAIN_SCALES]))
        for (j, corners, _), seen in zip(looks, self._read_views(image, looks), strict=True):
            for a, k in enumerate(corners):
                all_views = np.concatenate([probs[j, k][None], seen[:, a]])
                scores = np.where(cards_only, all_views, -1.0)
                tops = scores.argmax(axis=1)
                if np.all(tops == tops[0]):
                    probs[j, k] = all_views[int(np.argmax(scores.max(axis=1)))]
            results[j] = self._combine(probs[j][list(used[j])], used[j], in_deck, game)

    def _look_around(self, image: np.ndarray, quads: np.ndarray, results: list[IdentityResult],
                     probs: np.ndarray, used: list[tuple[int, ...]], hidden: np.ndarray,
                     in_deck: np.ndarray, game: str | None) -> None:
        """Cards still unread (unsure, or no index seen) read again from their box moved each
        way along both axes, ring after ring of :data:`LOOK_AROUND_RINGS` (in place).

        A covered card's box is placed from the strip of it that shows, and is most often
        off along the row, where the edges of a card lying on another hardly show - by a few
        per cent of a card's width for most cards, by a fifth for one in ten of those left
        unread. A corner takes a moved box's reading when that one is sure (the ring's least
        probability) and neither another moved box of the ring nor the box as found reads a
        different card at 0.5 or more; the card is named only if its corners then agree as
        usual. The nearer rings go first: the farther a box moves, the more of the neighbours'
        indices it takes in.
        """
        for shift, min_p in LOOK_AROUND_RINGS:
            self._look_around_once(image, quads, results, probs, used, hidden, in_deck, game,
                                   shift, min_p)

    def _look_around_once(self, image: np.ndarray, quads: np.ndarray,
                          results: list[IdentityResult], probs: np.ndarray,
                          used: list[tuple[int, ...]], hidden: np.ndarray, in_deck: np.ndarray,
                          game: str | None, shift: float, min_p: float) -> None:
        """One ring of :meth:`_look_around`: boxes moved ``shift`` card widths, readings taken
        at ``min_p``."""
        todo = [j for j, r in enumerate(results) if r.card is None and (
            _unsure(r) or (r.reason or "").startswith(NO_INDEX))]
        cards_only = np.arange(probs.shape[2]) != self._none
        looks = []
        for j in todo:
            # the two corners every deck prints its index in (the other two: half the work for
            # one card more read right of 1,090 on the tuning photos)
            corners = [k for k in (0, 2) if not hidden[j, k]]
            if not corners:
                continue
            q = canonical_quad(quads[j])
            across, along = q[1] - q[0], q[3] - q[0]
            step = shift * np.linalg.norm(across)
            moves = [d / np.linalg.norm(d) * step for d in (across, -across, along, -along)]
            looks.append((j, corners, [q + move for move in moves]))
        for (j, corners, views), seen in zip(looks, self._read_views(image, looks), strict=True):
            p = probs[j].copy()
            moved_to: dict[str, np.ndarray] = {}
            for a, k in enumerate(corners):
                scores = np.where(cards_only, seen[:, a], -1.0)
                tops, best = scores.argmax(axis=1), scores.max(axis=1)
                v = int(np.argmax(best))
                found = np.where(cards_only, p[k], -1.0)
                if best[v] < min_p or np.any((tops != tops[v]) & (best >= 0.5)) \
                        or (found.argmax() != tops[v] and found.max() >= 0.5):
                    continue
                p[k] = seen[v, a]
                moved_to[CORNER_NAMES[k]] = views[v]
            again = self._combine(p[list(used[j])], used[j], in_deck, game)
            if again.card is not None:
                results[j], probs[j] = replace(again, box=moved_to.get(again.corner or "")), p

    def _read_views(self, image: np.ndarray,
                     looks: list[tuple[int, list[int], list[np.ndarray]]]) -> list[np.ndarray]:
        """For each look (a card, its corners to read, the quads to cut them from): the class
        probabilities (quads, corners, classes), all crops classified in one batch."""
        batch = [crop for _, corners, views in looks for view in views
                 for crop in corner_crops(image, view, self.input_size, tuple(corners))]
        if not batch:
            return []
        more = self.classify(np.stack(batch))
        out, at = [], 0
        for _, corners, views in looks:
            n = len(views) * len(corners)
            out.append(more[at:at + n].reshape(len(views), len(corners), -1))
            at += n
        return out

    def _candidates(self, p: np.ndarray, in_deck: np.ndarray
                    ) -> tuple[tuple[Card, float], ...]:
        """The deck cards an unsure card may be: each corner's vote joined (noisy-or), those
        at ``CANDIDATE_MIN_P`` or more, at most ``MAX_CANDIDATES``, most likely first."""
        joined = 1.0 - np.prod(1.0 - np.clip(p, 0.0, 1.0), axis=0)
        joined = np.where(in_deck, joined, 0.0)
        best = np.argsort(-joined)[:MAX_CANDIDATES]
        return tuple((card, round(float(joined[k]), 4)) for k in best
                     if joined[k] >= CANDIDATE_MIN_P and (card := self._cards[k]) is not None)

    def _exclude_taken(self, results: list[IdentityResult], probs: np.ndarray,
                       used: list[tuple[int, ...]], in_deck: np.ndarray,
                       game: str | None) -> None:
        """Re-read unsure cards without the cards read confidently elsewhere (in place).

        One deck lies on the table, so a card confidently read at one place is not the card at
        another: its probability at the unsure cards is moved, in proportion, to the other
        classes and each unsure card is combined again. Cards read confidently twice (a
        duplicate, one of them wrong) exclude nothing, and two unsure cards that would settle
        on the same card both stay unread. Repeated while new cards get read, since each one
        may settle another.
        """
        for _ in range(4):
            owners: dict[Card, list[int]] = {}
            for j, r in enumerate(results):
                if r.card is not None:
                    owners.setdefault(r.card, []).append(j)
            taken = np.array([c is not None and len(owners.get(c, ())) == 1
                              for c in self._cards])
            if not taken.any():
                return
            again: dict[int, IdentityResult] = {}
            for j, r in enumerate(results):
                if not _unsure(r):
                    continue
                p = probs[j][list(used[j])].copy()
                gone = p[:, taken].sum(axis=1, keepdims=True)
                p[:, taken] = 0.0
                p /= np.maximum(1.0 - gone, 1e-9)
                r2 = self._combine(p, used[j], in_deck, game)
                if r2.card is not None:
                    again[j] = r2
            # two unsure cards settling on the same card: a contest, not a reading
            claims = collections.Counter(r2.card for r2 in again.values())
            settled = {j: r2 for j, r2 in again.items() if claims[r2.card] == 1}
            if not settled:
                return
            for j, r2 in settled.items():
                results[j] = r2

    def _combine(self, p: np.ndarray, corners: Sequence[int], in_deck: np.ndarray,
                 game: str | None) -> IdentityResult:
        """One card's answer from its corners' probabilities (len(corners), classes)."""
        cards = p[:, in_deck]  # deck cards only; other cards' mass is dropped, not moved
        idx = np.flatnonzero(in_deck)
        best_per_corner = cards.argmax(axis=1)
        best_p = cards.max(axis=1)
        order = np.argsort(-best_p)
        top = int(order[0])
        card_i = int(idx[best_per_corner[top]])
        conf = float(best_p[top])
        # any other corner confidently reading a different card?
        for k in order[1:]:
            other = int(idx[best_per_corner[k]])
            if other != card_i and best_p[k] >= 0.5:
                name_a, name_b = CORNER_NAMES[corners[top]], CORNER_NAMES[corners[k]]
                return self._joint(p, corners, in_deck) or IdentityResult(
                    None, conf,
                    f"corners disagree: {self._cards[card_i]} ({conf:.2f}, {name_a}) "
                    f"vs {self._cards[other]} ({best_p[k]:.2f}, {name_b})")
        # support from other corners that agree raises the confidence (noisy-or)
        agree = cards[:, best_per_corner[top]]
        combined = float(1.0 - np.prod(1.0 - np.clip(agree, 0.0, 1.0)))
        if combined >= self.min_confidence:
            return IdentityResult(self._cards[card_i], combined, None, CORNER_NAMES[corners[top]])
        # why not? out of deck, no index, or unsure
        full_best = p.max(axis=0)
        j = int(np.argmax(np.where(np.arange(p.shape[1]) == self._none, -1.0, full_best)))
        if not in_deck[j] and full_best[j] >= self.min_confidence:
            return IdentityResult(None, combined, f"reads as {self._cards[j]}, which is not in "
                                  f"the {game} deck")
        if self._none >= 0 and p[:, self._none].min() >= 0.5:
            return IdentityResult(None, combined, f"{NO_INDEX} (covered or blank)")
        return self._joint(p, corners, in_deck) or IdentityResult(
            None, combined, f"unsure: best guess {self._cards[card_i]} at {combined:.2f} "
            f"(needs {self.min_confidence:.2f})")

    def _joint(self, p: np.ndarray, corners: Sequence[int], in_deck: np.ndarray
               ) -> IdentityResult | None:
        """The card the corners name together, as independent witnesses, when the strict
        rule of :meth:`_combine` named none: see :data:`JOINT_MIN_CONFIDENCE`."""
        cards = p[:, in_deck]
        blank = p[:, self._none] if self._none >= 0 else np.zeros(len(p))
        log_belief = np.log(cards + JOINT_NONE_WEIGHT * blank[:, None] + 1e-4).sum(axis=0)
        belief = np.exp(log_belief - log_belief.max())
        belief /= belief.sum()
        k = int(belief.argmax())
        if belief[k] < JOINT_MIN_CONFIDENCE or cards[:, k].max() < JOINT_MIN_CORNER_P:
            return None
        return IdentityResult(self._cards[int(np.flatnonzero(in_deck)[k])], float(belief[k]),
                              None, CORNER_NAMES[corners[int(cards[:, k].argmax())]])
