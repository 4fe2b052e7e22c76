"""docs/games/lecker_mammut.md round end and game end: passing once every pile is flipped, passes
cleared by any other action, the table's timer (option `idle_limit`), returns by the most
penalised (ties each give one; one pile goes by itself), scores, rounds, and the decision bound."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.lecker_mammut import INFO

from .positions import last_event, legal, position

MAX_DECISIONS = INFO.max_decisions

PILE_A = "red-bear orange-bear yellow-bear"
PILE_B = "red-tiger orange-tiger yellow-tiger"
PILE_C = "red-deer orange-deer yellow-deer pink-deer"


def pass_all(state: tiergarten.State, seats: range | list[int]) -> None:
    for seat in seats:
        state.apply(seat, "pass")


def test_pass_is_legal_only_once_every_pile_is_flipped() -> None:
    state = position(piles=["", "pink-sloth", ""], starter=1)
    assert "pass" not in legal(state, 0)
    with pytest.raises(tiergarten.IllegalAction, match=r"every pile is flipped \(1 cards"):
        state.apply(0, "pass")
    state.apply(1, "flip")
    assert legal(state, 0)[-2:] == ["pass", "miss"]


def test_the_round_ends_when_every_seat_has_passed_since_the_last_other_action() -> None:
    state = position(middle="red-boar", piles=["", "", ""], prizes=[[PILE_A], [], [PILE_B]])
    pass_all(state, [0, 1])
    assert "pass" not in legal(state, 0)  # passed already
    with pytest.raises(tiergarten.IllegalAction, match="passed already"):
        state.apply(0, "pass")
    state.apply(0, "hit boar")  # a mistake: any action but a pass clears all passes
    assert state.observe(0)["passed"] == []
    pass_all(state, [2, 1])
    assert state.observe(0)["round"] == 1
    state.apply(0, "pass")
    obs = state.observe(0)
    assert (obs["round"], obs["scores"]) == (2, [3, 0, 3])  # the mistake took no card
    assert obs["log"][-2] == {"act": "round_over", "round": 1, "points": [3, 0, 3],
                              "penalties": [1, 0, 0], "penalty_cards": [0, 0, 0]}


def test_with_no_penalties_nobody_gives_a_pile_back_and_every_card_scores() -> None:
    state = position(piles=["", ""], prizes=[[PILE_A, PILE_C], [PILE_B]])
    pass_all(state, [0, 1])
    assert state.observe(0)["scores"] == [7, 3]


def test_tied_most_penalised_players_each_give_a_pile_back_by_themselves_if_they_have_one(
) -> None:
    state = position(piles=["", "", ""], prizes=[[PILE_A], [PILE_B], [PILE_C]],
                     penalties=[2, 1, 2],
                     penalty_cards=["pink-bear pink-boar", "pink-tiger", "pink-sloth pink-rhino"])
    pass_all(state, [0, 1, 2])
    assert state.observe(0)["scores"] == [0, 3, 0]


def test_a_most_penalised_player_without_prize_piles_gives_nothing() -> None:
    state = position(piles=["", ""], prizes=[[], [PILE_B]], penalties=[1, 0],
                     penalty_cards=["pink-sloth", ""])
    pass_all(state, [0, 1])
    assert state.observe(0)["scores"] == [0, 3]


def test_with_two_piles_or_more_the_player_chooses_which_to_give_back() -> None:
    state = position(piles=["", "", ""], prizes=[[PILE_A, PILE_C], [PILE_B], []],
                     penalties=[3, 3, 0], penalty_cards=["pink-bear pink-boar purple-deer",
                                                         "pink-mammoth pink-rhino pink-sloth",
                                                         ""])
    pass_all(state, [0, 1, 2])
    obs = state.observe(2)
    assert (obs["phase"], obs["returning"], obs["to_move"]) == ("returns", [0], [0])
    assert obs["prize_piles"][1] == []  # seat 1's only pile went back by itself
    assert legal(state, 0) == ["return 1", "return 2"] and legal(state, 2) == []
    with pytest.raises(tiergarten.IllegalAction, match="return 1 to 2"):
        state.apply(0, "return 3")
    with pytest.raises(tiergarten.IllegalAction, match="may not act now"):
        state.apply(2, "hit bear")
    state.apply(0, "return 2")
    assert state.observe(0)["scores"] == [3, 0, 0]


def test_returns_of_several_players_are_made_in_any_order() -> None:
    state = position(piles=["", ""], prizes=[[PILE_A, PILE_C], [PILE_B, "red-sloth blue-sloth "
                                                                       "pink-sloth green-sloth"]],
                     penalties=[1, 1], penalty_cards=["purple-bear", "purple-deer"])
    pass_all(state, [0, 1])
    state.apply(1, "return 1")
    assert state.observe(0)["returning"] == [0]
    state.apply(0, "return 1")
    assert state.observe(0)["scores"] == [4, 4]


def test_the_table_timer_ends_the_round_after_idle_actions_once_every_pile_is_flipped() -> None:
    state = position(piles=["", ""], prizes=[[PILE_A], []], idle_limit=3)
    state.apply(1, "hit pink")
    state.apply(1, "hit pink")
    assert state.observe(0)["round"] == 1
    state.apply(0, "pass")
    assert state.observe(0)["round"] == 2
    assert {"act": "timer", "idle": 3} in state.observe(0)["log"]
    assert state.observe(0)["scores"] == [3, 0]  # seat 1's mistakes took no card


def test_the_table_timer_waits_for_a_top_card_and_can_be_switched_off() -> None:
    state = position(middle="red-boar blue-boar yellow-boar", piles=["", ""], idle_limit=1)
    state.apply(0, "hit boar")
    state.apply(1, "hit pink")  # idle, but a top card is awaited
    assert state.observe(0)["phase"] == "choosing"
    off = position(piles=["", ""], idle_limit=0)
    for _ in range(30):
        off.apply(1, "hit pink")
    assert off.observe(0)["round"] == 1


def test_the_game_ends_after_as_many_rounds_as_players_and_ties_share_the_win() -> None:
    state = position(piles=["", ""], prizes=[[PILE_A], [PILE_B]], round=2, starter=1,
                     scores=[5, 5])
    pass_all(state, [0, 1])
    assert state.is_over() and state.to_move() == ()
    result = state.result()
    assert (result.scores, result.winners, result.reason) == ((8, 8), (0, 1), "rounds")
    assert state.observe(None)["result"]["ranks"] == [1, 1]
    assert legal(state, 0) == []


def test_option_rounds_sets_the_number_of_rounds() -> None:
    state = position(piles=["", "", ""], rounds=1)
    pass_all(state, [0, 1, 2])
    assert state.is_over() and state.observe(0)["rounds"] == 1


def test_the_decision_bound_ends_a_game_that_never_ends() -> None:
    state = position(piles=["", ""], idle_limit=0)
    for _ in range(MAX_DECISIONS):
        state.apply(0, "hit pink")
    assert state.is_over() and state.result().reason == "decision_limit"
    assert len(state.history) == MAX_DECISIONS == state.decisions == 5_000
    assert last_event(state)["act"] == "mistake"
