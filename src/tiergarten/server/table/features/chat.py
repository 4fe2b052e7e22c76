"""Table chat (a table feature): plain-text lines and quick reactions from players and
spectators.

A line is cleaned (NFC, control characters dropped, spaces collapsed) and then at most
`CHAT_LENGTH` characters. Who may say how much is counted per table, per address and per
account, never per connection (a reconnect resets nothing): `BURST` lines at once and one
every `EVERY` seconds after that for each (`ChatLimits`, over the server's `Counters`: in
Redis when there are several workers, like the connection limits). A line is stored with the
table (and the table's version then, so a replay shows it in place) before anyone hears it. A
connection is greeted with the last `GREETING` lines (`chat_log`, `more`: older lines exist),
and asks for older ones (`{"chat_before": n}`: up to `GREETING` lines before line n); the
table keeps the last `HISTORY` lines in memory. Chat has its own share of a reader's outbox
(table/connection.py): it never makes a reader too slow for the game's messages. The creator
may switch chat off (`switch`, kept in the table's spec). Muting is each reader's own
business (the client hides a muted seat's lines).

>>> clean("  hi\\x00  there\\n ")
'hi there'
"""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import unicodedata
from typing import Any

from ...edge.counters import Counters, LocalCounters
from ...edge.protocol import (
    CHAT_LENGTH,
    Chat,
    ChatBefore,
    ChatLine,
    ChatLog,
    ClientMessage,
    React,
)
from ...edge.settings import TableError
from ...edge.writer import text
from ...storage.store import Store
from ..feature import Feature, Table
from ..spec import TableSpec
from ..transport import Peer

BURST, EVERY = 5, 2.0  # lines at once per address and per account, then one per EVERY s
GREETING = 50  # lines a greeting carries (and an answer to `chat_before`)
HISTORY = 200  # lines a table keeps in memory; older ones are read from the store on request
SPECTATOR = "spectator"


class ChatLimits:
    """How many lines an address and an account may say at one table, over `counters` (the
    server's: this process's, or shared through Redis by every worker)."""

    def __init__(self, counters: Counters | None = None) -> None:
        self.counters: Counters = counters or LocalCounters()

    async def wait(self, table_id: str, address: str, account: int | None) -> float:
        """0 if one more line may be said now, else the seconds until one may."""
        keys = [f"chat:{table_id}:a:{address}"]
        if account is not None:
            keys.append(f"chat:{table_id}:u:{account}")
        waits = [await self.counters.take(key, 1 / EVERY, BURST) for key in keys]
        return max(waits)


def clean(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    return " ".join(kept.split())


class TableChat(Feature):
    """The chat of one table: its lines so far, on or off, and each connection's allowance."""

    handles = (Chat, React, ChatBefore)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        lines = stored_lines(table.store, table.id)
        self.said = len(lines)  # lines said at this table so far (the next line's `n`)
        # the highest spectator number said here: the table numbers new spectators on from it
        self.spectators = max((line.spectator or 0 for line in lines), default=0)
        self.lines: list[ChatLine] = lines[-HISTORY:]  # the latest
        self._turn = asyncio.Lock()
        self.limits = ChatLimits()  # the server's (the manager gives them)

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        return {"chat": spec.chat}

    @property
    def on(self) -> bool:
        return self.table.spec.chat

    def switch(self, owner_token: str, on: bool) -> None:
        """The table's creator switches chat on or off for everyone."""
        if not self.table.is_creator(owner_token):
            raise TableError("only the table's creator may switch its chat", 403, "not_creator")
        self.table.respecify(self.table.spec.model_copy(update={"chat": on}))
        self.table.broadcast_info()

    def greeted(self, peer: Peer) -> None:
        lines = self.lines[-GREETING:]
        peer.send(text(ChatLog(lines=lines, before=None,
                               more=bool(lines) and lines[0].n > 0)))

    async def older(self, peer: Peer, before: int) -> None:
        """Up to `GREETING` lines said before line `before`, oldest first."""
        kept = self.lines[0].n if self.lines else self.said
        if before > kept:
            lines = [line for line in self.lines if line.n < before][-GREETING:]
        else:
            store = self.table.store
            stored = await asyncio.get_running_loop().run_in_executor(
                store.writer, store.chat, self.table.id)
            lines = [_line(line) for line in stored if line["n"] < before][-GREETING:]
        peer.send(text(ChatLog(lines=lines, before=before,
                               more=bool(lines) and lines[0].n > 0)))

    async def handle(self, peer: Peer, message: ClientMessage, arrival: float) -> None:
        if isinstance(message, ChatBefore):
            await self.older(peer, message.chat_before)
            return
        assert isinstance(message, Chat | React)
        seat = peer.seat
        name = None if seat is None else (self.table.seats.rows[seat].name or "")
        if name is None and self.table.passes_for_account(getattr(message, "name", None) or ""):
            peer.error("bad_name", "that name is a signed-in player's at this table; a "
                       "spectator chats under another", self.table.version)
            return
        await self.say(peer, message, name, self.table.version)

    async def say(self, peer: Peer, message: Chat | React, name: str | None,
                  version: int) -> None:
        """Store one line from `peer` (its seat's `name`; None: a spectator) and tell all."""
        if not self.on:
            peer.error("chat_off", "chat is off at this table (its creator chose so)", version)
            return
        if isinstance(message, Chat):
            kind, words = "text", clean(message.chat)
            if not words:
                peer.error("bad_message", "a chat line needs some text", version)
                return
            if len(words) > CHAT_LENGTH:
                peer.error("too_long", f"a chat line has at most {CHAT_LENGTH} characters, "
                           f"this one has {len(words)}", version)
                return
        else:
            kind, words = "reaction", message.react
        account = peer.account
        if account is None and peer.seat is not None:
            account = self.table.seats.rows[peer.seat].user_id
        wait = await self.limits.wait(self.table.id, peer.address, account)
        if wait > 0:
            peer.error("chat_rate", f"at most {BURST} chat lines at once from one address or "
                       f"account, then one every {EVERY:g} s; wait {math.ceil(wait)} s",
                       version)
            return
        who = name if name is not None else clean(getattr(message, "name", None) or "")
        number = peer.spectator if peer.seat is None else None
        default = SPECTATOR if number is None else f"{SPECTATOR} {number}"
        async with self._turn:  # numbered and stored in order
            line = {"n": self.said, "version": version, "seat": peer.seat,
                    "name": (who or default)[:40], "kind": kind, "text": words,
                    "at": dt.datetime.now(dt.UTC), "spectator": number}
            store = self.table.store
            await asyncio.get_running_loop().run_in_executor(
                store.writer, store.add_chat, self.table.id, line)
            said = _line(line)
            self.said += 1
            self.lines.append(said)
            del self.lines[:-HISTORY]
        self.table.transport.deliver_all(self.table.id, text(said))


def stored_lines(store: Store, table_id: str) -> list[ChatLine]:
    """A table's chat as the store holds it, each line as it is sent."""
    return [_line(line) for line in store.chat(table_id)]


def _line(line: dict[str, Any]) -> ChatLine:
    """A chat line as the store holds it (`Store.add_chat`), as it is sent."""
    at = line["at"]
    if isinstance(at, dt.datetime):
        at = (at if at.tzinfo else at.replace(tzinfo=dt.UTC)).isoformat()
    number = line.get("spectator")
    return ChatLine(n=line["n"], version=line["version"], seat=line["seat"],
                    role="spectator" if line["seat"] is None else "player", name=line["name"],
                    kind=line["kind"], text=line["text"], at=at,
                    **({} if number is None else {"spectator": number}))
