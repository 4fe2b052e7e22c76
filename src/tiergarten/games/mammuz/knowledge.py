"""What each seat knows of other hands and of the jackpot, as counts per kind.

Observer o (a seat, or n = a spectator, who knows only what is public) is sure holder h (a seat,
or n = the jackpot) has `settled(known)[o][h * KINDS + k]` cards of kind k. A seat learns where
its own laid cards went when a herd is taken or goes to the jackpot, where every turned-up card
went, and that the dinosaurs of a removed herd, shown to all, went to the doubter; when a holder
lays n cards face down, observers forget n of each kind they knew there (they cannot tell which
cards were laid). A seat's own row for its own hand stays 0.

Forgetting happens on every lay, so it costs one addition: the table's last row counts the cards
each holder has laid face down (`laid`), and a stored count c of holder h stands for
max(0, c - laid[h]). Learning first settles the counts it adds to.

>>> known = table(3)
>>> learn_herd(known, 1, [(0, (4, 4)), (1, (2,))], layer=1, card=2, skip=1)
>>> row = settled(known)[0]
>>> row[1 * KINDS + 4], row[1 * KINDS + 2], settled(known)[2][1 * KINDS + 4]
(2, 1, 0)
>>> forget(known, 1, 1)
>>> row = settled(known)[0]
>>> row[1 * KINDS + 4], row[1 * KINDS + 2]
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import KINDS

Lays = Sequence[tuple[int, tuple[int, ...]]]


def table(players: int) -> list[list[int]]:
    """A table for `players` seats and a spectator, knowing nothing yet: a row per observer,
    then the `laid` row (one count per holder)."""
    return [row.copy() for row in _EMPTY.get(players) or _empty(players)]  # quicker copied


def _empty(players: int) -> list[list[int]]:
    return [[0] * ((players + 1) * KINDS) for _ in range(players + 1)] + [[0] * (players + 1)]


_EMPTY = {players: _empty(players) for players in range(3, 8)}  # never changed: only copied


def row(known: list[list[int]], observer: int) -> list[int]:
    """What `observer` is sure of, holder by holder: the counts its row stands for (a copy)."""
    counts, out = known[observer], []
    for h, laid in enumerate(known[-1]):
        part = counts[h * KINDS:(h + 1) * KINDS]
        out += [c - laid if c > laid else 0 for c in part] if laid else part
    return out


def settled(known: list[list[int]]) -> list[list[int]]:
    """Every observer's `row`."""
    return [row(known, o) for o in range(len(known) - 1)]


def forget(known: list[list[int]], seat: int, count: int) -> None:
    """`seat` laid `count` cards face down: every other observer forgets as many of each kind.
    (MammuZState._lay does this inline: every lay forgets.)"""
    known[-1][seat] += count


def _add(row: list[int], at: int, floor: int, count: int) -> None:
    """Add `count` to the count stored at `at`, settled against `floor` (its holder's laid)."""
    c = row[at]
    row[at] = (c if c > floor else floor) + count


def learn_herd(known: list[list[int]], holder: int, lays: Lays, layer: int, card: int,
               skip: int) -> None:
    """The herd went to `holder`: every observer but `skip` learns its own laid cards and the
    turned card (laid by `layer`) are there. (The C kernel's `learn_herd` is its twin: state.py
    calls the one kernel.py chose.)"""
    base, floor = holder * KINDS, known[-1][holder]
    for seat, cards in lays:  # each layer's own cards, into its row (in lay order)
        if seat != skip:
            counts = known[seat]
            for k in cards:  # _add, inlined: a herd has up to a few dozen cards
                c = counts[base + k]
                counts[base + k] = (c if c > floor else floor) + 1
    at = base + card
    for o in range(len(known) - 1):  # then the turned card, into every other row
        if o != skip and o != layer:
            counts = known[o]
            c = counts[at]
            counts[at] = (c if c > floor else floor) + 1



def learn_card(known: list[list[int]], holder: int, card: int) -> None:
    """Everyone but `holder` saw a face-up `card` go to `holder` (a turned card dealt out, a
    dinosaur of a removed herd)."""
    floor = known[-1][holder]
    for o in range(len(known) - 1):
        if o != holder:
            _add(known[o], holder * KINDS + card, floor, 1)


def move_jackpot(known: list[list[int]], taker: int) -> None:
    """The jackpot went to `taker`: what each observer knew of it is now in `taker`'s hand.
    (The jackpot never lays: its counts are always settled.)"""
    jbase = (len(known) - 2) * KINDS
    base, floor = taker * KINDS, known[-1][taker]
    for o in range(len(known) - 1):
        counts = known[o]
        if o != taker:
            for k in range(KINDS):
                _add(counts, base + k, floor, counts[jbase + k])
        counts[jbase:jbase + KINDS] = [0] * KINDS


def forget_species(known: list[list[int]], species: int) -> None:
    """Every card of `species` left the game (an extinction)."""
    zeros = [0] * (len(known) - 1)  # one per holder
    for counts in known[:-1]:
        counts[species::KINDS] = zeros
