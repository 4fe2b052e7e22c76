"""The wire format: every websocket message, a pydantic model each (and the REST bodies of
bodies.py, handed on from here).

Version 1 of the websocket protocol (`PROTOCOL`). A client sends one of

    {"act": "play 7h mau", "version": 41}    an intent, made against the version it saw
    {"token": "..."}                          claim the seat of a token (if not in the URL)
    {"sync": true}                            ask for the current state again
    {"pong": 7}                               answer the server's ping 7 (real-time tables)
    {"press": true, "version": 41}            real-time tables: the moment of the seat's
                                              next act is now (on that version); the act, when
                                              it comes, is credited from here
    {"press": false, "version": 41}           no act will follow that moment
    {"chat": "good luck!"}                    say something at the table (plain text)
    {"react": "thumbs"}                       a quick reaction (one of `REACTIONS`)
    {"chat_before": 120}                      the chat lines said before line 120

>>> read_client('{"act": "draw", "version": 3}')
Act(act='draw', version=3)
>>> read_client('{"pong": 7}')
Pong(pong=7)
>>> read_client('{"press": true, "version": 17}')
Press(press=True, version=17)
>>> read_client('{"act": 5}')
Traceback (most recent call last):
...
tiergarten.server.edge.protocol.BadMessage: a message is {"act": notation, "version": n}, ...

The server sends the messages of `SERVER_MESSAGES`, each built from its model here and
written by writer.py (docs/protocol.md lists their fields, and a test holds the list to the
models).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .bodies import NAME_LENGTH as NAME_LENGTH  # the REST bodies and names, handed on
from .bodies import ChatSwitch as ChatSwitch
from .bodies import ClockSpec as ClockSpec
from .bodies import CreateTable as CreateTable
from .bodies import Join as Join
from .bodies import Joined as Joined
from .bodies import SeatSpec as SeatSpec
from .bodies import TokenBody as TokenBody
from .bodies import clean_name as clean_name
from .matching import QUICK_MATCH as QUICK_MATCH  # quick match's bodies and answers

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes a client may send in one websocket message
CHAT_LENGTH = 200  # characters of one chat line
REACTIONS = ("thumbs", "smile", "wow", "sad", "clap", "gg")  # the client draws each one


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
    """Real-time tables: the moment of the seat's next act is reserved now, on `version`
    (true), or no act will follow that moment after all (false). The seat's next act fills
    the moment: it is credited at the moment's time and judged on its version (docs/
    protocol.md, "The moment, then the act"; what a game makes so is the game's own)."""

    press: bool
    version: int = Field(ge=0)


class Chat(_Strict):
    """A chat line; a spectator may say under which name (marked as a spectator anyway)."""

    chat: str = Field(min_length=1, max_length=4 * CHAT_LENGTH)  # checked again once cleaned
    name: str | None = Field(default=None, max_length=NAME_LENGTH)


class React(_Strict):
    react: Literal["thumbs", "smile", "wow", "sad", "clap", "gg"]


class ChatBefore(_Strict):
    """Older chat: the lines said before line `chat_before` (a `chat_log` answers)."""

    chat_before: int = Field(ge=0)


ClientMessage = Act | Auth | Sync | Pong | Chat | React | Press | ChatBefore
# which message a client's object is, by the key it has (the first found; none: a sync)
CLIENT_MESSAGES: dict[str, type[_Strict]] = {
    "act": Act, "token": Auth, "pong": Pong, "chat": Chat, "react": React, "press": Press,
    "chat_before": ChatBefore, "sync": Sync}
_SHAPES = ("a message is {\"act\": notation, \"version\": n}, {\"token\": t}, {\"sync\": true}, "
           "{\"pong\": id}, {\"chat\": text}, {\"react\": " + "|".join(REACTIONS) + "} or "
           "{\"press\": true or false, \"version\": n} or {\"chat_before\": n}")


