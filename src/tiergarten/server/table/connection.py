"""One websocket as a table sees it: a seat, an ordered outbox of JSON text, and its latency."""

from __future__ import annotations

import asyncio
import statistics
from collections import deque

from ..edge.metrics import ERRORS
from ..edge.protocol import ErrorMessage, Ping
from ..edge.writer import text

RTT_SAMPLES = 5  # the smoothed round trip is the median of this many latest measurements
OPEN_PINGS = 16  # pings remembered while unanswered; an older id's pong is ignored


# how every `table` message, every greeting and every chat message start (writer.py's `text`)
TABLE = '{"type":"table"'
HELLO = '{"type":"hello"'
CHAT = '{"type":"chat'  # a line (`chat`) and a log (`chat_log`)
CHAT_SHARE = 4  # chat may keep a quarter of the outbox's bytes waiting (`chat_bytes`)


class Connection:
    """One websocket as a table sees it (a `Peer`): a seat (None = spectator) and an outbox of
    JSON text. The websocket route (server/routes/play.py) drains the outbox (`next`); `None`
    from it means close (with `close_code` and `close_reason`).

    The outbox is bounded: a client that reads too slowly for `queue_limit` messages or
    `queue_bytes` bytes to wait unsent loses the backlog (it is out of date anyway) and is told
    so (`too_slow`) before the close (1013: try again later), so it costs the server no more
    than that. Chat has a budget of its own beside it (`chat_bytes`): a chat message that
    does not fit is dropped for this reader alone (it may ask for the chat again,
    `chat_before`), and chat never counts against the game's messages, which always get
    through. A `table` message equal to the last one this connection was sent (since its
    greeting) is not sent again. `address` and `account` say who it is (chat is limited by
    them, never per connection).

    At real-time tables the server pings every connection; `rtt` is the median of the last
    `RTT_SAMPLES` round trips, 0 for a client that never answered (credited at arrival).

    >>> conn = Connection(0)
    >>> conn.rtt
    0.0
    >>> conn.ping(10.0).id, conn.ping(11.0).id
    (1, 2)
    >>> conn.pong(1, 10.25), conn.pong(1, 10.9), conn.pong(7, 11.0)  # each id counts once
    (True, False, False)
    >>> conn.pong(2, 11.5), conn.rtt, conn.credit(0.15), conn.credit(0.2)
    (True, 0.375, 0.15, 0.1875)
    """

    def __init__(self, seat: int | None, queue_limit: int = 1000,
                 queue_bytes: int = 1 << 20, address: str = "",
                 account: int | None = None) -> None:
        self.seat = seat
        self.spectator: int | None = None  # given by the table it watches (tables.py)
        self.address, self.account = address, account
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.queue_bytes = queue_bytes
        self.chat_bytes = queue_bytes // CHAT_SHARE
        self.unsent = 0  # characters of the game's messages waiting in the outbox
        self.chat_unsent = 0  # characters of chat waiting in the outbox
        self.chats = 0  # chat messages waiting in the outbox
        self.close_code = 1000
        self.close_reason = ""
        self.closed = False
        self.closing = asyncio.Event()  # set when the server closes it (see `close`)
        self.rtts: deque[float] = deque(maxlen=RTT_SAMPLES)
        self._pings: dict[int, float] = {}  # id -> when it was sent (the server's clock)
        self._next_ping = 1
        self._table: str | None = None  # the last `table` message queued

    def send(self, text: str) -> None:
        if self.closed:
            return
        if text.startswith(TABLE):
            if text == self._table:
                return  # nothing this connection does not know already
            self._table = text
        elif text.startswith(HELLO):
            self._table = None  # a greeting is whole: its `table` comes again
        elif text.startswith(CHAT):
            if self.chat_unsent + len(text) <= self.chat_bytes:
                self.chat_unsent += len(text)
                self.chats += 1
                self.outbox.put_nowait(text)
            return  # else dropped for this reader alone: chat never makes it too slow
        if (self.outbox.qsize() - self.chats >= self.queue_limit
                or self.unsent + len(text) > self.queue_bytes):
            self._too_slow()
            return
        self.unsent += len(text)
        self.outbox.put_nowait(text)

    def _too_slow(self) -> None:
        waiting, size = self.outbox.qsize(), self.unsent
        self._drop()
        self.error("too_slow", f"{waiting} messages ({size} bytes) were waiting unsent: this "
                   f"connection reads too slowly (at most {self.queue_limit} messages or "
                   f"{self.queue_bytes} bytes may wait); they were dropped, reconnect for the "
                   f"current state")
        self.close(1013, "reading too slowly; reconnect")

    def error(self, code: str, message: str, version: int | None = None) -> None:
        ERRORS.labels(code=code).inc()
        self.send(text(ErrorMessage(code=code, message=message, version=version)))

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        """Close after the messages already queued (or at once, dropping them)."""
        if drop:
            self._drop()
        if not self.closed:
            self.close_code, self.close_reason, self.closed = code, reason, True
            self.outbox.put_nowait(None)
            self.closing.set()

    def _drop(self) -> None:
        while not self.outbox.empty():
            if self.outbox.get_nowait() is None:
                self.outbox.put_nowait(None)  # the close stays
                break
        self.unsent = self.chat_unsent = self.chats = 0

    async def next(self) -> str | None:
        """The next message to send, in order; None: send the close frame."""
        text = await self.outbox.get()
        if text is not None:
            if text.startswith(CHAT):
                self.chat_unsent -= len(text)
                self.chats -= 1
            else:
                self.unsent -= len(text)
        return text

    # -- latency -----------------------------------------------------------------------------

    @property
    def rtt(self) -> float:
        """The smoothed round trip in seconds (0 until the client answers a ping)."""
        return statistics.median(self.rtts) if self.rtts else 0.0

    def credit(self, cap: float) -> float:
        """How much earlier than its arrival this connection's act counts: rtt/2, capped."""
        return max(0.0, min(self.rtt / 2, cap))

    def ping(self, now: float) -> Ping:
        """Send the next ping (sent at `now`, the server's clock); return it."""
        ping_id = self._next_ping
        self._next_ping += 1
        self._pings[ping_id] = now
        for old in [i for i in self._pings if i <= ping_id - OPEN_PINGS]:
            del self._pings[old]
        message = Ping(id=ping_id, t=round(now, 3),
                       rtt=round(self.rtt, 4) if self.rtts else None)
        self.send(text(message))
        return message

    def pong(self, ping_id: int, now: float) -> bool:
        """The client answered ping `ping_id` at `now`; False if no such ping is open."""
        sent = self._pings.pop(ping_id, None)
        if sent is None:
            return False
        self.rtts.append(max(0.0, now - sent))
        return True
