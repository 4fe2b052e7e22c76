"""Live tables: a state rebuilt from the log, seats, connections, bots and timers.

The server never decides a rule. A table checks seat, token and version, calls `state.apply`,
commits the action to the log, and only then sends each connection a message built from its
own seat's observation and legal actions. On start every unfinished table is rebuilt by
replaying its log, so a killed server resumes every game exactly.

Applying an act (`LiveTable.apply`, a coroutine): the game checks and applies it to a copy of
the table's state; the store's writer thread commits it (`Store.writer`), so the event loop
serves other tables while the database works; only once the commit is done does the copy
become the table's state and does anyone hear of it. `self.state` is therefore always what
the log holds, whatever reads it meanwhile (greetings, `sync`, hints, REST). Acts at one table
go one at a time through a fair lock (`_turn`, first come first served): a later act waits
for the earlier one's commit and is checked against the version that left, so versions still
go up by one and nothing is applied out of order. A failed commit tells nobody anything: the
act gets `server_error` and the table is rebuilt from its log.

Bots run as one asyncio task per table. A bot's random choices are seeded from the table's
seed, its seat and the state's version, so a game between bots continues identically after a
restart. The task thinks (in a worker thread, on a copy of the state) only when a seat due to
move is played by a bot (a bot's seat, or a person who is away); otherwise it just waits for
the next change or for the turn timer.

At real-time tables (`GameInfo.real_time`, where several seats may act at once) acts are not
applied in raw arrival order: each is credited at its arrival minus half its connection's
measured round trip (capped by `Settings.hit_cap`), held until no act credited earlier can
still arrive, and applied in credited order; an act made against a version that another act
has since replaced is void (error `void`), never applied. Bots' moves join the same order,
credited when they fire. See "Fair hits in real-time games" in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import hmac
import itertools
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tiergarten import bots
from tiergarten.bots import Bot
from tiergarten.core import IllegalAction, State, replay
from tiergarten.core.game import Action
from tiergarten.core.realtime import TimedView

from .connection import Connection
from .protocol import PROTOCOL, Act, Auth, ClientMessage, Pong
from .settings import Settings, TableError, hash_token
from .store import Store, TableRow

log = logging.getLogger("tiergarten.server")


STANDINS = ("heuristic", "greedy")  # preferred stand-in bots, if the game has them


def standin_name(game_id: str) -> str:
    """The bot that plays for a person who is away: the game's own bot, else random."""
    known = bots.names(game_id)
    for name in (*STANDINS, *known):
        if name in known and name != "random":
            return name
    return "random"


class StoreFailed(RuntimeError):
    """The database did not take an action; the table was rebuilt from its log."""


@dataclass
class Plan:
    """A bot's next move: which seat, what, and its nominal delay (seconds)."""

    seat: int
    action: Action
    delay: float


@dataclass(order=True)
class Pending:
    """An act at a real-time table waiting for its turn: ordered by credited time, then by
    arrival. `conn` is None for a bot's move, which reports through `done` instead."""

    credit: float
    order: int
    seat: int = field(compare=False)
    act: Action | str = field(compare=False)
    version: int = field(compare=False)
    conn: Connection | None = field(default=None, compare=False)
    done: asyncio.Future[bool] | None = field(default=None, compare=False)


