"""The fair order of a real-time table (a table feature): how its acts reach the log.

An act is checked at once for seat, phase and version (`stale` only for a version the table
has not reached), credited at its arrival minus the connection's latency credit, held in
credited order (fair_queue.py), and at its turn the game alone says whether it still counts,
given the version its player had seen (`state.is_void(seat, action, seen)`; a void act is
never applied, and its player learns `void`). A bot's move joins the same order, credited when
it is due. docs/protocol.md, "Fair hits in real-time games", says it for clients.

A client may also reserve the moment of its seat's next act before it knows the act (the
`press` message): the moment is credited like an act and holds the line until the act comes
(the seat's next act, credited at the moment and judged on its version), is given up, or
`call_window` seconds pass. What a moment costs by itself is the game's business
(`state.moment_cost`; docs/games/): Lecker Mammut!'s press of the club is a commitment, and one
made with no three alike in sight is its cost at once; one that ends with no act is its cost
then. A press costs at most once: the act meant for a press charged at once does not count.

A seat with a *head start* (the table's `head_starts`, spec.py) has its presses and hits — the
acts that are a moment (`state.takes_moment`) — credited that many seconds earlier, never
before the version they were made on was reached: the moment a person presses still counts,
only the race is handicapped. So that a quicker hand cannot settle first, every other seat's
hit (a bot's too) waits the largest head start of another seat before it is settled; other
acts (a flip, a top card) are credited and held as always.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tiergarten.core import IllegalAction, State
from tiergarten.core.game import Action

from ...edge import metrics
from ...edge.protocol import Act, ClientMessage, Press
from ..fair_queue import FairQueue, Held, credited
from ..feature import ActOrder, Feature, Table
from ..spec import TableSpec
from ..table_log import StoreFailed
from ..transport import Peer
from ..turns import illegal, stale


class FairOrder(Feature):
    """The fair order of one real-time table (an `ActOrder`); None at a turn-based table."""

    handles = (Press,)
    absent = "a press is for real-time tables only; send the act"

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.queue = FairQueue(self._window, self._settle, self._lapse)

    @classmethod
    def attach(cls, table: Table) -> FairOrder | None:
        return cls(table) if table.real_time else None

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        return {"head_starts": list(spec.head_starts)}

    def order(self) -> ActOrder:
        return self

    # -- acts ----------------------------------------------------------------------------------

    def is_stale(self, seen: int) -> bool:
        return seen > self.table.version  # an older version: the game says if it still counts

    async def submit(self, peer: Peer, seat: int, message: Act, arrival: float) -> None:
        """Hold a person's act in credited order (or answer it at once: notation the game
        cannot read, an act the game says is void already, the act of a reserved moment)."""
        table, version = self.table, self.table.version
        try:
            action = table.state.game.parse_action(message.act)
        except IllegalAction as exc:
            self.queue.withdraw(seat)
            illegal(peer, exc, version)
            return
        takes = table.state.takes_moment(action)
        if takes and self.queue.charged(seat, message.version) is not None:
            peer.error("void", "your press was judged by itself (a mistake: nothing to call "
                       "was in sight, or it came too late), so this act does not count",
                       version)
            return
        # the moment reserved for this act, its version
        moment = self.queue.reserved(seat) if takes else None
        seen = message.version if moment is None else moment.seen
        if table.state.is_void(seat, action, seen):
            if takes:
                self.queue.withdraw(seat)
            self._void(peer, seen)
            return
        if moment is not None:
            self.queue.fill(seat, action)
            return
        credit = credited(arrival, peer.credit(table.settings.hit_cap)
                          + (self.head_start(seat) if takes else 0.0),
                          table.log.reached_at(message.version))
        self.queue.hold(credit, seat, action, message.version, peer)

    async def handle(self, peer: Peer, message: ClientMessage, arrival: float) -> None:
        """A `press`: the moment of the seat's next act is reserved, credited like an act and
        held in the fair order, where it waits up to `call_window` for the act (or the
        reservation is given up)."""
        assert isinstance(message, Press)
        table = self.table
        seat = table.may_act(peer)
        if seat is None:
            return
        if not message.press:
            self.queue.withdraw(seat)
            return
        if message.version > table.version:
            stale(peer, message.version, table.version)
            return
        table.present(seat)
        credit = credited(arrival, peer.credit(table.settings.hit_cap) + self.head_start(seat),
                          table.log.reached_at(message.version))
        self.queue.reserve(credit, seat, message.version,
                           arrival + table.settings.call_window, peer)
        cost = table.state.moment_cost(seat, message.version, lapsed=False)
        if cost is not None:  # a mistake at once: it holds up nobody
            self.queue.charge(seat, cost)

    async def play(self, seat: int, action: Action, version: int) -> None:
        """A bot's move joins the fair order credited now, like a person's act with no
        latency; returns once applied or void (someone was first), or raises what applying
        raised."""
        done: asyncio.Future[bool] = self.table.loop.create_future()
        self.queue.hold(self.table.loop.time(), seat, action, version, None, done)
        await done

    async def settled(self) -> None:
        await self.queue.settled()

    async def stop(self) -> None:
        await self.queue.stop()  # held acts are dropped: never committed, so never told

    # -- settling ------------------------------------------------------------------------------

    def _lapse(self, held: Held) -> Action | None:
        """What a person's moment that ended with no act costs (the game says)."""
        if held.peer is None or self.table.status != "playing":
            return None
        return self.table.state.moment_cost(held.seat, held.seen, lapsed=True)

    def head_start(self, seat: int) -> float:
        """The seconds by which `seat`'s presses and hits count earlier (0: none)."""
        starts = self.table.spec.head_starts
        return starts[seat] if seat < len(starts) else 0.0

    def _window(self, held: Held) -> float:
        """How long an act waits after its credited time: the largest latency credit of any
        seated connection now (never more than the cap); a hit (or a press) also the largest
        head start of another seat, whose hit made later may still count earlier."""
        window = self.table.transport.latency_credit(self.table.id, self.table.settings.hit_cap)
        if held.action is None or self.table.state.takes_moment(held.action):
            window += max((h for s, h in enumerate(self.table.spec.head_starts)
                           if s != held.seat), default=0.0)
        return window

    async def _settle(self, held: Held) -> None:
        """A held act's turn: the game says whether it still counts, then applies it."""
        assert held.action is not None  # a reserved moment is settled once its act filled it
        table = self.table
        try:
            applied = await table.log.apply(held.seat, held.action,
                                            check=lambda state: self._counts(held, state))
        except IllegalAction as exc:
            if held.cost:
                pass  # the table moved on (its seat now chooses a top): a press costs nothing
            elif held.peer is not None:
                illegal(held.peer, exc, table.version)
            elif table.version != held.seen:  # a bot's move the table outran: it chooses again
                _finish(held.done, False)
            else:
                _finish(held.done, exc)
        except StoreFailed as exc:
            if held.peer is not None:
                held.peer.error(exc.code, str(exc), table.version)
            _finish(held.done, exc)
        except Exception as exc:
            if held.peer is not None:
                held.peer.error("server_error", f"the server could not handle this message: "
                                f"{exc}", table.version)
            _finish(held.done, exc)
        else:
            if applied and held.cost:
                held.told = table.version  # acts made on this version saw the cost
            if applied:
                if held.peer is not None:  # from its credited time: the fair hold is in it
                    metrics.ACT_TO_UPDATE.observe(table.loop.time() - held.credit)
                _finish(held.done, True)

    def _counts(self, held: Held, state: State) -> bool:
        """At its turn: whether a held act goes ahead; if not, whoever made it learns why."""
        assert held.action is not None
        table = self.table
        if table.status != "playing":
            if held.peer is not None:
                held.peer.error("not_playing", "the game is over", table.version)
        elif state.is_void(held.seat, held.action, held.seen):
            self._void(held.peer, held.seen)
        elif held.peer is None and held.seat not in table.seats.played_by_bots():
            pass  # its person came back while the bot's move was held
        else:
            return True
        _finish(held.done, False)
        return False

    def _void(self, peer: Peer | None, seen: int) -> None:
        """Someone else's act came first: this one changes nothing, and is not a mistake."""
        if peer is not None:
            version = self.table.version
            peer.error("void", f"someone acted first: your act on version {seen} did not count "
                       f"(the table is at version {version}); nothing changed", version)


def _finish(done: asyncio.Future[bool] | None, outcome: bool | BaseException) -> None:
    if done is None or done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)
