"""Mucca Pazza's static facts as data: the animals, the rows, the directions, the table sizes.

An animal is a small integer (its index in `ANIMALS`); the names are display data.

>>> ANIMALS[0], ANIMALS[9], animal("Zebra"), len(ANIMALS)
('frog', 'horse', 7, 10)
"""

from __future__ import annotations

ANIMALS = ("frog", "dragon", "monkey", "cockatoo", "pig", "turtle", "dog", "zebra", "cat", "horse")
ROWS = ("heads", "bodies", "legs")
DIRECTIONS = ("left", "right")
GHOST = len(ANIMALS)  # the junior ghost card, as a card value
GHOST_NAME = "ghost"
CARD_NAMES = (*ANIMALS, GHOST_NAME)

CARDS_PER_ANIMAL = 3
FREE_SLIDES = 3  # slides every turn allows before stars are spent
STARS_EACH = 3  # standard: wooden stars per player
LANDING_SIZE = 10  # standard: cards on display
JUNIOR_ANIMALS = 5  # junior: animals (columns) in play
GRID_COLUMNS = 4  # junior: the face-down grid is laid out 4 wide (16 cards)

_BY_NAME = {n: i for i, n in enumerate(CARD_NAMES)}


def animal(name: str) -> int:
    """The animal (or `GHOST`) called `name`; raises ValueError naming the known ones."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _BY_NAME:
        raise ValueError(f"no animal {name!r}; animals are {', '.join(ANIMALS)}")
    return _BY_NAME[key]
