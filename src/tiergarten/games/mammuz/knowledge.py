"""What each seat knows of other hands and of the jackpot, as counts per kind.

`known[o][h * KINDS + k]` is how many cards of kind k observer o (a seat, or n = a spectator,
who knows only what is public) is sure holder h (a seat, or n = the jackpot) has. A seat learns
where its own laid cards went when a herd is taken or goes to the jackpot, where every turned-up
card went, and that the dinosaurs of a removed herd, shown to all, went to the doubter; when a
holder lays n cards face down, observers forget n of each kind they knew there (they cannot tell
which cards were laid). A seat's own row for its own hand stays 0.

>>> known = table(3)
>>> learn_herd(known, 1, [(0, (4, 4)), (1, (2,))], layer=1, card=2, skip=1)
>>> known[0][1 * KINDS + 4], known[0][1 * KINDS + 2], known[2][1 * KINDS + 4]
(2, 1, 0)
>>> forget(known, 1, 1)
>>> known[0][1 * KINDS + 4], known[0][1 * KINDS + 2]
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import KINDS

Lays = Sequence[tuple[int, tuple[int, ...]]]


def table(players: int) -> list[list[int]]:
    """A table for `players` seats and a spectator, knowing nothing yet."""
    return [[0] * ((players + 1) * KINDS) for _ in range(players + 1)]


def forget(known: list[list[int]], seat: int, count: int) -> None:
    """`seat` laid `count` cards face down: every other observer forgets as many of each kind."""
    base = seat * KINDS
    for row in known:  # the seat's own row knows nothing of its own hand: stays 0
        for i in range(base, base + KINDS):
            v = row[i]
            if v:
                row[i] = v - count if v > count else 0


def learn_herd(known: list[list[int]], holder: int, lays: Lays, layer: int, card: int,
               skip: int) -> None:
    """The herd went to `holder`: every observer but `skip` learns its own laid cards and the
    turned card (laid by `layer`) are there."""
    base = holder * KINDS
    for o, row in enumerate(known):
        if o == skip:
            continue
        for seat, cards in lays:
            if seat == o:
                for k in cards:
                    row[base + k] += 1
        if layer != o:
            row[base + card] += 1


def learn_card(known: list[list[int]], holder: int, card: int) -> None:
    """Everyone but `holder` saw a face-up `card` go to `holder` (a turned card dealt out, a
    dinosaur of a removed herd)."""
    for o, row in enumerate(known):
        if o != holder:
            row[holder * KINDS + card] += 1


def move_jackpot(known: list[list[int]], taker: int) -> None:
    """The jackpot went to `taker`: what each observer knew of it is now in `taker`'s hand."""
    jbase = (len(known) - 1) * KINDS
    base = taker * KINDS
    for o, row in enumerate(known):
        if o != taker:
            for k in range(KINDS):
                row[base + k] += row[jbase + k]
        row[jbase:jbase + KINDS] = [0] * KINDS


def forget_species(known: list[list[int]], species: int) -> None:
    """Every card of `species` left the game (an extinction)."""
    for row in known:
        for i in range(species, len(row), KINDS):
            row[i] = 0
