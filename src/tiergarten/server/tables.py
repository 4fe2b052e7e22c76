"""Live tables: a state rebuilt from the log, seats, connections, bots and timers.

The server never decides a rule. A table checks seat, token and version, calls `state.apply`,
commits the action to the log, and only then sends each connection a message built from its
own seat's observation and legal actions. On start every unfinished table is rebuilt by
replaying its log, so a killed server resumes every game exactly.

Bots run as one asyncio task per table. A bot's random choices are seeded from the table's
seed, its seat and the state's version, so a game between bots continues identically after a
restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tiergarten import bots
from tiergarten.bots import Bot
from tiergarten.core import IllegalAction, OptionError, State, load, replay
from tiergarten.core.game import Action, fresh_seed
from tiergarten.core.realtime import TimedView

from .protocol import MAX_MESSAGE, NAME_LENGTH, PROTOCOL, Act, Auth, ClientMessage, SeatSpec
from .store import SeatRow, Store, TableRow

log = logging.getLogger("tiergarten.server")


@dataclass
class Settings:
    """How the server paces bots and limits clients (tests shrink the times)."""

    bot_pace: float = 1.0  # multiplies a bot's nominal delay (1 s per ordinary move)
    away_after: float = 20.0  # seconds a person may be disconnected before a bot steps in
    max_message: int = MAX_MESSAGE  # bytes per client message
    rate: float = 10.0  # client messages per second, sustained
    burst: int = 30  # client messages at once
    allow_seeds: bool = False  # let a table's creator pick the seed (tests, reproductions)
    queue_limit: int = 1000  # unsent messages before a slow connection is closed


class TableError(ValueError):
    """A request about a table that cannot be met; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


STANDINS = ("heuristic", "greedy")  # preferred stand-in bots, if the game has them


def standin_name(game_id: str) -> str:
    """The bot that plays for a person who is away: the game's own bot, else random."""
    known = bots.names(game_id)
    for name in (*STANDINS, *known):
        if name in known and name != "random":
            return name
    return "random"


class Connection:
    """One websocket as a table sees it: a seat (None = spectator) and an outbox of JSON text.

    The transport drains `outbox`; a `None` in it means close (with `close_code`).
    """

    def __init__(self, seat: int | None, queue_limit: int = 1000) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.close_code = 1000
        self.close_reason = ""
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= self.queue_limit:
            self.close(1008, "too many unsent messages")
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))

    def error(self, code: str, message: str, version: int | None = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "version": version})

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        """Close after the messages already queued (or at once, dropping them)."""
        if drop:
            while not self.outbox.empty():
                self.outbox.get_nowait()
        if not self.closed:
            self.close_code, self.close_reason, self.closed = code, reason, True
            self.outbox.put_nowait(None)


@dataclass
class Plan:
    """A bot's next move: which seat, what, and its nominal delay (seconds)."""

    seat: int
    action: Action
    delay: float


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
        self._last_change = self._started
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
            "timer": self.row.timer, "created": self.row.created.isoformat(),
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

    def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Act on one validated client message."""
        if isinstance(message, Auth):
            seat = self.seat_of(message.token)
            if seat is None:
                conn.error("bad_token", "this token claims no seat at this table")
                return
            self.disconnect(conn)
            conn.seat = seat
            self.connect(conn)
        elif isinstance(message, Act):
            self._act(conn, message)
        else:
            conn.send(self._state_message(conn.seat, 0))

    def _act(self, conn: Connection, message: Act) -> None:
        seat, version = conn.seat, self.version
        if seat is None:
            conn.error("not_seated", "spectators cannot act; join a seat or connect with its "
                       "token", version)
        elif self.status != "playing":
            why = "the game is over" if self.status == "over" else (
                "the game starts when every seat is taken")
            conn.error("not_playing", why, version)
        elif message.version != version:
            conn.error("stale", f"you acted on version {message.version}, but the table is at "
                       f"version {version}; nothing changed", version)
        else:
            self._come_back(seat)
            try:
                self.apply(seat, message.act)
            except IllegalAction as exc:
                conn.error("illegal", str(exc), version)

    def _is_connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    # -- playing -----------------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply one action, commit it to the log, then tell every connection."""
        state = self.state
        index = self.version
        before = _event_count(state)
        try:
            state.apply(seat, action)  # IllegalAction leaves the state unchanged
        except IllegalAction:
            raise
        except Exception:  # a bug in a game: the log is still right, so rebuild from it
            log.exception("table %s: applying %r for seat %d failed", self.id, action, seat)
            self.state = replay(self._reload().record())
            raise
        notation = state.history[-1][1].text
        try:
            self.store.append_action(self.id, index, seat, notation)
        except Exception:
            log.exception("table %s: could not store action %d; rebuilding from the log",
                          self.id, index)
            self.state = replay(self._reload().record())
            raise IllegalAction("the server could not store this action; try again") from None
        self.row.actions.append((seat, notation))
        if state.is_over():
            self._set_status("over")
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
            try:  # bots think in a worker thread, on a copy, so the server stays responsive
                plan = await asyncio.to_thread(self._plan, self._bots_in_control(),
                                               self.state.clone(), self._now())
            except Exception:
                log.exception("table %s: a bot failed at version %d", self.id, version)
                plan = None
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
                if plan is not None:
                    self.apply(plan.seat, plan.action)
                else:
                    self._time_out()
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
        return self._loop.time() - self._started

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

    def _time_out(self) -> None:
        """The turn timer ran out: a bot plays the seat whose move is due, until it returns."""
        waiting = self._people_to_move()
        plan = self._plan({s: self._bot(s) for s in waiting}, self.state, self._now())
        if plan is None:
            return
        self._go_away(plan.seat)
        self.apply(plan.seat, plan.action)

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


