"""The features a live table is made of, in the order the table calls their hooks (the
protocol: server/table/feature.py; docs/architecture.md, "Adding a table feature").

- `TableChat` (chat.py): chat lines and reactions, the creator's switch;
- `TimeControl` (time.py): a turn timer or a clock per player;
- `Coaching` (coach.py): the coach of a tutorial table;
- `FairOrder` (fair.py): the fair order of a real-time table's acts, and reserved moments;
- `BotSeats` (bots.py): bots, and stand-ins for people who are away or out of time.

A feature may use one listed before it (the bot seats ask the time control).
"""

from __future__ import annotations

from ..feature import Feature
from .bots import BotSeats
from .chat import TableChat
from .coach import Coaching
from .fair import FairOrder
from .time import TimeControl

FEATURES: tuple[type[Feature], ...] = (TableChat, TimeControl, Coaching, FairOrder, BotSeats)

__all__ = ["FEATURES", "BotSeats", "Coaching", "FairOrder", "TableChat", "TimeControl"]
