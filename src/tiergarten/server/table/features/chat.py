"""Table chat (a table feature): plain-text lines and quick reactions from players and
spectators.

A line is cleaned (NFC, control characters dropped, spaces collapsed) and then at most
`CHAT_LENGTH` characters; each connection may say `BURST` lines at once and one every
`EVERY` seconds after that. A line is stored with the table (and the table's version then, so
a replay shows it in place) before anyone hears it. A connection gets the chat so far once it
is greeted (`chat_log`). The creator may switch chat off (`switch`, kept in the table's spec).
Muting is each reader's own business (the client hides a muted seat's lines).

>>> clean("  hi\\x00  there\\n ")
'hi there'
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
import unicodedata
import weakref
from typing import Any

from ...edge.protocol import CHAT_LENGTH, Chat, ChatLine, ChatLog, ClientMessage, React
from ...edge.settings import TableError
from ...edge.writer import text
from ...storage.store import Store
from ..feature import Feature, Table
from ..spec import TableSpec
from ..transport import Peer

BURST, EVERY = 5, 2.0  # lines at once per connection, then one per EVERY seconds
SPECTATOR = "spectator"


def clean(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    return " ".join(kept.split())


class TableChat(Feature):
    """The chat of one table: its lines so far, on or off, and each connection's allowance."""

    handles = (Chat, React)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.lines: list[ChatLine] = stored_lines(table.store, table.id)
        self._allowance: weakref.WeakKeyDictionary[Peer, list[float]] = (
            weakref.WeakKeyDictionary())
        self._turn = asyncio.Lock()

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        return {"chat": spec.chat}

    @property
    def on(self) -> bool:
        return self.table.spec.chat

    def switch(self, owner_token: str, on: bool) -> None:
        """The table's creator switches chat on or off for everyone."""
        if not self.table.is_creator(owner_token):
            raise TableError("only the table's creator may switch its chat", 403)
        self.table.respecify(self.table.spec.model_copy(update={"chat": on}))
        self.table.broadcast_info()

    def greeted(self, peer: Peer) -> None:
        peer.send(text(ChatLog(lines=self.lines)))

    async def handle(self, peer: Peer, message: ClientMessage, arrival: float) -> None:
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
        if not self._allow(peer):
            peer.error("chat_rate", f"at most {BURST} chat lines at once, then one every "
                       f"{EVERY:g} s; wait a moment", version)
            return
        who = name if name is not None else clean(getattr(message, "name", None) or "")
        async with self._turn:  # numbered and stored in order
            line = {"n": len(self.lines), "version": version, "seat": peer.seat,
                    "name": (who or SPECTATOR)[:40], "kind": kind, "text": words,
                    "at": dt.datetime.now(dt.UTC)}
            store = self.table.store
            await asyncio.get_running_loop().run_in_executor(
                store.writer, store.add_chat, self.table.id, line)
            said = _line(line)
            self.lines.append(said)
        self.table.transport.deliver_all(self.table.id, text(said))

    def _allow(self, peer: Peer) -> bool:
        now = time.monotonic()
        bucket = self._allowance.setdefault(peer, [float(BURST), now])
        bucket[0] = min(float(BURST), bucket[0] + (now - bucket[1]) / EVERY)
        bucket[1] = now
        if bucket[0] < 1.0:
            return False
        bucket[0] -= 1.0
        return True


def stored_lines(store: Store, table_id: str) -> list[ChatLine]:
    """A table's chat as the store holds it, each line as it is sent."""
    return [_line(line) for line in store.chat(table_id)]


def _line(line: dict[str, Any]) -> ChatLine:
    """A chat line as the store holds it (`Store.add_chat`), as it is sent."""
    at = line["at"]
    if isinstance(at, dt.datetime):
        at = (at if at.tzinfo else at.replace(tzinfo=dt.UTC)).isoformat()
    return ChatLine(n=line["n"], version=line["version"], seat=line["seat"],
                    role="spectator" if line["seat"] is None else "player", name=line["name"],
                    kind=line["kind"], text=line["text"], at=at)
