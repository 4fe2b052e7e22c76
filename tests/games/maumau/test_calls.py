"""docs/games/maumau.md, "Mau" and "Mau Mau": when the calls are offered, catching a missing
call, the catch window, the penalty (option `mau_penalty`), and going out on a Jack."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import hand, last_event, legal, position

# -- Mau with the second-to-last card --------------------------------------------------------


def test_mau_is_offered_with_the_second_to_last_card_only() -> None:
    two = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh")
    assert legal(two) == ["play Kh", "play Kh mau", "draw"]
    three = position(["Kh 8c 9d", "9c 10h Ad", "Ac As 10c"], top="Qh")
    assert legal(three) == ["play Kh", "draw"]
    with pytest.raises(tiergarten.IllegalAction, match="Mau is said with the second-to-last"):
        three.apply(0, "play Kh mau")


def test_saying_mau_leaves_nothing_to_catch() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play Kh mau")
    assert state.observe(1)["catchable"] is None
    assert state.to_move() == (1,)
    assert legal(state, 2) == []


def test_a_missing_mau_may_be_caught_by_any_opponent_for_a_penalty_of_2() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh", stock="7d 8d 9d")
    state.apply(0, "play Kh")
    seen = state.observe(2)
    assert (seen["catchable"], seen["to_move"]) == (0, [1, 2])
    assert legal(state, 1) == ["play 10h", "draw", "catch"]
    assert legal(state, 2) == ["catch"]
    assert legal(state, 0) == []
    state.apply(2, "catch")
    assert sorted(hand(state, 0)) == sorted(["8c", "7d", "8d"])
    assert last_event(state) == {"seat": 2, "act": "catch", "caught": 0, "cards": 2}
    assert state.to_move() == (1,)  # the turn stays where it was
    assert legal(state, 1) == ["play 10h", "draw"]  # one catch per missed call


def test_the_next_player_may_catch_and_then_take_the_turn() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play Kh")
    state.apply(1, "catch")
    assert state.observe(0)["hand_sizes"] == [3, 3, 3]
    assert state.to_move() == (1,)
    state.apply(1, "play 10h")


@pytest.mark.parametrize("move", ["play 10h", "draw"])
def test_the_catch_window_closes_when_the_next_player_acts(move: str) -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play Kh")
    state.apply(1, move)
    assert state.observe(2)["catchable"] is None
    with pytest.raises(tiergarten.IllegalAction):
        state.apply(2, "catch")
    assert state.observe(0)["hand_sizes"][0] == 1


def test_the_window_closes_with_the_draw_not_with_the_pass_after_it() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh", stock="7s")
    state.apply(0, "play Kh")
    state.apply(1, "draw")  # 7s does not fit Kh: seat 1 must still pass
    assert (state.to_move(), legal(state, 1), legal(state, 2)) == ((1,), ["pass"], [])
    assert state.observe(2)["catchable"] is None


def test_after_an_8_the_window_stays_open_until_the_player_after_the_skipped_one_acts() -> None:
    state = position(["8h Kc", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play 8h")
    assert state.to_move() == (2, 1)
    state.apply(1, "catch")  # the skipped player is an opponent too
    assert state.observe(0)["hand_sizes"][0] == 3
    assert state.to_move() == (2,)


def test_a_missing_mau_on_a_7_may_be_caught_and_the_chain_still_stands() -> None:
    state = position(["7h Kc", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play 7h")
    assert legal(state, 1) == ["draw", "catch"]
    state.apply(2, "catch")
    seen = state.observe(1)
    assert (seen["hand_sizes"][0], seen["pending_draw"], seen["to_move"]) == (3, 2, [1])


def test_a_caught_player_whose_turn_it_is_loses_that_turn() -> None:
    state = position(["8h Kh", "9c 10h Ad"], top="Qh")
    state.apply(0, "play 8h")
    assert state.to_move() == (0, 1)
    assert legal(state, 0) == ["play Kh", "draw"]  # nobody catches themselves
    state.apply(1, "catch")
    assert state.observe(1)["hand_sizes"] == [3, 3]
    assert state.to_move() == (1,)


def test_after_a_2_player_9_the_caught_player_also_loses_the_turn() -> None:
    state = position(["9h Kh", "9c 10h Ad"], top="Qh")
    state.apply(0, "play 9h")
    state.apply(1, "catch")
    assert state.to_move() == (1,)


def test_with_two_players_the_window_closes_when_the_skipping_player_acts_again() -> None:
    state = position(["8h Kh", "9c 10h Ad"], top="Qh")
    state.apply(0, "play 8h")
    state.apply(0, "draw")
    assert "catch" not in legal(state, 1)


@pytest.mark.parametrize("penalty", [0, 1, 3])
def test_the_mau_penalty_is_an_option(penalty: int) -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh", mau_penalty=penalty)
    state.apply(0, "play Kh")
    state.apply(2, "catch")
    assert state.observe(0)["hand_sizes"][0] == 1 + penalty


def test_a_penalty_is_paid_across_a_reshuffle() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh", stock="8d")
    state.apply(0, "play Kh")
    state.apply(2, "catch")
    assert sorted(hand(state, 0)) == sorted(["8c", "8d", "Qh"])
    assert state.observe(1)["top"] == "Kh"


# -- going out, and "Mau Mau" with a last Jack -----------------------------------------------


def test_a_last_card_that_is_not_a_jack_goes_out_without_any_call() -> None:
    state = position(["Kh", "9c 10h Ad", "Ac As 10c"], top="Qh", rounds=1)
    assert legal(state) == ["play Kh", "draw"]
    with pytest.raises(tiergarten.IllegalAction, match="Mau is said with the second-to-last"):
        state.apply(0, "play Kh mau")
    state.apply(0, "play Kh")
    assert state.is_over()


def test_a_last_jack_is_offered_with_and_without_mau_mau() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh")
    assert legal(state) == ["play Jc c", "play Jc c maumau", "play Jc d", "play Jc d maumau",
                            "play Jc h", "play Jc h maumau", "play Jc s", "play Jc s maumau",
                            "draw"]


def test_mau_mau_is_said_only_with_a_last_jack() -> None:
    state = position(["Jc Kh", "9c 10h Ad", "Ac As 10c"], top="Qh")
    with pytest.raises(tiergarten.IllegalAction, match="Mau Mau is said only when the last"):
        state.apply(0, "play Jc s maumau")


def test_a_last_jack_with_mau_mau_goes_out_at_once() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh", rounds=1)
    state.apply(0, "play Jc h maumau")
    assert state.is_over()
    assert state.result().winners == (0,)


def test_a_last_jack_without_mau_mau_leaves_the_round_open_to_a_catch() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh", rounds=1)
    state.apply(0, "play Jc h")
    assert not state.is_over()
    assert state.observe(2)["catchable"] == 0
    assert legal(state, 1) == ["pass", "catch"]  # nothing else: catch it or let it stand
    assert legal(state, 2) == ["catch"]
    with pytest.raises(tiergarten.IllegalAction, match="went out on a Jack without Mau Mau"):
        state.apply(1, "draw")


def test_a_caught_last_jack_takes_the_penalty_instead_of_going_out() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh", stock="7d 8d", rounds=1)
    state.apply(0, "play Jc h")
    state.apply(2, "catch")
    assert not state.is_over()
    assert sorted(hand(state, 0)) == ["7d", "8d"]
    seen = state.observe(1)
    assert (seen["to_move"], seen["suit"], seen["catchable"]) == ([1], "h", None)
    assert legal(state) == ["play 10h", "draw"]  # the named suit, hearts, is in force


def test_the_next_player_may_catch_a_last_jack_and_then_play_on() -> None:
    state = position(["Jc", "9h Qs Ad", "Ac As 10c"], top="Qh", stock="7d 8d", rounds=1)
    state.apply(0, "play Jc h")
    state.apply(1, "catch")
    assert state.to_move() == (1,)
    state.apply(1, "play 9h")
    assert state.observe(2)["hand_sizes"] == [2, 2, 3]


def test_a_last_jack_nobody_catches_stands_when_the_next_player_passes() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh", rounds=1)
    state.apply(0, "play Jc h")
    state.apply(1, "pass")
    assert state.is_over()
    assert state.result().winners == (0,)
    assert state.observe(0)["scores"] == [9 + 10 + 10 + 10 + 10 + 10, 0, 0]
    assert {"seat": 0, "act": "stands"} in state.observe(0)["log"]


def test_with_two_players_a_last_jack_without_mau_mau_waits_for_the_other_player() -> None:
    state = position(["Jc", "9c 10h Ad"], top="Qh", rounds=1)
    state.apply(0, "play Jc s")
    assert state.to_move() == (1,)
    assert legal(state, 1) == ["pass", "catch"]
    state.apply(1, "catch")
    assert state.observe(0)["hand_sizes"] == [2, 3]
    assert state.to_move() == (1,)


def test_nobody_plays_on_with_an_empty_hand_after_a_catch() -> None:
    state = position(["Jc", "9c 10h Ad", "Ac As 10c"], top="Qh", rounds=1, mau_penalty=0)
    state.apply(0, "play Jc h")
    state.apply(2, "catch")
    assert state.is_over() or state.observe(0)["hand_sizes"][0] > 0
