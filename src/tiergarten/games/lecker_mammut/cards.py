"""The 49 cards: 7 animals × 7 background colours, each pair once; a card is animal * 7 + colour.

Every card shows two features: its animal (features 0–6) and its colour (features 7–13). A card
is written colour first, `green-boar`; a feature by its name, `boar` or `green`.

>>> c = card("green-boar")
>>> NAMES[c], FEATURE_NAMES[ANIMAL_OF[c]], FEATURE_NAMES[COLOUR_OF[c]], feature("Green")
('green-boar', 'boar', 'green', 10)
>>> len(DECK), [NAMES[x] for x in WITH_FEATURE[feature("bear")]][:2]
(49, ['red-bear', 'orange-bear'])
"""

from __future__ import annotations

from collections.abc import Iterable

ANIMALS = ("bear", "boar", "tiger", "sloth", "deer", "mammoth", "rhino")
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "pink")
ANIMAL_TITLES = ("cave bear", "wild boar", "sabre-tooth tiger", "giant sloth", "giant deer",
                 "mammoth", "woolly rhino")  # display names; logic never reads them
FEATURE_NAMES = ANIMALS + COLOURS
NUM_FEATURES = len(FEATURE_NAMES)
DECK = tuple(range(len(ANIMALS) * len(COLOURS)))
GOOD_HIT = 3  # visible cards that must show a called feature for a good hit

ANIMAL_OF = tuple(c // 7 for c in DECK)  # the card's animal feature, 0..6
COLOUR_OF = tuple(7 + c % 7 for c in DECK)  # the card's colour feature, 7..13
NAMES = tuple(f"{COLOURS[c % 7]}-{ANIMALS[c // 7]}" for c in DECK)
WITH_FEATURE = tuple(tuple(c for c in DECK if f in (ANIMAL_OF[c], COLOUR_OF[c]))
                     for f in range(NUM_FEATURES))

CARD_BY_NAME = {n: c for c, n in enumerate(NAMES)}
FEATURE_BY_NAME = {n: f for f, n in enumerate(FEATURE_NAMES)}
CARD_HINT = ("a card is colour-animal, e.g. green-boar; colours: " + " ".join(COLOURS)
             + "; animals: " + " ".join(ANIMALS))


def card(text: str) -> int:
    """The card written as `text` (`green-boar`); raises ValueError naming the spelling."""
    c = CARD_BY_NAME.get(text.strip().lower())
    if c is None:
        raise ValueError(f"no card {text!r}: {CARD_HINT}")
    return c


def feature(text: str) -> int:
    """The feature written as `text` (an animal or a colour); raises ValueError otherwise."""
    f = FEATURE_BY_NAME.get(text.strip().lower())
    if f is None:
        raise ValueError(f"no animal or colour {text!r}: animals are {' '.join(ANIMALS)}, "
                         f"colours are {' '.join(COLOURS)}")
    return f


def shows(c: int, f: int) -> bool:
    """Does card `c` show feature `f`?"""
    return ANIMAL_OF[c] == f or COLOUR_OF[c] == f


def shows_three(cards: Iterable[int]) -> bool:
    """Do at least three (GOOD_HIT) of `cards` show one feature (an animal or a colour)?

    >>> shows_three([card("red-boar"), card("red-bear"), card("blue-deer")])
    False
    >>> shows_three([card("red-boar"), card("red-bear"), card("red-deer")])
    True
    """
    counts = [0] * NUM_FEATURES
    for c in cards:
        for f in (ANIMAL_OF[c], COLOUR_OF[c]):
            counts[f] += 1
            if counts[f] >= GOOD_HIT:
                return True
    return False


def other_feature(c: int, f: int) -> int:
    """The feature of `c` that is not `f` (its colour for an animal, its animal for a colour)."""
    return COLOUR_OF[c] if ANIMAL_OF[c] == f else ANIMAL_OF[c]


__all__ = ["ANIMALS", "ANIMAL_OF", "COLOURS", "COLOUR_OF", "DECK", "FEATURE_NAMES", "GOOD_HIT",
           "NAMES", "WITH_FEATURE", "card", "feature", "other_feature", "shows", "shows_three"]
