"""Notation, the fixed action table, versioned hits, and bad input: every refusal names what was
wrong and what is allowed, and changes nothing."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.lecker_mammut.actions import ACTIONS, HITS, MISS

from .positions import position

GAME = tiergarten.load("lecker_mammut", players=3)


def test_the_action_table_is_fixed_and_every_action_round_trips() -> None:
    assert GAME.num_actions == 82  # rules 3: `miss` is id 81; rules 1 and 2 keep 81 ids
    assert tiergarten.load("lecker_mammut", players=3, rules=2).actions == ACTIONS
    assert [str(a) for a in GAME.actions[:3]] == ["flip", "hit bear", "hit boar"]
    assert str(GAME.actions[15]) == "top red-bear" and str(GAME.actions[80]) == "return 16"
    assert GAME.actions[-1] is MISS and str(MISS) == "miss" and MISS.id == 81
    for action in GAME.actions:
        assert GAME.parse_action(str(action)) is action
        assert GAME.action_from_id(GAME.action_id(action)) is action


def test_a_versioned_hit_is_interned_per_text_and_keeps_its_plain_hits_id() -> None:
    late = GAME.parse_action("hit green @17")
    assert late is GAME.parse_action("  Hit GREEN@17 ")
    assert (str(late), late.version, GAME.action_id(late)) == ("hit green @17", 17, HITS[10].id)
    assert GAME.action_from_id(GAME.action_id(late)) is HITS[10]
    assert late is not HITS[10] and late not in GAME.actions


@pytest.mark.parametrize(("text", "says"), [
    ("hit boa", "no animal or colour 'boa'"),
    ("hit", "hit names an animal or a colour"),
    ("top green-bor", "no card 'green-bor'"),
    ("top boar-green", "colour-animal"),
    ("return 17", "1 to 16"),
    ("hit boar @x", "a version is a whole number"),
    ("hit boar @-1", "a version is a whole number"),
    ("jump", "write flip, hit"),
])
def test_bad_notation_is_refused_with_a_hint(text: str, says: str) -> None:
    with pytest.raises(tiergarten.NotationError, match=says):
        GAME.parse_action(text)


def test_refusals_name_the_reason_and_leave_the_state_unchanged() -> None:
    state = position(middle="red-boar", piles=["pink-sloth", "", ""])
    before = state.observe(None)
    cases = [
        (1, "flip", "seat 0's pile that is being flipped"),
        (0, "pass", "pass only once every pile is flipped"),
        (0, "top red-boar", "only by the player who has just made a good hit"),
        (0, "return 1", "only at the end of a round"),
        (3, "flip", "there is no seat 3"),
        (0, "hit boar @5", "not reached version 5"),
    ]
    for seat, text, says in cases:
        with pytest.raises(tiergarten.IllegalAction, match=says):
            state.apply(seat, text)
    with pytest.raises(tiergarten.IllegalAction, match="is not an action of lecker_mammut"):
        state.apply(0, tiergarten.load("maumau", players=2).actions[0])
    assert state.observe(None) == before and state.history == []


def test_the_refusal_lists_what_is_legal_now() -> None:
    state = position(piles=["pink-sloth", "", ""])
    with pytest.raises(tiergarten.IllegalAction) as refused:
        state.apply(1, "flip")
    allowed = refused.value.allowed
    assert allowed[:2] == ("hit bear", "hit boar") and len(allowed) == 15  # 14 hits, miss


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = position(piles=["", ""], rounds=1)
    state.apply(0, "pass")
    state.apply(1, "pass")
    with pytest.raises(tiergarten.IllegalAction, match="the game is over"):
        state.apply(0, "hit boar")
    with pytest.raises(tiergarten.IllegalAction, match="the game is over"):
        state.apply(0, "hit boar @0")


@pytest.mark.parametrize(("options", "says"), [
    ({"players": 7}, "2 to 6 players"),
    ({"players": 1}, "2 to 6 players"),
    ({"rounds": 0}, "option 'rounds' cannot be 0"),
    ({"idle_limit": -1}, "option 'idle_limit' cannot be -1"),
    ({"speed": 2}, "unknown option 'speed'"),
])
def test_bad_options_are_refused(options: dict[str, int], says: str) -> None:
    with pytest.raises(tiergarten.OptionError, match=says):
        tiergarten.load("lecker_mammut", **options)


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(ValueError, match="not over yet"):
        GAME.new_state(1).result()
