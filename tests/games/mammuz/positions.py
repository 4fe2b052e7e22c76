"""Build a MammuZ position by hand, for scenario tests: one place that knows the state's fields.

Cards are written by kind name ("mouse mouse hare"). Only the cards placed are in the game; the
rest of each species in play counts as having left it earlier (face up), and dinosaurs not
placed stay in the box. A herd is a list of lays `(seat, "cards")` in position order.

>>> state = position(["mammoth bear", "mammoth hare hare", "bear hare"], turn=1)
>>> state.observe(1)["hand"], state.to_move(), state.observe(1)["in_game"]["hare"]
(['mammoth', 'hare', 'hare'], (1,), 3)
"""

from __future__ import annotations

from typing import Any

import tiergarten
from tiergarten.games.mammuz import knowledge
from tiergarten.games.mammuz.cards import COUNTS, DINOSAURS, KINDS, SPECIES, in_play, kind
from tiergarten.games.mammuz.state import MammuZState
from tiergarten.games.mammuz.terms import OPEN, RESPOND


def counts(text: str) -> list[int]:
    """The cards written in `text` as counts per kind."""
    out = [0] * KINDS
    for word in text.split():
        out[kind(word)] += 1
    return out


def position(hands: list[str], *, turn: int | None = None, species: str | None = None,
             lays: list[tuple[int, str]] | None = None, jackpot: str = "", extinct: str = "",
             seed: int = 0,
             **options: Any) -> MammuZState:
    """A state of `len(hands)` players with exactly these hands, herd and jackpot.

    `extinct` names species already extinct. With `lays`, the herd is open (declared as
    `species`) and `turn` defaults to the seat after the last layer; without, `turn` opens a
    new herd.
    """
    game = tiergarten.load("mammuz", players=len(hands), **options)
    state = game.new_state(seed)
    n = state.n
    state.hands = [counts(h) for h in hands]
    state.sizes = [sum(h) for h in state.hands]
    state.lays = [(seat, tuple(kind(w) for w in text.split())) for seat, text in lays or []]
    state.herd = [0] * KINDS
    for _, cards in state.lays:
        for k in cards:
            state.herd[k] += 1
    state.herd_size = sum(state.herd)
    state.jackpot = counts(jackpot)
    state.jackpot_size = sum(state.jackpot)
    placed = [sum(pile[k] for pile in (*state.hands, state.herd, state.jackpot))
              for k in range(KINDS)]
    playing = in_play(n)
    for k in SPECIES:
        if placed[k] and k not in playing:
            raise ValueError(f"species {k} is not in play with {n} players")
    state.in_game = placed
    state.removed = [COUNTS[k] - placed[k] if k in playing else 0 for k in SPECIES] + [0] * 6
    state.box = [d for d in DINOSAURS if not placed[d]]
    state.known = knowledge.table(n)
    state.revealed = []
    state.events = []
    state.species = kind(species) if species else -1
    for word in extinct.split():
        state.extinct[kind(word)] = True
    state.declarable = tuple(s for s in playing if not state.extinct[s])
    if state.lays:
        state.phase = RESPOND
        state.turn = (state.lays[-1][0] + 1) % n if turn is None else turn
    else:
        state.phase = OPEN
        state.turn = 0 if turn is None else turn
    state._clear()
    return state


def legal(state: MammuZState, seat: int | None = None) -> list[str]:
    """The legal actions of `seat` (the player to move if None) in notation."""
    return [str(a) for a in state.legal_actions(state.turn if seat is None else seat)]


def hand(state: MammuZState, seat: int) -> list[str]:
    """What `seat` holds, as its own observation shows it."""
    held: list[str] = state.observe(seat)["hand"]
    return held


def log(state: MammuZState) -> list[dict[str, Any]]:
    """The public log, as a spectator sees it."""
    events: list[dict[str, Any]] = state.observe(None)["log"]
    return events


def turn(state: MammuZState) -> int | None:
    """Whose turn it is, as everyone sees it."""
    seat: int | None = state.observe(None)["turn"]
    return seat
