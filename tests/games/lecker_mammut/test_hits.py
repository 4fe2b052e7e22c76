"""docs/games/lecker_mammut.md hitting the club: good hits on the called feature only, taking middle
cards and whole prize piles (anyone's, the hitter's own too), the hitter choosing the new top
card, and flipping pausing while that choice is made."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import last_event, legal, position, tops


def test_the_seeds_first_example_three_wild_boars_taken_green_one_on_top() -> None:
    # Felix (0) flips the third wild boar; Mia (1) hits "Wild boar!" and lays the green one on top.
    state = position(middle="red-boar pink-deer green-boar", piles=["blue-boar yellow-bear", "",
                                                                    ""])
    state.apply(0, "flip")
    state.apply(1, "hit boar")
    choice = state.observe(1)["choosing"]
    assert choice == [{"seat": 1, "feature": "boar",
                       "cards": ["red-boar", "green-boar", "blue-boar"],
                       "tops": ["red-boar", "green-boar", "blue-boar"]}]
    assert legal(state, 1) == ["top red-boar", "top green-boar", "top blue-boar"]
    state.apply(1, "top green-boar")
    obs = state.observe(0)
    assert obs["middle"] == ["pink-deer"]
    assert obs["prize_piles"][1] == [{"top": "green-boar", "size": 3}]
    assert obs["choosing"] == []


def test_the_seeds_green_example_steals_a_prize_pile_with_a_green_top() -> None:
    # Hannah (2) flips a green sloth; with a green bear in the middle and Mia's (1) green boar on
    # top of her pile, Paul (3) calls "Green!" and wins both middle cards and all of Mia's pile.
    state = position(middle="green-bear red-deer",
                     piles=["", "", "green-sloth", ""],
                     prizes=[[], ["red-boar blue-boar green-boar"], [], []], starter=2)
    state.apply(2, "flip")
    state.apply(3, "hit green")
    assert last_event(state) == {
        "act": "hit", "seat": 3, "feature": "green",
        "cards": ["green-bear", "red-boar", "green-boar", "blue-boar", "green-sloth"],
        "robbed": [{"seat": 1, "size": 3}]}
    assert legal(state, 3) == ["top green-bear", "top green-boar", "top green-sloth"]
    state.apply(3, "top green-sloth")
    obs = state.observe(1)
    assert obs["middle"] == ["red-deer"]
    assert obs["prize_piles"] == [[], [], [], [{"top": "green-sloth", "size": 5}]]


def test_the_hitters_own_prize_pile_is_taken_into_the_new_pile_too() -> None:
    state = position(middle="pink-bear pink-deer",
                     prizes=[["red-tiger blue-tiger pink-tiger", "red-mammoth green-mammoth "
                              "yellow-mammoth"], []])
    state.apply(0, "hit pink")
    state.apply(0, "top pink-tiger")
    assert state.observe(0)["prize_piles"][0] == [
        {"top": "yellow-mammoth", "size": 3}, {"top": "pink-tiger", "size": 5}]


def test_only_cards_showing_the_feature_may_go_on_top() -> None:
    state = position(middle="green-bear green-deer", piles=["", ""],
                     prizes=[[], ["red-boar blue-boar green-boar"]])
    state.apply(0, "hit green")
    with pytest.raises(tiergarten.IllegalAction, match="top card") as refused:
        state.apply(0, "top red-boar")
    assert refused.value.allowed == ("top green-bear", "top green-boar", "top green-deer")


def test_two_features_at_three_at_once_only_the_called_one_is_taken() -> None:
    # boar and green both reach three; they share the green boar.
    state = position(middle="red-boar blue-boar green-boar green-bear green-deer",
                     piles=["pink-sloth", "", ""])
    state.apply(1, "hit boar")
    state.apply(1, "top red-boar")
    assert state.observe(0)["middle"] == ["green-bear", "green-deer"]
    state.apply(2, "hit green")  # green fell to two with the green boar: a mistake now
    assert last_event(state)["act"] == "mistake"


def test_another_feature_that_also_reached_three_stays_open() -> None:
    state = position(middle="red-boar blue-boar yellow-boar green-bear green-deer green-sloth",
                     piles=["pink-sloth", "", ""])
    state.apply(1, "hit boar")
    state.apply(1, "top blue-boar")
    assert state.observe(0)["middle"] == ["green-bear", "green-deer", "green-sloth"]
    state.apply(2, "hit green")
    assert last_event(state)["act"] == "hit"


def test_a_top_card_can_open_a_new_triple_at_once() -> None:
    state = position(middle="red-boar blue-boar yellow-boar red-deer red-sloth")
    state.apply(1, "hit boar")
    state.apply(1, "top red-boar")  # red: red-deer, red-sloth and the new top
    state.apply(2, "hit red")
    assert state.observe(0)["choosing"][0]["cards"] == [
        "red-boar", "yellow-boar", "blue-boar", "red-sloth", "red-deer"]


def test_flipping_and_passing_pause_while_a_top_card_is_chosen_but_others_may_hit() -> None:
    state = position(middle="red-boar blue-boar yellow-boar green-bear green-deer green-sloth",
                     piles=["pink-sloth", "", ""])
    state.apply(1, "hit boar")
    obs = state.observe(0)
    assert obs["phase"] == "choosing"
    assert "flip" not in legal(state, 0)
    with pytest.raises(tiergarten.IllegalAction, match="flipping pauses while seat 1 chooses"):
        state.apply(0, "flip")
    with pytest.raises(tiergarten.IllegalAction, match="choose the top card of your new"):
        state.apply(1, "hit green")
    state.apply(2, "hit green")  # the greens were not touched: a good hit of its own
    assert [c["seat"] for c in state.observe(0)["choosing"]] == [1, 2]
    state.apply(2, "top green-bear")
    state.apply(1, "top yellow-boar")
    assert legal(state, 0)[0] == "flip"
    assert tops(state, 1) == ["yellow-boar"] and tops(state, 2) == ["green-bear"]


def test_a_good_hit_changes_the_version_twice_and_a_mistake_not_at_all() -> None:
    state = position(middle="red-boar blue-boar yellow-boar", piles=["pink-sloth", "", ""],
                     version=5)
    state.apply(2, "hit green")
    assert state.observe(0)["version"] == 5  # the visible cards did not change
    state.apply(1, "hit boar")
    assert state.observe(0)["version"] == 6  # the cards left the table
    state.apply(1, "top red-boar")
    assert state.observe(0)["version"] == 7  # the new pile's top appeared
