"""A table feature: a part of a live table that plugs into the table's named hooks.

A live table (tables.py) is a small mediator: it greets connections, hands each client message
to whoever handles its type, lets acts reach the log through its act order and tells everyone
what changed. Everything else a table does comes from its features (features/, listed in
`features.FEATURES`: chat, time, coach, fair order, bot seats), each behind these hooks, all of
which do nothing by default; a feature overrides those it needs:

- `attach(table)`: the feature at this table, or None where it has no part (the coach at a
  tutorial table only); `describe(spec)`: what it adds to the table's info (the `table`
  message), from the spec alone, so that a table nobody runs here is shown the same;
- `handles` and `handle(peer, message, arrival)`: the client messages it takes, by type (at a
  table without the feature such a message is refused, `bad_message`, in its `absent` words);
- `permits(seat, act)`: may this seat make this act now (None: yes; else the `Refusal`);
  `offer(seat, legal)`: the legal moves a seat's state shows; `adds(seat)`: the fields it
  adds to that seat's `state` message;
- `greeted(peer)`: a connection has been greeted (hello, table, state); `present(seat)`: the
  person of a seat is here (connected, or acting); `disconnected(seat)`: the seat's last
  connection went; `left(seat)`: its person gave the seat up during the game;
- `published(entry)`: the log holds a new act (None: it was read back from the store), told
  to the features before anyone hears of it; `started(fresh)`: the game is played from now on
  (begun just now, or rebuilt under way); `stop()`: the table stops;
- `order()`: how acts reach the log, if the feature decides that (one at most: the fair order
  of real-time tables); else the table's turn order (turns.py).

A feature sees its table through `Table`, and may look up a feature listed before it
(`table.feature(kind)`). `Features` calls each hook on the features that override it, in the
list's order (gathered once per table, as pytest gathers its plugins' hooks).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from tiergarten.core import State
from tiergarten.core.game import Action

from ..edge.protocol import Act, ClientMessage
from ..edge.settings import Settings
from ..storage.store import Store, TableRow
from .seats import Seats
from .spec import TableSpec
from .table_log import Entry, TableLog
from .transport import Peer, Transport

F = TypeVar("F", bound="Feature")
Handler = Callable[[Peer, Any, float], Awaitable[None]]  # a client message and its arrival


class Refusal(NamedTuple):
    """Why an act may not be made now: the error's code and its words."""

    code: str
    message: str


class ActOrder(Protocol):
    """How acts reach a table's log: at once in turn (turns.py), or in fair order."""

    def is_stale(self, seen: int) -> bool:
        """Whether an act made on version `seen` is refused as `stale` at once."""
        ...

    async def submit(self, peer: Peer, seat: int, message: Act, arrival: float) -> None:
        """A person's act, which the table and its features permit; the order answers."""
        ...

    async def play(self, seat: int, action: Action, version: int) -> None:
        """A bot's move chosen on `version`: returns once it is applied or dropped."""
        ...

    async def settled(self) -> None:
        """Until every act held so far has been settled (for tests)."""
        ...


class Table(Protocol):
    """What a feature may use of its table (a `LiveTable`)."""

    id: str
    row: TableRow
    spec: TableSpec
    started: dt.datetime | None  # when the game began (kept beside the spec)
    store: Store
    transport: Transport
    settings: Settings
    seats: Seats
    log: TableLog
    loop: asyncio.AbstractEventLoop
    real_time: bool
    order: ActOrder

    @property
    def state(self) -> State: ...

    @property
    def version(self) -> int: ...

    @property
    def status(self) -> str: ...

    def feature(self, kind: type[F]) -> F | None:
        """The table's feature of that kind, if it has one."""
        ...

    def is_connected(self, seat: int) -> bool: ...

    def passes_for_account(self, name: str) -> bool:
        """Whether a guest's name would pass for a seated account's."""
        ...

    def is_creator(self, token: str) -> bool:
        """Whether `token` is the table's creator's."""
        ...

    def may_act(self, peer: Peer) -> int | None:
        """The seat of `peer` if it may act now (seated, the game on); else it is told why."""
        ...

    def present(self, seat: int) -> None:
        """The person of `seat` is here: every feature hears of it."""
        ...

    def respecify(self, spec: TableSpec | None = None,
                  started: dt.datetime | None = None) -> None:
        """Keep a changed spec (or the moment the game began) and store it."""
        ...

    def seating_changed(self) -> None: ...

    def broadcast_info(self) -> None: ...


