"""docs/games/lecker_mammut.md set-up and flipping: the deal as even as possible from the round's
starter, the rotating starter, flipping pile after pile clockwise, and who may flip."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import last_event, legal, position

EXPECTED_SIZES = {  # seat 0 starts round 1; the first piles dealt get the odd cards
    2: [25, 24], 3: [17, 16, 16], 4: [13, 12, 12, 12], 5: [10, 10, 10, 10, 9],
    6: [9, 8, 8, 8, 8, 8],
}


@pytest.mark.parametrize("players", sorted(EXPECTED_SIZES))
def test_all_49_cards_are_dealt_as_evenly_as_possible_from_the_starter(players: int) -> None:
    state = tiergarten.load("lecker_mammut", players=players).new_state(seed=players)
    obs = state.observe(None)
    assert obs["face_down"] == EXPECTED_SIZES[players]
    assert sorted(c for pile in state.piles for c in pile) == list(range(49))
    assert (obs["flipper"], obs["starter"], obs["round"], obs["middle"]) == (0, 0, 1, [])


def test_the_starter_moves_one_seat_clockwise_each_round_and_is_dealt_first() -> None:
    state = tiergarten.load("lecker_mammut", players=5).new_state(seed=1)
    state.piles = [[], [], [], [], []]
    state._advance_flipper()
    for seat in range(5):
        state.apply(seat, "pass")
    obs = state.observe(None)
    assert (obs["round"], obs["starter"], obs["flipper"]) == (2, 1, 1)
    assert obs["face_down"] == [9, 10, 10, 10, 10]
    assert last_event(state) == {"act": "deal", "round": 2, "starter": 1}


def test_only_the_flipper_flips_and_the_top_card_goes_face_up_into_the_middle() -> None:
    state = position(piles=["red-bear blue-boar", "pink-deer", ""])
    assert legal(state, 0)[0] == "flip"
    assert "flip" not in legal(state, 1)
    with pytest.raises(tiergarten.IllegalAction, match="seat 0's pile that is being flipped"):
        state.apply(1, "flip")
    state.apply(0, "flip")
    obs = state.observe(2)
    assert (obs["middle"], obs["face_down"], obs["version"]) == (["red-bear"], [1, 1, 0], 1)
    assert last_event(state) == {"act": "flip", "seat": 0, "card": "red-bear"}


def test_when_a_pile_is_empty_the_next_player_clockwise_flips_theirs() -> None:
    state = position(piles=["pink-deer", "", "red-bear"], starter=0)
    state.apply(0, "flip")
    assert state.observe(0)["flipper"] == 2  # seat 1 has nothing to flip
    state.apply(2, "flip")
    obs = state.observe(0)
    assert (obs["flipper"], obs["phase"], obs["middle"]) == (None, "ending", ["pink-deer",
                                                                             "red-bear"])
    assert "flip" not in legal(state, 2)


def test_flipping_wraps_round_to_seats_before_the_starter() -> None:
    state = position(piles=["red-bear", "", "pink-deer"], starter=2)
    assert state.observe(0)["flipper"] == 2
    state.apply(2, "flip")
    assert state.observe(0)["flipper"] == 0
