"""The REST bodies (what the lobby's routes take and answer) and the one rule for display
names; edge/protocol.py has the websocket's messages (and hands these on too).

>>> CreateTable.model_validate({"game": "maumau", "clock": {"bank": 60}}).clock
ClockSpec(bank=60.0, increment=0.0)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

NAME_LENGTH = 40  # characters of a display name, after `clean_name`
JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiners: emoji sequences, some scripts


class BadName(ValueError):
    """A display name refused by `clean_name`: `code` and `params` say why, for a client to
    word (docs/protocol.md, "REST error codes")."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


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
    tiergarten.server.edge.bodies.BadName: a name may not contain control ... U+0000 (...)
    """
    name = unicodedata.normalize("NFC", name)
    for place, char in enumerate(name, 1):
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs", "Zl", "Zp") or (kind == "Cf" and char not in JOINERS):
            what = unicodedata.name(char, "a control character")
            raise BadName(f"a name may not contain control or invisible format characters; "
                          f"character {place} is U+{ord(char):04X} ({what})", "name_invisible",
                          position=place, character=f"U+{ord(char):04X}")
    name = " ".join(name.split())
    if not name:
        raise BadName("a name is needed to sit down", "name_missing")
    if len(name) > NAME_LENGTH:
        raise BadName(f"a name may have at most {NAME_LENGTH} characters; this one has "
                      f"{len(name)}", "name_too_long", most=NAME_LENGTH, length=len(name))
    return name


class SeatSpec(BaseModel):
    """One seat at a new table: a bot by name, or open for a person (who may get a head start
    in seconds at a real-time table: server/table/spec.py)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    bot: str | None = Field(default=None, max_length=40)
    head_start: float | None = None


class ClockSpec(BaseModel):
    """A clock per player: a time bank, and seconds added after each of their moves."""

    model_config = ConfigDict(extra="forbid")
    bank: float = Field(gt=0, le=7200)
    increment: float = Field(default=0.0, ge=0, le=600)


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