class Feature:
    """One feature of a table (see the module doc); every hook does nothing by default."""

    handles: ClassVar[tuple[type[ClientMessage], ...]] = ()  # the client messages it takes
    absent: ClassVar[str] = "this table takes no such message"  # ... where it has no part

    def __init__(self, table: Table) -> None:
        self.table = table

    @classmethod
    def attach(cls, table: Table) -> Feature | None:
        return cls(table)

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        return {}

    async def handle(self, peer: Peer, message: ClientMessage, arrival: float) -> None:
        pass

    def permits(self, seat: int, act: str) -> Refusal | None:
        return None

    def offer(self, seat: int, legal: list[str]) -> list[str]:
        return legal

    def adds(self, seat: int | None) -> dict[str, Any]:
        return {}

    def greeted(self, peer: Peer) -> None:
        pass

    def present(self, seat: int) -> None:
        pass

    def disconnected(self, seat: int) -> None:
        pass

    def left(self, seat: int) -> None:
        pass

    def published(self, entry: Entry | None) -> None:
        pass

    def started(self, fresh: bool) -> None:
        pass

    async def stop(self) -> None:
        pass

    def order(self) -> ActOrder | None:
        return None


def _having(features: Sequence[Feature], hook: str) -> list[Feature]:
    """The features that override `hook`."""
    return [f for f in features if getattr(type(f), hook) is not getattr(Feature, hook)]


class Features:
    """A table's features as one: each hook called on those that have it, in list order."""

    def __init__(self) -> None:
        self.all: list[Feature] = []

    def attach(self, kinds: Sequence[type[Feature]], table: Table) -> None:
        """Attach the features of `kinds` that have a part at `table`, in order (each may find
        those before it), then gather who has each hook."""
        for kind in kinds:
            found = kind.attach(table)
            if found is not None:
                self.all.append(found)
        self._permits = [f.permits for f in _having(self.all, "permits")]
        self._offer = [f.offer for f in _having(self.all, "offer")]
        self._adds = [f.adds for f in _having(self.all, "adds")]
        self._greeted = [f.greeted for f in _having(self.all, "greeted")]
        self._present = [f.present for f in _having(self.all, "present")]
        self._disconnected = [f.disconnected for f in _having(self.all, "disconnected")]
        self._left = [f.left for f in _having(self.all, "left")]
        self._published = [f.published for f in _having(self.all, "published")]
        self._started = [f.started for f in _having(self.all, "started")]
        self._stop = [f.stop for f in _having(self.all, "stop")]

    def find(self, kind: type[F]) -> F | None:
        return next((f for f in self.all if isinstance(f, kind)), None)

    def handlers(self, kinds: Sequence[type[Feature]],
                 version: Callable[[], int]) -> dict[type[Any], Handler]:
        """Who takes each client message a feature of `kinds` handles: the feature, or at a
        table without it a refusal in its words (with the table's `version` now)."""
        found: dict[type[Any], Handler] = {}
        for kind in kinds:
            here = self.find(kind)
            for message in kind.handles:
                found[message] = (here.handle if here is not None
                                  else _refusal(kind.absent, version))
        return found

    def order(self) -> ActOrder | None:
        return next((o for o in (f.order() for f in self.all) if o is not None), None)

    def permits(self, seat: int, act: str) -> Refusal | None:
        for permits in self._permits:
            refusal = permits(seat, act)
            if refusal is not None:
                return refusal
        return None

    def offer(self, seat: int, legal: list[str]) -> list[str]:
        for offer in self._offer:
            legal = offer(seat, legal)
        return legal

    def adds(self, seat: int | None) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for adds in self._adds:
            fields.update(adds(seat))
        return fields

    def greeted(self, peer: Peer) -> None:
        for greeted in self._greeted:
            greeted(peer)

    def present(self, seat: int) -> None:
        for present in self._present:
            present(seat)

    def disconnected(self, seat: int) -> None:
        for disconnected in self._disconnected:
            disconnected(seat)

    def left(self, seat: int) -> None:
        for left in self._left:
            left(seat)

    def published(self, entry: Entry | None) -> None:
        for published in self._published:
            published(entry)

    def started(self, fresh: bool) -> None:
        for started in self._started:
            started(fresh)

    async def stop(self) -> None:
        for stop in self._stop:
            await stop()


def _refusal(words: str, version: Callable[[], int]) -> Handler:
    async def refuse(peer: Peer, message: Any, arrival: float) -> None:
        peer.error("bad_message", words, version())

    return refuse
