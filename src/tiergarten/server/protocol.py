"""The wire format: every REST body and websocket message, validated by pydantic.

Version 1 of the websocket protocol (`PROTOCOL`). A client sends one of

    {"act": "play 7h mau", "version": 41}    an intent, made against the version it saw
    {"token": "..."}                          claim the seat of a token (if not in the URL)
    {"sync": true}                            ask for the current state again
    {"pong": 7}                               answer the server's ping 7 (real-time tables)
    {"press": true, "version": 41}            the club is pressed now (real-time tables): the
                                              seat's next act is its call, credited from here
    {"press": false, "version": 41}           no call will follow that press

>>> read_client('{"act": "draw", "version": 3}')
Act(act='draw', version=3)
>>> read_client('{"pong": 7}')
Pong(pong=7)
>>> read_client('{"press": true, "version": 17}')
Press(press=True, version=17)
>>> read_client('{"act": 5}')
Traceback (most recent call last):
...
tiergarten.server.protocol.BadMessage: a message is {"act": notation, "version": n}, ...
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes a client may send in one websocket message
NAME_LENGTH = 40


class BadMessage(ValueError):
    """A client message that is not JSON or not one of the messages the protocol knows."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Act(_Strict):
    act: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0)


class Auth(_Strict):
    token: str = Field(min_length=1, max_length=200)


class Sync(_Strict):
    sync: Literal[True]


class Pong(_Strict):
    """The answer to the server's `ping` with the same id (measures the round trip)."""

    pong: int = Field(ge=0)


class Press(_Strict):
    """Real-time tables: the club is pressed now, on `version` (true), or that press will have
    no call after all (false). The seat's next act is the press's call: it is credited at the
    press's time and judged on the press's version (docs/protocol.md, "Press, then call")."""

    press: bool
    version: int = Field(ge=0)


ClientMessage = Act | Auth | Sync | Pong | Press
_SHAPES = ("a message is {\"act\": notation, \"version\": n}, {\"token\": t}, {\"sync\": true}, "
           "{\"pong\": id} or {\"press\": true or false, \"version\": n}")


def read_client(text: str | bytes) -> ClientMessage:
    """Parse one client message; anything else raises BadMessage saying what is allowed."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadMessage(f"not JSON; {_SHAPES}") from None
    if not isinstance(data, dict):
        raise BadMessage(_SHAPES)
    model: type[_Strict] = (Act if "act" in data else Auth if "token" in data
                            else Pong if "pong" in data else Press if "press" in data else Sync)
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'message'}: {e['msg']}"
                             for e in exc.errors())
        raise BadMessage(f"{_SHAPES} ({problems})") from None


# -- messages the server sends (built as plain dicts; the models document and check them) ----

class _Sent(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Sent):
    type: Literal["hello"] = "hello"
    protocol: int = PROTOCOL
    table: str
    game: str
    players: int
    seat: int | None
    limits: dict[str, float]
    call_window: float | None = None  # real-time tables: how long a press waits for its call


class StateMessage(_Sent):
    type: Literal["state"] = "state"
    version: int
    seat: int | None
    observation: dict[str, Any]
    legal: list[str]
    events: list[Any]


class ErrorMessage(_Sent):
    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None
    reason: str | None = None  # `illegal`: the game's reason code, worded by the client ...
    params: dict[str, Any] | None = None  # ... with these values (cards, seats, counts)


class Ping(_Sent):
    """Sent every `ping_every` seconds at real-time tables; answer `{"pong": id}` at once."""

    type: Literal["ping"] = "ping"
    id: int
    t: float  # the server's clock (seconds); for information only
    rtt: float | None  # the smoothed round trip measured so far (seconds), null before a pong


class SeatInfo(_Sent):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    connected: bool
    away: bool


class TableMessage(_Sent):
    type: Literal["table"] = "table"
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "over"]
    version: int
    timer: float | None
    hints: bool
    created: str
    rematch: str | None
    seats: list[SeatInfo]


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "hello": Hello, "state": StateMessage, "error": ErrorMessage, "table": TableMessage,
    "ping": Ping}


# -- REST bodies -------------------------------------------------------------------------------

class SeatSpec(_Strict):
    """One seat at a new table: a bot by name, or open for a person."""

    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(default=None, max_length=40)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec | None] = Field(default_factory=list, max_length=16)
    timer: float | None = Field(default=None, gt=0, le=3600)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    hints: bool = True  # may seated people ask GET /api/tables/{id}/hint (games with advice)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    seat: int | None = Field(default=None, ge=0)


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


class Joined(BaseModel):
    table: str
    seat: int
    token: str
