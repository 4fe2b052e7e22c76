"""MammuZ's shuffles, draw for draw as CPython's `random` draws them, and the moves made of a
shuffle: the hidden order of a lay's cards and the deal.

Records replay only if every shuffle is the one they were played with, so these are CPython's
algorithms (`random.shuffle`, and `_randbelow` for `randrange`) written out with the draws
inlined: a third quicker than the library's loop, and every lay shuffles. Tests check them
against the library, draw for draw. `shuffle`, `move_lay` and `deal` are also the Python twins
of the optional C kernel's (kernel.py chooses which one the game calls; tests compare them).

>>> import random
>>> items, rng = list(range(6)), random.Random(4)
>>> shuffle(rng, items)
>>> theirs = list(range(6))
>>> random.Random(4).shuffle(theirs)
>>> items == theirs
True
"""

from __future__ import annotations

import random

from .cards import KINDS


def shuffle(rng: random.Random, items: list[int]) -> None:
    """`rng.shuffle(items)`, draw for draw (CPython's algorithm, tested against it)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)`, draw for draw (CPython's `_randbelow`, tested against it)."""
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def move_lay(rng: random.Random, cards: tuple[int, ...], hand: list[int], herd: list[int],
             ) -> tuple[int, ...]:
    """`cards` in the order `shuffle` draws for them (where each lies in the lay: unseen by
    the doubter), each moved from `hand` to `herd`."""
    order = list(cards)
    shuffle(rng, order)
    for k in order:
        hand[k] -= 1
        herd[k] += 1
    return tuple(order)


def deal(rng: random.Random, deck: list[int], players: int, size: int) -> list[list[int]]:
    """Shuffle `deck` (kinds), then deal `size` cards to each of `players` hands in turn (count
    vectors)."""
    shuffle(rng, deck)
    hands = []
    for start in range(0, players * size, size):
        hand = [0] * KINDS
        for k in deck[start:start + size]:
            hand[k] += 1
        hands.append(hand)
    return hands


__all__ = ["below", "deal", "move_lay", "shuffle"]
