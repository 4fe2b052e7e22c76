"""Mucca Pazza's actions and notation: one interned value per action id, shared by both variants.

Ids 0–5 slide a row (`slide heads left` … `slide legs right`), id 6 is `stop`, and ids 7–22
reveal a junior grid position (`reveal 1` … `reveal 16`). Standard never offers a reveal.

>>> [str(a) for a in ACTIONS[:3]], str(STOP), str(REVEAL[6])
(['slide heads left', 'slide heads right', 'slide bodies left'], 'stop', 'reveal 7')
>>> len(ACTIONS), slide_action(2, 1).id
(23, 5)
"""

from __future__ import annotations

from tiergarten.core import Action

from .cards import DIRECTIONS, JUNIOR_ANIMALS, ROWS

SLIDE_KIND, STOP_KIND, REVEAL_KIND = 0, 1, 2
GRID_SIZE = JUNIOR_ANIMALS * 3 + 1  # 15 animal cards and the ghost


class MuccaAction(Action):
    """`slide <row> <direction>`, `stop`, or `reveal <position>` (junior, 1-based)."""

    __slots__ = ("kind", "row", "direction", "position")
    kind: int
    row: int  # 0 heads, 1 bodies, 2 legs; -1 unless a slide
    direction: int  # 0 left, 1 right; -1 unless a slide
    position: int  # 0-based grid position; -1 unless a reveal

    def __init__(self, id: int, text: str, kind: int, row: int = -1, direction: int = -1,
                 position: int = -1) -> None:
        super().__init__(id, text)
        for field, value in (("kind", kind), ("row", row), ("direction", direction),
                             ("position", position)):
            object.__setattr__(self, field, value)


def _build() -> tuple[MuccaAction, ...]:
    out: list[MuccaAction] = []
    for r, row in enumerate(ROWS):
        for d, direction in enumerate(DIRECTIONS):
            out.append(MuccaAction(len(out), f"slide {row} {direction}", SLIDE_KIND, r, d))
    out.append(MuccaAction(len(out), "stop", STOP_KIND))
    for p in range(GRID_SIZE):
        out.append(MuccaAction(len(out), f"reveal {p + 1}", REVEAL_KIND, position=p))
    return tuple(out)


ACTIONS = _build()
SLIDES = ACTIONS[:6]
STOP = ACTIONS[6]
REVEAL = ACTIONS[7:]


def slide_action(row: int, direction: int) -> MuccaAction:
    """The action that slides `row` (0 heads, 1 bodies, 2 legs) `direction` (0 left, 1 right)."""
    return SLIDES[row * 2 + direction]


NOTATION_HINT = ("write 'slide <row> <direction>' with row heads, bodies or legs and direction "
                 "left or right (e.g. 'slide heads left'), 'stop' to end sliding, or "
                 f"'reveal <1-{GRID_SIZE}>' to turn up a junior card")

__all__ = ["ACTIONS", "REVEAL", "SLIDES", "STOP", "MuccaAction", "slide_action"]
