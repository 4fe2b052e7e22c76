"""Bot seats (a table feature): the bots of a table, and stand-ins for its people.

The bot driver (bot_driver.py) plays for every seat a bot plays now: a bot's own seat, or a
person who is away — disconnected longer than `away_after`, gone during the game, or out of
time (the table's `TimeControl`, features/time.py). Its moves reach the log through the
table's act order, like anyone's. A person is back (and plays their seat again) as soon as
they connect or act. While a tutorial's step says so (`Coaching.holds`), the bots wait.
"""

from __future__ import annotations

from ..bot_driver import BotDriver, BotMove
from ..feature import Feature, Table
from ..table_log import Entry
from .coach import Coaching
from .time import TimeControl


class BotSeats(Feature):
    """The bot driver of one table, told what the table hears of its people."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        coach = table.feature(Coaching)
        self.driver = BotDriver(table.log, table.seats, table.settings, self._fire,
                                table.seating_changed, table.is_connected,
                                table.feature(TimeControl),
                                coach.holds if coach is not None else lambda: False)

    async def _fire(self, move: BotMove, version: int) -> None:
        await self.table.order.play(move.seat, move.action, version)

    def present(self, seat: int) -> None:
        self.driver.come_back(seat)

    def disconnected(self, seat: int) -> None:
        if self.table.status == "playing":
            self.driver.arm_away_timer(seat)

    def left(self, seat: int) -> None:
        self.driver.go_away(seat)

    def published(self, entry: Entry | None) -> None:
        self.driver.wake()

    def started(self, fresh: bool) -> None:
        self.driver.run()

    async def stop(self) -> None:
        await self.driver.stop()
