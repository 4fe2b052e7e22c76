"""The board: three rows (heads, bodies, legs) of animal tiles, one column per animal in play.

A slide is a cyclic shift of one row: pushing it left moves every tile one place left and the
leftmost tile re-enters at the right end. An animal is complete when its three tiles stand in
one column. The set-up rules are in docs/games/mucca_pazza.md (Set-up).

>>> rows = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
>>> slide(rows, 1, 1); rows[1]
[0, 1, 2]
>>> complete(rows)
()
>>> slide(rows, 2, 0); rows, complete(rows)
([[0, 1, 2], [0, 1, 2], [0, 1, 2]], (0, 1, 2))
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Rows = list[list[int]]

LEFT, RIGHT = 0, 1


def slide(rows: Rows, row: int, direction: int) -> None:
    """Push `row` one place `direction` (LEFT or RIGHT); the tile falling off re-enters."""
    tiles = rows[row]
    if direction == LEFT:
        tiles.append(tiles.pop(0))
    else:
        tiles.insert(0, tiles.pop())


def complete(rows: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The animals whose head, body and legs stand in one column, in column order."""
    heads, bodies, legs = rows
    return tuple(a for a, b, c in zip(heads, bodies, legs, strict=True) if a == b == c)


def is_complete(rows: Sequence[Sequence[int]], animal: int) -> bool:
    """Is `animal` complete on the board?"""
    column = rows[0].index(animal)
    return rows[1][column] == animal and rows[2][column] == animal


def deal(animals: Sequence[int], rng: random.Random, *, legs_may_match_head: bool) -> Rows:
    """A crossed set-up, each board that meets the rule equally likely.

    No body fits the head above it or the legs below it; the legs may match the head of their
    column only if `legs_may_match_head` (standard; junior wants three different animals in
    every column). Either way nothing starts complete. The heads are a uniform shuffle; the
    bodies and legs are shuffled together until both conditions hold, which is uniform over the
    boards that meet them (drawing the bodies first and then legs to suit them is not: a
    body row that leaves the legs fewer ways out would be drawn as often as one that leaves
    more).
    """
    heads = list(animals)
    rng.shuffle(heads)
    bodies, legs = list(animals), list(animals)
    while True:
        rng.shuffle(bodies)
        rng.shuffle(legs)
        if all(b != h and leg != b and (legs_may_match_head or leg != h)
               for h, b, leg in zip(heads, bodies, legs, strict=True)):
            return [heads, bodies, legs]


def deal_first(animals: Sequence[int], rng: random.Random) -> Rows:
    """Rules 1's set-up, for both variants: heads in random order, then bodies, then legs to
    suit them, so that every column holds three different animals."""
    heads = list(animals)
    rng.shuffle(heads)
    bodies = list(animals)
    while True:
        rng.shuffle(bodies)
        if all(b != h for b, h in zip(bodies, heads, strict=True)):
            break
    legs = list(animals)
    while True:
        rng.shuffle(legs)
        if all(leg != h and leg != b for leg, b, h in zip(legs, bodies, heads, strict=True)):
            return [heads, bodies, legs]
