"""The turn order: how acts reach the log of a turn-based table, and the refusals every order
gives.

An act made against any version but the table's is refused as `stale` at once (the log's
compare-and-append refuses one that another act overtook while it waited for its turn); an
act the rules refuse is `illegal`, with the game's reason code and its values, so that a
client can word it in its own language. A real-time table orders its acts fairly instead
(features/fair.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

from tiergarten.core import IllegalAction
from tiergarten.core.game import Action

from ..edge import metrics
from ..edge.protocol import Act, ErrorMessage
from ..edge.writer import text
from .table_log import StoreFailed, TableLog
from .transport import Peer


class TurnOrder:
    """Acts applied at once, one at a time, each on the version it was made against (an
    `ActOrder`)."""

    def __init__(self, log: TableLog) -> None:
        self.log = log
        self._loop = asyncio.get_running_loop()

    def is_stale(self, seen: int) -> bool:
        return seen != self.log.version

    async def submit(self, peer: Peer, seat: int, message: Act, arrival: float) -> None:
        version = message.version
        try:
            if await self.log.apply(seat, message.act, expect=version):
                metrics.ACT_TO_UPDATE.observe(self._loop.time() - arrival)
            else:
                stale(peer, version, self.log.version)  # another act came first
        except IllegalAction as exc:
            illegal(peer, exc, version)
        except StoreFailed as exc:
            peer.error(exc.code, str(exc), self.log.version)

    async def play(self, seat: int, action: Action, version: int) -> None:
        await self.log.apply(seat, action, expect=version)  # False: too late, it chooses again

    async def settled(self) -> None:
        pass  # every act is settled once `submit` returns


def stale(peer: Peer, acted_on: int, version: int) -> None:
    peer.error("stale", f"you acted on version {acted_on}, but the table is at version "
               f"{version}; nothing changed", version)


def illegal(peer: Peer, exc: IllegalAction, version: int) -> None:
    """The rules refused an act: the game's English reason, and its reason code and parameters
    (when the game gives them) so that a client can word it in its own language."""
    code = getattr(exc, "code", None)
    why: dict[str, Any] = {} if code is None else {
        "reason": code, "params": dict(getattr(exc, "params", {}))}
    peer.send(text(ErrorMessage(code="illegal", message=str(exc), version=version, **why)))


def seat_may_act(peer: Peer, status: str, version: int) -> int | None:
    """The seat of `peer` if it may act at a table in `status`; if not, it is told why."""
    if peer.seat is None:
        peer.error("not_seated", "spectators cannot act; join a seat or connect with its "
                   "token", version)
    elif status != "playing":
        why = "the game is over" if status == "over" else (
            "the game starts when every seat is taken")
        peer.error("not_playing", why, version)
    else:
        return peer.seat
    return None
