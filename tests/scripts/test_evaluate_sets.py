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


def test_reports_a_director_could_take_as_they_stand_are_counted_with_their_totals() -> None:
    # from the true rectangles, end-of-play photos come out with their totals right; every
    # photo is either a report raising no issue or one that flags something, and a wrong
    # total the report does not flag would be counted apart
    from vision.pipeline import PhotoAnalyzer

    oracle = evaluate.TruthDetector()
    analyzers = {g: PhotoAnalyzer(game=g, detector=oracle, identity_reader=False)
                 for g in evaluate.GAMES}
    scenes = evaluate.scenes_for(3, 123_000, hard=False, sizes=[(960, 720)], stages=("end",))
    s = evaluate.evaluate_set(analyzers, scenes, oracle=oracle, label="t")
    assert s["photos_totals_exact"] == 1.0
    assert s["clean_reports_exact"] == s["clean_reports"] >= 1
    assert s["unflagged_wrong_totals"] == 0
    assert "reports raising no issue" in evaluate.markdown([s])


def test_the_contract_a_director_would_type_can_be_given_to_the_reconstruction(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # with --contract-given every deal is reconstructed under its true contract, as with
    # `analyze --contract 4S --declarer S`; without it the contract is left to be inferred
    from vision.notation.json_format import contract_from_dict
    from vision.pipeline import PhotoAnalyzer

    oracle = evaluate.TruthDetector()
    analyzers = {g: PhotoAnalyzer(game=g, detector=oracle, identity_reader=False)
                 for g in evaluate.GAMES}
    given: list[object] = []
    real = PhotoAnalyzer.observation

    def observation(self, reading, contract=None, **kw):  # type: ignore[no-untyped-def]
        given.append(contract)
        return real(self, reading, contract, **kw)

    monkeypatch.setattr(PhotoAnalyzer, "observation", observation)
    kw = {"hard": False, "sizes": [(960, 720)], "stages": ("end",)}
    scenes = list(evaluate.scenes_for(2, 123_000, **kw))
    evaluate.evaluate_set(analyzers, scenes, oracle=oracle, label="t")
    assert given == [None, None]
    given.clear()
    evaluate.evaluate_set(analyzers, scenes, oracle=oracle, label="t", contract_given=True)
    truths = [contract_from_dict(s.truth["observation"]["contract"], "truth") for s in scenes]
    assert given == truths and all(c is not None for c in given)


def test_a_face_up_trick_not_right_is_put_down_to_what_is_wrong_in_it() -> None:
    from types import SimpleNamespace

    from vision.cards import Card
    from vision.seats import Seat

    def got(cards: dict[str, str | None], winner: str | None) -> SimpleNamespace:
        return SimpleNamespace(
            cards={Seat[s]: None if c is None else Card.from_str(c) for s, c in cards.items()},
            winner=None if winner is None else Seat[winner])

    true = {"number": 1, "winner": "N", "plays": [["W", "S2"], ["N", "SA"], ["E", "S5"]]}
    report = SimpleNamespace(tricks=[
        got({"W": "S2", "N": "SA", "E": "S5"}, "N"),
        got({"W": "S2", "N": None, "E": "S6"}, "N"),
        got({"W": "S2", "N": "SA", "E": "S5"}, None),
    ])

    def faults(number: int) -> set[str]:
        return evaluate._trick_faults(report, dict(true, number=number))

    assert faults(1) == set()
    assert faults(2) == {"a face unread", "a face misread"}
    assert faults(3) == {"the winner"}
    assert faults(4) == {"not in the report"}
    assert evaluate._tricks_right(report, [dict(true, number=k) for k in (1, 2, 3, 4)]) == 1


def test_face_up_cards_are_counted_by_their_width_and_by_photo_size() -> None:
    # how large cards must be for their faces to be read: every face-up row card falls in
    # exactly one width band and one photo size, and the bands add up to the whole figure
    from vision.pipeline import PhotoAnalyzer

    oracle = evaluate.TruthDetector()
    analyzers = {g: PhotoAnalyzer(game=g, detector=oracle) for g in evaluate.GAMES}
    scenes = evaluate.scenes_for(3, 124_000, hard=False, sizes=[(1280, 720), (640, 480)],
                                 stages=("faceup",))
    s = evaluate.evaluate_set(analyzers, scenes, oracle=oracle, label="t")
    bands = s["identity_by_width"]
    assert set(bands) <= {label for label, _, _ in evaluate.WIDTH_BANDS}
    assert sum(n["cards"] for n in bands.values()) == s["identity"]["face_up_row_cards"] > 0
    assert sum(n.get("right", 0) for n in bands.values()) == s["identity"]["right"]
    sizes = s["faceup_by_photo_size"]
    assert set(sizes) == {"1280x720", "640x480"}
    assert sum(n["cards"] for n in sizes.values()) == s["identity"]["face_up_row_cards"]
    assert sum(n["tricks"] for n in sizes.values()) == s["faceup_tricks"]
    text = evaluate.markdown([s])
    assert "wide:" in text and "1280x720 photos" in text
    per_photo = s["faceup_per_photo"]
    assert len(per_photo) == 3 and all(p["cards"] >= p.get("right", 0) for p in per_photo)
    assert sum(p["cards"] for p in per_photo) == s["identity"]["face_up_row_cards"]


def test_a_card_width_falls_in_one_band() -> None:
    assert evaluate.width_band(24.0) == "< 40 px"
    assert evaluate.width_band(40.0) == "40-60 px"
    assert evaluate.width_band(89.9) == "60-90 px"
    assert evaluate.width_band(300.0) == ">= 90 px"
