"""Quick match ("Play now") over REST: join the queue, ask where one stands, leave it, and
how many wait per game (docs/protocol.md, "Quick match"); and `start`, which the app's
lifespan calls to run the pairing rounds (server/players/quickmatch.py) over the memory
queue, or the Redis one in a cluster.

A person is their account when signed in, else the guest secret their browser sends (kept
in its local storage, so two tabs are one person); only its hash is a key in the queue.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, Request

import tiergarten
from tiergarten.bots.levels import NAMES as LEVELS
from tiergarten.core.registry import game_class

from ..edge.bodies import BadName, SeatSpec, clean_name
from ..edge.matching import QuickAsk, QuickJoin, QuickStatus, Waiting
from ..edge.settings import Refused
from ..players.bot_levels import bot_mu
from ..players.matcher import Entry, Match, canonical
from ..players.queue import MemoryQueue, Queue
from ..players.quickmatch import LEASE_TTL, QuickMatch, Seated
from ..table.ports import Account
from ..table.spec import TableSpec
from .account import signed_in

if TYPE_CHECKING:
    from ..cluster import ClusterSettings

router = APIRouter()
ABANDONED = "abandoned"  # the close reason of a table whose match fell through
START_SIGMA = 25.0 / 3  # openskill's sigma of a new account


def service(request: Request) -> QuickMatch:
    found: QuickMatch = request.app.state.quickmatch
    return found


def _key(request: Request, guest: str | None) -> str:
    user = signed_in(request)
    if user is not None:
        return f"u:{user.id}"
    if guest is None:
        raise Refused(400, "guest_needed", "a guest says who they are (`guest`), or signs in")
    return "g:" + hashlib.sha256(guest.encode()).hexdigest()[:32]


@router.post("/api/quickmatch")
async def join_queue(body: QuickJoin, request: Request) -> QuickStatus:
    """Queue for a game (replacing this person's entry, if any)."""
    key = _key(request, body.guest)
    info = game_class(body.game).info  # the game's own OptionError (400) if unknown
    allowed = tuple(range(info.min_players, info.max_players + 1))
    counts = allowed if body.players is None else (body.players,)
    tiergarten.load(body.game, counts[0], **(body.options or {}))  # a bad count or option
    user = signed_in(request)
    if user is None:
        level = body.level or "normal"
        if level not in LEVELS:
            raise Refused(400, "bad_level", f"a level is one of {', '.join(LEVELS)}",
                          {"levels": list(LEVELS)})
        try:
            name = clean_name(body.name or "")
        except BadName as exc:
            raise Refused(400, exc.code, str(exc), exc.params) from None
        mu = rating = bot_mu(body.game, level)
        user_id = None
    else:
        level, name, user_id = None, user.name, user.id
        mu, sigma = next(((r.mu, r.sigma) for r in request.app.state.players.ratings(user.id)
                          if r.game == body.game), (25.0, START_SIGMA))
        rating = mu - 3 * sigma
    quick = service(request)
    entry = Entry(key, body.game, counts, canonical(body.options), rating, mu, user is None,
                  level, body.bot_wait, quick.clock(), info.default_players, name, user_id)
    return QuickStatus.model_validate(await quick.join(entry))


@router.post("/api/quickmatch/status")
async def queue_status(body: QuickAsk, request: Request) -> QuickStatus:
    """Waiting, matched (where to sit: every tab of this person asks and is told), or idle."""
    return QuickStatus.model_validate(await service(request).status(_key(request, body.guest)))


@router.post("/api/quickmatch/cancel")
async def leave_queue(body: QuickAsk, request: Request) -> QuickStatus:
    """Leave the queue (nothing happens if not queued)."""
    return QuickStatus.model_validate(await service(request).cancel(_key(request, body.guest)))


@router.get("/api/quickmatch/waiting")
async def waiting(request: Request) -> Waiting:
    return Waiting(waiting=await service(request).queue.waiting())


def start(app: FastAPI, cluster: ClusterSettings | None) -> QuickMatch:
    """The quick match of this process, kept as `app.state.quickmatch` (its `run` is the
    pairing rounds, which the lifespan runs)."""
    queue: Queue = MemoryQueue()
    me, ttl = "solo", LEASE_TTL
    if cluster is not None:
        from ..players.redis_queue import RedisQueue

        queue = RedisQueue.connect(cluster.redis_url, cluster.prefix)
        me, ttl = cluster.worker_id, cluster.lease_ttl
    quick = QuickMatch(queue, lambda m, p: _place(app, m, p), lambda t: _abandon(app, t), me,
                       lease_ttl=ttl)
    quick.paused = lambda: bool(app.state.manager.draining)
    app.state.quickmatch = quick
    return quick


def _place(app: FastAPI, match: Match, people: list[Entry]) -> dict[str, Seated]:
    """Make the match's table: the bots seated, then each person in their seat."""
    manager = app.state.manager
    seats: list[SeatSpec | None] = [None] * len(people)
    seats += [SeatSpec(bot=level) for level in match.bots]
    table = manager.create(TableSpec(game=match.game, players=match.players,
                                     options=match.options, seats=seats))
    placed: dict[str, Seated] = {}
    for seat, entry in enumerate(people):
        account = None if entry.user_id is None else Account(
            entry.user_id, entry.name, app.state.accounts.seat_token)
        sat, token = manager.join(table.id, entry.name, seat, account)
        placed[entry.key] = Seated(table.id, sat, token)
    return placed


async def _abandon(app: FastAPI, table_id: str) -> Any:
    return await app.state.manager.close(table_id, ABANDONED)
