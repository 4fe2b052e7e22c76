"""The solver against brute force: breadth-first search over real slides of the board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergarten.games.mucca_pazza import solve
from tiergarten.games.mucca_pazza.board import complete, slide
from tiergarten.games.mucca_pazza.data import ANIMALS, animal

Board = tuple[tuple[int, ...], ...]


def neighbours(board: Board) -> Iterator[Board]:
    for row in range(3):
        for direction in range(2):
            rows = [list(r) for r in board]
            slide(rows, row, direction)
            yield tuple(tuple(r) for r in rows)


def brute_fewest(board: Board, targets: set[int]) -> int:
    """Fewest slides until any target stands complete, by breadth-first search."""
    seen, layer, depth = {board}, [board], 0
    while True:
        if any(targets & set(complete(b)) for b in layer):
            return depth
        layer = [n for b in layer for n in neighbours(b) if n not in seen]
        seen.update(layer)
        depth += 1


def brute_best(board: Board, landing: list[int], free: int, stars: int) -> tuple[int, int, int]:
    """(cards, -stars spent, -slides) of the best turn of one or more slides, by search."""
    best = (0, 0, -1)
    layer = {board}
    for k in range(1, free + stars + 1):
        layer = {n for b in layer for n in neighbours(b)}  # every board after exactly k slides
        for b in layer:
            gain = sum(landing[a] for a in complete(b))
            best = max(best, (gain, -max(0, k - free), -k))
    return best


def names(board: Board) -> dict[str, list[str]]:
    return {row: [ANIMALS[a] for a in tiles] for row, tiles in zip(("heads", "bodies", "legs"),
                                                                    board, strict=True)}


@st.composite
def boards(draw: st.DrawFn, sizes: tuple[int, ...] = (3, 4, 5, 6, 10)) -> Board:
    n = draw(st.sampled_from(sizes))
    animals = draw(st.permutations(range(10)))[:n]
    return tuple(tuple(draw(st.permutations(animals))) for _ in range(3))


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_fewest_slides_match_breadth_first_search(board: Board, data: st.DataObject) -> None:
    targets = data.draw(st.sets(st.sampled_from(board[0]), min_size=1, max_size=2))
    plan = solve(names(board), [ANIMALS[a] for a in targets])
    assert len(plan.slides) == brute_fewest(board, targets)
    assert targets & {animal(a) for a in plan.complete}


@settings(max_examples=40, deadline=None)
@given(boards(sizes=(4, 5, 6, 10)), st.data())
def test_the_best_turn_matches_exhaustive_search(board: Board, data: st.DataObject) -> None:
    landing = [0] * 10
    for a in data.draw(st.lists(st.sampled_from(board[0]), max_size=10)):
        landing[a] += 1
    stars = data.draw(st.integers(0, 3))
    plan = solve(names(board), landing=[ANIMALS[a] for a in range(10) for _ in range(landing[a])],
                 slides=3, stars=stars)
    want = brute_best(board, landing, 3, stars)
    assert (plan.cards, -plan.stars, -len(plan.slides)) == want
    # and the plan's slides really win that many cards
    rows = [list(r) for r in board]
    for text in plan.slides:
        _, row, direction = text.split()
        slide(rows, ("heads", "bodies", "legs").index(row), ("left", "right").index(direction))
    assert sum(landing[a] for a in complete(rows)) == plan.cards
    assert [ANIMALS[a] for a in complete(rows)] == list(plan.complete)


def test_stars_are_spent_only_when_they_win_more() -> None:
    # every animal needs the bodies pushed two places right and the legs two left: four slides
    heads = list(ANIMALS)
    board = {"heads": heads, "bodies": heads[2:] + heads[:2], "legs": heads[-2:] + heads[:-2]}
    assert solve(board, "frog").slides == ("slide bodies right",) * 2 + ("slide legs left",) * 2
    assert solve(board, landing=["frog", "dog"], stars=0).cards == 0
    plan = solve(board, landing=["frog", "dog"], stars=2)
    assert (plan.cards, plan.stars, len(plan.slides)) == (2, 1, 4)
    # frog one slide away, the dog four: the star buys nothing more, so it is kept
    board["legs"] = heads[1:] + heads[:1]
    board["bodies"] = heads
    plan = solve(board, landing=["frog"], stars=3)
    assert (plan.cards, plan.stars, plan.slides) == (1, 0, ("slide legs right",))


def test_a_target_must_be_on_the_board() -> None:
    board = {"heads": ["frog", "dog"], "bodies": ["dog", "frog"], "legs": ["dog", "frog"]}
    with pytest.raises(ValueError, match="targets must be animals on the board"):
        solve(board, "zebra")
    with pytest.raises(ValueError, match="no animal 'cow'"):
        solve(board, "cow")
