"""docs/games/lecker_mammut.md, "The press is a commitment" (rules 3): a press of the club with
no call is a mistake, `miss`; what a reserved moment costs is the game's (`moment_cost`), and a
slower hand's press, like its hit, is void and costs nothing."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.core import IllegalAction, NotationError
from tiergarten.games.lecker_mammut.actions import MISS

from .positions import last_event, position

BOARS = "red-boar blue-boar yellow-boar"


def test_a_miss_is_a_mistake_that_takes_the_next_card_face_down() -> None:
    state = position(middle="red-boar blue-deer", piles=["pink-sloth green-deer", ""])
    version = state.observe(None)["version"]
    state.apply(1, "miss")
    obs = state.observe(None)
    assert (obs["penalties"], obs["penalty_cards"], obs["face_down"]) == ([0, 1], [0, 1], [1, 0])
    assert last_event(state) == {"act": "miss", "seat": 1, "penalty_card": True}
    assert obs["version"] == version  # the visible cards did not change


def test_a_record_with_a_miss_replays() -> None:
    state = tiergarten.load("lecker_mammut", players=2, rounds=1).new_state(seed=11)
    state.apply(0, "flip")
    state.apply(1, "miss")
    assert state.record()["actions"] == [[0, "flip"], [1, "miss"]]
    assert tiergarten.replay(state.record()).observe(1) == state.observe(1)


def test_a_miss_with_no_card_left_costs_nothing_and_decides_nothing() -> None:
    state = position(middle="red-boar", piles=["", ""], rounds=1, idle_limit=0)
    state.apply(0, "miss")
    assert last_event(state) == {"act": "miss", "seat": 0, "penalty_card": False}
    assert state.observe(None)["penalty_cards"] == [0, 0]


def test_a_miss_is_legal_wherever_a_hit_is() -> None:
    state = position(middle=BOARS, piles=["pink-sloth", ""])
    assert all(state.legal_actions(s)[-1] is MISS for s in range(2))
    state.apply(0, "hit boar")  # seat 0 must now choose its top: it may not hit, nor miss
    with pytest.raises(IllegalAction, match="choose the top card"):
        state.apply(0, "miss")
    state.apply(1, "miss")  # the other seat may
    assert last_event(state)["act"] == "miss"


def test_rules_1_and_2_have_no_miss() -> None:
    for rules in (1, 2):
        game = tiergarten.load("lecker_mammut", players=2, rules=rules)
        with pytest.raises(NotationError, match="from rules 3 on"):
            game.parse_action("miss")
        state = game.new_state(seed=1)
        with pytest.raises(IllegalAction, match=f"not an action of lecker_mammut .rules {rules}"):
            state.apply(0, MISS)
        assert state.moment_cost(0, 0, lapsed=True) is None  # a press cost nothing then


def test_a_press_with_no_three_alike_in_sight_is_a_mistake_at_once() -> None:
    state = position(middle="red-boar blue-boar red-deer", piles=["pink-sloth", ""])
    assert state.moment_cost(1, 0, lapsed=False) is MISS
    three = position(middle=BOARS, piles=["pink-sloth", ""])
    assert three.moment_cost(1, 0, lapsed=False) is None  # it waits for its call


def test_a_press_with_no_call_is_a_mistake_even_beside_three_alike() -> None:
    state = position(middle=BOARS, piles=["pink-sloth", ""])
    assert state.moment_cost(1, 0, lapsed=True) is MISS


def test_a_slower_hands_press_costs_nothing_and_its_miss_is_void() -> None:
    state = position(middle=BOARS, piles=["pink-sloth green-deer", "", ""])
    seen = len(state.history)
    state.apply(0, "hit boar")  # seat 0 was first: the boars are gone
    for lapsed in (False, True):
        assert state.moment_cost(1, seen, lapsed=lapsed) is None
    assert state.is_void(1, MISS, seen) and not state.is_void(1, MISS, len(state.history))
    assert state.moment_cost(1, len(state.history), lapsed=True) is MISS  # after it saw it


def test_a_flip_after_the_press_changes_nothing_about_its_cost() -> None:
    state = position(middle="red-boar blue-boar", piles=["yellow-boar pink-sloth", ""])
    seen = len(state.history)
    state.apply(0, "flip")  # a third boar: a press seen before it is judged on the table now
    assert state.moment_cost(1, seen, lapsed=False) is None
    assert state.moment_cost(1, seen, lapsed=True) is MISS


def test_moments_cost_nothing_in_the_other_games() -> None:
    for game_id in ("maumau", "mammuz", "mucca_pazza"):
        state = tiergarten.load(game_id).new_state(seed=1)
        assert state.moment_cost(0, 0, lapsed=True) is None
