"""The messages a table sends about itself, each built from its model (edge/protocol.py): the
greeting, the table's public facts (the same for a table that no process here runs: a
cluster's lobby reads it from the store) and a seat's state.

The `table` message takes what each feature adds to it from the table's spec alone
(`Feature.describe`), so that it says the same whoever builds it.
"""

from __future__ import annotations

from typing import Any

from tiergarten.core import State

from ..edge.protocol import Hello, Limits, SeatInfo, TableMessage
from ..edge.settings import Settings
from ..edge.writer import state_text
from ..storage.store import TableRow
from .features import FEATURES
from .seats import Seats
from .spec import TableSpec, read


def hello(row: TableRow, seat: int | None, settings: Settings, real_time: bool,
          spectator: int | None = None) -> Hello:
    """The greeting: the protocol, the table, the seat (or the spectator's number), and what
    the client may send."""
    greeting = Hello(table=row.id, game=row.game, players=row.players, seat=seat,
                     limits=Limits(max_message=settings.max_message, rate=settings.rate,
                                   burst=settings.burst),
                     call_window=settings.call_window if real_time else None)
    if spectator is not None:  # sent to spectators only (an optional field set is written)
        greeting.spectator = spectator
    return greeting


def table_message(row: TableRow, spec: TableSpec, status: str, version: int,
                  rules: int | None, seats: list[SeatInfo],
                  rematch: str | None) -> TableMessage:
    """A table's public facts: game, options, settings, status and who sits where."""
    described: dict[str, Any] = {}
    for kind in FEATURES:
        described.update(kind.describe(spec))
    return TableMessage(id=row.id, game=row.game, players=row.players, options=row.options,
                        status=status, version=version, hints=spec.hints,  # type: ignore[arg-type]
                        created=row.created.isoformat(), rules=rules, rematch=rematch,
                        seats=seats, **described)


def stored_table(row: TableRow) -> TableMessage:
    """The `table` message of a stored table that no process here runs (nobody connected)."""
    return table_message(row, read(row)[0], row.status, len(row.actions), row.rules,
                         Seats(row.seats).info(()), None)


def state(state: State, version: int, seat: int | None, legal: list[str],
          new_events: int | None, added: dict[str, Any], waiting: bool = False) -> str:
    """Built from `seat`'s observation and log, and its `legal` actions (as the features
    offer them), with the fields the features add. `log` holds the log entries from position
    `log_from` on: every one (from 0) when `new_events` is None (a greeting, a sync, a state
    read back), else the `new_events` the last act added. `waiting`: the table waits for
    people, nothing has happened yet: no log (the deal's entries come when the game starts)."""
    start = 0 if new_events is None else max(0, len(state.events) - new_events)
    log = [] if waiting else state.log_since(seat, start)
    return state_text(version, seat, state.observe(seat), legal,
                      [] if new_events is None else log, log, start, **added)
