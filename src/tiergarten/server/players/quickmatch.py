"""Quick match, the service: people join and leave the queue (queue.py), and whichever worker
holds the pairing lease pairs them (matcher.py) and has a table made for each match.

`place` (given by the routes: it knows the table manager) makes the table with the bots
seated, seats each person as they asked (an account under its name, a guest under theirs)
and answers the table id and each person's seat and token. Only then does the match leave the
queue (`Queue.take`, all or none): a match whose people changed meanwhile (one cancelled)
is `abandon`ed (the table closes) and the others stay queued. A worker killed between the two
leaves a table its people never hear of, and they stay queued: they are matched again.

The clock (`clock`, seconds; the queue's entries carry its times, so every worker of a cluster
must share it: the wall clock by default) is injectable, so tests and the benchmark run
minutes of waiting in an instant.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .matcher import RULES, Entry, Match, Rules, pair
from .queue import Queue

log = logging.getLogger("tiergarten.server")

EVERY = 1.0  # seconds between pairing rounds (a join wakes the round at once)
LEASE_TTL = 3.0  # seconds the pairing lease lasts unless renewed


@dataclass(frozen=True)
class Seated:
    """Where one person of a match sits: the table, their seat, and the seat's token."""

    table: str
    seat: int
    token: str


Place = Callable[[Match, list[Entry]], dict[str, Seated]]
Abandon = Callable[[str], Awaitable[object]]


class QuickMatch:
    """The queue and its pairing rounds (see the module doc)."""

    def __init__(self, queue: Queue, place: Place, abandon: Abandon, me: str = "solo",
                 clock: Callable[[], float] = time.time, rules: Rules = RULES,
                 every: float = EVERY, lease_ttl: float = LEASE_TTL) -> None:
        self.queue, self.place, self.abandon = queue, place, abandon
        self.me, self.clock, self.rules = me, clock, rules
        self.every, self.lease_ttl = every, lease_ttl
        self.wake = asyncio.Event()
        self.made: list[Match] = []  # every match this worker made (tests, the benchmark)
        self.paused: Callable[[], bool] = lambda: False  # e.g. a graceful stop under way

    async def join(self, entry: Entry) -> dict[str, Any]:
        await self.queue.put(entry)
        self.wake.set()
        return await self.status(entry.key)

    async def cancel(self, key: str) -> dict[str, Any]:
        await self.queue.drop(key)
        return await self.status(key)

    async def status(self, key: str) -> dict[str, Any]:
        """`waiting` (with the choices and the wait so far), `matched` (where to sit), or
        `idle`; and how many wait per game."""
        waiting = await self.queue.waiting()
        entry = await self.queue.get(key)
        if entry is not None:
            return {"status": "waiting", "game": entry.game, "counts": list(entry.counts),
                    "bot_wait": entry.bot_wait, "waited": max(0.0, self.clock() - entry.since),
                    "match": None, "waiting": waiting}
        found = await self.queue.result(key)
        return {"status": "matched" if found else "idle", "game": None, "counts": None,
                "bot_wait": None, "waited": None,
                "match": json.loads(found) if found else None, "waiting": waiting}

    async def tick(self) -> list[Match]:
        """One pairing round, if this worker holds the lease: the matches made."""
        if not await self.queue.lead(self.me, self.lease_ttl):
            return []
        entries = await self.queue.entries()
        by_key = {e.key: e for e in entries}
        made = []
        for match in pair(entries, self.clock(), self.rules):
            people = [by_key[k] for k in match.people]
            try:
                seats = self.place(match, people)
            except Exception:
                log.exception("quick match: a table for %s could not be made", match.game)
                continue
            results = {k: json.dumps({"table": s.table, "seat": s.seat, "token": s.token,
                                      "game": match.game, "players": match.players,
                                      "bots": len(match.bots)}) for k, s in seats.items()}
            if await self.queue.take(people, results):
                made.append(match)
            else:  # somebody left or changed their mind meanwhile
                await self.abandon(next(iter(seats.values())).table)
        self.made.extend(made)
        return made

    async def run(self) -> None:
        """Pairing rounds every `every` seconds, and at once after a join, until cancelled."""
        try:
            while True:
                try:
                    if not self.paused():
                        await self.tick()
                except Exception as exc:  # Redis away, say: the next round tries again
                    log.warning("quick match: a pairing round failed (%s: %s)",
                                type(exc).__name__, exc)
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), self.every)
        finally:
            close = getattr(self.queue, "close", None)
            if close is not None:
                await close()
