"""The exact solver: fewest slides to complete an animal (junior), and the best standard turn.

Only each row's cyclic offset matters, so a board has n^3 positions (at most 1000), and an
animal is complete exactly when its three tiles are brought into one column: for an animal and
a heads offset exactly one bodies and one legs offset complete it.

Junior: the turn ends when the target stands complete, whatever else completes on the way, so
the fewest slides are the cheapest of those offset triples, each row slid the short way (no
target can complete earlier on that way: that would be a cheaper triple).

Standard: the turn ends at once when a slide leaves any animal complete, so the best turn is
the best *first* completion within the slides and stars left: a breadth-first search from the
current position that never slides on from a position with a complete animal. It reaches each
end of the turn by its fewest slides, which spend the fewest stars. Tests check both against
brute force over real slides on the engine.

>>> board = {"heads": ["frog", "dragon", "monkey"], "bodies": ["dragon", "monkey", "frog"],
...          "legs": ["monkey", "frog", "dragon"]}
>>> solve(board, "frog").slides
('slide bodies right', 'slide legs left')
>>> solve(board, landing=["frog", "frog", "monkey"], slides=3)
Solution(slides=('slide heads left', 'slide legs right'), complete=('dragon', 'monkey', 'frog'),
     cards=3, stars=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .board import LEFT, RIGHT, complete, slide
from .cards import ANIMALS, DIRECTIONS, FREE_SLIDES, GHOST_NAME, ROWS, animal

Offsets = tuple[int, int, int]  # right-shifts of heads, bodies, legs (mod the row length)


@dataclass(frozen=True)
class Solution:
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


Step = tuple[int, int]  # (row, direction): one slide


@lru_cache(maxsize=16)
def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Per position (heads * n * n + bodies * n + legs offset), the six positions one slide
    away, in action order: heads left, heads right, bodies left, ... legs right."""
    out = []
    for p in range(n ** 3):
        offsets = (p // (n * n), p // n % n, p % n)
        row_out = []
        for row in range(3):
            for step in (-1, 1):  # LEFT shifts the row one place left, RIGHT one right
                o = list(offsets)
                o[row] = (o[row] + step) % n
                row_out.append((o[0] * n + o[1]) * n + o[2])
        out.append(tuple(row_out))
    return tuple(out)


class Positions:
    """Every position of one board's rows (offset triples, numbered), what each completes, and
    the search of a standard turn over them.

    A position is a number `(heads * n + bodies) * n + legs` of right-shifts from the board it
    was built from; the board as it is now is position 0. `done[p]` lists the animals complete
    at `p`. Shifting every row is a symmetry, so a search may start at any position: the board
    `p` is then the board a turn starts from.
    """

    def __init__(self, rows: Sequence[Sequence[int]]) -> None:
        n = self.n = len(rows[0])
        self.done: list[tuple[int, ...]] = [()] * n ** 3
        for a in rows[0]:
            for oh, ob, ol in completing(rows, a):
                p = (oh * n + ob) * n + ol
                self.done[p] = (*self.done[p], a)
        self.next = _neighbours(n)

    def offsets(self, p: int) -> Offsets:
        n = self.n
        return (p // (n * n), p // n % n, p % n)

    def search(self, start: int, budget: int, must_slide: bool,
               ) -> tuple[list[int], list[int], list[int]]:
        """Every end of a turn from `start` within `budget` slides, each by its fewest slides.

        A turn ends where a slide leaves an animal complete (such a position is never slid
        on from), or where the player stops or runs out, anywhere after at least one slide
        (at `start` too if `must_slide` is false). `start` itself is slid on from even if
        animals stand complete there: every slide moves a whole row and so breaks them.
        Returns (ends in order of discovery, depth per position, parent per position), where
        depth is -1 for a position not reached, and parent is `previous * 6 + action`.
        """
        size = self.n ** 3
        depth, parent = [-1] * size, [-1] * size
        ends: list[int] = []
        if not must_slide:
            depth[start] = 0
            ends.append(start)
        frontier, done, nxt = [start], self.done, self.next
        for k in range(1, budget + 1):
            later = []
            for p in frontier:
                for action, q in enumerate(nxt[p]):
                    if depth[q] < 0:
                        depth[q], parent[q] = k, p * 6 + action
                        ends.append(q)
                        if not done[q]:
                            later.append(q)
            frontier = later
        return ends, depth, parent

    @staticmethod
    def steps(p: int, depth: list[int], parent: list[int]) -> list[Step]:
        """The slides of the search that reach `p` (from its start)."""
        out: list[Step] = []
        for _ in range(depth[p]):
            back, action = divmod(parent[p], 6)
            out.append((action // 2, action % 2))
            p = back
        return out[::-1]


def best_turn(rows: Sequence[Sequence[int]], landing: Sequence[int], free: int, stars: int,
              must_slide: bool) -> tuple[int, int, list[Step]]:
    """(cards, stars spent, slides) of the best standard turn from `rows`.

    The turn ends at the first slide that leaves an animal complete, so the best turn is the
    best first completion within `free` slides plus `stars` (a turn that stops or runs out
    without one wins nothing): most cards first, then fewest stars spent, then fewest slides.
    `landing` counts displayed cards per animal; `must_slide` (a new turn) demands a slide.
    """
    board = Positions(rows)
    ends, depth, parent = board.search(0, free + stars, must_slide)
    best, best_key = 0, (-1, 0, 0)  # any end beats this
    for p in ends:
        k = depth[p]
        key = (sum(landing[a] for a in board.done[p]), -max(0, k - free), -k)
        if key > best_key:
            best, best_key = p, key
    if best_key[0] < 0:  # no slide left and none demanded: the turn is over
        return 0, 0, []
    return best_key[0], -best_key[1], board.steps(best, depth, parent)


def _read_rows(board: Mapping[str, Sequence[str]] | Sequence[Sequence[str]]) -> list[list[int]]:
    rows = [board[r] for r in ROWS] if isinstance(board, Mapping) else list(board)
    out = [[animal(name) for name in row] for row in rows]
    if len(out) != 3 or any(sorted(r) != sorted(out[0]) for r in out):
        raise ValueError("a board is three rows (heads, bodies, legs) of the same animals")
    return out


def _solution(rows: list[list[int]], steps: list[Step], cards: int, stars: int) -> Solution:
    rows = [r.copy() for r in rows]
    for row, direction in steps:
        slide(rows, row, direction)
    return Solution(tuple(f"slide {ROWS[r]} {DIRECTIONS[d]}" for r, d in steps),
                tuple(ANIMALS[a] for a in complete(rows)), cards, stars)


def solve(board: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
          target: str | Iterable[str] | None = None, *, landing: Iterable[str] = (),
          slides: int = FREE_SLIDES, stars: int = 0, must_slide: bool = True) -> Solution:
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
        return _solution(rows, moves(offsets, n), 0, 0)
    counts = [0] * len(ANIMALS)
    for name in landing:
        counts[animal(name)] += 1
    gain, spent, steps = best_turn(rows, counts, slides, stars, must_slide)
    return _solution(rows, steps, gain, spent)
