"""Refusals with reason codes and parameters (docs/games/maumau.md, Refusals): each set up by a
seed and known moves, each leaving the state as it was."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.refusals import refused

import tiergarten
from tiergarten.core import State


def dealt(seed: int, moves: list[tuple[int, str]], players: int = 2, **options: Any) -> State:
    options.setdefault("two_player_nine", "skip")  # the seeds' moves were found under it
    state = tiergarten.load("maumau", players=players, **options).new_state(seed=seed)
    for seat, move in moves:
        state.apply(seat, move)
    return state


@pytest.mark.parametrize(("seed", "moves", "seat", "move", "code", "params"), [
    # seed 2: seat 1 to move on 10c, holding 9d
    (2, [], 1, "play 9d", "mismatch", {"card": "9d", "suit": "c", "top": "10c"}),
    (0, [], 1, "play 8c", "not_held", {"card": "8c"}),
    (0, [], 1, "play Qc", "seven_chain", {"n": 2}),  # seed 0 turns up a 7
    (0, [], 1, "pass", "pass_after_draw", {}),
    (0, [], 1, "play 7c mau", "mau_when", {}),
    (2, [], 1, "play Jc c maumau", "maumau_when", {}),
    (0, [], 1, "catch", "nobody_to_catch", {}),
    (0, [], 0, "draw", "not_to_move", {}),
    (17, [(0, "draw")], 0, "draw", "drawn_play_or_pass", {"card": "8s"}),
    (17, [(0, "draw")], 0, "play Kd", "only_drawn", {"card": "8s"}),
    (3, [(1, "draw")], 1, "play 7c", "drawn_misfit", {"card": "9h"}),
    (104, [(0, "play 8d"), (0, "play 10d"), (1, "play Jh s"), (0, "play Qs"), (1, "draw"),
           (1, "pass"), (0, "play 9s")], 0, "catch", "catch_self", {}),
])
def test_a_refusal_gives_its_code_and_parameters(seed: int, moves: list[tuple[int, str]],
                                                  seat: int, move: str, code: str,
                                                  params: dict[str, object]) -> None:
    refusal = refused(dealt(seed, moves), seat, move)
    assert (refusal.code, refusal.params) == (code, params)


def test_a_jack_on_a_jack_is_refused_by_its_own_code_at_a_table_without_it() -> None:
    state = dealt(11, [], jack_on_jack=False)  # seed 11 turns up Js; seat 1 holds Jd
    refusal = refused(state, 1, "play Jd c")
    assert (refusal.code, refusal.params) == ("jack_on_jack", {"top": "Js"})


def test_out_of_turn_only_a_catch_is_allowed_and_the_turn_is_named() -> None:
    # seat 0 goes down to one card without "Mau!" and plays on after its 9 (an 8 between two)
    state = dealt(104, [(0, "play 8d"), (0, "play 10d"), (1, "play Jh s"), (0, "play Qs"),
                        (1, "draw"), (1, "pass"), (0, "play 9s")])
    assert state.to_move() == (0, 1)
    refusal = refused(state, 1, "play 7c")
    assert (refusal.code, refusal.params) == ("not_your_turn", {"turn": 0})


def test_bad_notation_and_a_finished_game_have_the_shared_codes() -> None:
    state = dealt(0, [])
    assert refused(state, 1, "play 11x").code == "notation"
    state = dealt(0, [], rounds=1)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert (refused(state, 0, "draw").code, refused(state, 0, "draw").params) == ("game_over", {})
