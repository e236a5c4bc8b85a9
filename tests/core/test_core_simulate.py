"""simulate_deal: seeded, legal, rows laid as the rules say, irregularities where it says."""

from __future__ import annotations

import random

import pytest

from vision.contract import Contract
from vision.errors import TrickvisionError
from vision.games import find_game
from vision.record import Orientation
from vision.seats import SEATS, Seat
from vision.simulate import simulate_deal

GAMES = ("bridge", "preferans", "lhombre")


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_deal(game: str) -> None:
    a = simulate_deal(game, seed=7)
    b = simulate_deal(game, seed=7)
    assert a == b
    assert simulate_deal(game, seed=random.Random(7)) == a
    assert simulate_deal(game, seed=8).hands != a.hands


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(15))
def test_play_is_legal_and_rows_match_tricks(game: str, seed: int) -> None:
    d = simulate_deal(game, seed=seed)
    g = find_game(game)
    assert len(d.seats) == g.n_players
    assert len(d.tricks) == g.hand_size and d.complete
    left = {s: list(h) for s, h in d.hands.items()}
    leader = d.first_leader
    for t in d.tricks:
        assert t.leader == leader
        assert [s for s, _ in t.plays] == g.play_order(leader, d.seats)
        so_far = []
        for seat, card in t.plays:
            assert card in g.legal_cards(left[seat], so_far, d.contract)
            left[seat].remove(card)
            so_far.append(card)
        assert t.winner == g.trick_winner(t.plays, d.contract)
        leader = t.winner
    assert all(not h for h in left.values())
    for seat in d.seats:
        row = d.rows[seat]
        assert [e.card for e in row] == [t.card_of(seat) for t in d.tricks]
        assert [e.orientation for e in row] == [g.orientation(seat, t.winner) for t in d.tricks]
    assert sum(d.result().values()) == g.hand_size
    assert d.applied == []


def test_four_handed_preferans_dealer_has_no_row() -> None:
    d = simulate_deal("preferans", seed=3, dealer=Seat.W, seats=SEATS)
    assert d.seats == (Seat.N, Seat.E, Seat.S)
    assert Seat.W not in d.rows
    assert d.first_leader == Seat.N


def test_three_handed_games_use_the_given_sides() -> None:
    d = simulate_deal("lhombre", seed=1, seats=(Seat.E, Seat.S, Seat.W), dealer=Seat.S)
    assert d.seats == (Seat.E, Seat.S, Seat.W)
    assert d.first_leader == Seat.E  # right of the dealer: counter-clockwise
    sides = {simulate_deal("lhombre", seed=s).seats for s in range(30)}
    assert len(sides) > 1


def test_given_contract_is_used() -> None:
    c = Contract(trump=None, declarer=Seat.N, level=3)
    d = simulate_deal("bridge", seed=2, contract=c)
    assert d.contract == c and d.first_leader == Seat.E


@pytest.mark.parametrize("game", GAMES)
def test_n_tricks_leaves_a_partial_current_trick(game: str) -> None:
    seen_partial = False
    for seed in range(20):
        d = simulate_deal(game, seed=seed, n_tricks=3)
        assert len(d.tricks) == 3 and not d.complete
        assert all(len(r) == 3 for r in d.rows.values())
        if d.current_trick:
            seen_partial = True
            g = find_game(game)
            assert d.current_trick[0][0] == d.tricks[-1].winner
            assert len(d.current_trick) < g.n_players
    assert seen_partial


@pytest.mark.parametrize("game", GAMES)
def test_irregularities_are_applied_and_recorded(game: str) -> None:
    g = find_game(game)
    for seed in range(10):
        clean = simulate_deal(game, seed=seed)
        d = simulate_deal(game, seed=seed, irregularities=["wrong_orientation"])
        (a,) = d.applied
        seat, pos = Seat[a["seat"]], a["trick"]
        flipped = [(s, i + 1) for s in d.seats for i, (x, y) in
                   enumerate(zip(clean.rows[s], d.rows[s], strict=True))
                   if x.orientation != y.orientation]
        assert flipped == [(seat, pos)]
        d = simulate_deal(game, seed=seed, irregularities=["short_row"])
        assert sorted(len(r) for r in d.rows.values()) == [g.hand_size - 1] + \
            [g.hand_size] * (g.n_players - 1)
        d = simulate_deal(game, seed=seed, irregularities=["long_row"])
        assert len(d.rows[Seat[d.applied[0]["seat"]]]) == g.hand_size + 1
        d = simulate_deal(game, seed=seed, irregularities=["out_of_place"])
        s, p = Seat[d.applied[0]["seat"]], d.applied[0]["trick"]
        assert d.rows[s][p - 1].card == clean.rows[s][p].card


@pytest.mark.parametrize("game", GAMES)
def test_revoke_is_a_real_revoke(game: str) -> None:
    g = find_game(game)
    found = 0
    for seed in range(10):
        d = simulate_deal(game, seed=seed, irregularities=["revoke"])
        if not d.applied:
            continue
        found += 1
        a = d.applied[0]
        t = d.tricks[a["trick"] - 1]
        seat = Seat[a["seat"]]
        held = [c for c in d.hands[seat]
                if all(tt.card_of(seat) != c for tt in d.tricks[: t.number - 1])]
        before = [c for s, c in t.plays[: [s for s, _ in t.plays].index(seat)]]
        assert t.card_of(seat) not in g.legal_cards(held, before, d.contract)
    assert found >= 7


def test_unknown_irregularity_is_an_error() -> None:
    with pytest.raises(TrickvisionError, match="unknown irregularity"):
        simulate_deal("bridge", seed=1, irregularities=["cheating"])


def test_observation_without_cards() -> None:
    d = simulate_deal("bridge", seed=4)
    obs = d.observation(with_cards=False)
    assert all(e.card is None for r in obs.rows.values() for e in r)
    assert all(e.orientation in (Orientation.WON, Orientation.LOST)
               for r in obs.rows.values() for e in r)
    assert obs.contract == d.contract and obs.dealer == d.dealer
