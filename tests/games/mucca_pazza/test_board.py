"""The board: cyclic slides of every row (heads included) and the crossed set-up."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.mucca_pazza.board import LEFT, RIGHT, complete, slide

from .positions import J_BODIES, J_HEADS, J_LEGS, junior


@pytest.mark.parametrize("row", ["heads", "bodies", "legs"])
def test_every_row_slides_cyclically_both_ways(row: str) -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "pig " * 15 + "ghost")
    state.apply(0, "reveal 1")  # the pig is three slides away: two slides cannot end the turn
    before = state.observe(0)["board"]
    state.apply(0, f"slide {row} left")
    after = state.observe(0)["board"]
    assert after[row] == before[row][1:] + before[row][:1]  # the leftmost re-enters right
    assert all(after[r] == before[r] for r in before if r != row)
    state.apply(0, f"slide {row} right")
    assert state.observe(0)["board"] == before


def test_a_row_slid_its_length_times_comes_back() -> None:
    rows = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1]]
    for r in range(3):
        for direction in (LEFT, RIGHT):
            copy = [row.copy() for row in rows]
            for _ in range(4):
                slide(copy, r, direction)
            assert copy == rows


@pytest.mark.parametrize("variant", ["standard", "junior"])
def test_set_up_crosses_every_column_of_the_same_animals(variant: str) -> None:
    game = tiergarten.load("mucca_pazza", players=2, variant=variant)
    for seed in range(200):
        board = game.new_state(seed).observe(None)["board"]
        heads, bodies, legs = board["heads"], board["bodies"], board["legs"]
        assert sorted(heads) == sorted(bodies) == sorted(legs)
        assert len(set(heads)) == len(heads) == (10 if variant == "standard" else 5)
        for column in zip(heads, bodies, legs, strict=True):
            assert len(set(column)) == 3, f"seed {seed}: column {column} is not three animals"


def test_set_up_is_random_but_seeded() -> None:
    game = tiergarten.load("mucca_pazza")
    boards = [game.new_state(seed).observe(0)["board"] for seed in range(10)]
    assert boards[3] == game.new_state(3).observe(0)["board"]
    assert len({tuple(b["heads"]) for b in boards}) > 1


def test_complete_lists_columns_whose_three_tiles_agree() -> None:
    assert complete([[0, 1, 2], [0, 2, 1], [0, 1, 2]]) == (0,)


@pytest.mark.parametrize("variant", ["standard", "junior"])
def test_the_same_seed_and_actions_give_the_same_game(variant: str) -> None:
    import random

    game = tiergarten.load("mucca_pazza", players=3, variant=variant)
    first, second = game.new_state(seed=9), game.new_state(seed=9)
    rng = random.Random(9)
    while not first.is_over():
        seat = first.to_move()[0]
        action = rng.choice(first.legal_actions(seat))
        first.apply(seat, action)
        second.apply(seat, str(action))
        assert second.observe(None) == first.observe(None)
    assert tiergarten.replay(first.record()).result() == first.result() == second.result()
