"""``scripts/evaluate.py`` draws its held-out sets as documented: the same deals, and with
``--held-out-decks`` decks only of designs no model was trained on."""

from __future__ import annotations

from vision.synth.style import HELD_OUT_BACK_PATTERNS

from .script_module import load

evaluate = load("evaluate")


def test_held_out_decks_keep_the_deals_and_change_the_deck() -> None:
    kw = {"hard": False, "sizes": [(320, 240)], "stages": ("end",)}
    seen = list(evaluate.scenes_for(3, 123_000, **kw))
    unseen = list(evaluate.scenes_for(3, 123_000, held_out_decks=True, **kw))
    for a, b in zip(seen, unseen, strict=True):
        assert (a.game, a.stage, a.seed) == (b.game, b.stage, b.seed)
        assert a.truth["tricks"] == b.truth["tricks"]  # the same play
        assert a.truth["observation"] == b.truth["observation"]  # the same rows
        assert b.style.back.pattern in HELD_OUT_BACK_PATTERNS
        assert a.style.back.pattern not in HELD_OUT_BACK_PATTERNS
        assert b.style.face.held_out and not a.style.face.held_out
