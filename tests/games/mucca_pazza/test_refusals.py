"""Refusals with reason codes and parameters (docs/games/mucca_pazza.md, Refusals): each set up
by a seed and known moves, each leaving the state as it was."""

from __future__ import annotations

import pytest
from tests.games.refusals import refused

import tiergarten
from tiergarten.core import State


def dealt(variant: str, seed: int, moves: list[tuple[int, str]]) -> State:
    state = tiergarten.load("mucca_pazza", players=2, variant=variant).new_state(seed=seed)
    for seat, move in moves:
        state.apply(seat, move)
    return state


# seed 12, junior: seat 0 turns up card 16 and takes it with two slides; seat 1 then turns up
# card 9, which is already whole, so it goes back face down
TAKEN = [(0, "reveal 16"), (0, "slide bodies left"), (0, "slide legs right")]


@pytest.mark.parametrize(("variant", "seed", "moves", "seat", "move", "code", "params"), [
    ("standard", 0, [], 0, "reveal 1", "no_grid", {"slides": 0}),
    ("standard", 0, [(0, "slide heads left")], 0, "reveal 1", "no_grid", {"slides": 1}),
    ("standard", 0, [], 0, "stop", "stop_after_slide", {}),
    ("standard", 0, [], 1, "stop", "not_to_move", {}),
    ("junior", 0, [], 0, "slide heads left", "reveal_first", {}),
    ("junior", 0, [(0, "reveal 13")], 0, "reveal 1", "revealed_already",
     {"position": 13, "card": "dog"}),
    ("junior", 12, TAKEN, 1, "reveal 16", "card_taken", {"position": 16}),
    ("junior", 12, [*TAKEN, (1, "reveal 9")], 1, "reveal 9", "turned_back",
     {"position": 9, "card": "zebra"}),
])
def test_a_refusal_gives_its_code_and_parameters(variant: str, seed: int,
                                                  moves: list[tuple[int, str]], seat: int,
                                                  move: str, code: str,
                                                  params: dict[str, object]) -> None:
    refusal = refused(dealt(variant, seed, moves), seat, move)
    assert (refusal.code, refusal.params) == (code, params)
