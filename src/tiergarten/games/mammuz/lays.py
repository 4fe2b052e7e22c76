"""Which lays a hand can make: every multiset of 1–4 of its cards.

The lay table (actions.py) runs in blocks, one per set of dinosaurs in the lay; inside a block
the animal part runs in ANIMAL_PARTS order, at the same offset in every block. So a hand's lays
are, for each set of dinosaurs it holds (in block order), the animal parts its animals can make
with the room left. Those depend only on the animals held, capped at four of a kind: a bit set
over ANIMAL_PARTS (`animal_mask`, two table lookups) says which, at the same offsets in every
block of every species' row. Picking the lays out of the rows (`gather`) is what random play
and search spend most of their time on: `_gather.c` does it when built (tools/compile.py),
`gather_py` otherwise.

>>> [str(a) for a in lays_as([1, 1] + [0] * 12, 0)]
['lay mammoth as mammoth', 'lay bear as mammoth', 'lay mammoth bear as mammoth']
>>> [str(a) for a in opening_lays([0] * 8 + [1] + [0] * 5, (2, 7))]
['lay stegosaurus as deer', 'lay stegosaurus as mouse']
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import chain, compress, islice, product
from operator import getitem
from typing import Final

from .actions import (
    ANIMAL_PARTS,
    ANIMALS_UP_TO,
    BLOCK_STARTS,
    DINOSAUR_PARTS,
    LAY_BY,
    MAX_LAY,
    MULTISETS,
    MammuZAction,
)
from .cards import DINOSAURS, SPECIES

Lays = tuple[MammuZAction, ...]
Plan = tuple[tuple[int, int, int], ...]  # (block, first offset, end offset) per usable block
_OFFSETS: dict[bytes, tuple[int, ...]] = {}  # animal mask -> its offsets (for gather_py)
_CACHE_LIMIT = 16_384  # about 1 kB each; random 4-player play meets ~6,000 in 1,500 games
_CAP: Final = bytes(min(v, MAX_LAY) for v in range(256))  # `bytes.translate` table: more than four
# of a kind adds no lay (and no kind has more than nine cards)


def _block_rows() -> tuple[tuple[Lays, ...], ...]:
    """_BLOCK_ROWS[species][block]: that block of the species' row of lays, so that the lay
    with animal part ANIMAL_PARTS[i] is item i in every block. Block 0 (no dinosaur) has no
    empty lay: a stand-in fills its item 0, which is never picked."""
    ends = (*BLOCK_STARTS[1:], len(MULTISETS))
    out = []
    for s in SPECIES:
        row = LAY_BY[s]
        blocks = [row[start:end] for start, end in zip(BLOCK_STARTS, ends, strict=True)]
        blocks[0] = row[:1] + blocks[0]
        out.append(tuple(blocks))
    return tuple(out)


def _plans() -> tuple[Plan, ...]:
    """Dinosaurs held (bit i: the i-th dinosaur) -> the blocks the hand may use, in table
    order, each with the range of ANIMAL_PARTS offsets that fit the room left for animals
    (block 0, no dinosaur: all but the empty part)."""
    return tuple(tuple((block, 1 if block == 0 else 0, ANIMALS_UP_TO[MAX_LAY - len(dinos)])
                       for block, dinos in enumerate(DINOSAUR_PARTS)
                       if all(held >> (d - DINOSAURS[0]) & 1 for d in dinos))
                 for held in range(1 << len(DINOSAURS)))


_BYTES: Final = (len(ANIMAL_PARTS) + 7) // 8


def _half_masks(kinds: range) -> tuple[bytes, ...]:
    """Capped counts of four species (by `_index`) -> the bit set (bit i for ANIMAL_PARTS[i],
    little-endian bytes) of the parts those counts can supply; the two halves of a hand's
    animals AND to its bit set."""
    fits = [[sum(1 << i for i, part in enumerate(ANIMAL_PARTS) if part.count(k) <= c)
             for c in range(MAX_LAY + 1)] for k in kinds]
    out = []
    for counts in product(range(MAX_LAY + 1), repeat=len(kinds)):  # in `_index` order
        bits = -1
        for row, count in zip(fits, counts, strict=True):
            bits &= row[count]
        out.append(bits.to_bytes(_BYTES, "little"))
    return tuple(out)


# Final: compiled, these are constants, not namespace lookups
_BLOCK_ROWS: Final = _block_rows()
_PLANS: Final = _plans()
_LOW: Final = _half_masks(range(4))  # mammoth … tiger
_HIGH: Final = _half_masks(range(4, 8))  # hare … mouse
_SPREAD: Final = tuple(tuple(tuple(8 * j + b for b in range(8) if v >> b & 1) for v in range(256))
                       for j in range(_BYTES))  # _SPREAD[j][v]: the parts set in value v of byte j


def _index(counts: bytes) -> int:
    """Where four capped counts are in `_LOW`/`_HIGH` (base 5, first count most significant)."""
    return ((counts[0] * 5 + counts[1]) * 5 + counts[2]) * 5 + counts[3]


def _held(key: bytes) -> int:
    """Where a capped hand's dinosaurs are in `_PLANS`."""
    return sum(1 << i for i in range(len(DINOSAURS)) if key[8 + i])


