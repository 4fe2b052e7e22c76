"""Real time on a discrete engine: the earliest proposal wins, in virtual or wall-clock time.

Every seat that may act proposes `(delay, action)` from its own view; the move with the
earliest due time (`now + delay`) is applied, and every seat is asked again after each change.
Agents see a `TimedView`: a `SeatView` that also says `now`, the seconds since the match began,
so a bot can keep its own clock across re-asks (a triple seen at 3.0 s with a 0.8 s reaction is
hit at 3.8 s, however many flips happen in between). Ties go to the seat asked first, in
`to_move()` order (the seat the game waits on first).

`run_virtual` advances a virtual clock straight to each due time: no sleeping, as fast as the
engine runs; simulations use it. `RealTimeTable` runs in wall-clock time: bots act on their own
clocks, people (`interactive` agents) submit actions from other threads with `submit`, in order
of arrival; a server or a terminal drives it.

Both only order: whether a move still counts is the game's to say. Every proposal is made on
the current position, so only what a move names itself can make it void (a Lecker Mammut! hit
naming the version its hand committed to, `hit boar @17`); the game judges it when it is
applied (`State.is_void`, `State.apply`), and the loop applies every move it orders.

>>> import tiergarten
>>> from tiergarten.bots import RandomBot
>>> import random
>>> game = tiergarten.load("maumau", players=2, rounds=1)
>>> bots = [RandomBot(game, s, random.Random(s)) for s in range(2)]
>>> state, clock = play_virtual(game, bots, seed=3)
>>> state.is_over(), clock > 0
(True, True)
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import IllegalAction
from .game import Action, Game, State
from .match import Agent, NoProposal, SeatView


class TimedView(SeatView):
    """A seat's view at a moment: observation, legal actions and `now` (seconds)."""

    __slots__ = ("now",)

    def __init__(self, state: State, seat: int, legal: Sequence[Action], now: float) -> None:
        super().__init__(state, seat, legal)
        self.now = now


@dataclass(frozen=True)
class Move:
    """A proposed or applied move: who, what, and when (seconds since the match began)."""

    seat: int
    action: Action
    time: float


TimedStep = Callable[[State, Move], None]


def earliest(state: State, agents: Sequence[Agent], now: float,
             include: Callable[[Agent], bool] | None = None) -> Move | None:
    """Ask every seat that may act (optionally only agents passing `include`); return the
    proposal due first, or None if nobody proposes anything."""
    best: Move | None = None
    for seat in state.to_move():
        agent = agents[seat]
        if include is not None and not include(agent):
            continue
        legal = state.legal_actions(seat)
        if not legal:
            continue
        proposal = agent.propose(TimedView(state, seat, legal, now))
        if proposal is None:
            continue
        delay, action = proposal
        due = now + max(0.0, delay)
        if best is None or due < best.time:
            best = Move(seat, action, due)
    return best


def run_virtual(state: State, agents: Sequence[Agent], on_step: TimedStep | None = None,
                start: float = 0.0) -> float:
    """Play `state` to its end in virtual time; return the clock at the end (seconds)."""
    now = start
    while not state.is_over():
        move = earliest(state, agents, now)
        if move is None:
            raise NoProposal(f"no seat of {state.to_move()} proposed an action")
        now = move.time
        state.apply(move.seat, move.action)
        if on_step is not None:
            on_step(state, move)
    return now


def play_virtual(game: Game, agents: Sequence[Agent], seed: int | None = None,
                 on_step: TimedStep | None = None) -> tuple[State, float]:
    """Play one whole game in virtual time; return the finished state and its length (s)."""
    if len(agents) != game.players:
        raise ValueError(f"{game.id} with {game.players} players needs {game.players} agents, "
                         f"got {len(agents)}")
    state = game.new_state(seed)
    return state, run_virtual(state, agents, on_step)


# -- wall-clock time -------------------------------------------------------------------------

Submission = tuple[int, "Action | str"]


class Clock(Protocol):
    """Where a `RealTimeTable` gets the time and waits for people: wall-clock, or scripted in
    tests."""

    def now(self) -> float:
        """Seconds since the table started."""

    def wait(self, inbox: queue.Queue[Submission], seconds: float) -> Submission | None:
        """The next submission if one arrives within `seconds`, else None."""


class WallClock:
    """Real time, optionally sped up (`speed=2` plays twice as fast)."""

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self.start = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self.start) * self.speed

    def wait(self, inbox: queue.Queue[Submission], seconds: float) -> Submission | None:
        try:
            return inbox.get(timeout=max(0.0, seconds) / self.speed)
        except queue.Empty:
            return None


Refused = Callable[[int, "Action | str", IllegalAction], None]


class RealTimeTable:
    """A real-time table in wall-clock time: bots on their own clocks, people by `submit`.

    Bots are asked after every change and the earliest proposal is kept as the plan; the table
    waits for it, and a person's action that arrives first is applied first (checked: a refused
    one goes to `on_refused` and changes nothing). Interactive agents are never asked.
    """

    POLL = 0.1  # seconds between checks of `stop` while nothing is due

    def __init__(self, state: State, agents: Sequence[Agent], clock: Clock | None = None,
                 on_step: TimedStep | None = None, on_refused: Refused | None = None) -> None:
        self.state = state
        self.agents = agents
        self.clock: Clock = clock if clock is not None else WallClock()
        self.on_step = on_step
        self.on_refused = on_refused
        self.inbox: queue.Queue[Submission] = queue.Queue()
        self.stop = threading.Event()

    def submit(self, seat: int, action: Action | str) -> None:
        """Hand in a person's action (thread-safe); it is applied in order of arrival."""
        self.inbox.put((seat, action))

    def run(self) -> State:
        """Play until the game is over or `stop` is set; return the state."""
        state, clock = self.state, self.clock
        plan: Move | None = None
        changed = True
        while not state.is_over() and not self.stop.is_set():
            now = clock.now()
            if changed:
                plan = earliest(state, self.agents, now, lambda a: not a.interactive)
                changed = False
            wait = self.POLL if plan is None else min(self.POLL, plan.time - now)
            if plan is not None and wait <= 0:
                self._apply(plan.seat, plan.action, now)
                changed = True
                continue
            item = clock.wait(self.inbox, wait)
            if item is not None:
                changed = self._apply(item[0], item[1], clock.now())
        return state

    def _apply(self, seat: int, action: Action | str, now: float) -> bool:
        try:
            self.state.apply(seat, action)
        except IllegalAction as exc:
            if self.on_refused is not None:
                self.on_refused(seat, action, exc)
            return False
        if self.on_step is not None:
            applied = self.state.history[-1][1]
            self.on_step(self.state, Move(seat, applied, now))
        return True


def seeded(seed: int | None, count: int) -> list[random.Random]:
    """`count` independent generators drawn from one seed (for bots at a simulated table)."""
    root = random.Random(seed)
    return [random.Random(root.getrandbits(64)) for _ in range(count)]


__all__ = ["Clock", "Move", "RealTimeTable", "TimedView", "WallClock", "earliest", "play_virtual",
           "run_virtual", "seeded"]
