"""The match loop every front end and the simulator share.

Each seat that may act proposes `(delay, action)` from its own view of the table; the earliest
proposal is applied. Turn-based games use the delay to settle out-of-turn actions (catching a
missed Mau); real-time games use it as a reaction time. Agents (bots, people) see a `SeatView`:
their observation and legal actions, never the raw state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .game import Action, Game, State

Proposal = tuple[float, Action]


class SeatView:
    """What one seat may know now: its observation (built on first use) and legal actions."""

    __slots__ = ("game", "seat", "legal", "_state", "_observation")

    def __init__(self, state: State, seat: int, legal: Sequence[Action]) -> None:
        self.game: Game = state.game
        self.seat = seat
        self.legal = legal
        self._state = state
        self._observation: dict[str, Any] | None = None

    @property
    def observation(self) -> dict[str, Any]:
        if self._observation is None:
            self._observation = self._state.observe(self.seat)
        return self._observation

    def resample(self, rng: random.Random) -> State:
        """A full state this seat cannot tell from the real one (for search bots)."""
        return self._state.resample(self.seat, rng)


class Agent(Protocol):
    """Anything that can sit at a table: a bot or a person at a keyboard."""

    interactive: bool  # a person: asked only when no bot would act sooner

    def propose(self, view: SeatView) -> Proposal | None:
        """The next action and how long after now it would be made; None = do nothing."""


class NoProposal(RuntimeError):
    """Every seat that may act declined: the game cannot go on."""


def next_move(state: State, agents: Sequence[Agent]) -> tuple[int, Action, float]:
    """Ask every seat that may act; return the earliest (seat, action, delay).

    Bots are asked first; a person is asked only when no bot proposal comes sooner than that
    person's own reaction time, so nobody waits on a prompt a bot would have pre-empted.
    """
    best: tuple[int, Action, float] | None = None
    people: list[int] = []
    for seat in state.to_move():
        agent = agents[seat]
        if agent.interactive:
            people.append(seat)
            continue
        best = _better(best, seat, agent, state)
    for seat in people:
        if best is not None and best[2] < getattr(agents[seat], "reaction", 0.0):
            break
        best = _better(best, seat, agents[seat], state)
    if best is None:
        raise NoProposal(f"no seat of {state.to_move()} proposed an action")
    return best


def _better(best: tuple[int, Action, float] | None, seat: int, agent: Agent, state: State,
            ) -> tuple[int, Action, float] | None:
    legal = state.legal_actions(seat)
    if not legal:
        return best
    proposal = agent.propose(SeatView(state, seat, legal))
    if proposal is None:
        return best
    delay, action = proposal
    if best is None or delay < best[2]:
        return (seat, action, delay)
    return best


Step = Callable[[State, int, Action], None]


def play_match(game: Game, agents: Sequence[Agent], seed: int | None = None,
               on_step: Step | None = None) -> State:
    """Play one whole game between `agents` (one per seat); return the finished state."""
    if len(agents) != game.players:
        raise ValueError(f"{game.id} with {game.players} players needs {game.players} agents, "
                         f"got {len(agents)}")
    state = game.new_state(seed)
    while not state.is_over():
        seat, action, _ = next_move(state, agents)
        state.apply(seat, action)
        if on_step is not None:
            on_step(state, seat, action)
    return state
