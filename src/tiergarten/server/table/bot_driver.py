"""The bots of one table: bots' seats and stand-ins for people, turn timers and away timers.

One asyncio task per table plays for every seat a bot plays: a bot's own seat, or a person who
is away (disconnected longer than `away_after`, left during the game, or outwaited by the turn
timer). It thinks (in a worker thread, on a copy of the state) only when a seat due to move is
played by a bot; otherwise it just waits for the next change or for the turn timer.

A bot's random choices are seeded from the table's seed, its seat and the version, so a game
between bots continues identically after a restart. Its pauses are its nominal delays times
`bot_pace`, and its clock (`TimedView.now`) runs at 1/pace of real time. A pause counts from the
moment the bot became due, not from the end of its thinking: the move goes out at due + pause
(or when the thinking ends, if that took longer), so how long a bot thought — which can depend
on what it alone knows, e.g. whether the card it drew fits — never shows in when it moves.

The driver decides no rule and applies nothing itself: a move it plays goes to `fire` (the
table's act order: the log at once, or the fair order at a real-time table), which the game
judges; when a person due is out of time it asks the table's `TimeLimit` (a turn timer or a
clock per player: features/time.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tiergarten import bots
from tiergarten.bots import Bot
from tiergarten.core import State
from tiergarten.core.game import Action
from tiergarten.core.realtime import TimedView

from ..edge.settings import Settings
from .seats import Seats
from .table_log import StoreFailed, TableLog

log = logging.getLogger("tiergarten.server")

STANDIN = "normal"  # the level that plays for a person who is away: every game has it


def standin_name(game_id: str) -> str:
    """The bot that plays for a person who is away: the game's `normal` level (a level table is
    part of every game's bots module), else random."""
    return STANDIN if STANDIN in bots.names(game_id) else "random"


@dataclass(frozen=True)
class BotMove:
    """A move a bot chose: which seat, what, and its nominal delay (seconds)."""

    seat: int
    action: Action
    delay: float


Fire = Callable[[BotMove, int], Awaitable[None]]  # play a move chosen at a version


class TimeLimit(Protocol):
    """How long the people due to move may think (a turn timer, a clock per player)."""

    def wait(self, waiting: Sequence[int], now: float) -> float | None:
        """Seconds until the first of `waiting` is out of time (None: nobody's time runs)."""
        ...

    def out_of_time(self, waiting: Sequence[int], now: float) -> list[int]:
        """Those of `waiting` whose time is up."""
        ...


