"""Which lays a hand can make: every multiset of 1–4 of its cards, in table order.

The lay table (actions.py) runs in blocks, one per set of dinosaurs in the lay; inside a block
the animal part runs in ANIMAL_PARTS order, at the same offset in every block. So a hand's lays
are, for each set of dinosaurs it holds (in block order), the animal parts its animals can make
with the room left. Those depend only on the animals held, capped at four of a kind: a bit set
over ANIMAL_PARTS (`animal_mask`, the AND of two looked-up halves) says which.

A decision offers 75–150 lays on average (thousands for a big hand opening a herd), and random
play or search then takes one of them. So none is built up front: `LegalLays` is the turn's
legal actions as a hand's `LaySet` (cached) times the species, then a tail (doubts,
extinctions); it builds an action only when it is indexed or iterated, and answers `in` (what
the checked `apply` asks) from the lay set. `LegalLays` is the definition; the optional C
kernel's `Lays` is its twin, the same sequence in C from the tables below (`kernel_tables`), and
kernel.py chooses which one the game plays with; tests check that both give the same sequences.

>>> [str(a) for a in lays_as([1, 1] + [0] * 12, 0)]
['lay mammoth as mammoth', 'lay bear as mammoth', 'lay mammoth bear as mammoth']
>>> legal = opening_lays([0] * 8 + [1] + [0] * 5, (2, 7))
>>> len(legal), str(legal[1]), legal == tuple(legal)
(2, 'lay stegosaurus as mouse', True)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import chain, compress, product
from operator import getitem, mul
from typing import Any, overload

from .actions import (
    ALL,
    ANIMAL_PARTS,
    ANIMALS_UP_TO,
    BLOCK_STARTS,
    DINOSAUR_PARTS,
    LAY_BY,
    LAY_KIND,
    MAX_LAY,
    MULTISETS,
    MammuZAction,
)
from .cards import DINOSAURS, SPECIES

Actions = tuple[MammuZAction, ...]
Lays = Sequence[MammuZAction]
_ROW = len(MULTISETS)  # ALL[species * _ROW + m]: multiset m declared as species
_CAP = bytes(min(v, MAX_LAY) for v in range(256))  # `bytes.translate` table: more than four of a
# kind adds no lay (and no kind has more than nine cards)
_HELD = tuple(range(1 << len(DINOSAURS)))  # dinosaurs held: bit i for the i-th dinosaur


def _blocks(held: int) -> list[tuple[int, tuple[int, ...]]]:
    """The blocks a hand holding the dinosaurs `held` may use, in table order."""
    return [(block, dinos) for block, dinos in enumerate(DINOSAUR_PARTS)
            if all(held >> (d - DINOSAURS[0]) & 1 for d in dinos)]


# Per dinosaurs held, its blocks as (first multiset index less the first offset, first offset,
# dinosaurs in the block): the block's lays are the animal parts that fit the room its
# dinosaurs leave. Block 0 (no dinosaur) starts at offset 1: the empty part is not a lay.
Layout = tuple[tuple[int, int, int], ...]
_LAYOUTS: tuple[Layout, ...] = tuple(
    tuple((BLOCK_STARTS[block] - (block == 0), int(block == 0), len(dinos))
          for block, dinos in _blocks(held)) for held in _HELD)
_LAYOUT_OF = {bytes(held >> i & 1 for i in range(len(DINOSAURS))):
              (layout, tuple(sum(1 for *_, j in layout if j == size)
                             for size in range(MAX_LAY + 1)))
              for held, layout in zip(_HELD, _LAYOUTS, strict=True)}  # a capped hand's
# dinosaurs -> its layout, and how many of its blocks hold 0, 1, … 4 dinosaurs
_FIRST = tuple(start - (block == 0) for block, (start, end)
               in enumerate(zip(BLOCK_STARTS, (*BLOCK_STARTS[1:], len(MULTISETS)), strict=True))
               for _ in range(start, end))  # per multiset, its block's `first` in a layout


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


_BYTES = (len(ANIMAL_PARTS) + 7) // 8
_LOW = _half_masks(range(4))  # mammoth … tiger
_HIGH = _half_masks(range(4, 8))  # hare … mouse
_SPREAD = tuple(tuple(tuple(8 * j + b for b in range(8) if v >> b & 1) for v in range(256))
                for j in range(_BYTES))  # _SPREAD[j][v]: the offsets set in value v of byte j


def _index(counts: bytes) -> int:
    """Where four capped counts are in `_LOW`/`_HIGH` (base 5, first count most significant)."""
    return ((counts[0] * 5 + counts[1]) * 5 + counts[2]) * 5 + counts[3]


def animal_mask(animals: bytes) -> int:
    """The ANIMAL_PARTS that `animals` (counts of the eight species, capped at four) can
    supply, as a bit set (bit i for part i)."""
    return (int.from_bytes(_LOW[_index(animals[:4])], "little")
            & int.from_bytes(_HIGH[_index(animals[4:8])], "little"))


def offsets(mask: int) -> list[int]:
    """The offsets set in `mask`, ascending.

    >>> [ANIMAL_PARTS[i] for i in offsets(animal_mask(bytes([2, 1, 0, 0, 0, 0, 0, 0])))]
    [(), (0,), (1,), (0, 0), (0, 1), (0, 0, 1)]
    """
    spread = mask.to_bytes(_BYTES, "little")
    return list(chain.from_iterable(map(getitem, compress(_SPREAD, spread), filter(None, spread))))


# -- the pure-Python path: a lazy sequence ----------------------------------------------------

# A hand's lays for one species, from its capped counts: (found, ends, layout, count). `found`
# are the animal parts its animals can supply (offsets, ascending), the first ends[j] of them
# those with room for j dinosaurs; `layout` is that of the dinosaurs it holds; a block
# (first, start, j) of the layout holds the multisets first + o for o in found[start:ends[j]];
# `count` is how many lays that makes.
LaySet = tuple[tuple[int, ...], tuple[int, ...], Layout, int]
_ANIMALS: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # capped animals -> found, ends
_SETS: dict[bytes, LaySet] = {}  # capped hand -> its LaySet
_CACHE_LIMIT = 16_384  # each; random play meets ~10,000 animal parts and ~30,000 hands in 8 s


def _remember(cache: dict[bytes, Any], key: bytes, value: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:  # full: forget the oldest quarter
        for old in list(cache)[:_CACHE_LIMIT // 4]:
            cache.pop(old, None)  # (a bot's thread may be forgetting them too)
    cache[key] = value


def _find(key: bytes) -> LaySet:
    """The LaySet of the capped hand `key` (from the cached animal parts, when they are)."""
    animals = key[:8]
    parts = _ANIMALS.get(animals)
    if parts is None:
        found = tuple(offsets(animal_mask(animals)))
        parts = found, tuple(bisect_left(found, ANIMALS_UP_TO[MAX_LAY - j])
                             for j in range(MAX_LAY + 1))
        _remember(_ANIMALS, animals, parts)
    found, ends = parts
    layout, weights = _LAYOUT_OF[key[8:]]
    return found, ends, layout, sum(map(mul, weights, ends)) - 1  # block 0 starts at 1


def lay_set(hand: list[int]) -> LaySet:
    """The LaySet of `hand` (counts of the fourteen kinds), cached by the hand capped at four
    of a kind."""
    key = bytes(hand).translate(_CAP)
    found = _SETS.get(key)
    if found is None:
        found = _find(key)
        _remember(_SETS, key, found)
    return found


def multisets(hand: list[int]) -> tuple[int, ...]:
    """The indices in MULTISETS of the lays `hand` can make, ascending."""
    return _indices(lay_set(hand))


def _indices(lays: LaySet) -> tuple[int, ...]:
    found, ends, layout, _ = lays
    return tuple(first + o for first, start, j in layout for o in found[start:ends[j]])


class LegalLays(Sequence[MammuZAction]):
    """The lays of `hand` as each of `species` (species by species), then `tail`: a tuple in
    all but its type (`len`, indexing, slicing, iteration, `in`, `==` and hashing as the tuple
    of the same actions), building actions only when asked. Immutable: a snapshot of one
    position, like the tuple it stands for."""

    __slots__ = ("_species", "_lays", "_tail", "_count", "_len")

    def __init__(self, species: tuple[int, ...], hand: list[int], tail: Actions) -> None:
        self._species = species
        self._lays = lays = lay_set(hand)
        self._tail = tail
        self._count = count = len(species) * lays[3]
        self._len = count + len(tail)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> MammuZAction: ...
    @overload
    def __getitem__(self, index: slice) -> Actions: ...

    def __getitem__(self, index: int | slice) -> MammuZAction | Actions:
        if type(index) is int and 0 <= index < self._count:  # the hot case: one lay
            found, ends, layout, per = self._lays
            q, r = divmod(index, per)
            for first, start, j in layout:
                size = ends[j] - start
                if r < size:
                    return ALL[self._species[q] * _ROW + first + found[start + r]]
                r -= size
        if isinstance(index, slice):
            return tuple(self)[index]
        i = index.__index__()
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal actions index out of range")
        if i >= self._count:
            return self._tail[i - self._count]
        return self[i]

    def __iter__(self) -> Iterator[MammuZAction]:
        sets = _indices(self._lays)
        for species in self._species:
            row = species * _ROW
            for m in sets:
                yield ALL[row + m]
        yield from self._tail

    def __contains__(self, action: object) -> bool:
        """Without building the lays: the checked `apply` asks it of every lay."""
        if type(action) is MammuZAction and action.kind == LAY_KIND and ALL[action.id] is action:
            if action.species not in self._species:
                return False
            m = action.multiset
            first = _FIRST[m]
            found, ends, layout, _ = self._lays
            for f, start, j in layout:
                if f == first:  # the hand holds the lay's dinosaurs
                    at = bisect_left(found, m - first, start, ends[j])
                    return at < ends[j] and found[at] == m - first
            return False
        return action in self._tail

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalLays):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return len(other) == self._len and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: Any) -> Actions:
        if not isinstance(other, tuple | LegalLays):
            return NotImplemented
        return (*self, *other)

    def __radd__(self, other: Any) -> Actions:
        if not isinstance(other, tuple):
            return NotImplemented
        return (*other, *self)

    def __repr__(self) -> str:
        return repr(tuple(self))


# -- the tables of the optional C kernel's twin ----------------------------------------------

def _block_rows() -> tuple[tuple[Actions, ...], ...]:
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


def _where() -> tuple[tuple[int, int], ...]:
    """Per multiset, its block and the offset of its animal part in ANIMAL_PARTS (the kernel's
    `in`: an action's id names its species and multiset)."""
    ends = (*BLOCK_STARTS[1:], len(MULTISETS))
    return tuple((block, m - start + (block == 0))
                 for block, (start, end) in enumerate(zip(BLOCK_STARTS, ends, strict=True))
                 for m in range(start, end))


# the kernel's plans: per dinosaurs held, (block, first offset, end offset) per usable block
_KERNEL_PLANS = tuple(tuple((block, int(block == 0), ANIMALS_UP_TO[MAX_LAY - len(dinos)])
                            for block, dinos in _blocks(held)) for held in _HELD)
_ONE = tuple((s,) for s in SPECIES)


def kernel_tables() -> tuple[Any, ...]:
    """What the C kernel's `setup(rows, all, plans, low, high, where)` reads: the lay table of
    this module, so that the kernel lists the same lays in the same order (kernel.py)."""
    return _block_rows(), ALL, _KERNEL_PLANS, _LOW, _HIGH, _where()


def lays_as(hand: list[int], species: int, tail: Actions = ()) -> Lays:
    """The lays `hand` (counts of the fourteen kinds) can make declared as (or added to a herd
    of) `species`, in table order, then `tail` (the Python definition: see kernel.py for the
    implementation the game plays with)."""
    return LegalLays(_ONE[species], hand, tail)


def opening_lays(hand: list[int], declarable: tuple[int, ...], tail: Actions = ()) -> Lays:
    """The lays that open a herd: `hand`'s lays as each of `declarable`, species by species,
    then `tail` (the Python definition, as `lays_as`)."""
    return LegalLays(declarable, hand, tail)


__all__ = ["LegalLays", "animal_mask", "kernel_tables", "lay_set", "lays_as", "multisets",
           "offsets", "opening_lays"]
