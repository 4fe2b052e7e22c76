"""A table's specification: what its creator chose, checked once, kept as one typed document.

`TableSpec` is every setting of a table: the game, its players, options and rules version,
which seats are bots, the seed, hints, chat, the time control (a turn timer or a clock per
player: two kinds of one setting) and the tutorial it teaches. `settle` checks a new table's
spec against its game once, at creation (`TableManager.create`), and fills in what the game
decides: the player count, every option, the rules version.

A table's row keeps its spec in the columns that have always held it (game, players, options,
seed, rules, hints; the bots in its seats) and the rest in one versioned document in
`tables.extra` (`document`): `{"v": 1, "chat", "time", "tutorial", "started"}` (and
`"head_starts"` when a seat has one), where `started` is when the game began (whence a rebuilt
clock counts), not a setting.

A *head start* (real-time games only) is a person's seat's handicap: its hits count that many
seconds earlier than they were made (never before the cards they were made on were on the
table), so a child can win a race against a quicker hand: features/fair.py. The `timer` column
mirrors a turn timer for whoever reads the columns. `read` gives the spec of any row: one with
a document, or one from before (0.2.0's `extra` of `chat`, `clock`, `tutorial` and `started`,
or none at all as 0.1.0 wrote it, with the `timer` and `hints` columns).

>>> spec = TableSpec(game="maumau", players=2, time=TurnTimer(seconds=30))
>>> document(spec, started=None)
{'v': 1, 'chat': True, 'time': {'kind': 'timer', 'seconds': 30.0}, 'tutorial': None,
 'started': None}
>>> from ..storage.store import SeatRow, TableRow
>>> old = TableRow("t", "maumau", 2, {}, 7, None, "open", seats=[SeatRow(0, "human"),
...                SeatRow(1, "bot", bot="random")], extra={"chat": False, "clock": {"bank": 60}})
>>> spec, started = read(old)
>>> spec.time, spec.chat, [seat and seat.bot for seat in spec.seats]
(PlayerClock(kind='clock', bank=60.0, increment=0.0), False, [None, 'random'])
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tiergarten import bots
from tiergarten.core import Game, OptionError, load

from ..edge.bodies import CreateTable, SeatSpec
from ..storage.store import TableRow


class _Setting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TurnTimer(_Setting):
    """A turn timer: a bot plays for a person the table has waited on `seconds` for."""

    kind: Literal["timer"] = "timer"
    seconds: float = Field(gt=0, le=3600)


class PlayerClock(_Setting):
    """A clock per player: a time bank, and `increment` seconds added after each turn."""

    kind: Literal["clock"] = "clock"
    bank: float = Field(gt=0, le=7200)
    increment: float = Field(default=0, ge=0, le=600)


TimeControl = Annotated[TurnTimer | PlayerClock, Field(discriminator="kind")]


class TableSpec(_Setting):
    """Every setting of a table (see the module doc)."""

    game: str = Field(max_length=40)
    players: int | None = None  # None: the game's default (filled in by `settle`)
    options: dict[str, Any] = Field(default_factory=dict)
    rules: int | None = None  # None: the newest at creation; a stored table's own
    seats: list[SeatSpec | None] = Field(default_factory=list)  # a bot by name, else open
    seed: int | None = None  # None: a fresh one at creation
    hints: bool = True
    chat: bool = True
    time: TimeControl | None = None
    tutorial: str | None = None  # the tutorial the table teaches (server/table/tutorial.py)
    head_starts: list[float] = Field(default_factory=list)  # per seat, seconds ([]: none)


def requested(body: CreateTable) -> TableSpec:
    """The spec a `POST /api/tables` body asks for (its `timer` and `clock` are the two kinds
    of one time setting: not both)."""
    if body.timer is not None and body.clock is not None:
        raise OptionError("a table has a turn timer or a clock, not both")
    time: TurnTimer | PlayerClock | None = None
    if body.timer is not None:
        time = TurnTimer(seconds=body.timer)
    elif body.clock is not None:
        time = PlayerClock(bank=body.clock.bank, increment=body.clock.increment)
    return TableSpec(game=body.game, players=body.players, options=body.options,
                     seats=body.seats, seed=body.seed, hints=body.hints, chat=body.chat,
                     time=time)


def settle(spec: TableSpec, allow_seeds: bool) -> TableSpec:
    """A new table's spec checked against its game, with the player count, every option and
    the rules version filled in, and a seat (open or a bot) for every player; OptionError
    names what is wrong (the game, an option, the player count, a bot's name, a setting)."""
    versioned = {} if spec.rules is None else {"rules": spec.rules}
    game = load(spec.game, spec.players, **spec.options, **versioned)
    if isinstance(spec.time, PlayerClock) and game.info.real_time:
        raise OptionError(f"{game.info.title} is played in real time: a clock per player "
                          "needs turns (a turn timer does not either)")
    if len(spec.seats) > game.players:
        raise OptionError(f"{len(spec.seats)} seats given for {game.players} players")
    if spec.seed is not None and not allow_seeds and not spec.tutorial:
        raise OptionError("this server does not let a table's creator choose the seed")
    seats: list[SeatSpec | None] = []
    head_starts = [0.0] * game.players
    for seat in range(game.players):
        given = spec.seats[seat] if seat < len(spec.seats) else None
        if given is not None and given.bot is not None:
            bots.make(given.bot, game, seat, random.Random(0))  # unknown names raise OptionError
            seats.append(SeatSpec(bot=given.bot))
        else:
            seats.append(None)
        asked = given.head_start if given is not None else None
        if asked is None and seat < len(spec.head_starts):  # a rematch keeps the head starts
            asked = spec.head_starts[seat] or None
        if asked is not None:
            head_starts[seat] = head_start(game, seat, asked, given is not None
                                           and given.bot is not None)
    return spec.model_copy(update={"players": game.players, "options": dict(game.options),
                                   "rules": game.rules, "seats": seats,
                                   "head_starts": head_starts if any(head_starts) else []})


MAX_HEAD_START = 3.0  # seconds: the call window's default, a child's whole reaction


def head_start(game: Game, seat: int, seconds: float, bot: bool) -> float:
    """The head start of `seconds` asked for `seat` (a `bot`'s?), checked: a person's seat,
    a real-time game, 0 to `MAX_HEAD_START` seconds."""
    if not game.info.real_time:
        raise OptionError(f"a head start is for real-time games; {game.info.title} is played "
                          "in turns")
    if bot:
        raise OptionError(f"seat {seat} is a bot's: a head start is for a person's seat")
    if not 0.0 <= seconds <= MAX_HEAD_START:
        raise OptionError(f"a head start is 0 to {MAX_HEAD_START:g} seconds, not {seconds:g}")
    return seconds


# -- the stored document ---------------------------------------------------------------------

class _Document(BaseModel):
    """`tables.extra`, version 1."""

    model_config = ConfigDict(extra="forbid")
    v: Literal[1]
    chat: bool = True
    time: TimeControl | None = None
    tutorial: str | None = None
    started: dt.datetime | None = None
    head_starts: list[float] = Field(default_factory=list)


class _Clock(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bank: float
    increment: float = 0


class _Unversioned(BaseModel):
    """`tables.extra` before it had a version (0.2.0 and after); 0.1.0 left it empty."""

    model_config = ConfigDict(extra="forbid")
    chat: bool = True
    clock: _Clock | None = None
    tutorial: str | None = None
    started: dt.datetime | None = None


_STORED: TypeAdapter[_Document | _Unversioned] = TypeAdapter(_Document | _Unversioned)


def document(spec: TableSpec, started: dt.datetime | None) -> dict[str, Any]:
    """What `tables.extra` holds of `spec` (and when its game began, if it has)."""
    stored = _Document(v=1, chat=spec.chat, time=spec.time, tutorial=spec.tutorial,
                       started=started, head_starts=spec.head_starts).model_dump(mode="json")
    if not spec.head_starts:
        del stored["head_starts"]  # as every table without one has always been stored
    return stored


def timer_column(spec: TableSpec) -> float | None:
    """The `timer` column: the turn timer's seconds, if the table has one."""
    return spec.time.seconds if isinstance(spec.time, TurnTimer) else None


def read(row: TableRow) -> tuple[TableSpec, dt.datetime | None]:
    """The spec of a stored table, and when its game began (None: not yet, or not kept)."""
    stored = _STORED.validate_python(row.extra)
    time: TurnTimer | PlayerClock | None
    head_starts: list[float] = []
    if isinstance(stored, _Document):
        time, head_starts = stored.time, stored.head_starts
    elif stored.clock is not None:
        time = PlayerClock(bank=stored.clock.bank, increment=stored.clock.increment)
    else:
        time = None if row.timer is None else TurnTimer(seconds=row.timer)
    seats = [SeatSpec(bot=s.bot) if s.kind == "bot" else None for s in row.seats]
    spec = TableSpec(game=row.game, players=row.players, options=dict(row.options),
                     rules=row.rules, seats=seats, seed=row.seed, hints=row.hints,
                     chat=stored.chat, time=time, tutorial=stored.tutorial,
                     head_starts=head_starts)
    return spec, stored.started
