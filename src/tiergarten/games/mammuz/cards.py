"""MammuZ's cards and set-up as data: fourteen kinds, their counts, the table by player count.

Kinds are small integers: the eight species (0–7) in order of how many cards they have, then
the six dinosaurs (8–13), one card each.

>>> NAMES[MAMMOTH], COUNTS[MAMMOTH], NAMES[MOUSE], COUNTS[MOUSE], NAMES[13]
('mammoth', 2, 'mouse', 9, 'tyrannosaurus')
>>> SETUP[4]
Setup(removed=(7,), dinosaurs=5, cards=40, hand=10)
>>> sum(COUNTS[:8]), len(DINOSAURS), KINDS == len(NAMES)
(44, 6, True)
"""

from __future__ import annotations

from typing import NamedTuple

SPECIES_NAMES = ("mammoth", "bear", "deer", "tiger", "hare", "squirrel", "marmot", "mouse")
DINOSAUR_NAMES = ("stegosaurus", "triceratops", "pterosaurus", "brontosaurus", "plesiosaurus",
                  "tyrannosaurus")
NAMES = SPECIES_NAMES + DINOSAUR_NAMES
KINDS = len(NAMES)
MAMMOTH, BEAR, DEER, TIGER, HARE, SQUIRREL, MARMOT, MOUSE = range(8)
SPECIES = tuple(range(8))
DINOSAURS = tuple(range(8, KINDS))
COUNTS = (2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1, 1, 1, 1)  # cards of each kind in the box
BY_NAME = {name: kind for kind, name in enumerate(NAMES)}


class Setup(NamedTuple):
    """One row of the seed's set-up table."""

    removed: tuple[int, ...]  # species taken out of the box before the deal
    dinosaurs: int  # dinosaurs shuffled in, drawn at random and unseen
    cards: int  # cards in play, all of them dealt
    hand: int  # cards per player


SETUP = {
    3: Setup((MARMOT, MOUSE), 3, 30, 10),
    4: Setup((MOUSE,), 5, 40, 10),
    5: Setup((MOUSE,), 5, 40, 8),
    6: Setup((), 4, 48, 8),
    7: Setup((), 5, 49, 7),
}

# Dinosaur powers: what happens to the herd when a doubt turns up a dinosaur.
DOUBTER_TAKES, DOUBTED_TAKES, DOUBTER_CHOOSES, DEAL_OUT, REMOVE, JACKPOT = range(6)
POWER_NAMES = ("doubter_takes", "doubted_takes", "doubter_chooses", "deal_out", "remove",
               "jackpot")
DEFAULT_POWERS = {
    "stegosaurus": "doubter_takes",
    "triceratops": "doubted_takes",
    "pterosaurus": "doubter_chooses",
    "brontosaurus": "deal_out",
    "plesiosaurus": "remove",
    "tyrannosaurus": "jackpot",
}


def kind(text: str) -> int:
    """The kind written as `text` ('mouse', 'Tyrannosaurus'); raises ValueError if none."""
    try:
        return BY_NAME[text.strip().lower()]
    except KeyError:
        raise ValueError(f"no card {text!r}: the kinds are {', '.join(NAMES)}") from None


def in_play(players: int) -> tuple[int, ...]:
    """The species in play at this player count."""
    removed = SETUP[players].removed
    return tuple(s for s in SPECIES if s not in removed)


def power_indices(powers: dict[str, str]) -> tuple[int, ...]:
    """Each dinosaur's power (an index in POWER_NAMES), in DINOSAURS order, from the option."""
    return tuple(POWER_NAMES.index(powers[name]) for name in DINOSAUR_NAMES)


def check_powers(value: object) -> dict[str, str]:
    """Read option `dinosaur_powers`: a mapping of dinosaur name to power name (left-out
    dinosaurs keep their default). Text `"pterosaurus=remove, ..."` is read too.

    >>> check_powers({"Pterosaurus": "remove"})["pterosaurus"]
    'remove'
    >>> check_powers("stegosaurus=jackpot")["stegosaurus"]
    'jackpot'
    >>> check_powers({"raptor": "remove"})
    Traceback (most recent call last):
    ...
    ValueError: no dinosaur 'raptor'; dinosaurs are stegosaurus, triceratops, ...
    """
    if isinstance(value, str):
        pairs = [p.partition("=") for p in value.replace(";", ",").split(",") if p.strip()]
        if any(not sep for _, sep, _ in pairs):
            raise ValueError("write a mapping, e.g. pterosaurus=remove,stegosaurus=jackpot")
        value = {name.strip(): power.strip() for name, _, power in pairs}
    if not isinstance(value, dict):
        raise ValueError(f"takes a mapping of dinosaur to power, not {value!r}")
    out = dict(DEFAULT_POWERS)
    for name, power in value.items():
        key = str(name).strip().lower()
        if key not in out:
            raise ValueError(f"no dinosaur {name!r}; dinosaurs are {', '.join(DINOSAUR_NAMES)}")
        low = str(power).strip().lower()
        if low not in POWER_NAMES:
            raise ValueError(f"no power {power!r} for {key}; powers are {', '.join(POWER_NAMES)}")
        out[key] = low
    return out
