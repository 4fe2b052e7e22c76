"""docs/games/maumau.md, round end and scoring: card values, new rounds, the match to 150 (option
`target_score`) or to a number of rounds (option `rounds`), and the engine's decision bound."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.maumau import INFO

from .positions import legal, position

MAX_DECISIONS = INFO.max_decisions


@pytest.mark.parametrize(("cards", "points"), [
    ("7c", 7), ("8c", 8), ("9c", 9), ("10c", 10), ("Jc", 20), ("Qc", 10), ("Kc", 10), ("Ac", 10),
])
def test_each_card_left_in_a_hand_is_worth_its_value(cards: str, points: int) -> None:
    state = position(["Kh", cards], top="Qh")
    state.apply(0, "play Kh")
    assert state.observe(0)["scores"] == [points, 0]


def test_the_player_who_goes_out_scores_every_opponents_hand() -> None:
    state = position(["Kh", "7c 8c 9c 10c", "Jc Qc Kc Ac", "Js"], top="Qh")
    state.apply(0, "play Kh")
    seen = state.observe(3)
    assert seen["scores"] == [34 + 50 + 20, 0, 0, 0]
    over = next(e for e in seen["log"] if e["act"] == "round_over")
    assert over == {"seat": 0, "act": "round_over", "round": 1, "points": 104,
                    "hands": {"1": ["7c", "8c", "9c", "10c"], "2": ["Jc", "Qc", "Kc", "Ac"],
                              "3": ["Js"]}}


def test_going_out_on_a_power_card_ends_the_round_without_its_power() -> None:
    state = position(["7h", "7c 8c", "Ac"], top="Qh", rounds=1)
    state.apply(0, "play 7h")
    assert state.is_over()
    assert state.observe(1)["pending_draw"] == 0
    assert state.result().scores == (25, 0, 0)


def test_a_new_round_is_dealt_by_the_next_dealer_and_scores_carry_over() -> None:
    state = position(["Kh", "7c"], top="Qh", scores=[30, 40], dealer=1, round=4)
    state.apply(0, "play Kh")
    seen = state.observe(0)
    assert (seen["round"], seen["dealer"], seen["scores"]) == (5, 0, [37, 40])
    assert seen["hand_sizes"] == [5, 5]
    assert (seen["stock_size"], seen["discard_size"]) == (21, 1)
    assert not seen["over"]


def test_the_match_ends_when_a_player_reaches_150() -> None:
    state = position(["Kh", "10c", "Jc"], top="Qh", scores=[120, 100, 140])
    assert state.game.options["target_score"] == 150
    state.apply(0, "play Kh")
    assert state.is_over()
    result = state.result()
    assert (result.scores, result.ranks, result.winners, result.reason) == (
        (150, 100, 140), (1, 3, 2), (0,), "target_score")
    assert state.to_move() == ()
    assert state.observe(1)["result"] == {"scores": [150, 100, 140], "ranks": [1, 3, 2],
                                          "winners": [0], "reason": "target_score"}


def test_149_points_are_not_enough() -> None:
    state = position(["Kh", "9c", "Jc"], top="Qh", scores=[120, 100, 140])
    state.apply(0, "play Kh")
    assert not state.is_over()
    assert state.observe(0)["scores"] == [149, 100, 140]
    with pytest.raises(ValueError, match="not over"):
        state.result()


def test_the_target_score_is_an_option() -> None:
    state = position(["Kh", "9c", "Jc"], top="Qh", scores=[21, 0, 0], target_score=50)
    state.apply(0, "play Kh")
    assert state.result() == tiergarten.Result((50, 0, 0), (1, 2, 2), (0,), "target_score")


def test_with_rounds_set_the_match_is_exactly_that_many_rounds() -> None:
    state = position(["Kh", "Jc 10c"], top="Qh", scores=[200, 0], rounds=2)
    state.apply(0, "play Kh")
    assert not state.is_over()  # the target score is not used
    assert state.observe(0)["round"] == 2


def test_the_last_of_the_rounds_ends_the_match_and_ties_share_the_win() -> None:
    state = position(["Kh", "Jc"], top="Qh", scores=[30, 50], round=2, rounds=2)
    state.apply(0, "play Kh")
    result = state.result()
    assert (result.scores, result.ranks, result.winners, result.reason) == (
        (50, 50), (1, 1), (0, 1), "rounds")


def test_rounds_1_plays_a_single_round() -> None:
    state = position(["Kh", "7c"], top="Qh", rounds=1)
    state.apply(0, "play Kh")
    assert state.result().reason == "rounds"


def test_the_engine_ends_a_match_at_its_decision_bound() -> None:
    assert MAX_DECISIONS == 20_000
    state = position(["Kh 7d 8d", "7c 8c", "9s"], top="Qh", scores=[3, 9, 1],
                     decisions=MAX_DECISIONS - 2)
    state.apply(0, "play Kh")
    assert not state.is_over()
    state.apply(1, "draw")
    assert state.is_over()
    assert state.result() == tiergarten.Result((3, 9, 1), (2, 1, 3), (1,), "decision_limit")
    assert state.to_move() == ()
    with pytest.raises(tiergarten.IllegalAction, match="the game is over"):
        state.apply(2, "draw")


def test_the_pass_after_a_draw_counts_toward_the_decision_bound() -> None:
    state = position(["Kc 7d 8d", "7c 8c"], top="Qh", stock="9s", decisions=MAX_DECISIONS - 2)
    state.apply(0, "draw")  # 9s does not fit: seat 0 must still pass, a decision of its own
    assert not state.is_over() and legal(state) == ["pass"]
    state.apply(0, "pass")
    assert state.result().reason == "decision_limit"


def test_a_match_cut_at_the_decision_bound_leaves_no_drawn_card_or_chain_behind() -> None:
    # Nobody moves after the end: the drawer's card and a live 7-chain are not shown as still
    # to be played or paid (the drawn card becomes an ordinary card of the hand).
    state = position(["Kc 7d 8d", "7c 8c"], top="Qh", stock="9h", decisions=MAX_DECISIONS - 1)
    state.apply(0, "draw")
    assert state.result().reason == "decision_limit"
    seen = state.observe(0)
    assert (seen["drawn"], seen["drawn_fits"], seen["turn"]) == (None, None, None)
    assert "9h" in seen["hand"]
    chain = position(["7h Kc 8d", "7c 8c"], top="Qh", decisions=MAX_DECISIONS - 1)
    chain.apply(0, "play 7h")
    assert chain.result().reason == "decision_limit"
    assert chain.observe(None)["pending_draw"] == 0
