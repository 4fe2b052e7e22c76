"""A live table: a small mediator between its log, its seats, its connections and its features.

The server never decides a rule. A table checks seat and version, has the game check and
apply an act (`TableLog`: committed before anyone hears of it), and then sends each connection
a message built from its own seat's observation and legal actions. On start every unfinished
table is rebuilt by replaying its log, so a killed server resumes every game exactly.

It holds its log (table_log.py), its seats (seats.py) and its spec (spec.py); it is given its
`Store` and its `Transport` (transport.py: its connections, by seat); its acts reach the log
through its act order (the turn order, turns.py, or the one a feature brings); and all else it
does are its features (features/, behind the hooks of feature.py; none is named here). Each
client message goes to whoever handles its type: the table (`token`, `sync`, `act`) or a
feature. docs/architecture.md, "The live table", follows an act through it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
from collections.abc import Callable
from typing import Any, TypeVar

from tiergarten.core import State

from ..edge import metrics
from ..edge.protocol import Act, Auth, Chat, ChatBefore, Press, React, Sync, TableMessage
from ..edge.settings import Settings, TableError, hash_token
from ..edge.writer import text
from ..storage.store import Store, TableRow
from . import messages
from .feature import ActOrder, Feature, Features, Handler
from .features import FEATURES
from .features.chat import TableChat
from .seats import Seats
from .spec import TableSpec, document, read
from .table_log import Entry, TableLog
from .transport import Peer, Transport
from .turns import TurnOrder, seat_may_act, stale

# what a connection says to its table (not pongs)
ToTable = Act | Auth | Sync | Chat | React | Press | ChatBefore
F = TypeVar("F", bound=Feature)


class LiveTable:
    """One table in memory: its log, seats and features, and its audience."""

    def __init__(self, row: TableRow, store: Store, transport: Transport,
                 settings: Settings) -> None:
        self.row = row
        self.id = row.id
        self.store = store
        self.transport = transport
        self.settings = settings
        self.spec, self.started = read(row)  # what its creator chose; when the game began
        self.seats = Seats(row.seats)
        self.loop = asyncio.get_running_loop()
        self.log = TableLog(row, store, self._published, settings.db_retry)
        self.real_time = self.log.state.game.info.real_time
        self.rematch: str | None = None
        self.on_idle: Callable[[LiveTable], None] | None = None  # nobody connected now
        self.on_over: Callable[[LiveTable], None] | None = None  # the game has just ended
        self.stopping = False  # stopped: messages still arriving are ignored
        self._acts = metrics.ACTS.labels(game=row.game)
        self._seating: asyncio.TimerHandle | None = None  # a `table` message due soon
        self.same_name: Callable[[str, str], bool] | None = None  # (the manager's)
        self.features = Features()
        self.features.attach(FEATURES, self)
        # spectators are numbered in order of arrival (1, 2, ...), on from those its chat names
        chat = self.feature(TableChat)
        self.spectators = 0 if chat is None else chat.spectators
        self.order: ActOrder = self.features.order() or TurnOrder(self.log)
        self._handlers: dict[type[Any], Handler] = {
            Auth: self._auth, Sync: self._sync, Act: self._act,
            **self.features.handlers(FEATURES, lambda: self.version)}

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

    def feature(self, kind: type[F]) -> F | None:
        """The table's feature of that kind, if it has one."""
        return self.features.find(kind)

    def seat_of(self, token: str) -> int | None:
        """The seat a token claims, or None."""
        return self.seats.seat_of(token)

    def open_seats(self) -> list[int]:
        return self.seats.open()

    def passes_for_account(self, name: str) -> bool:
        """Whether a guest's `name` would pass for an account seated here (`same_name`)."""
        return self.same_name is not None and self.seats.passes_for(name, self.same_name)

    def is_connected(self, seat: int) -> bool:
        return seat in self.transport.audience(self.id)

    def is_creator(self, token: str) -> bool:
        return self.row.owner_hash is not None and hmac.compare_digest(
            self.row.owner_hash, hash_token(token))

    def info(self) -> TableMessage:
        """Public facts of the table: game, options, settings, status and who sits where."""
        seats = self.seats.info(self.transport.audience(self.id))
        return messages.table_message(self.row, self.spec, self.status, self.version,
                                      self.state.game.rules, seats, self.rematch)

    def respecify(self, spec: TableSpec | None = None,
                  started: dt.datetime | None = None) -> None:
        """Keep a changed spec (a switch), or the moment the game began, and store them."""
        self.spec = spec or self.spec
        self.started = started or self.started
        self.row.extra = document(self.spec, self.started)
        self.store.set_extra(self.id, self.row.extra)

    # -- connections -------------------------------------------------------------------------

    def connect(self, peer: Peer) -> None:
        """Greet a new connection with the protocol, the table and its seat's state. The
        others hear of it only if it connects a seat that had no connection (a spectator or
        a second tab changes no seating)."""
        seat = peer.seat
        new_seat = seat is not None and not self.is_connected(seat)
        peer.spectator = None
        if seat is None:  # a public label, "spectator 2": it tells only the order of arrival
            self.spectators += 1
            peer.spectator = self.spectators
        self.transport.attach(self.id, peer)
        peer.send(text(messages.hello(self.row, seat, self.settings, self.real_time,
                                      peer.spectator)))
        if seat is not None:
            self.features.present(seat)
        peer.send(text(self.info()))
        peer.send(self._state(seat, None))
        self.features.greeted(peer)
        if new_seat:
            self.seating_changed()

    def disconnect(self, peer: Peer) -> None:
        self.transport.detach(self.id, peer)
        seat = peer.seat
        if seat is not None and not self.is_connected(seat):
            self.features.disconnected(seat)
            self.seating_changed()
        self._idle_check()

    def _idle_check(self) -> None:
        if not self.stopping and not self.transport.audience(self.id) and self.on_idle:
            self.on_idle(self)

    async def handle(self, peer: Peer, message: ToTable, arrival: float | None = None) -> None:
        """Act on one validated client message (an act returns once applied or refused, or at a
        real-time table once held). `arrival` (the loop's clock): when it reached the server,
        if not now (an act forwarded from the process holding the connection)."""
        if self.stopping:
            return  # the connection is being closed with the reason; nothing is applied
        now = self.loop.time()
        await self._handlers[type(message)](peer, message, now if arrival is None
                                            else min(arrival, now))

    async def _auth(self, peer: Peer, message: Auth, arrival: float) -> None:
        seat = self.seat_of(message.token)
        if seat is None:
            peer.error("bad_token", "this token claims no seat at this table")
            return
        self.disconnect(peer)
        peer.seat = seat
        self.connect(peer)

    async def _sync(self, peer: Peer, message: Sync, arrival: float) -> None:
        peer.send(self._state(peer.seat, None))  # the whole log again

    async def _act(self, peer: Peer, message: Act, arrival: float) -> None:
        """Checked here (seated, playing, not stale, permitted by every feature), then the act
        order's: at once in turn, or held in fair order."""
        seat = self.may_act(peer)
        if seat is None:
            return
        if self.order.is_stale(message.version):
            stale(peer, message.version, self.version)
            return
        refusal = self.features.permits(seat, message.act)
        if refusal is not None:
            peer.error(refusal.code, refusal.message, self.version)
            return
        self.features.present(seat)
        await self.order.submit(peer, seat, message, arrival)

    def may_act(self, peer: Peer) -> int | None:
        """The seat of `peer` if it may act now; if not, it is told why."""
        return seat_may_act(peer, self.status, self.version)

    def present(self, seat: int) -> None:
        self.features.present(seat)

    async def settled(self) -> None:
        """Wait until every act held so far has been settled (for tests)."""
        await self.order.settled()

    # -- telling -----------------------------------------------------------------------------

    def _published(self, entry: Entry | None) -> None:
        """The log holds a new act (or was read back from the store, `None`): the features
        hear of it, then everybody, each from their own seat."""
        if entry is not None:
            self._acts.inc()
        self.features.published(entry)
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
            self.transport.deliver(self.id, seat, self._state(seat, new_events))

    def broadcast_info(self) -> None:
        """Send everybody the table now (a connection that has it already gets nothing)."""
        if self._seating is not None:
            self._seating.cancel()
            self._seating = None
        self.transport.deliver_all(self.id, text(self.info()))

    def seating_changed(self) -> None:
        """Someone connected, went or came back: one `table` message for all such changes
        within `seating_every` seconds, however many (a burst costs everyone one message)."""
        if self.settings.seating_every <= 0:
            self.broadcast_info()
        elif self._seating is None:
            self._seating = self.loop.call_later(self.settings.seating_every,
                                                 self.broadcast_info)

    def _state(self, seat: int | None, new_events: int | None) -> str:
        """`seat`'s state (messages.py), with its legal actions as the features offer them
        and what they add to it; `new_events`: the log entries the last act added (None: the
        whole log)."""
        legal: list[str] = []
        if seat is not None and self.status == "playing":
            legal = self.features.offer(seat, [a.text for a in self.state.legal_actions(seat)])
        return messages.state(self.state, self.version, seat, legal, new_events,
                              self.features.adds(seat), waiting=self.status == "open")

    # -- starting, stopping, leaving ---------------------------------------------------------

    def start_if_full(self) -> None:
        """Start the game once every seat is taken; at a game under way (rebuilt), play on."""
        if self.status == "open" and not self.open_seats():
            self.log.start()
            self.features.started(fresh=True)
            self.broadcast_info()
            self.broadcast(None)  # the game begins: everyone gets the deal's entries
        elif self.status == "playing":
            self.features.started(fresh=False)

    async def stop(self, code: int = 1001, reason: str = "the server is stopping") -> None:
        """Stop playing: the features stop (acts held but not settled are dropped: never
        committed, so never told, no loss), the commit in hand finishes and is told, then
        every connection is closed with `code` and `reason`."""
        self.stopping = True
        await self.features.stop()
        async with self.log.turn:  # the act being committed, if any, is stored and told
            pass
        await self.log.stop()
        if self._seating is not None:
            self._seating.cancel()
        self.transport.close_table(self.id, code, reason)

    def leave(self, token: str) -> int:
        """A person leaves: before the game the seat opens again; during it a bot plays on
        until the person comes back with the same token."""
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("this token claims no seat at this table", 403, "bad_token")
        if self.status == "open":
            self.store.set_seat(self.id, self.seats.freed(seat))
            self.seats.free(seat)  # once stored (a database that is away changes nothing)
            self.transport.close_seat(self.id, seat, 4403, "you left this seat")
        elif self.status == "playing":
            self.features.left(seat)
        self.broadcast_info()
        return seat
