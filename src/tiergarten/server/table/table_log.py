"""A table's log: its state rebuilt from the stored actions, and the one way to change it.

Every act goes through `TableLog.apply`, one at a time (a first-come-first-served lock): the
game checks and applies it to a copy of the state; the store commits it in one of its writer
threads (`Store.writer`, so the event loop serves other tables while the database works); only
then does the copy become the state and does anyone hear of it (`publish`). So:

- nobody hears of an act before it is committed, and `state` is always what the log holds,
  whoever reads it meanwhile (greetings, `sync`, hints, REST);
- versions (the number of actions applied) step by exactly one, in order;
- a commit that fails tells nobody anything: the log is read back from the store (in its
  thread) and becomes the state. If the act is in it after all (stored, but the confirmation
  was lost), it counts and everybody hears of it; if not, it raises `StoreFailed` (nothing
  changed);
- if the store cannot be read back either (the database went away), the table keeps its state
  in memory and *waits*: every act is refused at once (`StoreFailed`, code `unavailable`) while
  the log tries to read the store again every `retry` seconds; once it can, the state is what
  the store holds and everybody hears of it. Nothing is lost and nothing is applied twice.

The server never decides a rule: the game checks and applies (`state.apply`), and whether an
act still counts at its turn is for the caller to ask the game (`check`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from tiergarten.core import IllegalAction, State, replay
from tiergarten.core.game import Action

from ..edge.metrics import COMMIT
from ..storage.store import Store, StoreUnavailable, TableRow

log = logging.getLogger("tiergarten.server")

# The times of the last REMEMBERED versions are kept for the fair order's credit floor; an act
# made against an older version is floored at the oldest kept (a later floor: it gains nothing)
REMEMBERED = 8


UNAVAILABLE = ("the database is unavailable, so nothing can be stored now: nothing changed; "
               "once it is back the table sends everyone its state again")
UNSURE = ("the database went away while storing this act: once it is back the table sends "
          "everyone its state, with this act if the database had stored it and otherwise "
          "unchanged")


class StoreFailed(RuntimeError):
    """An act the store did not take: nothing changed (or, `unavailable`, the table waits for
    the database to say). `code` is the error code the client gets."""

    def __init__(self, message: str, code: str = "server_error") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Entry:
    """An act the log has just committed: who, its notation, the public events it added."""

    seat: int
    notation: str
    events: int  # entries it added to the observation's `log` (for the `events` of a state)


class TableLog:
    """The state of one table as its log holds it, and the turn-taking that extends the log."""

    def __init__(self, row: TableRow, store: Store,
                 publish: Callable[[Entry | None], None] | None = None,
                 retry: float = 1.0) -> None:
        self.row = row  # the stored facts; the log is the one writer of `actions` and `status`
        self.store = store
        self.publish = publish  # an Entry: a new act; None: the state was read back from the store
        self.retry = retry
        self.state: State = replay(row.record())
        self.waiting = False  # for the database: the store may hold more than `state` shows
        self.turn = asyncio.Lock()  # held while one act is applied, committed and told
        self._loop = asyncio.get_running_loop()
        self._reached: dict[int, float] = {self.version: self._loop.time()}
        self._healer: asyncio.Task[None] | None = None
        self._refused = False  # acts were refused while the store could not be read
        if self.state.is_over() and row.status not in ("over", "closed"):
            self.set_status("over")

    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def status(self) -> str:
        return self.row.status

    def reached_at(self, version: int) -> float:
        """When the log reached `version` (the loop's clock), or the game started if later;
        for a version older than those remembered, the oldest time remembered."""
        at = self._reached.get(version)
        return at if at is not None else min(self._reached.values())

    def start(self) -> None:
        """Every seat is taken: the game is played from now on (its clock starts now)."""
        self.set_status("playing")
        self._reached[self.version] = self._loop.time()

    def set_status(self, status: str) -> None:
        """The status follows from the seats and the log, so it is the table's at once; a store
        that cannot take it now is given it when the database is back (`_read_back`)."""
        self.row.status = status
        try:
            self.store.set_status(self.row.id, status)
        except StoreUnavailable as exc:
            log.warning("table %s: status %r not stored yet: %s", self.row.id, status, exc)
            self._wait_for_store()

    async def stop(self) -> None:
        if self._healer is not None:
            self._healer.cancel()
            await asyncio.gather(self._healer, return_exceptions=True)

    async def apply(self, seat: int, action: Action | str, expect: int | None = None,
                    check: Callable[[State], bool] | None = None) -> bool:
        """Check and apply one act, commit it, then publish it; True once it is told.

        Waits for its turn. At its turn it goes ahead only if the log is still at version
        `expect` (if given) and `check(state)` says so (if given); else nothing changes and it
        returns False. Raises IllegalAction (nothing changed) or StoreFailed (see the module
        doc: nothing changed, or the table waits for the database)."""
        async with self.turn:
            if self.waiting:
                raise StoreFailed(UNAVAILABLE, "unavailable")
            if expect is not None and self.version != expect:
                return False
            if check is not None and not check(self.state):
                return False
            return await self._commit(seat, action)

    async def _commit(self, seat: int, action: Action | str) -> bool:
        """`apply` in its turn: the copy becomes the state only once the store holds the act."""
        state = self.state.clone()
        index = self.version
        before = _event_count(state)
        try:
            state.apply(seat, action)  # IllegalAction leaves the state unchanged
        except IllegalAction:
            raise
        except Exception:  # a bug in a game: only the copy is spoilt; the table is as it was
            log.exception("table %s: applying %r for seat %d failed", self.row.id, action, seat)
            raise
        notation = state.history[-1][1].text
        over = state.is_over()

        def commit() -> None:  # in the store's writer thread
            started = time.perf_counter()
            self.store.append_action(self.row.id, index, seat, notation)
            if over:
                self.store.set_status(self.row.id, "over")
            COMMIT.observe(time.perf_counter() - started)

        written = self._loop.run_in_executor(self.store.writer, commit)
        entry = Entry(seat, notation, _event_count(state) - before)
        try:
            await asyncio.shield(written)
        except asyncio.CancelledError:
            # the caller is going (the server is stopping): the commit still finishes, and
            # what the log holds the table holds too, before the turn passes to anyone else
            with contextlib.suppress(Exception):
                await written
                self._publish(state, entry)
            raise
        except Exception as exc:
            return await self._failed(exc, index, seat, notation)
        self._publish(state, entry)
        return True

    async def _failed(self, exc: Exception, index: int, seat: int, notation: str) -> bool:
        """A commit failed: what the store holds decides. True if it holds the act after all."""
        down = isinstance(exc, StoreUnavailable)
        if down:
            log.warning("table %s: could not store action %d: %s", self.row.id, index, exc)
        else:
            log.error("table %s: could not store action %d; reading the log back",
                      self.row.id, index, exc_info=exc)
        self.waiting = True
        if not await self._read_back():
            raise StoreFailed(UNSURE, "unavailable") from None
        if self.version > index and self.row.actions[index] == (seat, notation):
            log.warning("table %s: action %d was stored after all", self.row.id, index)
            return True  # everybody heard of it from `_read_back`
        if down:
            raise StoreFailed(f"{exc}: this act was not stored; nothing changed, try again",
                              "unavailable") from None
        raise StoreFailed("the server could not store this action; nothing changed, "
                          "try again") from None

    def _publish(self, state: State, entry: Entry) -> None:
        """The act is in the store: make `state` the table's, then tell whoever listens."""
        self.state = state
        self.row.actions.append((entry.seat, entry.notation))
        if state.is_over():
            self.row.status = "over"
        self._reached[self.version] = self._loop.time()
        self._reached.pop(self.version - REMEMBERED, None)
        if self.publish is not None:
            self.publish(entry)

    # -- reading the log back --------------------------------------------------------------------

    async def _read_back(self) -> bool:
        """Make the state what the store holds, read in the store's thread (the caller holds the
        turn). True once done; False if the store cannot be read (then the log waits for it and
        tries again every `retry` seconds). Everybody hears of the state read if it differs, or
        if acts were refused meanwhile (so they know the table takes acts again)."""
        before, events = self.version, _event_count(self.state)
        try:
            row, state = await self._loop.run_in_executor(self.store.writer, self._load,
                                                          self.row.status)
        except Exception as exc:
            healing = self._healer is not None and not self._healer.done()
            level = logging.DEBUG if healing else logging.WARNING  # one warning per outage
            log.log(level, "table %s: cannot read the log back yet: %s", self.row.id, exc)
            self._wait_for_store()
            self._refused = True
            return False
        self.state = state
        self.row.actions[:] = row.actions
        self.row.status = row.status
        self.waiting = False
        if self.version != before:
            self._reached[self.version] = self._loop.time()
        if self.publish is not None and (self.version != before or self._refused):
            entry = None
            if self.version == before + 1:
                entry = Entry(*row.actions[-1], events=_event_count(state) - events)
            self.publish(entry)
        self._refused = False
        return True

    def _load(self, status: str) -> tuple[TableRow, State]:
        """In the store's thread: the stored row, its state, and the status stored if the one
        the table knows (`status`, or over) had not been."""
        row = self.store.load_table(self.row.id)
        if row is None:
            raise RuntimeError(f"table {self.row.id} vanished from the database")
        state = replay(row.record())
        order = ("open", "playing", "over", "closed")  # closed is final (store.CLOSED)
        wanted = row.status if row.status == "closed" else "over" if state.is_over() else max(
            row.status, status, key=order.index)
        if wanted != row.status:
            self.store.set_status(row.id, wanted)
            row.status = wanted
        return row, state

    def _wait_for_store(self) -> None:
        """Refuse acts until the store can be read again; try every `retry` seconds."""
        self.waiting = True
        if self._healer is None or self._healer.done():
            self._healer = self._loop.create_task(self._heal(), name=f"heal {self.row.id}")

    async def _heal(self) -> None:
        while self.waiting:
            await asyncio.sleep(self.retry)
            async with self.turn:
                if self.waiting and await self._read_back():
                    log.warning("table %s: the database is back", self.row.id)


def _event_count(state: State) -> int:
    return len(state.events)  # the log's size (State.log_since)