def read_client(text: str | bytes) -> ClientMessage:
    """Parse one client message; anything else raises BadMessage saying what is allowed."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadMessage(f"not JSON; {_SHAPES}") from None
    except RecursionError:  # [[[...]]] nested past the parser's depth: no message is that deep
        raise BadMessage(f"nested too deeply; {_SHAPES}") from None
    if not isinstance(data, dict):
        raise BadMessage(_SHAPES)
    model = next((m for key, m in CLIENT_MESSAGES.items() if key in data), Sync)
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'message'}: {e['msg']}"
                             for e in exc.errors())
        raise BadMessage(f"{_SHAPES} ({problems})") from None


# -- messages the server sends --------------------------------------------------------------

class _Sent(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Limits(_Sent):
    """What a client may send (docs/protocol.md, "Limits")."""

    max_message: int  # bytes per message
    rate: float  # messages a second, sustained ...
    burst: int  # ... after this many at once


class Hello(_Sent):
    type: Literal["hello"] = "hello"
    protocol: int = PROTOCOL
    table: str
    game: str
    players: int
    seat: int | None
    limits: Limits
    call_window: float | None  # real-time tables: how long a reserved moment waits for its act
    spectator: int | None = None  # a spectator's number at the table (1, 2, ...): spectators'


class ClockView(_Sent):
    """Every seat's time at a table with a clock per player."""

    left: list[float | None]  # seconds per seat; null for a bot's
    running: list[int]  # the seats whose time is spent now


class CoachView(_Sent):
    """The coach's step at a tutorial table (server/table/tutorial.py)."""

    tutorial: str
    step: int
    steps: int
    key: str  # the i18n key of what the coach says
    allow: list[str] | None  # the moves it teaches (notation prefixes); null: any
    done: bool
    waiting: bool  # the learner has no move now (another's turn): the coach says so


class StateMessage(_Sent):
    type: Literal["state"] = "state"
    version: int
    seat: int | None
    observation: dict[str, Any]
    legal: list[str]
    events: list[Any]  # the log entries this version's act added (empty in a greeting, a sync)
    log: list[dict[str, Any]]  # what the seat may see of the log, from position `log_from` on
    log_from: int  # 0 in a greeting, a sync or a state read back: the whole log
    clock: ClockView | None = None  # tables with a clock per player
    coach: CoachView | None = None  # tutorial tables, the learner's seat


class ErrorMessage(_Sent):
    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None  # the table's version then (null: not at a table yet)
    reason: str | None = None  # `illegal`: the game's reason code, worded by the client ...
    params: dict[str, Any] | None = None  # ... with these values (cards, seats, counts)


class Ping(_Sent):
    """Sent every `ping_every` seconds at real-time tables; answer `{"pong": id}` at once."""

    type: Literal["ping"] = "ping"
    id: int
    t: float  # the server's clock (seconds); for information only
    rtt: float | None  # the smoothed round trip measured so far (seconds), null before a pong


class ChatLine(_Sent):
    """One chat line as every connection at the table gets it (and a replay shows it)."""

    type: Literal["chat"] = "chat"
    n: int
    version: int  # the table's version when it was said
    seat: int | None  # None: a spectator
    role: Literal["player", "spectator"]
    name: str
    kind: Literal["text", "reaction"]
    text: str  # the line, or the reaction's name
    at: str
    spectator: int | None = None  # the spectator's number at the table (hello's): spectators'


class ChatLog(_Sent):
    """Sent on connecting: the table's latest chat lines; and in answer to `chat_before`."""

    type: Literal["chat_log"] = "chat_log"
    lines: list[ChatLine]  # oldest first
    before: int | None  # the `chat_before` it answers; null: the greeting's latest lines
    more: bool  # older lines exist before these (ask with `chat_before`: the first line's n)


class SeatInfo(_Sent):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    connected: bool
    away: bool
    account: str | None  # the signed-in player's user name (their profile); else null


class TableMessage(_Sent):
    type: Literal["table"] = "table"
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "over", "closed"]
    version: int
    timer: float | None
    hints: bool
    created: str
    rematch: str | None
    seats: list[SeatInfo]
    chat: bool  # chat is on (the creator may switch it off)
    clock: ClockSpec | None  # {"bank", "increment"} seconds, or null
    tutorial: str | None  # the tutorial this table teaches, or null
    head_starts: list[float]  # real time: per seat, seconds its hits count earlier ([]: none)
    rules: int | None  # the rules version the game is played under (docs/games/<id>.md); null:
    # stored before versions were named, and not settled


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "hello": Hello, "state": StateMessage, "error": ErrorMessage, "table": TableMessage,
    "ping": Ping, "chat": ChatLine, "chat_log": ChatLog}
