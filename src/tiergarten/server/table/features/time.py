"""A table's time (a table feature): a turn timer, or a clock per player — the two kinds of the
one time setting of a table (`TableSpec.time`).

Either way the bot driver asks it when a person due to move is out of time (`wait`,
`out_of_time`: a `bot_driver.TimeLimit`) and then lets the seat's bot play for them, until
they come back. A turn timer runs out `seconds` after the table's last act, whoever is due;
a clock (clock.py) spends the bank of each person due, and shows every seat's time in each
`state` message (`clock`). The `table` message says which: `timer` (seconds, or null) and
`clock` (`{"bank", "increment"}`, or null).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from ...edge.bodies import ClockSpec
from ...edge.protocol import ClockView
from ..clock import Clock, due, from_log
from ..feature import Feature, Table
from ..spec import PlayerClock, TableSpec, TurnTimer
from ..table_log import Entry


class TimeControl(Feature):
    """The time of a table that has a time setting; None at a table without."""

    @classmethod
    def attach(cls, table: Table) -> TimeControl | None:
        time = table.spec.time
        if isinstance(time, TurnTimer):
            return _Timer(table, time)
        if isinstance(time, PlayerClock):
            return _Clocks(table, time)
        return None

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        time = spec.time
        return {"timer": time.seconds if isinstance(time, TurnTimer) else None,
                "clock": (ClockSpec(bank=time.bank, increment=time.increment)
                          if isinstance(time, PlayerClock) else None)}

    def wait(self, waiting: Sequence[int], now: float) -> float | None:
        """Seconds until the first of the people `waiting` to move is out of time (None:
        nobody's time runs)."""
        raise NotImplementedError

    def out_of_time(self, waiting: Sequence[int], now: float) -> list[int]:
        """Those of `waiting` whose time is up."""
        raise NotImplementedError


class _Timer(TimeControl):
    """A turn timer: the people due may think `seconds` after the table's last act."""

    def __init__(self, table: Table, timer: TurnTimer) -> None:
        super().__init__(table)
        self.seconds = timer.seconds

    def wait(self, waiting: Sequence[int], now: float) -> float | None:
        if not waiting:
            return None
        log = self.table.log
        return max(0.0, log.reached_at(log.version) + self.seconds - now)

    def out_of_time(self, waiting: Sequence[int], now: float) -> list[int]:
        return list(waiting)


class _Clocks(TimeControl):
    """A clock per person: rebuilt from the log at a game under way (clock.py)."""

    def __init__(self, table: Table, setting: PlayerClock) -> None:
        super().__init__(table)
        now, row = table.loop.time(), table.row
        people = table.seats.people()
        if table.status == "playing":  # rebuilt (a restart, another worker): from the log
            self.clock = from_log(setting.bank, setting.increment,
                                  table.state.game.new_state(row.seed), row.actions,
                                  table.store.action_times(table.id), table.started, people,
                                  row.players, now)
        else:
            self.clock = Clock(setting.bank, setting.increment, people, now, row.players)

    def _due(self) -> list[int]:
        return due(self.table.state, self.table.seats.people())

    def started(self, fresh: bool) -> None:
        if fresh:
            self.clock.moved(None, self._due(), self.table.loop.time())
            self.table.respecify(started=dt.datetime.now(dt.UTC))  # whence a rebuilt one counts

    def published(self, entry: Entry | None) -> None:
        now = self.table.loop.time()
        self.clock.moved(None if entry is None else entry.seat, self._due(), now)
        if self.table.state.is_over():
            self.clock.stop(now)

    def adds(self, seat: int | None) -> dict[str, Any]:
        return {"clock": ClockView.model_construct(**self.clock.view(self.table.loop.time()))}

    def wait(self, waiting: Sequence[int], now: float) -> float | None:
        left = [self.clock.time_left(s, now) for s in waiting if s in self.clock.running]
        return max(0.0, min(left)) if left else None

    def out_of_time(self, waiting: Sequence[int], now: float) -> list[int]:
        return [s for s in waiting if s in self.clock.running
                and self.clock.time_left(s, now) <= 0.01]
