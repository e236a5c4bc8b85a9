"""The three rule sets: trick winners, legal cards, leaders, seats and directions."""

from __future__ import annotations

import pytest

from vision.cards import BRIDGE_DECK, LHOMBRE_DECK, PIQUET_DECK, Card, Suit
from vision.contract import Contract, ContractKind
from vision.errors import UnknownGameError
from vision.games import find_game
from vision.games.lhombre import matadors, trump_order
from vision.record import Orientation
from vision.seats import Direction, Seat

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def cards(text: str) -> list[Card]:
    return [Card.from_str(t) for t in text.split()]


def play(leader_and_cards: str) -> list[tuple[Seat, Card]]:
    """'N:SA E:S2 ...' -> plays in that order."""
    out = []
    for tok in leader_and_cards.split():
        seat, card = tok.split(":")
        out.append((Seat[seat], Card.from_str(card)))
    return out


def test_a_cards_twin_is_its_rank_in_the_other_suit_of_its_colour() -> None:
    assert [str(Card.from_str(c).twin) for c in ("DK", "HK", "S7", "C7")] == [
        "HK", "DK", "C7", "S7"]
    assert all(c.twin.twin == c and c.twin.suit.is_red == c.suit.is_red
               and c.twin.suit is not c.suit for c in BRIDGE_DECK)


def test_find_game_by_name_and_alias() -> None:
    assert find_game("bridge").hand_size == 13
    assert find_game("Preferans").hand_size == 10
    assert find_game("l'hombre").name == "lhombre"
    with pytest.raises(UnknownGameError, match="poker"):
        find_game("poker")


def test_decks_hand_sizes_and_directions() -> None:
    b, p, h = find_game("bridge"), find_game("preferans"), find_game("lhombre")
    assert (len(b.deck), len(p.deck), len(h.deck)) == (52, 32, 40)
    assert b.deck == BRIDGE_DECK and p.deck == PIQUET_DECK and h.deck == LHOMBRE_DECK
    assert (b.hand_size, p.hand_size, h.hand_size) == (13, 10, 9)
    assert b.direction is Direction.CLOCKWISE and p.direction is Direction.CLOCKWISE
    assert h.direction is Direction.COUNTER_CLOCKWISE


# ------------------------------------------------------------------------------- bridge


def test_bridge_trump_beats_higher_card_of_suit_led() -> None:
    b = find_game("bridge")
    spades = Contract(trump=Suit.SPADES, declarer=S)
    plays = play("W:HA N:H2 E:S2 S:HK")
    assert b.trick_winner(plays, spades) == E
    assert b.trick_winner(plays, Contract(trump=None, declarer=S)) == W


def test_bridge_discard_never_wins() -> None:
    b = find_game("bridge")
    assert b.trick_winner(play("N:D2 E:CA S:D3 W:HA"), Contract(None, S)) == S


def test_bridge_follow_suit_else_anything() -> None:
    b = find_game("bridge")
    hand = cards("SA S2 HK D3")
    assert set(b.legal_cards(hand, cards("S9"), Contract(Suit.HEARTS, N))) == set(cards("SA S2"))
    assert set(b.legal_cards(hand, cards("C9"), Contract(Suit.HEARTS, N))) == set(hand)


def test_bridge_first_leader_is_declarers_lho_and_won_means_side() -> None:
    b = find_game("bridge")
    assert b.first_leader(dealer=N, contract=Contract(Suit.SPADES, S), seats=b.active_seats()) == W
    assert b.winners(N, b.active_seats()) == {N, S}
    assert b.orientation(S, N) is Orientation.WON
    assert b.orientation(E, N) is Orientation.LOST
    assert b.play_order(W, b.active_seats()) == [W, N, E, S]


# ------------------------------------------------------------------------------- preferans


def test_preferans_must_trump_when_void() -> None:
    p = find_game("preferans")
    hand = cards("HA H7 DK C8")
    clubs = Contract(Suit.CLUBS, N)
    assert p.legal_cards(hand, cards("S9"), clubs) == (Card.from_str("C8"),)
    # with no trump held any card goes; in no-trump any card goes
    assert set(p.legal_cards(cards("HA H7"), cards("S9"), clubs)) == set(cards("HA H7"))
    assert set(p.legal_cards(hand, cards("S9"), Contract(None, N))) == set(hand)
    # following suit comes first
    assert p.legal_cards(hand, cards("D9"), clubs) == (Card.from_str("DK"),)


def test_preferans_misere_and_raspasy_have_no_trump() -> None:
    p = find_game("preferans")
    misere = Contract(Suit.CLUBS, N, ContractKind.MISERE)
    assert p.trump(misere) is None
    assert p.trick_winner(play("N:S7 E:C8 S:S9"), misere) == S


def test_preferans_first_hand_is_left_of_dealer_whatever_the_contract() -> None:
    p = find_game("preferans")
    seats = (N, E, S)
    for contract in (Contract(Suit.SPADES, S), Contract(None, S, ContractKind.MISERE),
                     Contract(None, None, ContractKind.RASPASY)):
        assert p.first_leader(dealer=N, contract=contract, seats=seats) == E
    # four-handed: the dealer sits out; first hand is still to his left
    active = p.active_seats(W, (N, E, S, W))
    assert active == (N, E, S)
    assert p.first_leader(dealer=W, contract=None, seats=active) == N
    # three of four sides, with a gap: left of the dealer skips the empty side
    assert p.first_leader(dealer=E, contract=None, seats=(N, E, W)) == W


def test_preferans_won_means_won_by_that_player() -> None:
    p = find_game("preferans")
    assert p.winners(E, (N, E, S)) == {E}
    assert p.play_order(S, (N, E, S)) == [S, N, E]