class LiveTable:
    """One table in memory: its state, seats, connections and the task that runs its bots."""

    def __init__(self, row: TableRow, store: Store, settings: Settings) -> None:
        self.row = row
        self.id = row.id
        self.store = store
        self.settings = settings
        self.state: State = replay(row.record())
        self.connections: set[Connection] = set()
        self.away: set[int] = set()
        self.rematch: str | None = None
        self._bots: dict[int, Bot] = {}
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self.on_idle: Callable[[LiveTable], None] | None = None  # over and nobody watching
        self._changed = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()
        self._started = self._loop.time()
        self._bot_skipped = 0.0
        self._last_change = self._started
        self.real_time = self.state.game.info.real_time
        self._pending: list[Pending] = []  # a heap: acts of a real-time table not yet settled
        self._order = itertools.count()
        self._settler: asyncio.TimerHandle | None = None
        self._settling: set[asyncio.Task[None]] = set()  # settled acts waiting for their turn
        self._turn = asyncio.Lock()  # held while one act is applied, committed and told
        if self.state.is_over() and row.status != "over":
            self._set_status("over")

    # -- facts -------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def status(self) -> str:
        return self.row.status

    def seat_of(self, token: str) -> int | None:
        """The seat a token claims, or None."""
        digest = hash_token(token)
        for seat in self.row.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def info(self) -> dict[str, Any]:
        """Public facts of the table: game, options, status and who sits where."""
        connected = {c.seat for c in self.connections if c.seat is not None}
        return {
            "type": "table", "id": self.id, "game": self.row.game, "players": self.row.players,
            "options": self.row.options, "status": self.status, "version": self.version,
            "timer": self.row.timer, "hints": self.row.hints,
            "created": self.row.created.isoformat(),
            "rematch": self.rematch,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "taken": s.kind == "bot" or s.token_hash is not None,
                       "connected": s.kind == "bot" or s.seat in connected,
                       "away": s.seat in self.away} for s in self.row.seats],
        }

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == "human" and s.token_hash is None]

    # -- connections -------------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        """Greet a new connection with the protocol, the table and its seat's state."""
        self.connections.add(conn)
        conn.send({"type": "hello", "protocol": PROTOCOL, "table": self.id,
                   "game": self.row.game, "players": self.row.players, "seat": conn.seat,
                   "limits": {"max_message": self.settings.max_message,
                              "rate": self.settings.rate, "burst": self.settings.burst}})
        if conn.seat is not None:
            self._come_back(conn.seat)
        self.broadcast_info()
        conn.send(self._state_message(conn.seat, 0))

    def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        seat = conn.seat
        if seat is not None and self.status == "playing" and not self._is_connected(seat):
            self._arm_away_timer(seat)
        self.broadcast_info()
        self._idle_check()

    def _idle_check(self) -> None:
        if self.status == "over" and not self.connections and self.on_idle is not None:
            self.on_idle(self)

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Act on one validated client message. An act at a turn-based table returns once it
        is applied (or refused); at a real-time table once it is held (see `_settle`)."""
        if isinstance(message, Auth):
            seat = self.seat_of(message.token)
            if seat is None:
                conn.error("bad_token", "this token claims no seat at this table")
                return
            self.disconnect(conn)
            conn.seat = seat
            self.connect(conn)
        elif isinstance(message, Act):
            if self.real_time:
                self._act_fairly(conn, message)
            else:
                await self._act(conn, message)
        elif isinstance(message, Pong):
            conn.pong(message.pong, self._loop.time())  # an unknown id is ignored
        else:
            conn.send(self._state_message(conn.seat, 0))

    def _may_act(self, conn: Connection) -> bool:
        """Whether `conn` holds a seat and the game is on; if not, it is told why."""
        if conn.seat is None:
            conn.error("not_seated", "spectators cannot act; join a seat or connect with its "
                       "token", self.version)
        elif self.status != "playing":
            why = "the game is over" if self.status == "over" else (
                "the game starts when every seat is taken")
            conn.error("not_playing", why, self.version)
        else:
            return True
        return False

    async def _act(self, conn: Connection, message: Act) -> None:
        seat, version = conn.seat, self.version
        if not self._may_act(conn) or seat is None:
            return
        if message.version != version:
            conn.error("stale", f"you acted on version {message.version}, but the table is at "
                       f"version {version}; nothing changed", version)
            return
        self._come_back(seat)
        try:
            if not await self.apply(seat, message.act, version):
                conn.error("stale", f"you acted on version {version}, but the table is at "
                           f"version {self.version}; nothing changed", self.version)
        except IllegalAction as exc:
            conn.error("illegal", str(exc), version)
        except StoreFailed as exc:
            conn.error("server_error", str(exc), self.version)

    # -- fair order at real-time tables ------------------------------------------------------

    def _act_fairly(self, conn: Connection, message: Act) -> None:
        """An act at a real-time table: checked for seat, phase and version at once, then
        credited at arrival minus the connection's latency credit and held in order."""
        arrival = self._loop.time()
        seat, version = conn.seat, self.version
        if not self._may_act(conn) or seat is None:
            return
        if message.version > version:
            conn.error("stale", f"you acted on version {message.version}, but the table is at "
                       f"version {version}; nothing changed", version)
            return
        self._come_back(seat)
        # never credited before the version it was made against existed
        credit = max(arrival - conn.credit(self.settings.hit_cap), self._last_change)
        item = Pending(credit, next(self._order), seat, message.act, message.version, conn)
        if message.version < version:
            self._void(item)
        else:
            self._hold(item)

    def _hold(self, item: Pending) -> None:
        heapq.heappush(self._pending, item)
        self._settle()

    def _window(self) -> float:
        """How long an act must wait after its credited time before it is settled: the
        largest latency credit any seated connection gets now (never more than the cap).
        An act arriving later is credited later than anything settled before it."""
        cap = self.settings.hit_cap
        return max((c.credit(cap) for c in self.connections if c.seat is not None),
                   default=0.0)

    def _settle(self) -> None:
        """Settle every held act whose time has come, earliest credit first; then wait for
        the next one."""
        if self._settler is not None:
            self._settler.cancel()
            self._settler = None
        while self._pending:
            window = self._window()
            now = self._loop.time()
            head = self._pending[0]
            if head.credit + window > now + 0.0005:
                self._settler = self._loop.call_at(head.credit + window, self._settle)
                return
            heapq.heappop(self._pending)
            # applied in a task of its own, in turn (`_turn` is first come first served)
            task = asyncio.create_task(self._settle_one(head))
            self._settling.add(task)
            task.add_done_callback(self._settling.discard)

    async def settled(self) -> None:
        """Wait until every act settled so far has been applied or refused (for tests)."""
        while self._settling:
            await asyncio.gather(*self._settling, return_exceptions=True)

    async def _settle_one(self, item: Pending) -> None:
        async with self._turn:
            await self._settle_in_turn(item)

    async def _settle_in_turn(self, item: Pending) -> None:
        conn, done = item.conn, item.done
        if self.status != "playing":
            if conn is not None:
                conn.error("not_playing", "the game is over", self.version)
            _finish(done, False)
        elif item.version != self.version:
            self._void(item)
        elif conn is None and item.seat not in self._bots_in_control():
            _finish(done, False)  # its person came back while the move was held
        else:
            version = self.version
            try:
                await self._apply_in_turn(item.seat, item.act)
            except IllegalAction as exc:
                if conn is not None:
                    conn.error("illegal", str(exc), version)
                _finish(done, exc)
            except Exception as exc:
                if conn is not None:
                    conn.error("server_error", str(exc) if isinstance(exc, StoreFailed) else
                               f"the server could not handle this message: {exc}", self.version)
                _finish(done, exc)
            else:
                _finish(done, True)

    def _void(self, item: Pending) -> None:
        """Someone else's act came first: this one changes nothing, and is not a mistake."""
        if item.conn is not None:
            item.conn.error("void", f"someone acted first: your act on version {item.version} "
                            f"did not count (the table is at version {self.version}); nothing "
                            f"changed", self.version)
        _finish(item.done, False)

    def _is_connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    # -- playing -----------------------------------------------------------------------------

    async def apply(self, seat: int, action: Action | str, version: int | None = None) -> bool:
        """Check and apply one action, commit it to the log, then tell every connection.

        Waits for its turn at the table (`_turn`); with `version`, only if the table is still
        at that version when its turn comes (False, and nothing changes, if another act came
        first). Raises IllegalAction (nothing changed) or StoreFailed (nothing changed; the
        table was rebuilt from its log; nobody was told anything)."""
        async with self._turn:
            if version is not None and self.version != version:
                return False
            await self._apply_in_turn(seat, action)
            return True

    async def _apply_in_turn(self, seat: int, action: Action | str) -> None:
        """`apply` while holding `_turn`: the game applies the act to a copy of the state;
        the copy becomes the table's state only once the log holds the act."""
        state = self.state.clone()
        index = self.version
        before = _event_count(state)
        try:
            state.apply(seat, action)  # IllegalAction leaves the state unchanged
        except IllegalAction:
            raise
        except Exception:  # a bug in a game: only the copy is spoilt; the table is as it was
            log.exception("table %s: applying %r for seat %d failed", self.id, action, seat)
            raise
        notation = state.history[-1][1].text
        over = state.is_over()

        def commit() -> None:  # in the store's writer thread
            self.store.append_action(self.id, index, seat, notation)
            if over:
                self.store.set_status(self.id, "over")

        written = self._loop.run_in_executor(self.store.writer, commit)
        try:
            await asyncio.shield(written)
        except asyncio.CancelledError:
            # the caller is going (the server is stopping): the commit still finishes, and
            # what the log holds the table holds too, before the turn passes to anyone else
            with contextlib.suppress(Exception):
                await written
                self._publish(state, seat, notation, before)
            raise
        except Exception:
            log.exception("table %s: could not store action %d; rebuilding from the log",
                          self.id, index)
            self.state = replay(self._reload().record())
            raise StoreFailed("the server could not store this action; nothing changed, "
                              "try again") from None
        self._publish(state, seat, notation, before)

    def _publish(self, state: State, seat: int, notation: str, before: int) -> None:
        """The act is in the log: make `state` the table's and tell every connection."""
        self.state = state
        self.row.actions.append((seat, notation))
        if state.is_over():
            self.row.status = "over"
        self._last_change = self._loop.time()
        self._changed.set()
        self.broadcast(_event_count(state) - before)
        if state.is_over():
            self.broadcast_info()
            self._idle_check()

    def broadcast(self, new_events: int) -> None:
        """Send every connection its own seat's state (one observation per seat)."""
        cache: dict[int | None, str] = {}
        for conn in list(self.connections):
            if conn.seat not in cache:
                cache[conn.seat] = json.dumps(self._state_message(conn.seat, new_events))
            conn.send(cache[conn.seat])

    def broadcast_info(self) -> None:
        text = json.dumps(self.info())
        for conn in list(self.connections):
            conn.send(text)

    def _state_message(self, seat: int | None, new_events: int) -> dict[str, Any]:
        """Built from `seat`'s observation and legal actions only."""
        observation = self.state.observe(seat)
        legal: list[str] = []
        if seat is not None and self.status == "playing":
            legal = [a.text for a in self.state.legal_actions(seat)]
        log_entries = observation.get("log")
        events = (list(log_entries[-new_events:])
                  if new_events > 0 and isinstance(log_entries, list) else [])
        return {"type": "state", "version": self.version, "seat": seat,
                "observation": observation, "legal": legal, "events": events}

    def start_if_full(self) -> None:
        if self.status == "open" and not self.open_seats():
            self._set_status("playing")
            self._last_change = self._loop.time()
            self.broadcast_info()
            self.broadcast(0)
        if self.status == "playing":
            self.run()

    def run(self) -> None:
        """Start the task that plays for bots and absent people (idempotent)."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.create_task(self._drive(), name=f"table {self.id}")
            for seat in range(self.row.players):
                if self.row.seats[seat].kind == "human" and not self._is_connected(seat):
                    self._arm_away_timer(seat)

    async def stop(self) -> None:
        for handle in self._away_timers.values():
            handle.cancel()
        self._away_timers.clear()
        if self._settler is not None:
            self._settler.cancel()
            self._settler = None
        self._pending.clear()  # never committed, so never told to anyone: nothing is lost
        for task in list(self._settling):
            task.cancel()
        await asyncio.gather(*self._settling, return_exceptions=True)
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        for conn in list(self.connections):
            conn.close(1001, "the server is stopping")

    async def _drive(self) -> None:
        """Play for bots (and for people who are away) until the game is over."""
        while self.status == "playing":
            self._changed.clear()
            version = self.version
            seats = self._bots_in_control()
            plan = None
            if any(seat in seats for seat in self.state.to_move()):
                try:  # bots think in a worker thread, on a copy, so the server stays responsive
                    plan = await asyncio.to_thread(self._plan, seats, self.state.clone(),
                                                   self._now())
                except Exception:
                    log.exception("table %s: a bot failed at version %d", self.id, version)
            delay = self._wait_for(plan)
            try:
                async with asyncio.timeout(delay):
                    await self._changed.wait()
                continue  # something changed: plan again
            except TimeoutError:
                pass
            if self.version != version or self._changed.is_set():
                continue
            try:
                if plan is None:
                    plan = self._time_out()
                if plan is not None:
                    await self._fire(plan, version)
            except Exception:  # keep the table alive; try again a little later
                log.exception("table %s: the bot move at version %d failed", self.id, version)
                await asyncio.sleep(1.0)
            await asyncio.sleep(0)  # let connections drain between bot moves

    def _wait_for(self, plan: Plan | None) -> float | None:
        if plan is not None:
            return max(0.0, plan.delay * self.settings.bot_pace)
        if self.row.timer is not None and self._people_to_move():
            return max(0.0, self._last_change + self.row.timer - self._loop.time())
        return None

    def _now(self) -> float:
        """The bots' clock. Bot pauses are scaled by `bot_pace`, so their clock runs at 1/pace
        of real time (at pace 0 it moves only by the moves fired): a move fired is always due
        by the bot's own reckoning, and a bot never repeats a plan it has carried out."""
        pace = self.settings.bot_pace
        real = (self._loop.time() - self._started) / pace if pace > 0 else 0.0
        return real + self._bot_skipped

    def _plan(self, seats: dict[int, Bot], state: State, now: float) -> Plan | None:
        """The earliest proposal of the bots playing `seats` (ties go to the lower seat).

        Each bot's randomness is seeded from the table's seed, its seat and the version, so
        the same position always gets the same answer, before and after a restart."""
        best = None
        for seat in state.to_move():
            bot = seats.get(seat)
            legal = state.legal_actions(seat) if bot is not None else ()
            if bot is None or not legal:
                continue
            bot.rng.seed(f"{self.row.seed}:{seat}:{len(state.history)}")
            proposal = bot.propose(TimedView(state, seat, legal, now))
            if proposal is not None and (best is None or proposal[0] < best.delay):
                best = Plan(seat, proposal[1], max(0.0, proposal[0]))
        return best

    def _bots_in_control(self) -> dict[int, Bot]:
        return {s.seat: self._bot(s.seat) for s in self.row.seats
                if s.kind == "bot" or s.seat in self.away}

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            row = self.row.seats[seat]
            name = row.bot if row.kind == "bot" and row.bot else standin_name(self.row.game)
            self._bots[seat] = bots.make(name, self.state.game, seat, random.Random(0))
        return self._bots[seat]

    def _people_to_move(self) -> list[int]:
        return [s for s in self.state.to_move()
                if self.row.seats[s].kind == "human" and s not in self.away
                and self.state.legal_actions(s)]

    def _time_out(self) -> Plan | None:
        """The turn timer ran out: a bot plays the seat whose move is due, until it returns."""
        waiting = self._people_to_move()
        plan = self._plan({s: self._bot(s) for s in waiting}, self.state, self._now())
        if plan is not None:
            self._go_away(plan.seat)
        return plan

    async def _fire(self, plan: Plan, version: int) -> None:
        """Play a bot's move now: at once at a turn-based table; at a real-time table it joins
        the fair order, credited now, like a person's act with no latency."""
        if self.settings.bot_pace <= 0:
            self._bot_skipped += plan.delay  # no real time passed: move the bots' clock
        if not self.real_time:
            await self.apply(plan.seat, plan.action, version)  # False: someone was first
            return
        done: asyncio.Future[bool] = self._loop.create_future()
        self._hold(Pending(self._loop.time(), next(self._order), plan.seat, plan.action,
                           version, None, done))
        await done  # applied, void (someone was first) or raises what applying raised

    # -- people leaving and coming back ------------------------------------------------------

    def _arm_away_timer(self, seat: int) -> None:
        if seat in self._away_timers or seat in self.away:
            return
        self._away_timers[seat] = self._loop.call_later(
            self.settings.away_after, self._go_away, seat)

    def _go_away(self, seat: int) -> None:
        self._away_timers.pop(seat, None)
        if self.status == "playing" and seat not in self.away:
            self.away.add(seat)
            self._changed.set()
            self.broadcast_info()

    def _come_back(self, seat: int) -> None:
        handle = self._away_timers.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if seat in self.away:
            self.away.discard(seat)
            self._changed.set()
            self.broadcast_info()

    def leave(self, token: str) -> int:
        """A person leaves: before the game the seat opens again; during it a bot plays on
        until the person comes back with the same token."""
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("this token claims no seat at this table", 403)
        if self.status == "open":
            row = self.row.seats[seat]
            row.name, row.token_hash = None, None
            self.store.set_seat(self.id, row)
            for conn in list(self.connections):
                if conn.seat == seat:
                    conn.close(4403, "you left this seat")
        elif self.status == "playing":
            self._go_away(seat)
        self.broadcast_info()
        return seat

    # -- storage -----------------------------------------------------------------------------

    def _set_status(self, status: str) -> None:
        self.store.set_status(self.id, status)
        self.row.status = status

    def _reload(self) -> TableRow:
        row = self.store.load_table(self.id)
        if row is None:
            raise RuntimeError(f"table {self.id} vanished from the database")
        self.row = row
        return row


def _finish(done: asyncio.Future[bool] | None, outcome: bool | BaseException) -> None:
    if done is None or done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


def _event_count(state: State) -> int:
    events = getattr(state, "events", None)
    return len(events) if isinstance(events, list) else 0
