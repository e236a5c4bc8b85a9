"""Naming unread faces from the rest of the deal (``vision.deduce``), and its use by the
reconstruction."""

from __future__ import annotations

from vision.cards import Card, Suit
from vision.contract import Contract
from vision.deduce import deduce_unread
from vision.games import find_game
from vision.reconstruct import reconstruct
from vision.record import RowEntry
from vision.seats import Seat
from vision.simulate import SimulatedDeal, simulate_deal

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
BRIDGE = find_game("bridge")
NT = Contract(None, S)


def cards(**spec: str) -> dict[Seat, list[Card | None]]:
    return {Seat[s]: [None if t == "-" else Card.from_str(t) for t in text.split()]
            for s, text in spec.items()}


def no_mismatch(i: int, w: Seat) -> int:
    return 0


def whole_deal(seed: int) -> tuple[dict[Seat, list[Card | None]], SimulatedDeal]:
    """A legal bridge deal as rows read whole: per seat the cards in trick order."""
    d = simulate_deal("bridge", seed=seed)
    return {s: [e.card for e in row] for s, row in d.rows.items()}, d


def agreed_by(d: SimulatedDeal) -> list[frozenset[Seat] | None]:
    """What rows laid right say of each trick: the winner's side."""
    return [BRIDGE.winners(t.winner, d.seats) for t in d.tricks]


def test_one_unread_face_of_a_whole_deal_is_the_card_nobody_else_played() -> None:
    for seed in range(5):
        table, d = whole_deal(seed)
        seat, i = d.seats[seed % 4], 3 + seed
        card = table[seat][i]
        table[seat][i] = None
        found = deduce_unread(BRIDGE, d.seats, table, d.first_leader, d.contract,
                              agreed=agreed_by(d), mismatches=no_mismatch)
        assert found.status == "unique" and found.cards == {(seat, i): card}


def test_faces_of_a_whole_deal_are_named_only_as_played() -> None:
    named = 0
    for seed in range(12):
        table, d = whole_deal(seed)
        truth = {(s, i): c for s, col in table.items() for i, c in enumerate(col)}
        hidden = [(d.seats[(seed + k) % 4], (seed * 5 + 3 * k) % 13) for k in range(4)]
        for s, i in hidden:
            table[s][i] = None
        found = deduce_unread(BRIDGE, d.seats, table, d.first_leader, d.contract,
                              agreed=agreed_by(d), mismatches=no_mismatch)
        assert found.status != "none"  # the true play always fits
        assert all(truth[p] == c for p, c in found.cards.items())
        named += len(found.cards)
    assert named >= 20  # of the 48 hidden (25 when this was written)


def test_two_faces_that_could_swap_are_left_open() -> None:
    # E's and S's unread faces are the two lowest spades of one trick: either way round
    # N's ace wins, nobody revokes - nothing to tell them apart
    table = cards(N="SA", E="-", S="-", W="S2")
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, NT, agreed=[frozenset({N, S})],
                          mismatches=no_mismatch)
    assert found.status in ("several", "too wide") and found.cards == {}


def test_the_winner_the_rows_show_names_the_card() -> None:
    # N leads the king, EW's rows say they won: E's card must beat it - of the deck's cards
    # not seen elsewhere, only the ace of spades does (in no trump)
    table = cards(N="SK", E="-", S="S3", W="S4")
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, NT, agreed=[frozenset({E, W})],
                          mismatches=no_mismatch)
    assert found.status == "unique" and found.cards == {(E, 0): Card.from_str("SA")}


def test_a_filling_that_would_be_a_revoke_is_ruled_out() -> None:
    # hearts trump. Trick 1: N leads SA and EW's rows say they won it: E, whose face is
    # unread, must have ruffed. Trick 2: E leads and wins it.
    hearts = Contract(Suit.HEARTS, S)
    agreed = [frozenset({E, W}), frozenset({E, W})]
    # E leads a club at trick 2: he may have had no spade left at trick 1 - any heart fits
    table = cards(N="SA C2", E="- C5", S="S3 C3", W="S4 C4")
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, hearts, agreed=agreed,
                          mismatches=no_mismatch)
    assert found.status == "several"
    # E leads the king of spades at trick 2: he held a spade at trick 1 and had to follow
    # suit, so no ruff was allowed - and no spade beats the ace: nothing fits
    table = cards(N="SA S7", E="- SK", S="S3 S5", W="S4 S6")
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, hearts, agreed=agreed,
                          mismatches=no_mismatch)
    assert found.status == "none"
    # unless that revoke is one the read cards show anyway
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, hearts, agreed=agreed,
                          mismatches=no_mismatch, allowed_revokes=frozenset({(E, 0)}))
    assert found.status == "several"


def test_no_filling_fits_a_table_the_rules_rule_out() -> None:
    # N's row says N won with a two against W's ace, led by N: no card for E's face helps
    table = cards(N="S2", E="-", S="S3", W="SA")
    found = deduce_unread(BRIDGE, (N, E, S, W), table, N, NT, agreed=[frozenset({N, S})],
                          mismatches=no_mismatch)
    assert found.status == "none"