def _event_count(state: State) -> int:
    events = getattr(state, "events", None)
    return len(events) if isinstance(events, list) else 0


class TableManager:
    """Every table of one server: creates, finds, recovers and stops them."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, LiveTable] = {}

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log and let its bots play on."""
        count = 0
        for table_id in self.store.table_ids(("open", "playing")):
            try:
                table = self.get(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", table_id)
                continue
            if table is not None:
                table.start_if_full()
                count += 1
        return count

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()

    def get(self, table_id: str) -> LiveTable | None:
        """The live table, rebuilt from the database on first use; None if unknown."""
        table = self.tables.get(table_id)
        if table is None:
            row = self.store.load_table(table_id)
            if row is None:
                return None
            table = self._keep(LiveTable(row, self.store, self.settings))
            table.rematch = self.store.rematch_id(table_id)
        return table

    def _keep(self, table: LiveTable) -> LiveTable:
        """Hold a table in memory until it is over and nobody watches it any more."""
        self.tables[table.id] = table
        table.on_idle = self._forget
        return table

    def _forget(self, table: LiveTable) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]  # the database has all of it; `get` rebuilds it

    def create(self, game_id: str, players: int | None, options: dict[str, Any],
               seats: list[SeatSpec | None], timer: float | None = None,
               seed: int | None = None, rematch_of: TableRow | None = None) -> LiveTable:
        """A new table; bad games, options, player counts or bot names raise OptionError."""
        game = load(game_id, players, **options)
        if len(seats) > game.players:
            raise OptionError(f"{len(seats)} seats given for {game.players} players")
        if seed is not None and not self.settings.allow_seeds:
            raise OptionError("this server does not let a table's creator choose the seed")
        rows = []
        for seat in range(game.players):
            spec = seats[seat] if seat < len(seats) else None
            if spec is not None and spec.bot is not None:
                bots.make(spec.bot, game, seat, random.Random(0))  # unknown names raise OptionError
                rows.append(SeatRow(seat, "bot", bot=spec.bot))
            else:
                rows.append(SeatRow(seat, "human"))
        if rematch_of is not None:
            rows = [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash)
                    for s in rematch_of.seats]
        table_id = secrets.token_urlsafe(9)
        row = self.store.create_table(
            table_id, game.id, game.players, dict(game.options),
            fresh_seed() if seed is None else seed, rows, timer,
            None if rematch_of is None else rematch_of.id)
        table = self._keep(LiveTable(row, self.store, self.settings))
        table.start_if_full()
        return table

    def join(self, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        """Claim an open seat for `name`; returns the seat and its token (shown only once)."""
        table = self._need(table_id)
        name = " ".join(name.split())[:NAME_LENGTH]
        if not name:
            raise TableError("a name is needed to sit down")
        free = table.open_seats()
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise TableError("that seat is taken or not for a person" if free
                             else "no seat is open at this table", 409)
        token = secrets.token_urlsafe(24)
        if not self.store.claim_seat(table_id, seat, name, hash_token(token)):
            raise TableError("that seat was just taken", 409)
        row = table.row.seats[seat]
        row.name, row.token_hash = name, hash_token(token)
        table.broadcast_info()
        table.start_if_full()
        return seat, token

    def rematch(self, table_id: str, token: str) -> LiveTable:
        """A new table with the same game, options, bots and people (same tokens)."""
        table = self._need(table_id)
        if table.seat_of(token) is None:
            raise TableError("only someone seated at the table may ask for a rematch", 403)
        if table.status != "over":
            raise TableError("a rematch is for a finished game", 409)
        if table.rematch is not None:
            return self._need(table.rematch)
        new = self.create(table.row.game, table.row.players, table.row.options, [],
                          table.row.timer, rematch_of=table.row)
        table.rematch = new.id
        table.broadcast_info()
        return new

    def open_tables(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if t.status == "open" and t.open_seats()]

    def _need(self, table_id: str) -> LiveTable:
        table = self.get(table_id)
        if table is None:
            raise TableError(f"there is no table {table_id!r}", 404)
        return table