class BotDriver:
    """Plays for bots and absent people at one table, on its own clock."""

    RETRY = 1.0  # seconds to wait after a move failed (the table carries on)

    def __init__(self, table_log: TableLog, seats: Seats, settings: Settings, fire: Fire,
                 seating_changed: Callable[[], None], connected: Callable[[int], bool],
                 limit: TimeLimit | None = None,
                 held: Callable[[], bool] = lambda: False) -> None:
        self.log = table_log
        self.seats = seats
        self.settings = settings
        self._fire = fire
        self._seating_changed = seating_changed  # someone went away or came back
        self._connected = connected
        self._bots: dict[int, Bot] = {}
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()
        self._started = self._loop.time()
        self._since = self._started  # when the table last changed (a bot's pause counts from it)
        self._skipped = 0.0  # bots' seconds that passed without real time (bot_pace 0)
        self.limit = limit  # how long people may think (None: as long as they like)
        self.held = held  # whether the bots wait now (a tutorial's step: the learner's race)

    def wake(self) -> None:
        """The table changed: think again."""
        self._since = self._loop.time()
        self._changed.set()

    def run(self) -> None:
        """Start playing (idempotent); people not connected get their away timers."""
        if self._task is None or self._task.done():
            self._since = self._loop.time()  # the game starts (or resumes) now
            self._task = asyncio.create_task(self._drive(), name=f"table {self.log.row.id}")
            for seat in self.seats.people():
                if not self._connected(seat):
                    self.arm_away_timer(seat)

    async def stop(self) -> None:
        for handle in self._away_timers.values():
            handle.cancel()
        self._away_timers.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- playing -----------------------------------------------------------------------------

    async def _drive(self) -> None:
        """Play for bots (and for people who are away) until the game is over."""
        while self.log.status == "playing":
            self._changed.clear()
            due = self._since  # a bot moving now became due then: its pause counts from there
            version = self.log.version
            state = self.log.state
            seats = {} if self.held() else self.in_control()
            move = None
            if any(seat in seats for seat in state.to_move()):
                try:  # bots think in a worker thread, on a copy, so the server stays responsive
                    move = await asyncio.to_thread(self.choose, seats, state.clone(),
                                                   self._now())
                except Exception:
                    log.exception("table %s: a bot failed at version %d", self.log.row.id,
                                  version)
            try:
                async with asyncio.timeout(self._wait_for(move, due)):
                    await self._changed.wait()
                continue  # something changed: think again
            except TimeoutError:
                pass
            if self.log.version != version or self._changed.is_set():
                continue
            try:
                if move is None:
                    move = self._time_out()
                if move is not None:
                    await self._play(move, version)
            except StoreFailed as exc:  # the database went away: wait until the log is back
                log.info("table %s: the bot move at version %d waits: %s", self.log.row.id,
                         version, exc)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.RETRY):
                        await self._changed.wait()
            except Exception:  # keep the table alive; try again a little later
                log.exception("table %s: the bot move at version %d failed", self.log.row.id,
                              version)
                await asyncio.sleep(self.RETRY)
            await asyncio.sleep(0)  # let connections drain between bot moves

    def _wait_for(self, move: BotMove | None, due: float) -> float | None:
        """How long to wait before playing `move` (chosen for a bot that became due at `due`),
        or before a person due is out of time; None: until something changes."""
        if move is not None:
            return max(0.0, due + move.delay * self.settings.bot_pace - self._loop.time())
        if self.limit is not None:
            return self.limit.wait(self._people_to_move(), self._loop.time())
        return None

    def _now(self) -> float:
        """The bots' clock. Bot pauses are scaled by `bot_pace`, so their clock runs at 1/pace
        of real time (at pace 0 it moves only by the moves played): a move played is always due
        by the bot's own reckoning, and a bot never repeats a move it has made."""
        pace = self.settings.bot_pace
        real = (self._loop.time() - self._started) / pace if pace > 0 else 0.0
        return real + self._skipped

    def choose(self, seats: dict[int, Bot], state: State, now: float) -> BotMove | None:
        """The earliest proposal of the bots playing `seats` (ties go to the seat asked
        first, in `to_move()` order: the seat the game waits on first).

        Each bot's randomness is seeded from the table's seed, its seat and the version, so
        the same position always gets the same answer, before and after a restart."""
        best = None
        for seat in state.to_move():
            bot = seats.get(seat)
            legal = state.legal_actions(seat) if bot is not None else ()
            if bot is None or not legal:
                continue
            bot.rng.seed(f"{self.log.row.seed}:{seat}:{len(state.history)}")
            proposal = bot.propose(TimedView(state, seat, legal, now))
            if proposal is not None and (best is None or proposal[0] < best.delay):
                best = BotMove(seat, proposal[1], max(0.0, proposal[0]))
        return best

    def in_control(self) -> dict[int, Bot]:
        """The bot of every seat a bot plays now."""
        return {seat: self._bot(seat) for seat in self.seats.played_by_bots()}

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            row = self.seats.rows[seat]
            name = row.bot if row.kind == "bot" and row.bot else standin_name(self.log.row.game)
            self._bots[seat] = bots.make(name, self.log.state.game, seat, random.Random(0))
        return self._bots[seat]

    def _people_to_move(self) -> list[int]:
        state = self.log.state
        return [s for s in state.to_move() if self.seats.is_person(s)
                and s not in self.seats.away and state.legal_actions(s)]

    def _time_out(self) -> BotMove | None:
        """The turn timer (or a seat's clock) ran out: a bot plays the seat whose move is due,
        until its person returns."""
        waiting = self._people_to_move()
        if self.limit is not None:
            waiting = self.limit.out_of_time(waiting, self._loop.time())
        move = self.choose({s: self._bot(s) for s in waiting}, self.log.state, self._now())
        if move is not None:
            self.go_away(move.seat)
        return move

    async def _play(self, move: BotMove, version: int) -> None:
        if self.settings.bot_pace <= 0:
            self._skipped += move.delay  # no real time passed: move the bots' clock
        await self._fire(move, version)

    # -- people leaving and coming back ------------------------------------------------------

    def arm_away_timer(self, seat: int) -> None:
        """A bot takes the seat if its person is not back within `away_after` seconds."""
        if seat in self._away_timers or seat in self.seats.away:
            return
        self._away_timers[seat] = self._loop.call_later(
            self.settings.away_after, self.go_away, seat)

    def go_away(self, seat: int) -> None:
        self._away_timers.pop(seat, None)
        if self.log.status == "playing" and self.seats.go_away(seat):
            self.wake()
            self._seating_changed()

    def come_back(self, seat: int) -> None:
        handle = self._away_timers.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if self.seats.come_back(seat):
            self.wake()
            self._seating_changed()