def _mask(key: bytes, low: tuple[bytes, ...], high: tuple[bytes, ...]) -> bytes:
    """The animal mask of the capped counts `key` (at least the eight animals): the AND of
    its two halves' bit sets."""
    a, b = low[_index(key[:4])], high[_index(key[4:8])]
    return (int.from_bytes(a, "little") & int.from_bytes(b, "little")).to_bytes(len(a), "little")


def animal_mask(animals: bytes) -> bytes:
    """The ANIMAL_PARTS that `animals` (counts of the eight species, capped at four) can
    supply, as a little-endian bit set (bit i for part i)."""
    return _mask(animals, _LOW, _HIGH)


def offsets(mask: bytes) -> tuple[int, ...]:
    """The offsets set in `mask`, ascending. Cached.

    >>> [ANIMAL_PARTS[i] for i in offsets(animal_mask(bytes([2, 1, 0, 0, 0, 0, 0, 0])))]
    [(), (0,), (1,), (0, 0), (0, 1), (0, 0, 1)]
    """
    found = _OFFSETS.get(mask)
    if found is None:
        found = tuple(chain.from_iterable(map(getitem, compress(_SPREAD, mask),
                                              filter(None, mask))))
        if len(_OFFSETS) >= _CACHE_LIMIT:  # full: forget the oldest quarter
            for old in list(islice(_OFFSETS, _CACHE_LIMIT // 4)):
                del _OFFSETS[old]
        _OFFSETS[mask] = found
    return found


def gather_py(rows: tuple[tuple[Lays, ...], ...], species: tuple[int, ...], key: bytes,
              plans: tuple[Plan, ...], low: tuple[bytes, ...], high: tuple[bytes, ...],
              tail: Lays) -> Lays:
    """The lays of the capped hand `key`: for each of `species`, for each (block, start, end)
    of its plan (`plans[_held(key)]`), the lays rows[species][block][i] for each offset i from
    start to before end in its animal mask (`low[_index(key[:4])]` AND
    `high[_index(key[4:8])]`); then `tail`. (`_gather.gather` does the same in C when built:
    this is most of what random play and search spend.)"""
    found = offsets(_mask(key, low, high))
    picks = [(block, found[bisect_left(found, start):bisect_left(found, end)])
             for block, start, end in plans[_held(key)]]
    out: list[MammuZAction] = []
    for s in species:
        blocks = rows[s]
        for block, picked in picks:
            row = blocks[block]
            out += [row[i] for i in picked]
    out += tail
    return tuple(out)


Gather = Callable[[tuple[tuple[Lays, ...], ...], tuple[int, ...], bytes, tuple[Plan, ...],
                   tuple[bytes, ...], tuple[bytes, ...], Lays], Lays]


def _fastest_gather() -> Gather:
    try:
        from ._gather import gather
    except ImportError:  # not built, or tiergarten.core.native chose the sources
        return gather_py
    return gather


gather: Final = _fastest_gather()


def lays_as(hand: list[int], species: int, tail: Lays = ()) -> Lays:
    """The lays `hand` (counts of the fourteen kinds) can make declared as (or added to a herd
    of) `species`, in table order, then `tail`."""
    key = bytes(hand).translate(_CAP)
    return gather(_BLOCK_ROWS, (species,), key, _PLANS, _LOW, _HIGH, tail)


def opening_lays(hand: list[int], declarable: tuple[int, ...], tail: Lays = ()) -> Lays:
    """The lays that open a herd: `hand`'s lays as each of `declarable`, species by species,
    then `tail`."""
    key = bytes(hand).translate(_CAP)
    return gather(_BLOCK_ROWS, declarable, key, _PLANS, _LOW, _HIGH, tail)


__all__ = ["animal_mask", "lays_as", "offsets", "opening_lays"]
