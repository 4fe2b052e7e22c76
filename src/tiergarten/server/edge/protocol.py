"""The wire format: every REST body and websocket message, validated by pydantic.

Version 1 of the websocket protocol (`PROTOCOL`). A client sends one of

    {"act": "play 7h mau", "version": 41}    an intent, made against the version it saw
    {"token": "..."}                          claim the seat of a token (if not in the URL)
    {"sync": true}                            ask for the current state again
    {"pong": 7}                               answer the server's ping 7 (real-time tables)
    {"press": true, "version": 41}            the club is pressed now (real-time tables): the
                                              seat's next act is its call, credited from here
    {"press": false, "version": 41}           no call will follow that press
    {"chat": "good luck!"}                    say something at the table (plain text)
    {"react": "thumbs"}                       a quick reaction (one of `REACTIONS`)

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
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes a client may send in one websocket message
NAME_LENGTH = 40  # characters of a display name, after `clean_name`
JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiners: emoji sequences, some scripts


def clean_name(name: str) -> str:
    r"""A display name as it is stored and shown, the same on every database: Unicode NFC, runs
    of white space as one space, trimmed, 1 to NAME_LENGTH characters; a control character
    (NUL, tab, newline, ...), a lone surrogate or an invisible format character (bidirectional
    overrides; the joiners excepted) is refused with ValueError, saying which.

    >>> clean_name("  Ann   Lee "), clean_name("Zoe\u0308") == "Zo\u00eb"
    ('Ann Lee', True)
    >>> clean_name("Ann\x00")
    Traceback (most recent call last):
    ...
    ValueError: a name may not contain control or ... characters; character 4 is U+0000 (...)
    """
    name = unicodedata.normalize("NFC", name)
    for place, char in enumerate(name, 1):
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs", "Zl", "Zp") or (kind == "Cf" and char not in JOINERS):
            what = unicodedata.name(char, "a control character")
            raise ValueError(f"a name may not contain control or invisible format characters; "
                             f"character {place} is U+{ord(char):04X} ({what})")
    name = " ".join(name.split())
    if not name:
        raise ValueError("a name is needed to sit down")
    if len(name) > NAME_LENGTH:
        raise ValueError(f"a name may have at most {NAME_LENGTH} characters; this one has "
                         f"{len(name)}")
    return name
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
    """Real-time tables: the club is pressed now, on `version` (true), or that press will have
    no call after all (false). The seat's next act is the press's call: it is credited at the
    press's time and judged on the press's version (docs/protocol.md, "Press, then call")."""

    press: bool
    version: int = Field(ge=0)


class Chat(_Strict):
    """A chat line; a spectator may say under which name (marked as a spectator anyway)."""

    chat: str = Field(min_length=1, max_length=4 * CHAT_LENGTH)  # checked again once cleaned
    name: str | None = Field(default=None, max_length=NAME_LENGTH)


class React(_Strict):
    react: Literal["thumbs", "smile", "wow", "sad", "clap", "gg"]


ClientMessage = Act | Auth | Sync | Pong | Chat | React | Press
_SHAPES = ("a message is {\"act\": notation, \"version\": n}, {\"token\": t}, {\"sync\": true}, "
           "{\"pong\": id}, {\"chat\": text}, {\"react\": " + "|".join(REACTIONS) + "} or "
           "{\"press\": true or false, \"version\": n}")


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
    model: type[_Strict] = (Act if "act" in data else Auth if "token" in data
                            else Pong if "pong" in data else Chat if "chat" in data
                            else React if "react" in data else Press if "press" in data
                            else Sync)
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
    events: list[Any]  # the log entries this version's act added (empty in a greeting, a sync)
    log: list[dict[str, Any]]  # what the seat may see of the log, from position `log_from` on
    log_from: int  # 0 in a greeting, a sync or a state read back: the whole log
    clock: dict[str, Any] | None = None  # tables with a clock: {"left": [s...], "running": [..]}
    coach: dict[str, Any] | None = None  # tutorial tables: the coach's step (server/tutorial.py)


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


class ChatLog(_Sent):
    """Sent on connecting: the table's chat so far."""

    type: Literal["chat_log"] = "chat_log"
    lines: list[dict[str, Any]]


class SeatInfo(_Sent):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    connected: bool
    away: bool
    account: str | None = None  # the signed-in player's user name (their profile); else null


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
    chat: bool = True  # chat is on (the creator may switch it off)
    clock: dict[str, float] | None = None  # {"bank", "increment"} seconds, or null
    tutorial: str | None = None  # the tutorial this table teaches, or null
    rules: int | None = None  # the rules version the game is played under (docs/games/<id>.md)


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "hello": Hello, "state": StateMessage, "error": ErrorMessage, "table": TableMessage,
    "ping": Ping, "chat": ChatLine, "chat_log": ChatLog}


# -- REST bodies -------------------------------------------------------------------------------

class SeatSpec(_Strict):
    """One seat at a new table: a bot by name, or open for a person."""

    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(default=None, max_length=40)


class ClockSpec(BaseModel):
    """A clock per player: a time bank, and seconds added after each of their moves."""

    model_config = ConfigDict(extra="forbid")
    bank: float = Field(gt=0, le=7200)
    increment: float = Field(default=0, ge=0, le=600)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec | None] = Field(default_factory=list, max_length=16)
    timer: float | None = Field(default=None, gt=0, le=3600)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    hints: bool = True  # may seated people ask GET /api/tables/{id}/hint (games with advice)
    chat: bool = True  # table chat on (the creator may switch it off later)
    clock: ClockSpec | None = None  # instead of `timer`: a time bank per player


class ChatSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    owner: str = Field(min_length=1, max_length=200)  # the creator's token (from creating)
    on: bool


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # room for white space and combining marks: the name itself is checked by `clean_name`
    name: str = Field(max_length=4 * NAME_LENGTH)
    seat: int | None = Field(default=None, ge=0)


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


class Joined(BaseModel):
    table: str
    seat: int
    token: str
