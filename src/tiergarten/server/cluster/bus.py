"""The workers' wire: Redis pub/sub, one inbox channel per worker, frames sent in order.

Every worker subscribes to its own inbox (`{prefix}:w:{worker}`) and to the cluster's common
channel (`{prefix}:all`). Everything a worker sends goes through one queue drained by one task
into pipelined PUBLISHes, so frames reach every receiver in the order they were sent (Redis
delivers one subscriber's messages in the order it ran the PUBLISHes). That order is what
keeps a connection's messages in version order and an act behind the `attach` of its
connection.

A frame is one kind byte, a JSON header, a newline and a body of raw bytes:

>>> frame = encode(b"D", {"c": [3, 4], "v": 17}, b'{"type": "state"}')
>>> decode(frame)
(b'D', {'c': [3, 4], 'v': 17}, b'{"type": "state"}')
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
import redis.asyncio as aioredis

from ..edge.metrics import FRAMES, FRAMES_DROPPED

log = logging.getLogger("tiergarten.server")

BATCH = 512  # frames per pipelined round trip at most


def encode(kind: bytes, header: dict[str, Any], body: bytes = b"") -> bytes:
    return kind + orjson.dumps(header) + b"\n" + body


def decode(frame: bytes) -> tuple[bytes, dict[str, Any], bytes]:
    end = frame.index(b"\n")
    return frame[:1], orjson.loads(frame[1:end]), frame[end + 1:]


class Bus:
    """One worker's inbox and outbox on Redis pub/sub."""

    def __init__(self, redis: aioredis.Redis, prefix: str, worker_id: str,
                 receive: Callable[[bytes, dict[str, Any], bytes], None]) -> None:
        self.redis = redis
        self.prefix = prefix
        self.worker_id = worker_id
        self.inbox = self.channel(worker_id)
        self.common = f"{prefix}:all"
        self._receive = receive
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self.sent = 0  # frames published (metrics, tests)

    def channel(self, worker_id: str) -> str:
        return f"{self.prefix}:w:{worker_id}"

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.inbox, self.common)  # confirmed before we go on
        self._tasks = [asyncio.create_task(self._read(), name="bus reader"),
                       asyncio.create_task(self._write(), name="bus writer")]

    def send(self, worker_id: str, kind: bytes, header: dict[str, Any], body: bytes = b"") -> None:
        """Queue a frame for another worker's inbox (in order with every other frame)."""
        self._out.put_nowait((self.channel(worker_id), encode(kind, header, body)))

    def broadcast(self, kind: bytes, header: dict[str, Any], body: bytes = b"") -> None:
        """Queue a frame for every worker (this one too)."""
        self._out.put_nowait((self.common, encode(kind, header, body)))

    async def flush(self) -> None:
        """Wait until every frame queued so far has been published."""
        while not self._out.empty() or self._busy:
            await asyncio.sleep(0.005)

    _busy = False

    async def _write(self) -> None:
        while True:
            first = await self._out.get()
            batch = [first]
            while len(batch) < BATCH and not self._out.empty():
                batch.append(self._out.get_nowait())
            self._busy = True
            try:
                await self._publish(batch)
            finally:
                self._busy = False

    async def _publish(self, batch: list[tuple[str, bytes]]) -> None:
        for attempt in range(3):
            try:
                if len(batch) == 1:
                    await self.redis.publish(*batch[0])
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                self.sent += len(batch)
                FRAMES.inc(len(batch))
                return
            except (aioredis.ConnectionError, aioredis.TimeoutError, OSError) as exc:
                log.warning("publishing %d frames failed (%s); retrying", len(batch), exc)
                await asyncio.sleep(0.1 * (attempt + 1))
        FRAMES_DROPPED.inc(len(batch))
        # counted (tiergarten_bus_frames_dropped_total): Redis away, not a fault of ours;
        # the relayed connections that miss them resynchronise
        log.warning("publishing %d frames failed three times: dropped", len(batch))

    async def _read(self) -> None:
        lost = False  # Redis went away: said once, and once again when it is back
        while True:
            try:
                if lost:
                    await self._pubsub.subscribe(self.inbox, self.common)
                    log.warning("the bus has Redis again")
                    lost = False
                async for message in self._pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        self._receive(*decode(message["data"]))
                    except Exception:  # one bad frame never stops the worker's inbox
                        log.exception("a frame from the bus could not be handled")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost:
                    log.warning("the bus lost Redis (%s); subscribing again every 0.2 s", exc)
                lost = True
                await asyncio.sleep(0.2)

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 2.0)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
