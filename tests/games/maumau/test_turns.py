"""docs/games/maumau.md, set-up and a turn: the deal, matching, drawing, and what follows a
draw (the turn stays with the drawer, whether or not the drawn card fits)."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.maumau.cards import NAMES

from .positions import hand, last_event, legal, position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_gives_five_cards_each_and_turns_one_up(players: int) -> None:
    state = tiergarten.load("maumau", players=players).new_state(seed=11)
    seen = state.observe(None)
    assert seen["hand_sizes"] == [5] * players
    assert seen["discard_size"] == 1
    assert seen["stock_size"] == 32 - 5 * players - 1
    every = [c for h in state.hands for c in h] + state.stock + state.discard
    assert sorted(NAMES[c] for c in every) == sorted(NAMES)  # the 32-card deck, once each


def test_seat_0_deals_round_1_and_the_player_to_its_left_starts() -> None:
    state = tiergarten.load("maumau", players=4, first_card_effects=False).new_state(seed=5)
    assert state.observe(2)["dealer"] == 0
    assert state.observe(2)["round"] == 1
    assert state.to_move() == (1,)


def test_a_card_of_the_same_suit_may_be_played() -> None:
    state = position(["8h Kc Ad", "7c 9c"], top="Qh")
    assert legal(state) == ["play 8h", "draw"]
    state.apply(0, "play 8h")
    assert state.observe(1)["top"] == "8h"
    assert hand(state, 0) == ["Kc", "Ad"]


def test_a_card_of_the_same_rank_may_be_played() -> None:
    state = position(["Qc 8d 9d", "7c 9c"], top="Qh")
    assert legal(state) == ["play Qc", "draw"]
    state.apply(0, "play Qc")
    assert state.observe(1)["suit"] == "c"
    assert state.to_move() == (1,)


def test_a_player_may_draw_while_holding_a_playable_card() -> None:
    state = position(["8h Kc Ad", "7c 9c"], top="Qh", stock="10s")
    state.apply(0, "draw")
    assert hand(state, 0) == ["Kc", "Ad", "8h", "10s"]  # sorted by suit c d h s, then rank
    assert last_event(state) == {"seat": 0, "act": "draw", "cards": 1}


def test_a_drawn_card_that_does_not_fit_keeps_the_turn_and_offers_only_pass() -> None:
    state = position(["8h Kc Ad", "7c 9c"], top="Qh", stock="10s")
    state.apply(0, "draw")
    assert state.to_move() == (0,)  # not (1,): the turn order must not tell that 10s misfits
    assert (state.observe(0)["drawn"], state.observe(0)["drawn_fits"]) == ("10s", False)
    assert (state.observe(1)["drawn"], state.observe(1)["drawn_fits"]) == (None, None)
    assert legal(state) == ["pass"]
    with pytest.raises(tiergarten.IllegalAction,
                       match="you have drawn 10s, which does not fit: pass; legal now: pass"):
        state.apply(0, "play 10s")
    state.apply(0, "pass")
    assert hand(state, 0) == ["Kc", "Ad", "8h", "10s"]
    assert state.to_move() == (1,)
    assert last_event(state) == {"seat": 0, "act": "pass"}


def test_penalty_draws_still_end_the_turn_at_once() -> None:
    chain = position(["7h Kc Ad", "8h 9c", "10c Ac As"], top="Qh", stock="Kh Qd")
    chain.apply(0, "play 7h")
    chain.apply(1, "draw")  # pays the 7; Kh would fit the 7h, but no card is played now
    assert (chain.to_move(), chain.observe(1)["drawn"]) == ((2,), None)
    caught = position(["8h Kh", "9c 10h Ad"], top="Qh", stock="Ks Qd")
    caught.apply(0, "play 8h")  # one card left, no Mau; the 8 gives seat 0 the turn again
    caught.apply(1, "catch")
    assert (caught.to_move(), caught.observe(0)["drawn"]) == ((1,), None)


def test_a_drawn_card_that_fits_may_be_played_and_it_is_the_only_card_that_may() -> None:
    state = position(["8h Kc Ad", "7c 9c"], top="Qh", stock="Kh")
    state.apply(0, "draw")
    assert state.to_move() == (0,)
    assert (state.observe(0)["drawn"], state.observe(0)["drawn_fits"]) == ("Kh", True)
    assert state.observe(1)["drawn"] is None  # the drawn card stays hidden from the others
    assert legal(state) == ["play Kh", "pass"]
    with pytest.raises(tiergarten.IllegalAction, match="only the drawn card Kh"):
        state.apply(0, "play 8h")
    state.apply(0, "play Kh")
    assert state.observe(1)["top"] == "Kh"
    assert state.to_move() == (1,)


def test_a_player_may_keep_a_fitting_drawn_card_by_passing() -> None:
    state = position(["8h Kc Ad", "7c 9c"], top="Qh", stock="Kh")
    state.apply(0, "draw")
    state.apply(0, "pass")
    assert hand(state, 0) == ["Kc", "Ad", "8h", "Kh"]
    assert state.to_move() == (1,)
    assert last_event(state) == {"seat": 0, "act": "pass"}


def test_a_drawn_card_played_as_second_to_last_card_may_say_mau() -> None:
    state = position(["Ad", "7c 9c"], top="Qh", stock="Kh")
    state.apply(0, "draw")
    assert legal(state) == ["play Kh", "play Kh mau", "pass"]


def test_a_drawn_jack_may_be_played_naming_any_suit() -> None:
    state = position(["8c Kc Ad", "7c 9c"], top="Qh", stock="Js")
    state.apply(0, "draw")
    assert legal(state) == ["play Js c", "play Js d", "play Js h", "play Js s", "pass"]


def test_play_runs_clockwise_round_the_table() -> None:
    state = position(["Kh Kc Ad", "Qh 9c 8s", "10h Ac As"], top="7h")
    for seat, move in ((0, "play Kh"), (1, "play Qh"), (2, "play 10h")):
        assert state.to_move() == (seat,)
        state.apply(seat, move)
    assert state.to_move() == (0,)
    assert state.observe(0)["direction"] == 1
