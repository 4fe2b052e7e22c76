"""Quick match ("Play now") over REST: the bodies a client sends and the answer it gets
(docs/protocol.md, "Quick match"; handed on by protocol.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bodies import NAME_LENGTH

BOT_WAIT_MOST = 600.0  # seconds: the longest wait for bots a person may choose


class QuickJoin(BaseModel):
    """Join the queue: a game, a player count and options (null: any), how long to wait
    before bots fill the table (null: never); a guest also says who they are (`guest`, a
    secret of their browser: one entry per browser) and the level they want to meet."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=1, le=12)
    options: dict[str, Any] | None = None
    bot_wait: float | None = Field(default=None, ge=0, le=BOT_WAIT_MOST)
    level: str | None = Field(default=None, max_length=20)
    guest: str | None = Field(default=None, min_length=16, max_length=64)
    name: str | None = Field(default=None, max_length=4 * NAME_LENGTH)


class QuickAsk(BaseModel):
    """Ask where one stands, or leave the queue (a guest says who they are)."""

    model_config = ConfigDict(extra="forbid")
    guest: str | None = Field(default=None, min_length=16, max_length=64)


class _Sent(BaseModel):
    model_config = ConfigDict(extra="forbid")


class QuickSeat(_Sent):
    """Where a match sat the person: go to the table with this seat's token."""

    table: str
    seat: int
    token: str
    game: str
    players: int
    bots: int  # how many of the seats are bots'


class QuickStatus(_Sent):
    """Every quick-match answer: where the person stands, and how many wait per game."""

    status: Literal["waiting", "matched", "idle"]
    game: str | None  # waiting: the game
    counts: list[int] | None  # waiting: the player counts accepted
    bot_wait: float | None  # waiting: seconds before bots fill (null: never)
    waited: float | None  # waiting: seconds so far
    match: QuickSeat | None  # matched: where to sit
    waiting: dict[str, int]  # people queued per game (games nobody waits for left out)


class Waiting(_Sent):
    """`GET /api/quickmatch/waiting`: people queued per game."""

    waiting: dict[str, int]


QUICK_MATCH: dict[str, type[BaseModel]] = {
    "QuickJoin": QuickJoin, "QuickAsk": QuickAsk, "QuickStatus": QuickStatus,
    "QuickSeat": QuickSeat, "Waiting": Waiting}
