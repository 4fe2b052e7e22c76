"""The board: cyclic slides of every row (heads included) and the crossed set-up of each
variant (docs/games/mucca_pazza.md, Set-up), each valid board equally likely."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import tiergarten
from tiergarten.games.mucca_pazza.board import LEFT, RIGHT, complete, deal, slide

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


def columns(variant: str, seeds: range) -> list[tuple[str, str, str]]:
    """Every column (head, body, legs) of the set-ups of `seeds`, checking the rows."""
    game = tiergarten.load("mucca_pazza", players=2, variant=variant)
    out = []
    for seed in seeds:
        board = game.new_state(seed).observe(None)["board"]
        heads, bodies, legs = board["heads"], board["bodies"], board["legs"]
        assert sorted(heads) == sorted(bodies) == sorted(legs)
        assert len(set(heads)) == len(heads) == (10 if variant == "standard" else 5)
        out += zip(heads, bodies, legs, strict=True)
    return out


def test_standard_set_up_no_body_fits_its_head_or_legs_but_legs_may_match_the_head() -> None:
    cols = columns("standard", range(300))
    assert [c for c in cols if c[1] in (c[0], c[2])] == []
    legs_match_head = [c for c in cols if c[2] == c[0]]
    assert 0.05 < len(legs_match_head) / len(cols) < 0.15  # about 1 column in 9


def test_junior_set_up_every_column_holds_three_different_animals() -> None:
    cols = columns("junior", range(300))
    assert [c for c in cols if len(set(c)) != 3] == []


@pytest.mark.parametrize("legs_may_match_head", [True, False], ids=["standard", "junior"])
def test_every_board_that_meets_the_set_up_rule_is_equally_likely(
        legs_may_match_head: bool) -> None:
    # Four animals, counted relative to the heads: 9 x 9 = 81 standard boards, 24 junior ones.
    # Drawing the junior bodies first and then legs to suit them favoured the bodies that
    # leave the legs few ways out (a chi-square of about 300 here; the standard rule was not
    # drawn at all: legs never matched their head).
    perms = list(itertools.permutations(range(4)))
    valid = [(b, leg) for b in perms for leg in perms
             if all(b[i] != i and leg[i] != b[i] and (legs_may_match_head or leg[i] != i)
                    for i in range(4))]
    assert len(valid) == (81 if legs_may_match_head else 24)
    rng, per_board = random.Random(7), 100
    counts = Counter()
    for _ in range(per_board * len(valid)):
        heads, bodies, legs = deal(range(4), rng, legs_may_match_head=legs_may_match_head)
        counts[tuple(heads.index(b) for b in bodies), tuple(heads.index(x) for x in legs)] += 1
    assert set(counts) == set(valid)
    chi2 = sum((counts[v] - per_board) ** 2 / per_board for v in valid)
    assert chi2 < 3 * len(valid), chi2  # the 99.9% points: 49.7 (23 d.f.), 124.8 (80 d.f.)


def test_set_up_is_random_but_seeded() -> None:
    game = tiergarten.load("mucca_pazza")
    boards = [game.new_state(seed).observe(0)["board"] for seed in range(10)]
    assert boards[3] == game.new_state(3).observe(0)["board"]
    assert len({tuple(b["heads"]) for b in boards}) > 1


def test_complete_lists_columns_whose_three_tiles_agree() -> None:
    assert complete([[0, 1, 2], [0, 2, 1], [0, 1, 2]]) == (0,)


@pytest.mark.parametrize("variant", ["standard", "junior"])
def test_the_same_seed_and_actions_give_the_same_game(variant: str) -> None:
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
