"""A clock per player (a table option, instead of the turn timer): a time bank, and an
increment added after each of their turns (when a move leaves them with nothing more to do: a
Mau Mau draw followed by a play is one turn, and so are a Mucca Pazza player's slides, so that
splitting a turn into many actions earns nothing). The seats due to move (people with legal
actions) spend their time; when a person's bank is empty the bot driver lets the seat's bot
play, as at the turn timer's end, and that turn earns the increment too.

A running clock lives in memory, but nothing of it is lost when the server stops or a table
is rebuilt elsewhere: `from_log` replays the game's log with each act's stored time (and the
moment the game started, kept beside the table's spec: server/table/spec.py), so every bank is
what it was at the last move. The seat due then gets back the time it had been thinking since
that move: the log knows no later moment, and a player should not pay for the server's absence.

>>> clock = Clock(60.0, 5.0, people=[0, 1], now=0.0)
>>> clock.moved(None, due=[0], now=0.0)       # the game starts: seat 0 to move
>>> clock.moved(0, due=[1], now=10.0)         # 0 moved after 10 s: 60 - 10 + 5
>>> clock.moved(1, due=[1], now=12.0)         # 1 drew after 2 s, and is still to move
>>> clock.view(now=13.0)
{'left': [55.0, 57.0], 'running': [1]}
>>> clock.next_flag(now=13.0)
(1, 57.0)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from tiergarten.core import State


class Clock:
    """Each person's time left; `running`: the seats whose time is spent now."""

    def __init__(self, bank: float, increment: float, people: Iterable[int],
                 now: float, players: int | None = None) -> None:
        self.bank, self.increment = bank, increment
        self.left = {seat: bank for seat in people}
        self.running: set[int] = set()
        self.since = now
        self.players = players if players is not None else max(self.left, default=-1) + 1

    def _charge(self, now: float) -> None:
        for seat in self.running:
            self.left[seat] -= now - self.since
        self.since = now

    def moved(self, seat: int | None, due: Iterable[int], now: float) -> None:
        """`seat` moved (None: the game started); `due` are the seats to move now."""
        self._charge(now)
        self.running = {s for s in due if s in self.left}
        if seat in self.left and seat not in self.running:  # their turn is over
            self.left[seat] = max(0.0, self.left[seat]) + self.increment

    def stop(self, now: float) -> None:
        self._charge(now)
        self.running = set()

    def time_left(self, seat: int, now: float) -> float:
        spent = now - self.since if seat in self.running else 0.0
        return self.left[seat] - spent

    def next_flag(self, now: float) -> tuple[int, float] | None:
        """The running seat whose time runs out first, and the seconds until it does."""
        if not self.running:
            return None
        seat = min(self.running, key=lambda s: (self.time_left(s, now), s))
        return seat, self.time_left(seat, now)

    def view(self, now: float) -> dict[str, Any]:
        """What every connection sees: seconds left per seat (None: a bot's), and who runs."""
        seats = range(self.players)
        return {"left": [round(max(0.0, self.time_left(s, now)), 2) if s in self.left else None
                         for s in seats], "running": sorted(self.running)}


def due(state: State, people: Iterable[int]) -> list[int]:
    """The people whose clocks run in `state`: those to move who have legal actions."""
    persons = set(people)
    return [s for s in state.to_move() if s in persons and state.legal_actions(s)]


def from_log(bank: float, increment: float, start: State, actions: Sequence[tuple[int, str]],
             times: Sequence[dt.datetime], started: dt.datetime | None,
             people: Sequence[int], players: int, now: float) -> Clock:
    """The clock (`bank`, `increment`) of a game under way, rebuilt from its log: `start` is
    the game's first state (changed here), `times` each action's stored time, `started` when
    the game began (None: its first action's time); the clock runs on from `now` (the caller's
    clock)."""
    begun = started or (times[0] if times else None)
    at = 0.0 if begun is None else begun.timestamp()
    clock = Clock(bank, increment, people, at, players)
    clock.moved(None, due(start, people), at)
    for (seat, notation), when in zip(actions, times, strict=True):
        start.apply(seat, notation)
        clock.moved(seat, due(start, people), when.timestamp())
    clock.since = now  # from here on the caller's time; nothing charged for the gap
    return clock
