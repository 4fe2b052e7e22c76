"""Bad input: illegal actions, unknown or bad options, player counts and unreadable notation are
refused with a reason and what is allowed, and leave the state as it was."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import tiergarten
from tiergarten.games.maumau.state import MauMauState

from .positions import legal, position


def snapshot(state: MauMauState) -> str:
    """Everything a seat or a record could show, to prove a refusal changed nothing."""
    seen: list[Any] = [state.observe(s) for s in (None, *range(state.game.players))]
    seen += [state.record(), state.to_move(), [legal(state, s) for s in range(state.game.players)]]
    return json.dumps(seen, default=str)


@pytest.mark.parametrize(("seat", "move", "reason"), [
    (0, "play 8c", "8c matches neither the suit in force (hearts) nor the rank of Qh"),
    (0, "play 9d", "you do not hold 9d"),
    (0, "pass", "pass is only for ending your turn after you have drawn a card"),
    (0, "catch", "nobody can be caught now: catch is for a missing Mau or Mau Mau call"),
    (1, "draw", "seat 1 may not act now (to move: 0)"),
    (0, "play Kh mau", "Mau is said with the second-to-last card only"),
])
def test_an_illegal_action_names_the_reason_and_the_legal_moves(seat: int, move: str,
                                                               reason: str) -> None:
    state = position(["Kh 8c Ad", "9c Qs 7d"], top="Qh")
    before = snapshot(state)
    with pytest.raises(tiergarten.IllegalAction) as caught:
        state.apply(seat, move)
    assert caught.value.reason == reason
    allowed = legal(state, seat)
    assert caught.value.allowed == tuple(allowed)
    assert str(caught.value) == f"{reason}; legal now: {', '.join(allowed) or 'nothing'}"
    assert isinstance(caught.value, ValueError)
    assert snapshot(state) == before


def test_after_drawing_a_fitting_card_draw_again_is_refused() -> None:
    state = position(["8c Kc Ad", "9c Qs"], top="Qh", stock="Kh")
    state.apply(0, "draw")
    before = snapshot(state)
    with pytest.raises(tiergarten.IllegalAction, match="you have drawn Kh: play it or pass"):
        state.apply(0, "draw")
    assert snapshot(state) == before


@pytest.mark.parametrize("move", ["draw", "play 8c", "play 10s", "catch"])
def test_after_drawing_a_card_that_does_not_fit_every_move_but_pass_is_refused(move: str) -> None:
    state = position(["8c Kc Ad", "9c Qs"], top="Qh", stock="10s")
    state.apply(0, "draw")
    before = snapshot(state)
    with pytest.raises(tiergarten.IllegalAction) as caught:
        state.apply(0, move)
    reason = ("nobody can be caught now: catch is for a missing Mau or Mau Mau call"
              if move == "catch" else "you have drawn 10s, which does not fit: pass")
    assert (caught.value.reason, caught.value.allowed) == (reason, ("pass",))
    assert snapshot(state) == before


def test_a_seat_that_does_not_exist_is_refused() -> None:
    state = position(["8c Kc Ad", "9c Qs"], top="Qh")
    with pytest.raises(tiergarten.IllegalAction, match="there is no seat 2") as caught:
        state.apply(2, "draw")
    assert caught.value.allowed == ("0", "1")


def test_an_action_id_outside_the_action_space_is_refused() -> None:
    game = tiergarten.load("maumau")
    with pytest.raises(tiergarten.IllegalAction, match="ids run from 0 to 106"):
        game.action_from_id(107)


@pytest.mark.parametrize("text", ["play 7x", "play 11h", "hop", "play Jd", "play 7h s",
                                  "play Jd s mau mau", "draw 2", ""])
def test_unreadable_notation_raises_a_notation_error_with_a_hint(text: str) -> None:
    state = position(["7h Jd Ad", "9c Qs"], top="Qh")
    before = snapshot(state)
    with pytest.raises(tiergarten.NotationError, match="cannot read .* as an action: write play"):
        state.apply(0, text)
    assert snapshot(state) == before


def test_notation_ignores_case_and_spacing() -> None:
    state = position(["7h Jd Ad", "9c Qs"], top="Qh")
    state.apply(0, "  PLAY   jd   S ")
    assert state.observe(1)["suit"] == "s"


def test_every_action_round_trips_through_its_notation_and_id() -> None:
    game = tiergarten.load("maumau", players=2)
    for index in range(game.num_actions):
        action = game.action_from_id(index)
        assert game.action_id(action) == index
        assert game.parse_action(str(action)) is action


def test_the_defaults_are_those_of_the_rules() -> None:
    game = tiergarten.load("maumau")
    assert game.players == 3
    assert game.options == {"target_score": 150, "rounds": None, "jack_on_jack": True,
                            "two_player_nine": "none", "first_card_effects": True,
                            "mau_penalty": 2}


def test_an_older_rules_version_keeps_its_own_defaults() -> None:
    assert tiergarten.load("maumau", rules=2).options["two_player_nine"] == "skip"
    assert tiergarten.load("maumau", rules=3).options["two_player_nine"] == "none"
    assert tiergarten.load("maumau").rules == 3


def test_options_given_as_text_are_read() -> None:
    game = tiergarten.load("maumau", players=2, jack_on_jack="false", target_score="50",
                           rounds="none", first_card_effects="no", mau_penalty="3")
    assert game.options == {"target_score": 50, "rounds": None, "jack_on_jack": False,
                            "two_player_nine": "none", "first_card_effects": False,
                            "mau_penalty": 3}


def test_an_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(tiergarten.OptionError) as caught:
        tiergarten.load("maumau", jack_on_jak=False)
    assert caught.value.reason == "unknown option 'jack_on_jak'"
    assert caught.value.allowed == ("target_score", "rounds", "jack_on_jack", "two_player_nine",
                                    "first_card_effects", "mau_penalty")


@pytest.mark.parametrize(("name", "value", "allowed"), [
    ("jack_on_jack", "maybe", "true, false"),
    ("two_player_nine", "reverse", "none, skip"),
    ("first_card_effects", 2, "true, false"),
    ("mau_penalty", 11, "a whole number from 0 to 10"),
    ("mau_penalty", -1, "a whole number from 0 to 10"),
])
def test_a_bad_option_value_names_the_values_allowed(name: str, value: Any, allowed: str) -> None:
    with pytest.raises(tiergarten.OptionError) as caught:
        tiergarten.load("maumau", **{name: value})
    assert str(caught.value) == f"option {name!r} cannot be {value!r}; it takes {allowed}"


@pytest.mark.parametrize("players", [0, 1, 5, "3", True])
def test_a_player_count_outside_2_to_4_is_refused(players: Any) -> None:
    with pytest.raises(tiergarten.OptionError, match="maumau is for 2 to 4 players") as caught:
        tiergarten.load("maumau", players=players)
    assert caught.value.allowed == ("2", "3", "4")


@pytest.mark.parametrize(("name", "value"), [("target_score", 0), ("target_score", "lots"),
                                             ("rounds", 0)])
def test_a_bad_number_says_the_number_is_a_minimum(name: str, value: Any) -> None:
    with pytest.raises(tiergarten.OptionError, match=f"option {name!r} cannot be") as caught:
        tiergarten.load("maumau", **{name: value})
    assert re.search(r"at least 1|1 or (more|higher|above)|from 1", str(caught.value))


def test_while_a_catch_is_open_an_opponent_out_of_turn_may_only_catch() -> None:
    state = position(["Kh 8c", "9c 10h Ad", "Ac As 10c"], top="Qh")
    state.apply(0, "play Kh")
    before = snapshot(state)
    with pytest.raises(tiergarten.IllegalAction) as caught:
        state.apply(2, "play Ac")
    assert caught.value.reason == "it is seat 1's turn; you may only catch"
    assert caught.value.allowed == ("catch",)
    with pytest.raises(tiergarten.IllegalAction, match=r"seat 0 may not act now \(to move: 1, 2\)"):
        state.apply(0, "catch")
    assert snapshot(state) == before


def test_a_player_cannot_catch_themselves() -> None:
    state = position(["8h Kh", "9c Qs Ad"], top="Qh")
    state.apply(0, "play 8h")
    with pytest.raises(tiergarten.IllegalAction, match="you cannot catch yourself"):
        state.apply(0, "catch")
