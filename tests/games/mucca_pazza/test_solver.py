"""The solver against brute force: junior's fewest slides against breadth-first search over
slides of the board; the standard best turn against every way of playing the turn on the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergarten.games.mucca_pazza import StandardState, solve
from tiergarten.games.mucca_pazza.board import complete, slide
from tiergarten.games.mucca_pazza.cards import ANIMALS, animal

from .positions import standard

Board = tuple[tuple[int, ...], ...]
Outcome = tuple[int, int, int]  # cards won, -stars spent, -slides made


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
    best = solve(names(board), [ANIMALS[a] for a in targets])
    assert len(best.slides) == brute_fewest(board, targets)
    assert targets & {animal(a) for a in best.complete}


def turn_outcomes(state: StandardState, memo: dict[Any, Outcome]) -> Outcome:
    """The best (cards, -stars spent, -slides) of every way the turn can go on, by trying every
    legal slide and `stop` on clones of the real engine (memoised on what the rest of the turn
    depends on: board, free slides, stars, whether a slide was made)."""
    seat = state.turn
    key = (tuple(map(tuple, state.rows)), state.free_left, state.stars[seat],
           state.slides_made > 0)
    if key not in memo:
        best = None
        for action in state.legal_actions(seat):
            after = state.clone()
            after.apply(seat, action)
            if after.is_over() or after.turn != seat:  # the turn is over: what did it yield?
                won = len(after.won[seat]) - len(state.won[seat])
                outcome = (won, -(state.stars[seat] - after.stars[seat]), -int(action.id < 6))
            else:
                cards, stars, slides = turn_outcomes(after, memo)
                outcome = (cards, stars - (state.stars[seat] - after.stars[seat]), slides - 1)
            best = outcome if best is None else max(best, outcome)
        assert best is not None
        memo[key] = best
    return memo[key]


@st.composite
def turns(draw: st.DrawFn) -> StandardState:
    """A standard turn in progress on a random board: landing, stars, free slides left."""
    board = draw(boards(sizes=(3, 4, 5, 10)))
    landing = draw(st.lists(st.sampled_from(board[0]), max_size=10))
    state = standard(*(" ".join(ANIMALS[a] for a in row) for row in board),
                     " ".join(ANIMALS[a] for a in landing), pile="frog " * 20)
    state.stars = [draw(st.integers(0, 3)), 3]
    if draw(st.booleans()) and not complete(state.rows):  # mid-turn: nothing stands complete
        state.free_left = draw(st.integers(0 if state.stars[0] else 1, 2))
        state.slides_made = 3 - state.free_left
    return state


@settings(max_examples=120, deadline=None)
@given(turns())
def test_the_best_turn_matches_every_way_of_playing_it_on_the_engine(state: StandardState,
                                                                     ) -> None:
    obs = state.observe(0)
    best = solve(obs["board"], landing=obs["landing"], slides=obs["slides_left"],
                 stars=obs["stars"][0], must_slide=not obs["slides_made"])
    assert (best.cards, -best.stars, -len(best.slides)) == turn_outcomes(state, {})
    # and the solution's slides, played on the engine, yield exactly that
    before = state.stars[0]
    for i, move in enumerate(best.slides):
        assert state.turn == 0, f"the turn ended before slide {i + 1} of {best}"
        state.apply(0, move)
    if state.turn == 0 and not state.is_over():  # no completion: the solution stops
        assert not best.complete and best.cards == 0
        if state.legal_actions(0):
            state.apply(0, "stop")
    assert state.cards()[0] == best.cards and before - state.stars[0] == best.stars
    assert [ANIMALS[a] for a in complete(state.rows)] == list(best.complete)


def test_the_best_turn_is_the_first_completion_not_one_beyond_it() -> None:
    # heads right completes the frog, bodies left the pig; both together the dog and the cat
    board = {"heads": ["frog", "dog", "cat", "horse", "pig"],
             "bodies": ["pig", "frog", "horse", "dog", "cat"],
             "legs": ["horse", "frog", "dog", "cat", "pig"]}
    landing = ["frog", "dog", "dog", "dog"]
    best = solve(board, landing=landing, stars=0)
    assert (best.slides, best.complete, best.cards) == (("slide heads right",), ("frog",), 1)
    # a star buys a way round that completes nothing on the way
    best = solve(board, landing=landing, stars=3)
    assert best.slides == ("slide heads left",) * 3 + ("slide legs right",)
    assert (best.complete, best.cards, best.stars) == (("dog", "cat"), 3, 1)


def test_an_animal_complete_at_the_start_is_won_there_and_back() -> None:
    heads = list(ANIMALS)
    board = {"heads": heads, "bodies": heads[:1] + heads[2:] + heads[1:2],
             "legs": heads[:1] + heads[-1:] + heads[1:-1]}
    best = solve(board, landing=["frog", "frog"], slides=3)
    assert best.cards == 2 and len(best.slides) == 2 and best.complete == ("frog",)


def test_stars_are_spent_only_when_they_win_more() -> None:
    # every animal needs the bodies pushed two places right and the legs two left: four slides
    heads = list(ANIMALS)
    board = {"heads": heads, "bodies": heads[2:] + heads[:2], "legs": heads[-2:] + heads[:-2]}
    assert solve(board, "frog").slides == ("slide bodies right",) * 2 + ("slide legs left",) * 2
    assert solve(board, landing=["frog", "dog"], stars=0).cards == 0
    best = solve(board, landing=["frog", "dog"], stars=2)
    assert (best.cards, best.stars, len(best.slides)) == (2, 1, 4)
    # frog one slide away, the dog four: the star buys nothing more, so it is kept
    board["legs"] = heads[1:] + heads[:1]
    board["bodies"] = heads
    best = solve(board, landing=["frog"], stars=3)
    assert (best.cards, best.stars, best.slides) == (1, 0, ("slide legs right",))


def test_a_target_must_be_on_the_board() -> None:
    board = {"heads": ["frog", "dog"], "bodies": ["dog", "frog"], "legs": ["dog", "frog"]}
    with pytest.raises(ValueError, match="targets must be animals on the board"):
        solve(board, "zebra")
    with pytest.raises(ValueError, match="no animal 'cow'"):
        solve(board, "cow")
