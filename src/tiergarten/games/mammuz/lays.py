"""Which lays a hand can make: every multiset of 1–4 of its cards.

A hand's lays are the same for every declared species, so they are found once per hand (and
cached) as a function that picks them out of any species' row of the action table.

>>> from .actions import LAY_BY
>>> [str(a) for a in layable([1, 1] + [0] * 12)(LAY_BY[0])]
['lay mammoth as mammoth', 'lay bear as mammoth', 'lay mammoth bear as mammoth']
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import chain, compress
from operator import getitem, itemgetter
from typing import cast

from .actions import (
    ANIMAL_PARTS,
    ANIMALS_UP_TO,
    BLOCK_STARTS,
    DINOSAUR_PARTS,
    MAX_LAY,
    MammuZAction,
)
from .cards import COUNTS, DINOSAURS

_Getter = Callable[[tuple[MammuZAction, ...]], tuple[MammuZAction, ...]]
_LAYABLE: dict[tuple[int, ...], _Getter] = {}  # hand -> picks its lays out of a species' table
_ANIMALS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}  # animal part of a hand ->
# for each size limit 0–4, the ANIMAL_PARTS offsets (ascending) of the animal lays it can make
_CACHE_LIMIT = 8_192
_CAPS = tuple(min(MAX_LAY, c) for c in COUNTS)  # more of a kind adds no lay
_NONE: _Getter = lambda table: ()  # noqa: E731


def _plans() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each set of dinosaurs held (a bit mask over the six), the blocks of the lay table a
    hand may use: (offset of the block, room left for animals, animal parts to skip)."""
    out = []
    for held in range(1 << len(DINOSAURS)):
        plan = []
        for block, dinos in enumerate(DINOSAUR_PARTS):
            if all(held >> (d - DINOSAURS[0]) & 1 for d in dinos):
                empty = 0 if dinos else 1  # a lay of no card is no lay
                plan.append((BLOCK_STARTS[block] - empty, MAX_LAY - len(dinos), empty))
        out.append(tuple(plan))
    return tuple(out)


_PLANS = _plans()


def _animal_masks() -> tuple[tuple[int, ...], ...]:
    """FITS[k][c]: bit set (bit i for ANIMAL_PARTS[i]) of the parts with at most c of k."""
    out = []
    for k in range(len(_CAPS) - len(DINOSAURS)):
        row = []
        for c in range(MAX_LAY + 1):
            bits = 0
            for i, part in enumerate(ANIMAL_PARTS):
                if part.count(k) <= c:
                    bits |= 1 << i
            row.append(bits)
        out.append(tuple(row))
    return tuple(out)


_FITS = _animal_masks()
_BYTES = (len(ANIMAL_PARTS) + 7) // 8
_SPREAD = tuple(tuple(tuple(8 * j + b for b in range(8) if v >> b & 1) for v in range(256))
                for j in range(_BYTES))  # _SPREAD[j][v]: the parts set in value v of byte j


def _animal_parts(key: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The animal lays `key` (capped counts of the eight species) can make, by size limit."""
    found = _ANIMALS.get(key)
    if found is None:
        bits = -1
        for fits, count in zip(_FITS, key, strict=True):
            bits &= fits[count]
        data = bits.to_bytes(_BYTES, "little", signed=True)
        offsets = tuple(chain.from_iterable(
            map(getitem, compress(_SPREAD, data), filter(None, data))))
        found = tuple(offsets[:bisect_left(offsets, up_to)] for up_to in ANIMALS_UP_TO)
        if len(_ANIMALS) >= _CACHE_LIMIT:
            _ANIMALS.clear()
        _ANIMALS[key] = found
    return found


def sub_multisets(hand: list[int]) -> tuple[int, ...]:
    """Indices (ascending) of every multiset of 1–4 cards that `hand` (counts) can lay.

    >>> from .actions import MULTISETS
    >>> [MULTISETS[i] for i in sub_multisets([2] + [0] * 13)]
    [(0,), (0, 0)]
    >>> [MULTISETS[i] for i in sub_multisets([1] + [0] * 7 + [1] + [0] * 5)]
    [(0,), (8,), (0, 8)]
    """
    animals = _animal_parts(tuple(map(min, hand[:8], _CAPS)))
    held = sum(1 << i for i, d in enumerate(DINOSAURS) if hand[d])
    return tuple(chain.from_iterable(
        [map(start.__add__, animals[room][skip:]) for start, room, skip in _PLANS[held]]))


def layable(hand: list[int]) -> _Getter:
    """A function that picks, from a species' lay table, the lays `hand` can make (cached)."""
    key = tuple(map(min, hand, _CAPS))
    getter = _LAYABLE.get(key)
    if getter is None:
        subs = sub_multisets(hand)
        if len(subs) > 1:
            getter = cast(_Getter, itemgetter(*subs))
        elif subs:
            only = subs[0]
            getter = lambda table: (table[only],)  # noqa: E731
        else:
            getter = _NONE
        if len(_LAYABLE) >= _CACHE_LIMIT:
            _LAYABLE.clear()
        _LAYABLE[key] = getter
    return getter
