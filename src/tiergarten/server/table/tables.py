"""A live table: its parts wired together, and the protocol's answers to each connection.

The server never decides a rule. A table checks seat and version, has the game check and
apply an act (`TableLog`: committed before anyone hears of it), and then sends each connection
a message built from its own seat's observation and legal actions. On start every unfinished
table is rebuilt by replaying its log, so a killed server resumes every game exactly.

The parts, each in its own module, and what the table gives them from outside:

- `TableLog` (table_log.py): the state rebuilt from the log, apply, commit, publish — through
  the `Store` it is given;
- `Seats` (seats.py): who sits where, the token hashes, who is away;
- `BotDriver` (bot_driver.py): bots, stand-ins, turn and away timers;
- `FairQueue` (fair_queue.py), at real-time tables only: acts held and settled in credited
  order;
- a `Transport` (transport.py), given from outside: the connections of the table by seat.

At a turn-based table an act made against an older version is refused as `stale` (the log's
compare-and-append). At a real-time table (`GameInfo.real_time`) acts are ordered fairly and the
game alone says whether each still counts, given the version its player had seen
(`state.is_void(seat, action, seen)`; void acts are never applied); see "Fair hits in
real-time games" in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import hmac
from collections.abc import Callable
from typing import Any

import orjson

from tiergarten.core import IllegalAction, State

from ..edge import metrics
from ..edge.protocol import PROTOCOL, Act, Auth, Chat, Press, React, Sync
from ..edge.settings import Settings, TableError, hash_token
from ..storage.store import Store, TableRow
from .bot_driver import BotDriver, BotMove
from .chat import TableChat
from .clock import Clock, due, from_log
from .fair_queue import FairQueue, Held, credited
from .seats import Seats
from .spec import PlayerClock, document, read, timer_column
from .table_log import Entry, StoreFailed, TableLog
from .transport import Peer, Transport
from .tutorial import TUTORIALS, Coach, moves_made

# what a connection says to its table (not pongs)
ToTable = Act | Auth | Sync | Chat | React | Press


class LiveTable:
    """One table in memory: its log, seats, bots and (real time) fair order, and its audience."""

    def __init__(self, row: TableRow, store: Store, transport: Transport,
                 settings: Settings) -> None:
        self.row = row
        self.id = row.id
        self.store = store
        self.transport = transport
        self.settings = settings
        self.spec, self.started = read(row)  # what its creator chose; when the game began
        self.seats = Seats(row.seats)
        self.log = TableLog(row, store, self._published, settings.db_retry)
        self.real_time = self.log.state.game.info.real_time
        self.fair = FairQueue(self._window, self._settle) if self.real_time else None
        self.bots = BotDriver(self.log, self.seats, settings, self._fire, self.seating_changed,
                              self._is_connected)
        self.rematch: str | None = None
        self.on_idle: Callable[[LiveTable], None] | None = None  # over and nobody watching
        self.stopping = False  # stopped: messages still arriving are ignored
        self._acts = metrics.ACTS.labels(game=row.game)
        self.on_over: Callable[[LiveTable], None] | None = None  # the game has just ended
        self._loop = asyncio.get_running_loop()
        self.chat = TableChat(row.id, store, transport, self.spec.chat)
        self.clock = self._make_clock()
        self.bots.clock = self.clock
        tutorial = self.spec.tutorial
        self.coach = (Coach(tutorial, TUTORIALS[tutorial])
                      if tutorial in TUTORIALS else None)  # the learner is seat 0
        self._seating: asyncio.TimerHandle | None = None  # a `table` message due soon

    # -- facts -------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.log.state

    @property
    def version(self) -> int:
        return self.log.version

    @property
    def status(self) -> str:
        return self.log.status

    def seat_of(self, token: str) -> int | None:
        """The seat a token claims, or None."""
        return self.seats.seat_of(token)

    def open_seats(self) -> list[int]:
        return self.seats.open()

    def info(self) -> dict[str, Any]:
        """Public facts of the table: game, options, status and who sits where."""
        return {
            "type": "table", "id": self.id, "game": self.row.game, "players": self.row.players,
            "options": self.row.options, "status": self.status, "version": self.version,
            "timer": timer_column(self.spec), "hints": self.spec.hints, "chat": self.chat.on,
            "clock": (self.spec.time.model_dump(exclude={"kind"})
                      if isinstance(self.spec.time, PlayerClock) else None),
            "tutorial": self.spec.tutorial,
            "created": self.row.created.isoformat(), "rules": self.state.game.rules,
            "rematch": self.rematch,
            "seats": self.seats.info(self.transport.audience(self.id)),
        }

    def _make_clock(self) -> Clock | None:
        spec = self.spec.time
        if not isinstance(spec, PlayerClock):
            return None
        if self.status == "playing":  # rebuilt (a restart, another worker): from the log
            return from_log(spec.bank, spec.increment, self.state.game.new_state(self.row.seed),
                            self.row.actions, self.store.action_times(self.id), self.started,
                            self.seats.people(), self.row.players, self._loop.time())
        return Clock(spec.bank, spec.increment, self.seats.people(), self._loop.time(),
                     self.row.players)

    def _due_people(self) -> list[int]:
        return due(self.state, self.seats.people())

    def _is_connected(self, seat: int) -> bool:
        return seat in self.transport.audience(self.id)

    # -- connections -------------------------------------------------------------------------

    def connect(self, peer: Peer) -> None:
        """Greet a new connection with the protocol, the table and its seat's state. The
        others hear of it only if it connects a seat that had no connection (a spectator or
        a second tab changes no seating)."""
        seat = peer.seat
        new_seat = seat is not None and not self._is_connected(seat)
        self.transport.attach(self.id, peer)
        peer.send({"type": "hello", "protocol": PROTOCOL, "table": self.id,
                   "game": self.row.game, "players": self.row.players, "seat": seat,
                   "limits": {"max_message": self.settings.max_message,
                              "rate": self.settings.rate, "burst": self.settings.burst},
                   "call_window": self.settings.call_window if self.real_time else None})
        if seat is not None:
            self.bots.come_back(seat)
        peer.send(_text(self.info()))
        peer.send(self._state_message(seat, None))
        peer.send(self.chat.log_message())
        if new_seat:
            self.seating_changed()

    def disconnect(self, peer: Peer) -> None:
        self.transport.detach(self.id, peer)
        seat = peer.seat
        if seat is not None and not self._is_connected(seat):
            if self.status == "playing":
                self.bots.arm_away_timer(seat)
            self.seating_changed()
        self._idle_check()

    def _idle_check(self) -> None:
        if self.status == "over" and not self.transport.audience(self.id) and self.on_idle:
            self.on_idle(self)

    async def handle(self, peer: Peer, message: ToTable, arrival: float | None = None) -> None:
        """Act on one validated client message. An act at a turn-based table returns once it
        is applied (or refused); at a real-time table once it is held (see `_settle`).
        `arrival` (the loop's clock) is when it reached the server, if not now: an act
        forwarded from the process holding the connection (server/cluster)."""
        if self.stopping:
            return  # the connection is being closed with the reason; nothing is applied
        if isinstance(message, Auth):
            seat = self.seat_of(message.token)
            if seat is None:
                peer.error("bad_token", "this token claims no seat at this table")
                return
            self.disconnect(peer)
            peer.seat = seat
            self.connect(peer)
        elif isinstance(message, Chat | React):
            name = None if peer.seat is None else (self.seats.rows[peer.seat].name or "")
            await self.chat.say(peer, message, name, self.version)
        elif isinstance(message, Act):
            if self.real_time:
                self._act_fairly(peer, message, arrival)
            else:
                await self._act(peer, message, self._loop.time() if arrival is None else arrival)
        elif isinstance(message, Press):
            self._press(peer, message, arrival)
        else:  # a sync: the whole log again
            peer.send(self._state_message(peer.seat, None))

    def _may_act(self, peer: Peer) -> bool:
        """Whether `peer` holds a seat and the game is on; if not, it is told why."""
        if peer.seat is None:
            peer.error("not_seated", "spectators cannot act; join a seat or connect with its "
                       "token", self.version)
        elif self.status != "playing":
            why = "the game is over" if self.status == "over" else (
                "the game starts when every seat is taken")
            peer.error("not_playing", why, self.version)
        else:
            return True
        return False

    # -- acts at turn-based tables -----------------------------------------------------------

    async def _act(self, peer: Peer, message: Act, arrival: float) -> None:
        seat, version = peer.seat, self.version
        if not self._may_act(peer) or seat is None:
            return
        if message.version != version:
            _stale(peer, message.version, version)
            return
        if not self._coach_permits(peer, seat, message.act):
            return
        self.bots.come_back(seat)
        try:
            if await self.log.apply(seat, message.act, expect=version):
                metrics.ACT_TO_UPDATE.observe(self._loop.time() - arrival)
            else:
                _stale(peer, version, self.version)  # another act came first
        except IllegalAction as exc:
            _illegal(peer, exc, version)
        except StoreFailed as exc:
            peer.error(exc.code, str(exc), self.version)

    # -- acts at real-time tables: the fair order, judged by the game ------------------------

    def _act_fairly(self, peer: Peer, message: Act, arrival: float | None = None) -> None:
        """Checked for seat, phase and version at once, credited at arrival minus the
        connection's latency credit, then held in order (or void at once, if the game says
        so already)."""
        arrival = self._loop.time() if arrival is None else min(arrival, self._loop.time())
        seat, version = peer.seat, self.version
        if not self._may_act(peer) or seat is None or self.fair is None:
            return
        if message.version > version:
            _stale(peer, message.version, version)
            return
        if not self._coach_permits(peer, seat, message.act):
            return
        self.bots.come_back(seat)
        try:
            action = self.state.game.parse_action(message.act)
        except IllegalAction as exc:
            self.fair.withdraw(seat)
            _illegal(peer, exc, version)
            return
        pressed = self.fair.pressed(seat)  # the call of a press: its moment, its version
        seen = message.version if pressed is None else pressed.seen
        if self.state.is_void(seat, action, seen):
            self.fair.withdraw(seat)
            self._void(peer, seen)
            return
        if pressed is not None:
            self.fair.call(seat, action)
            return
        credit = credited(arrival, peer.credit(self.settings.hit_cap),
                          self.log.reached_at(message.version))
        self.fair.hold(credit, seat, action, message.version, peer)

    def _press(self, peer: Peer, message: Press, arrival: float | None = None) -> None:
        """The club is pressed (or the press given up): the moment is credited like an act
        and held in the fair order, where it waits up to `call_window` for its call."""
        arrival = self._loop.time() if arrival is None else min(arrival, self._loop.time())
        seat, version = peer.seat, self.version
        if self.fair is None:
            peer.error("bad_message", "a press is for real-time tables only; send the act",
                       version)
            return
        if not self._may_act(peer) or seat is None:
            return
        if not message.press:
            self.fair.withdraw(seat)
            return
        if message.version > version:
            _stale(peer, message.version, version)
            return
        self.bots.come_back(seat)
        credit = credited(arrival, peer.credit(self.settings.hit_cap),
                          self.log.reached_at(message.version))
        self.fair.press(credit, seat, message.version, arrival + self.settings.call_window,
                        peer)

    def _coach_permits(self, peer: Peer, seat: int, act: str) -> bool:
        """At a tutorial table: whether the coach's step lets the learner make this move."""
        coach = self.coach
        if coach is None or seat != coach.seat:
            return True
        made = moves_made(self.state.history, seat)
        legal = [a.text for a in self.state.legal_actions(seat)]
        if coach.permits(made, legal, act):
            return True
        peer.error("tutorial", f"this step of the tutorial teaches another move: one of "
                   f"{', '.join(coach.filter(made, legal))}", self.version)
        return False

    def _window(self) -> float:
        """How long an act waits after its credited time: the largest latency credit of any
        seated connection now (never more than the cap)."""
        return self.transport.latency_credit(self.id, self.settings.hit_cap)

    async def settled(self) -> None:
        """Wait until every act released from the fair order has been settled (for tests)."""
        if self.fair is not None:
            await self.fair.settled()

    async def _settle(self, held: Held) -> None:
        """A held act's turn: the game says whether it still counts, then applies it."""
        assert held.action is not None  # a press is settled only once its call filled it
        try:
            applied = await self.log.apply(held.seat, held.action,
                                           check=lambda state: self._counts(held, state))
        except IllegalAction as exc:
            if held.peer is not None:
                _illegal(held.peer, exc, self.version)
            elif self.version != held.seen:  # a bot's move the table outran: it chooses again
                _finish(held.done, False)
            else:
                _finish(held.done, exc)
        except StoreFailed as exc:
            if held.peer is not None:
                held.peer.error(exc.code, str(exc), self.version)
            _finish(held.done, exc)
        except Exception as exc:
            if held.peer is not None:
                held.peer.error("server_error", f"the server could not handle this message: "
                                f"{exc}", self.version)
            _finish(held.done, exc)
        else:
            if applied:
                if held.peer is not None:  # from its credited time: the fair hold is in it
                    metrics.ACT_TO_UPDATE.observe(self._loop.time() - held.credit)
                _finish(held.done, True)

    def _counts(self, held: Held, state: State) -> bool:
        """At its turn: whether a held act goes ahead; if not, whoever made it learns why."""
        assert held.action is not None
        if self.status != "playing":
            if held.peer is not None:
                held.peer.error("not_playing", "the game is over", self.version)
        elif state.is_void(held.seat, held.action, held.seen):
            self._void(held.peer, held.seen)
        elif held.peer is None and held.seat not in self.seats.played_by_bots():
            pass  # its person came back while the bot's move was held
        else:
            return True
        _finish(held.done, False)
        return False

    def _void(self, peer: Peer | None, seen: int) -> None:
        """Someone else's act came first: this one changes nothing, and is not a mistake."""
        if peer is not None:
            peer.error("void", f"someone acted first: your act on version {seen} did not count "
                       f"(the table is at version {self.version}); nothing changed",
                       self.version)

    async def _fire(self, move: BotMove, version: int) -> None:
        """Play a bot's move: at once at a turn-based table; at a real-time table it joins
        the fair order, credited now, like a person's act with no latency."""
        if self.fair is None:
            await self.log.apply(move.seat, move.action, expect=version)  # False: too late
            return
        done: asyncio.Future[bool] = self._loop.create_future()
        self.fair.hold(self._loop.time(), move.seat, move.action, version, None, done)
        await done  # applied, void (someone was first) or raises what applying raised

    # -- telling -----------------------------------------------------------------------------

    def _published(self, entry: Entry | None) -> None:
        """The log holds a new act (or was read back from the store, `None`): everybody hears
        of it, each from their own seat."""
        if entry is not None:
            self._acts.inc()
        if self.clock is not None:
            self.clock.moved(None if entry is None else entry.seat, self._due_people(),
                             self._loop.time())
            if self.state.is_over():
                self.clock.stop(self._loop.time())
        self.bots.wake()
        self.broadcast(None if entry is None else entry.events)  # None: read back, send it all
        if self.state.is_over():
            if self.on_over is not None:
                self.on_over(self)
            self.broadcast_info()
            self._idle_check()

    def broadcast(self, new_events: int | None) -> None:
        """Send every seat listening its own state (one observation per seat) with the log
        entries the act added (`new_events`; None: the whole log); a seating change still due
        goes out first, so nobody sees a stand-in move before the stand-in."""
        if self._seating is not None:
            self.broadcast_info()
        for seat in self.transport.audience(self.id):
            self.transport.deliver(self.id, seat,
                                   _text(self._state_message(seat, new_events)))

    def broadcast_info(self) -> None:
        """Send everybody the table now (a connection that has it already gets nothing)."""
        if self._seating is not None:
            self._seating.cancel()
            self._seating = None
        self.transport.deliver_all(self.id, _text(self.info()))

    def seating_changed(self) -> None:
        """Someone connected, went or came back: one `table` message for all such changes
        within `seating_every` seconds, however many (a burst costs everyone one message)."""
        if self.settings.seating_every <= 0:
            self.broadcast_info()
        elif self._seating is None:
            self._seating = self._loop.call_later(self.settings.seating_every,
                                                  self.broadcast_info)

    def _state_message(self, seat: int | None, new_events: int | None) -> dict[str, Any]:
        """Built from `seat`'s observation, log and legal actions only. `log` holds the log
        entries from position `log_from` on: every one (from 0) when `new_events` is None (a
        greeting, a sync, a state read back), else the `new_events` the last act added."""
        observation = self.state.observe(seat)
        legal: list[str] = []
        if seat is not None and self.status == "playing":
            legal = [a.text for a in self.state.legal_actions(seat)]
        coach = self.coach
        if coach is not None and seat == coach.seat:
            made = moves_made(self.state.history, seat)
            legal = coach.filter(made, legal) if legal else legal
        size = len(self.state.events)
        start = 0 if new_events is None else max(0, size - new_events)
        log = self.state.log_since(seat, start)
        message = {"type": "state", "version": self.version, "seat": seat,
                   "observation": observation, "legal": legal,
                   "events": [] if new_events is None else log, "log": log, "log_from": start}
        if self.clock is not None:
            message["clock"] = self.clock.view(self._loop.time())
        if coach is not None and seat == coach.seat:
            message["coach"] = coach.view(moves_made(self.state.history, seat))
        return message

    # -- starting, stopping, leaving ---------------------------------------------------------

    def start_if_full(self) -> None:
        if self.status == "open" and not self.open_seats():
            self.log.start()
            if self.clock is not None:
                self.clock.moved(None, self._due_people(), self._loop.time())
                self.started = dt.datetime.now(dt.UTC)
                self._keep_spec()  # whence a rebuilt clock counts
            self.broadcast_info()
            self.broadcast(None)  # the game begins: everyone gets the deal's entries
        if self.status == "playing":
            self.run()

    def run(self) -> None:
        """Start the task that plays for bots and absent people (idempotent)."""
        self.bots.run()

    async def stop(self, code: int = 1001, reason: str = "the server is stopping") -> None:
        """Stop playing: acts held but not settled are dropped (never committed, so never
        told: no loss), the commit in hand finishes and is told, then every connection is
        closed with `code` and `reason`."""
        self.stopping = True
        if self.fair is not None:
            await self.fair.stop()
        await self.bots.stop()
        async with self.log.turn:  # the act being committed, if any, is stored and told
            pass
        await self.log.stop()
        if self._seating is not None:
            self._seating.cancel()
        self.transport.close_table(self.id, code, reason)

    def switch_chat(self, owner_token: str, on: bool) -> None:
        """The table's creator switches chat on or off for everyone."""
        if self.row.owner_hash is None or not hmac.compare_digest(
                self.row.owner_hash, hash_token(owner_token)):
            raise TableError("only the table's creator may switch its chat", 403)
        self.chat.on = on
        self.spec = self.spec.model_copy(update={"chat": on})
        self._keep_spec()
        self.broadcast_info()

    def _keep_spec(self) -> None:
        """Store the table's spec (and when its game began) anew."""
        self.row.extra = document(self.spec, self.started)
        self.store.set_extra(self.id, self.row.extra)

    def leave(self, token: str) -> int:
        """A person leaves: before the game the seat opens again; during it a bot plays on
        until the person comes back with the same token."""
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("this token claims no seat at this table", 403)
        if self.status == "open":
            freed = dataclasses.replace(self.seats.rows[seat], name=None, token_hash=None,
                                        user_id=None, account=None)
            self.store.set_seat(self.id, freed)
            self.seats.free(seat)  # once stored (a database that is away changes nothing)
            self.transport.close_seat(self.id, seat, 4403, "you left this seat")
        elif self.status == "playing":
            self.bots.go_away(seat)
        self.broadcast_info()
        return seat


def _illegal(peer: Peer, exc: IllegalAction, version: int) -> None:
    """The rules refused an act: the game's English reason, and its reason code and parameters
    (when the game gives them) so that a client can word it in its own language."""
    message: dict[str, Any] = {"type": "error", "code": "illegal", "message": str(exc),
                               "version": version}
    code = getattr(exc, "code", None)
    if code is not None:
        message["reason"] = code
        message["params"] = dict(getattr(exc, "params", {}))
    peer.send(message)


def _text(message: dict[str, Any]) -> str:
    """A message as JSON text: orjson, about 8x quicker than json.dumps on a state (the
    largest share of the server's time per act after the websocket writes; docs/deploy.md)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def _stale(peer: Peer, acted_on: int, version: int) -> None:
    peer.error("stale", f"you acted on version {acted_on}, but the table is at version "
               f"{version}; nothing changed", version)


def _finish(done: asyncio.Future[bool] | None, outcome: bool | BaseException) -> None:
    if done is None or done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)
