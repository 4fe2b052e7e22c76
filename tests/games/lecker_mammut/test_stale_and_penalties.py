"""docs/games/lecker_mammut.md simultaneous hits and mistakes: the stale-hit rule (a hit on a
version that a good hit has changed since is void), penalty cards from the next card to be
flipped, and mistakes that still count in `penalties` when no face-down card is left (they
decide a return only under rules 1: test_rules_versions.py)."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import last_event, legal, position

BOARS = "red-boar blue-boar yellow-boar"


def snapshot(state: tiergarten.State) -> list[object]:
    return [state.observe(s) for s in range(state.game.players)] + [state.to_move()]


def test_a_slower_hand_landing_on_a_faster_one_is_void_and_changes_nothing_but_history() -> None:
    state = position(middle=BOARS, piles=["pink-sloth green-deer", "", ""], version=17)
    state.apply(1, "hit boar @17")
    before = snapshot(state)
    state.apply(2, "hit boar @17")  # seat 2 saw the same table, but seat 1 was first
    assert snapshot(state) == before
    assert state.observe(2)["penalties"] == [0, 0, 0]
    assert [str(a) for _, a in state.history] == ["hit boar @17", "hit boar @17"]
    assert state.verdict(0, state.game.parse_action("hit green @17")) == "void"


def test_a_void_hit_does_not_clear_passes() -> None:
    state = position(middle=BOARS, piles=["", "", ""], version=3)
    state.apply(1, "hit boar")
    state.apply(1, "top red-boar")
    state.apply(0, "pass")
    state.apply(2, "hit green @3")  # made on the table before the good hit: void
    assert state.observe(0)["passed"] == [0]


def test_a_hit_naming_an_old_version_with_no_good_hit_since_is_judged_on_the_table_now() -> None:
    state = position(middle="red-boar blue-boar", piles=["yellow-boar", "", ""], version=4)
    state.apply(0, "flip")  # version 5: the third boar
    state.apply(2, "hit boar @4")  # seen at 4, no good hit since: judged now, and good
    assert last_event(state)["act"] == "hit"


def test_a_hit_on_a_version_seen_after_the_good_hit_is_judged_and_can_be_a_mistake() -> None:
    state = position(middle=BOARS, piles=["pink-sloth green-deer", "", ""], version=9)
    state.apply(1, "hit boar @9")
    state.apply(2, "hit boar @10")  # seat 2 saw the boars gone and hit anyway
    assert last_event(state)["act"] == "mistake"
    assert state.observe(0)["penalties"] == [0, 0, 1]


def test_a_version_the_table_has_not_reached_is_refused() -> None:
    state = position(middle=BOARS, version=2)
    with pytest.raises(tiergarten.IllegalAction, match="not reached version 3 yet"):
        state.apply(0, "hit boar @3")
    assert state.history == []


def test_a_hit_seen_in_an_earlier_round_is_void() -> None:
    state = position(middle=BOARS, players=2, piles=["", ""], rounds=2, version=6)
    state.apply(0, "pass")
    state.apply(1, "pass")
    assert state.observe(0)["round"] == 2
    state.apply(0, "hit boar @6")
    assert state.observe(0)["penalties"] == [0, 0]


def test_a_mistake_takes_the_next_card_to_be_flipped_face_down() -> None:
    state = position(middle="red-boar blue-boar", piles=["", "pink-sloth green-deer", ""],
                     starter=1)
    state.apply(0, "hit boar")
    obs = state.observe(0)
    assert (obs["face_down"], obs["penalties"], obs["penalty_cards"]) == ([0, 1, 0], [1, 0, 0],
                                                                         [1, 0, 0])
    assert state.penalty_cards[0] == [state.game.parse_action("top pink-sloth").card]
    assert last_event(state) == {"act": "mistake", "seat": 0, "feature": "boar", "showing": 2,
                                 "penalty_card": True}
    state.apply(1, "flip")
    assert state.observe(0)["middle"][-1] == "green-deer"


def test_a_penalty_from_the_flippers_last_card_passes_the_flipping_on() -> None:
    state = position(piles=["pink-sloth", "", "green-deer red-bear"])
    state.apply(0, "hit mammoth")  # the flipper penalises itself with its last card
    obs = state.observe(0)
    assert (obs["flipper"], obs["face_down"]) == (2, [0, 0, 2])
    state.apply(1, "hit pink")  # the next card to be flipped is now seat 2's
    assert state.observe(0)["face_down"] == [0, 0, 1]
    assert state.observe(0)["penalty_cards"] == [1, 1, 0]


def test_mistakes_still_count_in_penalties_when_no_face_down_card_is_left() -> None:
    state = position(middle="red-boar", piles=["", "", ""])
    state.apply(2, "hit boar")
    state.apply(2, "hit red")
    obs = state.observe(0)
    assert (obs["penalties"], obs["penalty_cards"]) == ([0, 0, 2], [0, 0, 0])
    assert last_event(state)["penalty_card"] is False


def test_nobody_sees_a_penalty_card_and_resampling_may_swap_it_with_face_down_cards() -> None:
    state = position(middle="red-boar", piles=["pink-sloth green-deer red-bear", "", ""])
    state.apply(1, "hit boar")
    obs = state.observe(1)
    assert "pink-sloth" not in str(obs)  # not even its taker sees it
    import random
    seen = {tuple(state.resample(1, random.Random(i)).penalty_cards[1]) for i in range(30)}
    assert len(seen) == 3
    assert all(state.resample(1, random.Random(i)).observe(1) == obs for i in range(5))


def test_passing_and_flipping_are_still_offered_after_a_mistake() -> None:
    state = position(middle="red-boar", piles=["pink-sloth green-deer", "", ""])
    state.apply(0, "hit boar")
    assert legal(state, 0)[0] == "flip"


# -- what a player had seen (`seen`: actions of the history), as a server or the Parallel env
# says it ----------------------------------------------------------------------------------------

def test_a_hit_made_before_a_good_hit_is_void_by_what_its_player_had_seen() -> None:
    state = position(middle=BOARS, piles=["pink-sloth green-deer", "", ""], version=17)
    state.apply(0, "flip")  # history 1; not a good hit: nothing is void yet
    boar = state.game.parse_action("hit boar")
    assert not state.is_void(2, boar, seen=0)
    state.apply(1, "hit boar")  # history 2: the good hit
    assert state.is_void(2, boar, seen=0) and state.is_void(2, boar, seen=1)
    assert not state.is_void(2, boar, seen=2)  # seen after the good hit: judged now
    assert state.verdict(2, boar, seen=1) == "void"
    assert state.verdict(2, boar, seen=2) == "mistake"
    assert not state.is_void(2, boar)  # no version and nothing seen said: judged now


def test_a_mistake_or_a_flip_since_does_not_void_a_hit() -> None:
    state = position(middle="red-boar blue-boar", piles=["yellow-boar", "", ""], version=4)
    state.apply(0, "flip")  # the third boar
    state.apply(1, "hit red")  # a mistake: the visible cards stay
    assert not state.is_void(2, state.game.parse_action("hit boar"), seen=0)


def test_a_new_deal_voids_a_hit_seen_in_the_round_before() -> None:
    state = position(middle=BOARS, players=2, piles=["", ""], rounds=2, version=6)
    state.apply(0, "pass")
    state.apply(1, "pass")  # the round ends and the next is dealt: history 2
    assert state.observe(0)["round"] == 2
    assert state.is_void(0, state.game.parse_action("hit boar"), seen=1)
    assert not state.is_void(0, state.game.parse_action("hit boar"), seen=2)


def test_two_flips_on_one_sight_of_the_table_flip_one_card() -> None:
    state = position(piles=["pink-sloth green-deer red-bear", "", ""])
    flip = state.game.parse_action("flip")
    state.apply(0, "flip")
    assert state.is_void(0, flip, seen=0)  # the second flip made on the same sight
    state.apply(1, "hit tiger")  # a mistake: the visible cards do not change
    assert not state.is_void(0, flip, seen=1)


def test_nothing_but_a_hit_or_a_flip_is_ever_void() -> None:
    state = position(middle=BOARS, piles=["", "", ""], version=3)
    state.apply(1, "hit boar")
    assert not state.is_void(1, state.game.parse_action("top red-boar"), seen=0)
    state.apply(1, "top red-boar")
    assert not state.is_void(0, state.game.parse_action("pass"), seen=0)
