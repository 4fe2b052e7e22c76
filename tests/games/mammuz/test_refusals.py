"""Refusals with reason codes and parameters (docs/games/mammuz.md, Refusals): each set up by a
seed and known moves, each leaving the state as it was."""

from __future__ import annotations

import pytest
from tests.games.refusals import refused

import tiergarten
from tiergarten.core import State

# seed 0, four players: seat 0 on turn holds mammoth mammoth deer tiger hare squirrel squirrel
# marmot stegosaurus pterosaurus; the mouse is out of the box with four players
OPENING = [(0, "lay mammoth hare squirrel stegosaurus as tiger"),
           (1, "lay tiger deer squirrel marmot as tiger"), (2, "lay hare marmot as tiger")]


def dealt(seed: int, moves: list[tuple[int, str]]) -> State:
    state = tiergarten.load("mammuz", players=4).new_state(seed=seed)
    for seat, move in moves:
        state.apply(seat, move)
    return state


@pytest.mark.parametrize(("seed", "moves", "seat", "move", "code", "params"), [
    (0, [], 0, "lay hare hare hare as tiger", "hold_fewer", {"card": "hare", "held": 1, "n": 3}),
    (0, [], 0, "lay bear as tiger", "hold_none", {"card": "bear"}),
    (0, [], 0, "lay deer as mouse", "not_declarable",
     {"species": "mouse", "declarable": ["mammoth", "bear", "deer", "tiger", "hare", "squirrel",
                                         "marmot"]}),
    (0, [], 0, "doubt 1", "nothing_to_doubt", {}),
    (0, [], 0, "give 1", "give_only", {}),
    (0, [], 0, "extinct mouse", "extinct_not_in_play", {"species": "mouse", "players": 4}),
    (0, [], 0, "extinct tiger", "extinct_need_all", {"species": "tiger", "held": 1, "left": 5}),
    (0, [(0, "extinct mammoth")], 0, "extinct mammoth", "extinct_already",
     {"species": "mammoth"}),
    (0, OPENING[:1], 1, "lay deer as bear", "same_species", {"species": "tiger"}),
    (0, OPENING, 3, "doubt 4", "doubt_range", {"n": 2}),
    (0, [], 1, "lay deer as deer", "not_to_move", {}),
    # seed 6: seat 2 on turn; seat 3 holds both mammoths and may make them extinct meanwhile
    (6, [], 3, "lay tiger as squirrel", "not_your_turn", {"turn": 2}),
])
def test_a_refusal_gives_its_code_and_parameters(seed: int, moves: list[tuple[int, str]],
                                                  seat: int, move: str, code: str,
                                                  params: dict[str, object]) -> None:
    refusal = refused(dealt(seed, moves), seat, move)
    assert (refusal.code, refusal.params) == (code, params)


def test_a_seat_not_to_move_is_told_only_the_movers_it_may_know() -> None:
    # seed 6: seat 3 may act out of turn because of its hand; seat 0 must not learn that
    state = dealt(6, [])
    assert state.to_move() == (2, 3)
    refusal = refused(state, 0, "lay deer as deer")
    assert refusal.code == "not_to_move"
    assert refusal.reason == "seat 0 may not act now (to move: 2)"
