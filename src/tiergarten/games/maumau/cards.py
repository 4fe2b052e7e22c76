"""The 32-card French deck as small integers: card = suit * 8 + rank.

>>> name(card("10s")), name(card("Jd")), value(card("Jd")), value(card("9c"))
('10s', 'Jd', 20, 9)
"""

from __future__ import annotations

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("c", "d", "h", "s")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SEVEN, EIGHT, NINE, JACK = 0, 1, 2, 4
DECK = tuple(range(32))
POINTS = (7, 8, 9, 10, 20, 10, 10, 10)  # by rank: 7–10 face value, J 20, Q/K/A 10

NAMES = tuple(RANKS[c % 8] + SUITS[c // 8] for c in DECK)
_BY_NAME = {n.lower(): c for c, n in enumerate(NAMES)}
RANK_OF = tuple(c % 8 for c in DECK)
SUIT_OF = tuple(c // 8 for c in DECK)
VALUE_OF = tuple(POINTS[c % 8] for c in DECK)


def card(text: str) -> int:
    """The card written as `text` ('7h', '10s', 'Jd'); raises ValueError if there is none."""
    try:
        return _BY_NAME[text.strip().lower()]
    except KeyError:
        hint = "write rank 7 8 9 10 J Q K A then suit c d h s"
        raise ValueError(f"no card {text!r}: {hint}") from None


def suit(text: str) -> int:
    """The suit written as `text` ('c', 'd', 'h', 's')."""
    low = text.strip().lower()
    if low not in SUITS:
        raise ValueError(f"no suit {text!r}: write c d h or s")
    return SUITS.index(low)


def name(c: int) -> str:
    return NAMES[c]


def value(c: int) -> int:
    return VALUE_OF[c]


def hand_value(cards: list[int]) -> int:
    return sum(VALUE_OF[c] for c in cards)