# ------------------------------------------------------------------------------- l'hombre


def test_lhombre_black_trump_order() -> None:
    assert [str(c) for c in trump_order(Suit.SPADES)] == \
        "SA S2 CA SK SQ SJ S7 S6 S5 S4 S3".split()
    assert [str(c) for c in trump_order(Suit.CLUBS)] == \
        "SA C2 CA CK CQ CJ C7 C6 C5 C4 C3".split()


def test_lhombre_red_trump_order_has_punto() -> None:
    assert [str(c) for c in trump_order(Suit.HEARTS)] == \
        "SA H7 CA HA HK HQ HJ H2 H3 H4 H5 H6".split()
    assert matadors(Suit.DIAMONDS) == tuple(cards("SA D7 CA"))


@pytest.mark.parametrize("trump", [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS])
def test_lhombre_trick_winner_follows_trump_order(trump: Suit) -> None:
    h = find_game("lhombre")
    contract = Contract(trump, N)
    order = trump_order(trump)
    for i in range(len(order) - 1):
        hi, lo = order[i], order[i + 1]
        # the lower trump leads, the higher one wins wherever it sits
        assert h.trick_winner([(N, lo), (W, hi)], contract) == W
        assert h.trick_winner([(N, hi), (W, lo)], contract) == N


def test_lhombre_plain_suit_orders() -> None:
    h = find_game("lhombre")
    hearts_trump = Contract(Suit.HEARTS, N)
    # red plain suit: K Q J A 2 3 4 5 6 7 -> the 2 beats the 7, the ace beats the 2
    assert h.trick_winner(play("N:D7 W:D2"), hearts_trump) == W
    assert h.trick_winner(play("N:D2 W:DA"), hearts_trump) == W
    assert h.trick_winner(play("N:DA W:DJ"), hearts_trump) == W
    # black plain suit: K Q J 7 6 5 4 3 2 -> the 7 beats the 2
    assert h.trick_winner(play("N:C2 W:C7"), hearts_trump) == W


def test_lhombre_black_aces_belong_to_trump() -> None:
    h = find_game("lhombre")
    hearts = Contract(Suit.HEARTS, N)
    # SA is a trump, not a spade: a hand whose only spade is SA is void in spades
    hand = cards("SA HK D2")
    assert set(h.legal_cards(hand, cards("SK"), hearts)) == set(hand)
    # and it must follow to a trump lead (here the lead HK outranks nothing: SA privileged)
    assert h.follow_suit(Card.from_str("CA"), Suit.HEARTS) is Suit.HEARTS
    # basta led: the trick is a trump trick, the heart king cannot beat it
    assert h.trick_winner(play("N:CA E:HK"), hearts) == N
    # spadille beats everything
    assert h.trick_winner(play("N:HA E:SA S:H7"), hearts) == E


def test_lhombre_not_obliged_to_trump() -> None:
    h = find_game("lhombre")
    hand = cards("HK H2 D5")
    assert set(h.legal_cards(hand, cards("S5"), Contract(Suit.HEARTS, N))) == set(hand)


def test_lhombre_matador_privilege() -> None:
    h = find_game("lhombre")
    hearts = Contract(Suit.HEARTS, N)
    # only matadors as trumps, a low trump led: may renounce
    assert set(h.legal_cards(cards("SA D5 C3"), cards("H4"), hearts)) == set(cards("SA D5 C3"))
    assert set(h.legal_cards(cards("H7 CA S3"), cards("HK"), hearts)) == \
        set(cards("H7 CA S3"))
    # a matador plus an ordinary trump: must play a trump (either)
    assert set(h.legal_cards(cards("SA H3 D5"), cards("H4"), hearts)) == set(cards("SA H3"))
    # a higher matador led forces the lower matador when it is the only trump
    assert h.legal_cards(cards("CA D5"), cards("SA"), hearts) == (Card.from_str("CA"),)
    assert h.legal_cards(cards("CA D5"), cards("H7"), hearts) == (Card.from_str("CA"),)


def test_lhombre_nolo_has_no_trump_and_black_ace_lowest() -> None:
    h = find_game("lhombre")
    nolo = Contract(None, N, ContractKind.NOLO)
    assert h.trump(nolo) is None
    assert h.follow_suit(Card.from_str("SA"), None) is Suit.SPADES
    assert h.trick_winner(play("N:SA W:S2"), nolo) == W
    assert h.trick_winner(play("N:HA W:H2"), nolo) == N


def test_lhombre_counter_clockwise_and_forhand_right_of_dealer() -> None:
    h = find_game("lhombre")
    seats = (N, E, S)
    assert h.play_order(N, seats) == [N, S, E]
    assert h.first_leader(dealer=N, contract=None, seats=seats) == S
    assert h.first_leader(dealer=E, contract=None, seats=(N, E, W)) == N
    assert h.winners(S, seats) == {S}


def test_pickled_cards_are_found_in_decks_of_another_process() -> None:
    """Cards cache a hash of a string; another process (a worker, a later run) hashes strings
    differently, so a pickled card must not carry its old hash."""
    import os
    import pickle
    import subprocess
    import sys

    data = pickle.dumps([Card.from_str(c) for c in ("D5", "SA", "HT")])
    code = ("import pickle, sys; from vision.cards import BRIDGE_DECK; "
            "cards = pickle.loads(sys.stdin.buffer.read()); "
            "print(all(c in set(BRIDGE_DECK) for c in cards))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                         env=env, check=True)
    assert out.stdout.strip() == b"True"
