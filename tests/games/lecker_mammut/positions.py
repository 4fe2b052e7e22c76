"""Build a Lecker Mammut! position by hand, for scenario tests: one place that knows the state.

Cards are written in notation (`green-boar`). A face-down pile is written top first: its first
card is the next one flipped. A prize pile is written bottom to top: its last card is the top.
Cards placed nowhere are simply out of play, so a scenario only names the cards it needs.

>>> state = position(middle="red-boar blue-boar", piles=["green-boar", ""],
...                  prizes=[[], ["red-bear pink-deer"]])
>>> obs = state.observe(0)
>>> obs["middle"], obs["prize_piles"], obs["face_down"], obs["flipper"], obs["version"]
(['red-boar', 'blue-boar'], [[], [{'top': 'pink-deer', 'size': 2}]], [1, 0], 0, 0)
"""

from __future__ import annotations

from typing import Any

import tiergarten
from tiergarten.games.lecker_mammut.cards import card
from tiergarten.games.lecker_mammut.state import LeckerMammutState


def cards(text: str) -> list[int]:
    """The cards written in `text`, separated by spaces, in the order given."""
    return [card(word) for word in text.split()]


def position(*, middle: str = "", piles: list[str] | None = None,
             prizes: list[list[str]] | None = None, players: int | None = None,
             flipper: int | None = None, penalties: list[int] | None = None,
             penalty_cards: list[str] | None = None, scores: list[int] | None = None,
             round: int = 1, starter: int = 0, version: int = 0, seed: int = 0,
             **options: Any) -> LeckerMammutState:
    """A state with exactly these cards on the table (and the rest out of play).

    The flipper is the first seat with face-down cards from `starter` on, unless given.
    """
    n = players or len(piles or prizes or [[], [], []])
    game = tiergarten.load("lecker_mammut", players=n, **options)
    state = game.new_state(seed)
    state.round, state.starter = round, starter
    state.middle = cards(middle)
    state.piles = [list(reversed(cards(p))) for p in (piles or [""] * n)]
    state.prizes = [[cards(p) for p in seat] for seat in (prizes or [[] for _ in range(n)])]
    state.penalties = list(penalties or [0] * n)
    state.penalty_cards = [cards(p) for p in (penalty_cards or [""] * n)]
    state.scores = list(scores or [0] * n)
    used = [c for group in (state.middle, *state.piles, *state.penalty_cards,
                            *(p for seat in state.prizes for p in seat)) for c in group]
    if len(used) != len(set(used)):
        raise ValueError("a card is placed twice")
    if len(state.piles) != n or len(state.prizes) != n:
        raise ValueError("give piles and prizes for every seat")
    state.version, state.stale_upto = version, version - 1
    state.flipper = starter if flipper is None else flipper
    state._advance_flipper()
    state.idle = 0
    state.events = []
    state._dirty()
    return state


def legal(state: LeckerMammutState, seat: int) -> list[str]:
    """The legal actions of `seat` in notation."""
    return [str(a) for a in state.legal_actions(seat)]


def tops(state: LeckerMammutState, seat: int) -> list[str]:
    """The top cards of `seat`'s prize piles, oldest pile first."""
    return [p["top"] for p in state.observe(seat)["prize_piles"][seat]]


def last_event(state: LeckerMammutState) -> dict[str, Any]:
    """The newest entry of the public log."""
    event: dict[str, Any] = state.observe(None)["log"][-1]
    return event
