"""The exact solver: fewest slides to complete an animal, and the best standard turn.

Only each row's cyclic offset matters, and an animal is complete exactly when its three tiles
are brought into one column. For an animal and a heads offset there is exactly one bodies
offset and one legs offset that complete it, so the offset triples that complete anything
number at most (animals x columns); each costs the sum of its rows' shortest cyclic distances.
Searching those triples is exhaustive (tests prove it against a brute-force search over slide
sequences).

>>> board = {"heads": ["frog", "dragon", "monkey"], "bodies": ["dragon", "monkey", "frog"],
...          "legs": ["monkey", "frog", "dragon"]}
>>> solve(board, "frog").slides
('slide bodies right', 'slide legs left')
>>> plan = solve(board, landing=["frog", "frog", "monkey"], slides=3)
>>> plan.cards, plan.complete, plan.stars
(3, ('frog', 'dragon', 'monkey'), 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .board import LEFT, RIGHT
from .data import ANIMALS, DIRECTIONS, FREE_SLIDES, GHOST_NAME, ROWS, animal

Offsets = tuple[int, int, int]  # right-shifts of heads, bodies, legs (mod the row length)


@dataclass(frozen=True)
class Plan:
    """A turn's slides (as notation), what stands complete after them, and what they win."""

    slides: tuple[str, ...]
    complete: tuple[str, ...]
    cards: int = 0  # cards gained (best standard turn)
    stars: int = 0  # stars spent on slides beyond the free ones


def distance(offset: int, n: int) -> int:
    """Fewest slides that shift a row of `n` tiles by `offset` places."""
    offset %= n
    return min(offset, n - offset)


def moves(offsets: Offsets, n: int) -> list[tuple[int, int]]:
    """Shortest (row, direction) slides that shift the rows by `offsets`."""
    out: list[tuple[int, int]] = []
    for row, o in enumerate(offsets):
        o %= n
        if o <= n - o:
            out.extend([(row, RIGHT)] * o)
        else:
            out.extend([(row, LEFT)] * (n - o))
    return out


def completing(rows: Sequence[Sequence[int]], animal: int) -> list[Offsets]:
    """Every offset triple that puts `animal` together (one per heads offset)."""
    heads, bodies, legs = rows
    n = len(heads)
    h, b, leg = heads.index(animal), bodies.index(animal), legs.index(animal)
    return [(oh, (h + oh - b) % n, (h + oh - leg) % n) for oh in range(n)]


def cost(offsets: Offsets, n: int) -> int:
    return distance(offsets[0], n) + distance(offsets[1], n) + distance(offsets[2], n)


def fewest(rows: Sequence[Sequence[int]], targets: Iterable[int]) -> tuple[int, Offsets]:
    """The fewest slides that complete any of `targets`, and the offsets they reach."""
    n = len(rows[0])
    best: tuple[int, Offsets] | None = None
    for a in targets:
        for offsets in completing(rows, a):
            c = cost(offsets, n)
            if best is None or c < best[0]:
                best = (c, offsets)
    if best is None:
        raise ValueError("no target animal given")
    return best


def best_turn(rows: Sequence[Sequence[int]], landing: Sequence[int], free: int, stars: int,
              must_slide: bool) -> tuple[int, int, int, Offsets]:
    """(cards, stars spent, slides, offsets) of the best reachable end of a standard turn.

    Most cards first, then fewest stars spent, then fewest slides. `landing` counts displayed
    cards per animal. A turn that must slide and wants to keep the board reaches it in two.
    """
    n = len(rows[0])
    gains: dict[Offsets, int] = {}
    for a in rows[0]:
        if landing[a]:
            for offsets in completing(rows, a):
                gains[offsets] = gains.get(offsets, 0) + landing[a]
    budget = free + stars
    best = (0, 0, 1 if must_slide else 0, (0, 0, 0))
    best_key = (0, 0, -best[2])
    for offsets, gain in gains.items():
        c = cost(offsets, n)
        if c == 0 and must_slide:
            c = 2
        if c > budget:
            continue
        spent = max(0, c - free)
        key = (gain, -spent, -c)
        if key > best_key:
            best_key, best = key, (gain, spent, c, offsets)
    return best


def _read_rows(board: Mapping[str, Sequence[str]] | Sequence[Sequence[str]]) -> list[list[int]]:
    rows = [board[r] for r in ROWS] if isinstance(board, Mapping) else list(board)
    out = [[animal(name) for name in row] for row in rows]
    if len(out) != 3 or any(sorted(r) != sorted(out[0]) for r in out):
        raise ValueError("a board is three rows (heads, bodies, legs) of the same animals")
    return out


def _plan(rows: list[list[int]], steps: list[tuple[int, int]], cards: int, stars: int) -> Plan:
    from .board import complete, slide

    rows = [r.copy() for r in rows]
    for row, direction in steps:
        slide(rows, row, direction)
    return Plan(tuple(f"slide {ROWS[r]} {DIRECTIONS[d]}" for r, d in steps),
                tuple(ANIMALS[a] for a in complete(rows)), cards, stars)


def solve(board: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
          target: str | Iterable[str] | None = None, *, landing: Iterable[str] = (),
          slides: int = FREE_SLIDES, stars: int = 0, must_slide: bool = True) -> Plan:
    """Solve a board given as animal names per row (as in an observation's `board`).

    With a `target` (an animal, or several: any of them will do), the fewest slides that
    complete it, regardless of any budget. Without one, the best standard turn: the most
    displayed `landing` cards won within `slides` free slides plus `stars`, with the fewest
    stars spent, then the fewest slides. `must_slide` (a new turn) demands at least one slide.
    """
    rows = _read_rows(board)
    n = len(rows[0])
    if target is not None:
        names = [target] if isinstance(target, str) else list(target)
        wanted = [animal(t) for t in names]
        if any(a not in rows[0] for a in wanted) or GHOST_NAME in names:
            raise ValueError(f"targets must be animals on the board: {', '.join(names)}")
        c, offsets = fewest(rows, wanted)
        return _plan(rows, moves(offsets, n), 0, 0)
    counts = [0] * len(ANIMALS)
    for name in landing:
        counts[animal(name)] += 1
    gain, spent, c, offsets = best_turn(rows, counts, slides, stars, must_slide)
    steps = moves(offsets, n)
    if len(steps) < c:  # must slide but the best is to keep the board: there and back again
        steps = [(0, LEFT), (0, RIGHT)] if gain else [(0, LEFT)]
    return _plan(rows, steps, gain, spent)
