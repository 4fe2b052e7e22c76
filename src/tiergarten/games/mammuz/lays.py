"""Which lays a hand can make: every multiset of 1–4 of its cards, found with bit sets.

A hand's lays are the same for every declared species, so they are found once per hand (and
cached) as a function that picks them out of any species' row of the action table.

>>> from .actions import LAY_BY
>>> [str(a) for a in layable([1, 1] + [0] * 12)(LAY_BY[0])]
['lay mammoth as mammoth', 'lay bear as mammoth', 'lay mammoth bear as mammoth']
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from operator import getitem, itemgetter
from typing import cast

from .actions import MULTISETS, NEEDS, MammuZAction
from .cards import KINDS

_Getter = Callable[[tuple[MammuZAction, ...]], tuple[MammuZAction, ...]]
_LAYABLE: dict[tuple[int, ...], _Getter] = {}  # hand -> picks its lays out of a species' table
_CACHE_LIMIT = 8_192
_M = len(MULTISETS)
_BYTES = (_M + 7) // 8
_ALL = (1 << _M) - 1
_FOURS = (4,) * KINDS
_NONE: _Getter = lambda table: ()  # noqa: E731


def _masks() -> tuple[tuple[int, ...], ...]:
    """FITS[k][c]: bit set (bit i for multiset i) of every multiset with at most c of kind k."""
    too_many = [[bytearray(_BYTES) for _ in range(5)] for _ in range(KINDS)]
    for i, needs in enumerate(NEEDS):
        for k, count in needs:
            for c in range(count):
                too_many[k][c][i >> 3] |= 1 << (i & 7)
    return tuple(tuple(_ALL & ~int.from_bytes(bad, "little") for bad in row) for row in too_many)


_FITS = _masks()
# _SPREAD[j][v]: the multisets whose bits are set in value v of byte j (little-endian)
_SPREAD = tuple(tuple(tuple(8 * j + b for b in range(8) if v >> b & 1) for v in range(256))
                for j in range(_BYTES))


def sub_multisets(hand: list[int]) -> tuple[int, ...]:
    """Indices (ascending) of every multiset of 1–4 cards that `hand` (counts) can lay.

    >>> [MULTISETS[i] for i in sub_multisets([2] + [0] * 13)]
    [(0,), (0, 0)]
    """
    bits = _ALL
    for k, c in enumerate(hand):
        if c < 4:
            bits &= _FITS[k][c]
    return tuple(chain.from_iterable(map(getitem, _SPREAD, bits.to_bytes(_BYTES, "little"))))


def layable(hand: list[int]) -> _Getter:
    """A function that picks, from a species' lay table, the lays `hand` can make (cached)."""
    key = tuple(map(min, hand, _FOURS))  # a fifth card of a kind adds no lay
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
