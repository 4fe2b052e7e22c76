"""Refusals with reason codes and parameters (docs/games/lecker_mammut.md, Refusals), each
leaving the state as it was: from a seed's deal, and from positions set up card by card."""

from __future__ import annotations

import pytest
from tests.games.refusals import refused

import tiergarten

from .positions import position

PILE_A, PILE_B = "red-boar blue-boar", "green-deer"


@pytest.mark.parametrize(("seat", "move", "code", "params"), [
    (1, "flip", "not_your_pile", {"flipper": 0}),
    (0, "pass", "pass_when_flipped", {"left": 49}),
    (0, "top red-bear", "top_after_hit", {}),
    (0, "return 1", "return_at_round_end", {}),
    (0, "hit boar @5", "version_ahead", {"version": 5, "at": 0}),
])
def test_a_refusal_at_the_deal_gives_its_code_and_parameters(seat: int, move: str, code: str,
                                                             params: dict[str, object]) -> None:
    state = tiergarten.load("lecker_mammut", players=3).new_state(seed=0)
    refusal = refused(state, seat, move)
    assert (refusal.code, refusal.params) == (code, params)


def test_while_a_top_card_is_chosen_flipping_and_passing_wait_for_that_seat() -> None:
    state = position(middle="red-boar blue-boar yellow-boar green-bear", piles=["pink-sloth",
                                                                              "", ""])
    state.apply(1, "hit boar")  # a good hit: seat 1 chooses its new pile's top card
    assert (refused(state, 0, "flip").code, refused(state, 0, "flip").params) == (
        "flip_paused", {"waiting": [1]})
    assert (refused(state, 2, "pass").code, refused(state, 2, "pass").params) == (
        "pass_paused", {"waiting": [1]})
    assert refused(state, 1, "hit green").code == "choose_top_first"


def test_at_the_round_end_only_the_most_penalised_give_a_pile_back() -> None:
    state = position(piles=["", "", ""], prizes=[[PILE_A, PILE_B], [], []], penalties=[3, 0, 0],
                     penalty_cards=["pink-sloth pink-bear pink-tiger", "", ""])
    assert refused(state, 0, "flip").code == "all_flipped"
    for seat in (0, 1, 2):
        state.apply(seat, "pass")
    assert state.to_move() == (0,)
    assert (refused(state, 0, "return 3").code, refused(state, 0, "return 3").params) == (
        "return_range", {"n": 2})
    assert refused(state, 0, "hit boar").code == "choose_return"
    assert refused(state, 1, "return 1").code == "not_to_move"  # only seat 0 acts now


def test_a_second_pass_waits_for_someone_else() -> None:
    state = position(middle="red-sloth", piles=["", "", ""], prizes=[[PILE_A], [], [PILE_B]])
    state.apply(0, "pass")
    assert (refused(state, 0, "pass").code, refused(state, 0, "pass").params) == (
        "passed_already", {})