def test_too_many_unread_places_are_not_searched() -> None:
    table, d = whole_deal(1)
    for s in d.seats[:2]:
        for i in range(6):
            table[s][i] = None
    found = deduce_unread(BRIDGE, d.seats, table, d.first_leader, d.contract,
                          agreed=agreed_by(d), mismatches=no_mismatch)
    assert found.status == "too wide" and found.cards == {}


def test_the_report_names_a_deduced_face_and_keeps_the_row_as_read() -> None:
    d = simulate_deal("bridge", seed=3)
    card = d.rows[W][7].card
    obs = d.observation()
    obs.rows[W][7] = RowEntry(obs.rows[W][7].orientation)
    r = reconstruct(obs)
    assert r.trick(8).cards[W] == card and r.issues == []
    assert any(n.startswith("W trick 8: face not read;") and str(card) in n for n in r.notes)
    assert r.rows[W][7].card is None
    assert r.hands is not None and card in r.hands[W]


def test_a_misread_card_seen_twice_gives_way_to_the_surer_reading_and_is_named() -> None:
    # the camera read W's card of trick 8 as N's card of trick 3, less surely: the duplicate
    # is reported there, that face counts as unread, and the rest of the deal names it
    from dataclasses import replace

    d = simulate_deal("bridge", seed=4)
    card, other = d.rows[W][7].card, d.rows[N][2].card
    obs = d.observation()
    obs.rows = {s: [replace(e, card_confidence=0.99) for e in row] for s, row in obs.rows.items()}
    obs.rows[W][7] = replace(obs.rows[W][7], card=other, card_confidence=0.8)
    r = reconstruct(obs)
    (issue,) = r.issues
    assert (issue.kind.value, issue.seat, issue.trick) == ("duplicate_card", W, 8)
    assert "counts as unread" in issue.message
    assert r.trick(8).cards[W] == card and r.trick(3).cards[N] == other
    assert r.result == d.result()
    # typed-in cards (no reading confidence) are kept as given, the duplicate reported
    typed = d.observation()
    typed.rows[W][7] = replace(typed.rows[W][7], card=other)
    r = reconstruct(typed)
    assert r.trick(8).cards[W] == other
    assert ("duplicate_card", W, 8) in [(i.kind.value, i.seat, i.trick) for i in r.issues]


def swappable_pair(seed: int) -> tuple[int, Seat, Seat] | None:
    """A trick of deal ``seed`` where two players who did not win it both followed suit:
    their two cards could lie either way round without breaking a rule."""
    d = simulate_deal("bridge", seed=seed)
    trump = BRIDGE.trump(d.contract)
    for i, t in enumerate(d.tricks):
        lead = BRIDGE.follow_suit(t.plays[0][1], trump)
        followers = [s for s, c in t.plays[1:]
                     if s != t.winner and BRIDGE.follow_suit(c, trump) == lead]
        if len(followers) >= 2:
            return i, followers[0], followers[1]
    return None


def test_the_reader_s_hesitation_names_faces_the_rules_leave_open() -> None:
    seed = next(s for s in range(20) if swappable_pair(s) is not None)
    i, a, b = swappable_pair(seed)  # type: ignore[misc]
    table, d = whole_deal(seed)
    card_a, card_b = table[a][i], table[b][i]
    table[a][i] = table[b][i] = None

    def deduce(candidates: dict) -> object:
        return deduce_unread(BRIDGE, d.seats, table, d.first_leader, d.contract,
                             agreed=agreed_by(d), mismatches=no_mismatch, candidates=candidates)

    # the rules alone: either way round fits
    found = deduce({})
    assert found.status == "several" and found.cards == {} and found.likely == {}
    # the reader hesitated at a's face but leant to its true card: both places are named as
    # likely (b's face is the card left), with the share of the fits' weight
    found = deduce({(a, i): ((card_a, 0.7), (Card.from_str("HA"), 0.2))})
    assert {p: c for p, (c, _) in found.likely.items()} == {(a, i): card_a, (b, i): card_b}
    assert all(0.8 <= share < 1 for _, share in found.likely.values())
    # an even hesitation between the two names neither
    found = deduce({(a, i): ((card_a, 0.4), (card_b, 0.4))})
    assert found.likely == {}


def test_the_report_tells_a_likely_face_from_a_deduced_one() -> None:
    seed = next(s for s in range(20) if swappable_pair(s) is not None)
    i, a, b = swappable_pair(seed)  # type: ignore[misc]
    d = simulate_deal("bridge", seed=seed)
    card_a, card_b = d.rows[a][i].card, d.rows[b][i].card
    obs = d.observation()
    obs.rows[a][i] = RowEntry(obs.rows[a][i].orientation, card_confidence=0.7,
                              candidates=((card_a, 0.7),))
    obs.rows[b][i] = RowEntry(obs.rows[b][i].orientation)
    r = reconstruct(obs)
    assert r.trick(i + 1).cards[a] == card_a and r.trick(i + 1).cards[b] == card_b
    likely = [n for n in r.notes if "likeliest" in n]
    assert len(likely) == 2 and any(n.startswith(f"{a} trick {i + 1}:") for n in likely)
    assert r.result == d.result() and r.issues == []
    # without the reader's candidates the two faces stay unread
    obs.rows[a][i] = RowEntry(obs.rows[a][i].orientation)
    r = reconstruct(obs)
    assert r.trick(i + 1).cards[a] is None and r.trick(i + 1).cards[b] is None
