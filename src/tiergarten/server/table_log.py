"""A table's log: its state rebuilt from the stored actions, and the one way to change it.

Every act goes through `TableLog.apply`, one at a time (a first-come-first-served lock): the
game checks and applies it to a copy of the state; the store commits it in one of its writer
threads (`Store.writer`, so the event loop serves other tables while the database works); only
then does the copy become the state and does anyone hear of it (`publish`). So:

- nobody hears of an act before it is committed, and `state` is always what the log holds,
  whoever reads it meanwhile (greetings, `sync`, hints, REST);
- versions (the number of actions applied) step by exactly one, in order;
- a commit that fails tells nobody anything: the act raises `StoreFailed` and the state is
  rebuilt from what the store holds.

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

from .metrics import COMMIT
from .store import Store, TableRow

log = logging.getLogger("tiergarten.server")

# The times of the last REMEMBERED versions are kept for the fair order's credit floor; an act
# made against an older version is floored at the oldest kept (a later floor: it gains nothing)
REMEMBERED = 8


class StoreFailed(RuntimeError):
    """The database did not take an action; the table was rebuilt from its log."""


@dataclass(frozen=True)
class Entry:
    """An act the log has just committed: who, its notation, the public events it added."""

    seat: int
    notation: str
    events: int  # entries it added to the observation's `log` (for the `events` of a state)


class TableLog:
    """The state of one table as its log holds it, and the turn-taking that extends the log."""

    def __init__(self, row: TableRow, store: Store,
                 publish: Callable[[Entry], None] | None = None) -> None:
        self.row = row  # the stored facts; the log is the one writer of `actions` and `status`
        self.store = store
        self.publish = publish
        self.state: State = replay(row.record())
        self.turn = asyncio.Lock()  # held while one act is applied, committed and told
        self._loop = asyncio.get_running_loop()
        self._reached: dict[int, float] = {self.version: self._loop.time()}
        if self.state.is_over() and row.status != "over":
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
        self.store.set_status(self.row.id, status)
        self.row.status = status

    async def apply(self, seat: int, action: Action | str, expect: int | None = None,
                    check: Callable[[State], bool] | None = None) -> bool:
        """Check and apply one act, commit it, then publish it; True once it is told.

        Waits for its turn. At its turn it goes ahead only if the log is still at version
        `expect` (if given) and `check(state)` says so (if given); else nothing changes and it
        returns False. Raises IllegalAction (nothing changed) or StoreFailed (nothing changed,
        the state rebuilt from the store, nobody told anything)."""
        async with self.turn:
            if expect is not None and self.version != expect:
                return False
            if check is not None and not check(self.state):
                return False
            await self._commit(seat, action)
            return True

    async def _commit(self, seat: int, action: Action | str) -> None:
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
        except Exception:
            log.exception("table %s: could not store action %d; rebuilding from the log",
                          self.row.id, index)
            self.rebuild()
            raise StoreFailed("the server could not store this action; nothing changed, "
                              "try again") from None
        self._publish(state, entry)

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

    def rebuild(self) -> None:
        """Make the state what the store holds (after a commit failed)."""
        row = self.store.load_table(self.row.id)
        if row is None:
            raise RuntimeError(f"table {self.row.id} vanished from the database")
        self.row.actions[:] = row.actions
        self.row.status = row.status
        self.state = replay(self.row.record())


def _event_count(state: State) -> int:
    events = getattr(state, "events", None)
    return len(events) if isinstance(events, list) else 0
