"""MammuZ's actions and notation: one interned value per action id, built once per process.

The table: every lay (a multiset of 1–4 cards that can exist — at most two mammoths, three
bears, one of each dinosaur — declared as one of the eight species), then `doubt 1`–`doubt 4`,
`extinct <species>`, and last `give 0`… (one per seat, so the table grows with the players).

A lay is written with the cards of the declared species first, then the others in kind order
(mammoth … mouse, then the dinosaurs); `parse_lay` takes the cards in any order.

>>> str(LAY_BY[MOUSE][MULTISET_INDEX[(HARE, MOUSE, MOUSE)]])
'lay mouse mouse hare as mouse'
>>> MULTISETS[:3], MULTISETS[BLOCK_STARTS[1]:BLOCK_STARTS[1] + 2]
(((0,), (1,), (2,)), ((8,), (0, 8)))
>>> len(MULTISETS), len(FIXED)
(2338, 18716)
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from tiergarten.core import Action, NotationError

from .cards import COUNTS, HARE, KINDS, MOUSE, NAMES, SPECIES, SPECIES_NAMES, kind

LAY_KIND = 0
DOUBT_KIND = 1
EXTINCT_KIND = 2
GIVE_KIND = 3
MAX_LAY = 4
MAX_SEATS = 7


class MammuZAction(Action):
    """`lay mouse mouse hare as mouse`, `doubt 2`, `extinct mammoth`, `give 3`."""

    __slots__ = ("kind", "cards", "species", "n", "multiset")
    kind: int
    cards: tuple[int, ...]  # a lay's cards in kind order; else ()
    species: int  # the declared (lay) or extinguished (extinct) species; else -1
    n: int  # doubt: the 1-based card position; give: the seat; else -1
    multiset: int  # a lay's index in MULTISETS; else -1

    def __init__(self, id: int, text: str, kind: int, cards: tuple[int, ...] = (),
                 species: int = -1, n: int = -1, multiset: int = -1) -> None:
        put = object.__setattr__
        put(self, "id", id)
        put(self, "text", text)
        put(self, "kind", kind)
        put(self, "cards", cards)
        put(self, "species", species)
        put(self, "n", n)
        put(self, "multiset", multiset)


def _possible(size: int, kinds: range) -> list[tuple[int, ...]]:
    """Multisets of `size` of `kinds` that the box can supply (in kind order)."""
    return [combo for combo in combinations_with_replacement(kinds, size)
            if all(combo.count(k) <= COUNTS[k] for k in set(combo))]


# Lays are ordered in blocks, one per set of dinosaurs in the lay (none first, then by size and
# kind order); inside a block the animal part runs in ANIMAL_PARTS order (by size, then kind
# order), so the animal part has the same offset in every block that has room for it.
ANIMAL_PARTS = tuple(m for size in range(MAX_LAY + 1) for m in _possible(size, range(8)))
ANIMALS_UP_TO = tuple(sum(1 for m in ANIMAL_PARTS if len(m) <= j) for j in range(MAX_LAY + 1))
DINOSAUR_PARTS = tuple(m for size in range(MAX_LAY + 1) for m in _possible(size, range(8, KINDS)))


def _multisets() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every multiset of 1–4 kinds that the box can supply, and each block's first index."""
    out: list[tuple[int, ...]] = []
    starts = []
    for dinos in DINOSAUR_PARTS:
        starts.append(len(out))
        out += [animals + dinos for animals in ANIMAL_PARTS[:ANIMALS_UP_TO[MAX_LAY - len(dinos)]]
                if animals or dinos]
    return tuple(out), tuple(starts)


def lay_text(cards: tuple[int, ...], species: int) -> str:
    """Notation of a lay: declared-species cards first, then the rest in kind order."""
    ordered = [k for k in cards if k == species] + [k for k in cards if k != species]
    return f"lay {' '.join(NAMES[k] for k in ordered)} as {SPECIES_NAMES[species]}"


MULTISETS, BLOCK_STARTS = _multisets()  # BLOCK_STARTS[i]: first lay with DINOSAUR_PARTS[i]
MULTISET_INDEX = {m: i for i, m in enumerate(MULTISETS)}
NEEDS = tuple(tuple((k, m.count(k)) for k in sorted(set(m))) for m in MULTISETS)  # (kind, count)


def _build() -> tuple[MammuZAction, ...]:
    out: list[MammuZAction] = []
    for s in SPECIES:
        for i, m in enumerate(MULTISETS):
            out.append(MammuZAction(len(out), lay_text(m, s), LAY_KIND, m, s, multiset=i))
    for pos in range(1, MAX_LAY + 1):
        out.append(MammuZAction(len(out), f"doubt {pos}", DOUBT_KIND, n=pos))
    for s in SPECIES:
        out.append(MammuZAction(len(out), f"extinct {SPECIES_NAMES[s]}", EXTINCT_KIND, species=s))
    for seat in range(MAX_SEATS):
        out.append(MammuZAction(len(out), f"give {seat}", GIVE_KIND, n=seat))
    return tuple(out)


ALL = _build()
FIXED = ALL[:-MAX_SEATS]  # the table without the give actions
GIVE = ALL[-MAX_SEATS:]
_LAYS = len(SPECIES) * len(MULTISETS)
LAY_BY = tuple(ALL[s * len(MULTISETS):(s + 1) * len(MULTISETS)] for s in SPECIES)
DOUBT = ALL[_LAYS:_LAYS + MAX_LAY]  # DOUBT[i] turns card i + 1
EXTINCT = ALL[_LAYS + MAX_LAY:_LAYS + MAX_LAY + len(SPECIES)]

NOTATION_HINT = ("write 'lay <1-4 cards> as <species>' (e.g. 'lay mouse mouse hare as mouse'), "
                 "'doubt <1-4>', 'extinct <species>' or 'give <seat>'; kinds are "
                 + " ".join(NAMES))


def parse_lay(text: str) -> MammuZAction:
    """Read `lay <cards> as <species>` with the cards in any order.

    >>> str(parse_lay("lay hare  Mouse mouse as mouse"))
    'lay mouse mouse hare as mouse'
    """
    words = text.lower().split()
    if len(words) < 4 or words[0] != "lay" or words[-2] != "as":
        raise NotationError(text, "a lay is written 'lay <1-4 cards> as <species>'")
    try:
        cards = tuple(sorted(kind(w) for w in words[1:-2]))
        species = kind(words[-1])
    except ValueError as exc:
        raise NotationError(text, str(exc)) from None
    if species not in SPECIES:
        raise NotationError(text, f"{NAMES[species]} cannot be declared: declare one of "
                            + ", ".join(SPECIES_NAMES))
    if not 1 <= len(cards) <= MAX_LAY:
        raise NotationError(text, f"a lay has 1 to {MAX_LAY} cards, not {len(cards)}")
    index = MULTISET_INDEX.get(cards)
    if index is None:
        too_many = next(k for k in set(cards) if cards.count(k) > COUNTS[k])
        raise NotationError(text, f"there are only {COUNTS[too_many]} {NAMES[too_many]} "
                            "card(s) in the game")
    return LAY_BY[species][index]


__all__ = ["ALL", "DOUBT", "EXTINCT", "FIXED", "GIVE", "HARE", "LAY_BY", "MOUSE",
           "MULTISETS", "MammuZAction", "parse_lay"]
