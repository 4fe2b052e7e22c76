"""Build Mucca Pazza positions by hand for scenario tests: boards and cards written as names."""

from __future__ import annotations

from collections.abc import Sequence

import tiergarten
from tiergarten.games.mucca_pazza import JuniorState, StandardState
from tiergarten.games.mucca_pazza.cards import ANIMALS, animal

Rows = Sequence[str]  # one row as a space-separated string of animal names


def rows(heads: str, bodies: str, legs: str) -> list[list[int]]:
    return [[animal(n) for n in row.split()] for row in (heads, bodies, legs)]


def standard(heads: str, bodies: str, legs: str, landing: str, pile: str = "",
             players: int = 2, stars: Sequence[int] | None = None, turn: int = 0,
             ) -> StandardState:
    """A standard game at the start of `turn`'s turn; `pile` is listed top card first."""
    state = tiergarten.load("mucca_pazza", players=players).new_state(seed=0)
    assert isinstance(state, StandardState)
    state.rows = rows(heads, bodies, legs)
    state.landing = [0] * len(ANIMALS)
    for name in landing.split():
        state.landing[animal(name)] += 1
    state.pile = [animal(n) for n in reversed(pile.split())]
    if stars is not None:
        state.stars = list(stars)
    state.turn = turn
    state._legal = None
    return state


def junior(heads: str, bodies: str, legs: str, grid: str, players: int = 2) -> JuniorState:
    """A junior game at the start of seat 0's turn; `grid` names the cards by position."""
    state = tiergarten.load("mucca_pazza", players=players, variant="junior").new_state(seed=0)
    assert isinstance(state, JuniorState)
    state.rows = rows(heads, bodies, legs)
    state.grid = [animal(n) for n in grid.split()]
    state.face = [0] * len(state.grid)
    state.seen = [False] * len(state.grid)
    state._legal = None
    return state


# Five animals, nothing complete. Frog needs one slide (bodies left); dragon two (bodies
# right, legs left); pig three.
J_HEADS = "frog dragon monkey cockatoo pig"
J_BODIES = "dragon frog cockatoo pig monkey"
J_LEGS = "frog pig dragon monkey cockatoo"
