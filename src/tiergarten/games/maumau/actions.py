"""Mau Mau's actions and notation: one interned value per action id.

>>> str(PLAY[card("7h")][0]), str(play(card("Jd"), 3, MAUMAU))
('play 7h', 'play Jd s maumau')
>>> len(ACTIONS)
107
"""

from __future__ import annotations

from tiergarten.core import Action

from .cards import DECK, JACK, NAMES, RANK_OF, SUITS, card

PLAY_KIND, DRAW_KIND, PASS_KIND, CATCH_KIND = 0, 1, 2, 3
NONE, MAU, MAUMAU = 0, 1, 2
CALL_WORDS = ("", " mau", " maumau")


class MauMauAction(Action):
    """`play 7h`, `play 7h mau`, `play Jd s`, `play Jd s maumau`, `draw`, `pass`, `catch`."""

    __slots__ = ("kind", "card", "suit", "call")
    kind: int
    card: int  # -1 unless a play
    suit: int  # the suit a Jack names, else -1
    call: int  # NONE, MAU or MAUMAU

    def __init__(self, id: int, text: str, kind: int, card: int = -1, suit: int = -1,
                 call: int = NONE) -> None:
        super().__init__(id, text)
        for field, value in (("kind", kind), ("card", card), ("suit", suit), ("call", call)):
            object.__setattr__(self, field, value)


def _build() -> tuple[MauMauAction, ...]:
    out: list[MauMauAction] = []

    def add(text: str, kind: int, c: int = -1, s: int = -1, call: int = NONE) -> None:
        out.append(MauMauAction(len(out), text, kind, c, s, call))

    for c in DECK:
        if RANK_OF[c] == JACK:
            for s in range(4):
                for call in (NONE, MAU, MAUMAU):
                    add(f"play {NAMES[c]} {SUITS[s]}{CALL_WORDS[call]}", PLAY_KIND, c, s, call)
        else:
            for call in (NONE, MAU):
                add(f"play {NAMES[c]}{CALL_WORDS[call]}", PLAY_KIND, c, -1, call)
    add("draw", DRAW_KIND)
    add("pass", PASS_KIND)
    add("catch", CATCH_KIND)
    return tuple(out)


ACTIONS = _build()
DRAW, PASS, CATCH = ACTIONS[-3], ACTIONS[-2], ACTIONS[-1]
_INDEX = {(a.card, a.suit, a.call): a for a in ACTIONS if a.kind == PLAY_KIND}


def play(c: int, s: int = -1, call: int = NONE) -> MauMauAction:
    """The action that plays card `c` (a Jack naming suit `s`) with `call`."""
    return _INDEX[(c, s if RANK_OF[c] == JACK else -1, call)]


def _variants(c: int, calls: tuple[int, ...]) -> tuple[MauMauAction, ...]:
    suits = range(4) if RANK_OF[c] == JACK else (-1,)
    return tuple(_INDEX[(c, s, call)] for s in suits for call in calls)


# What playing card c may look like, by how many cards the hand holds before the play:
PLAY = tuple(_variants(c, (NONE,)) for c in DECK)  # three or more cards: no call
PLAY_SECOND_LAST = tuple(_variants(c, (NONE, MAU)) for c in DECK)  # two cards: Mau is due
PLAY_LAST = tuple(_variants(c, (NONE, MAUMAU) if RANK_OF[c] == JACK else (NONE,)) for c in DECK)

NOTATION_HINT = ("write play <card> [<suit if a Jack>] [mau|maumau], draw, pass or catch — "
                 "cards are rank 7 8 9 10 J Q K A plus suit c d h s, e.g. 'play 7h mau', "
                 "'play Jd s'")

__all__ = ["ACTIONS", "CATCH", "DRAW", "PASS", "MauMauAction", "card", "play"]
