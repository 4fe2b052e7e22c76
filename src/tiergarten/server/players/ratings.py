"""Ratings of accounts per game (openskill's Plackett-Luce, as the lab's leagues), results,
leaderboards and profiles.

When a game ends, every account seated gets a `results` row (rank, won). The game is *rated*
when every person's seat is an account's (distinct accounts; guests are not rated) and at least
one account played: multi-player games are rated as rankings. Bots carry fixed ratings per game
and level, measured by `tiergarten ratings calibrate` (bot_levels.py), never updated, so games
against bots rate too, and a player's profile says which level is nearest to them.

Games are rated one at a time, in one order that live rating and `rebuild` share: the server
rates a finished game under a lock (PostgreSQL's advisory lock, so every process of a cluster
waits its turn too), and the game's results take the next ids, so the order of the results
*is* the order the games were rated in. `rebuild` recomputes everything from the tables' logs
in that order, with the same `record_game`, so it gives the same numbers; a finished game that
was never rated (it ended before ratings existed, or its rating failed) takes its place among
the others by its last act's time.

>>> display(25.0), nearest_level("maumau", 25.5)
(1000, 'normal')
"""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update

from tiergarten.core.registry import replay

from ..storage.schema import ACTIONS, RATINGS, RESULTS, SEATS, TABLES, USERS
from ..storage.store import TableRow
from .accounts import name_key
from .bot_levels import BOT_SIGMA, bot_mu, levels, nearest_level

MODEL = PlackettLuce()
SCALE = 40  # a rating as shown: 40 * mu (a new player shows 1000)
LOCK_KEY = 0x7469_6572  # PostgreSQL advisory lock held while a game is rated ("tier")
_LOCAL = threading.Lock()  # the same within one process (SQLite has no advisory locks)


def display(mu: float) -> int:
    return round(SCALE * mu)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def record_game(conn: Connection, row: TableRow, ranks: Sequence[int], winners: Sequence[int],
                at: dt.datetime) -> bool:
    """Store one finished game's results and, if it is rated, the new ratings; True if rated."""
    users = {s.seat: s.user_id for s in row.seats if s.user_id is not None}
    if not users:
        return False
    people = [s for s in row.seats if s.kind == "human"]
    rated = (not row.extra.get("offline")  # played on a device, uploaded: never rated
             and all(s.user_id is not None for s in people)
             and len(set(users.values())) == len(users))
    after: dict[int, tuple[float, float]] = {}
    if rated:
        current, known = _current(conn, row.game, list(users.values()))
        teams = []
        for s in row.seats:
            if s.user_id is not None:
                mu, sigma = current[s.user_id]
            else:
                mu, sigma = bot_mu(row.game, s.bot or ""), BOT_SIGMA
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for seat, user_id in users.items():
            after[user_id] = (new[seat][0].mu, new[seat][0].sigma)
            _store_rating(conn, row.game, user_id, *after[user_id],
                          fresh=user_id not in known)
    conn.execute(insert(RESULTS), [
        {"table_id": row.id, "game": row.game, "seat": seat, "user_id": user_id,
         "rank": ranks[seat], "won": seat in winners, "rated": rated,
         "mu": after[user_id][0] if rated else None,
         "sigma": after[user_id][1] if rated else None, "at": at}
        for seat, user_id in sorted(users.items())])
    return rated


def _current(conn: Connection, game: str, user_ids: list[int],
             ) -> tuple[dict[int, tuple[float, float]], set[int]]:
    """Each account's rating in `game` now (a new player's is openskill's default), and
    which accounts had one already."""
    rows = conn.execute(select(RATINGS.c.user_id, RATINGS.c.mu, RATINGS.c.sigma).where(
        RATINGS.c.game == game, RATINGS.c.user_id.in_(user_ids)))
    start = MODEL.rating()
    found = {u: (start.mu, start.sigma) for u in user_ids}
    known = set()
    for r in rows:
        found[r.user_id] = (r.mu, r.sigma)
        known.add(r.user_id)
    return found, known


def _store_rating(conn: Connection, game: str, user_id: int, mu: float, sigma: float,
                  fresh: bool) -> None:
    if fresh:
        conn.execute(insert(RATINGS).values(user_id=user_id, game=game, mu=mu, sigma=sigma,
                                            games=1))
    else:
        conn.execute(update(RATINGS).where(RATINGS.c.user_id == user_id, RATINGS.c.game == game)
                     .values(mu=mu, sigma=sigma, games=RATINGS.c.games + 1))


def _ended_at(conn: Connection, table_id: str) -> dt.datetime:
    at = conn.execute(select(func.max(ACTIONS.c.at)).where(ACTIONS.c.table_id == table_id)
                      ).scalar()
    return _now() if at is None else _aware(at)


@contextlib.contextmanager
def _turn(engine: Engine) -> Iterator[Connection]:
    """A transaction in which one game is rated at a time: this process's lock, and on
    PostgreSQL an advisory lock held until the commit (every process rating into that database
    waits its turn); the local lock is let go only after the commit."""
    with _LOCAL, engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        yield conn


def game_over(engine: Engine, row: TableRow) -> bool:
    """The live server's hook: a table's game has just ended (its last act committed)."""
    state = replay(row.record())
    if not state.is_over():
        return False
    result = state.result()
    with _turn(engine) as conn:
        if conn.execute(select(RESULTS.c.id).where(RESULTS.c.table_id == row.id)).first():
            return False  # told twice (a restart at the end): counted once
        return record_game(conn, row, result.ranks, result.winners, _ended_at(conn, row.id))


def rating_order(conn: Connection) -> list[tuple[str, dt.datetime]]:
    """Every finished game with its last act's time, in the order they were rated: by their
    first result's id; a game without results (never rated) by its time among the others."""
    ended = {r.id: _aware(r.at) for r in conn.execute(
        select(TABLES.c.id, func.max(ACTIONS.c.at).label("at"))
        .join(ACTIONS, ACTIONS.c.table_id == TABLES.c.id)
        .where(TABLES.c.status == "over").group_by(TABLES.c.id))}
    rated = [r.table_id for r in conn.execute(
        select(RESULTS.c.table_id, func.min(RESULTS.c.id).label("first"))
        .group_by(RESULTS.c.table_id).order_by("first")) if r.table_id in ended]
    seen = set(rated)
    others = sorted((t for t in ended if t not in seen), key=lambda t: (ended[t], t))
    order: list[str] = []
    for table_id in rated:  # merged: the rated keep their order, the others go by time
        while others and (ended[others[0]], others[0]) < (ended[table_id], table_id):
            order.append(others.pop(0))
        order.append(table_id)
    return [(t, ended[t]) for t in order + others]


def rebuild(engine: Engine, load: Any) -> dict[str, int]:
    """Forget every result and rating, then rate every finished game again from its log, in
    the order they were rated (`rating_order`). `load(table_id)` gives a table's row (the
    store's `load_table`)."""
    with _turn(engine) as conn:
        conn.execute(delete(RATINGS))  # a write first: SQLite takes its write lock at once
        order = rating_order(conn)
        conn.execute(delete(RESULTS))
        games = rated = 0
        for table_id, at in order:
            row = load(table_id)
            state = replay(row.record())
            if not state.is_over():
                continue
            result = state.result()
            games += 1
            rated += record_game(conn, row, result.ranks, result.winners, at)
    return {"games": games, "rated": rated}


# -- reading: leaderboards and profiles -------------------------------------------------------

def leaderboard(engine: Engine, game: str, limit: int = 50) -> dict[str, Any]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(USERS.c.name, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
            .join(USERS, USERS.c.id == RATINGS.c.user_id)
            .where(RATINGS.c.game == game, USERS.c.deleted.is_(None))
            .order_by(RATINGS.c.mu.desc(), USERS.c.name).limit(limit))
        players = [{"name": r.name, "rating": display(r.mu), "mu": r.mu, "sigma": r.sigma,
                    "games": r.games} for r in rows]
    return {"game": game, "players": players,
            "bots": [{"bot": b, "rating": display(bot_mu(game, b))} for b in levels(game)]}


def profile(engine: Engine, name: str) -> dict[str, Any] | None:
    """A player's page: ratings per game with their history, games played and won, recent
    games (with replays) and favourite opponents. None for no such (live) account."""
    key = name_key(name)
    if key is None:
        return None
    with engine.connect() as conn:
        user = conn.execute(select(USERS.c.id, USERS.c.name, USERS.c.created).where(
            USERS.c.name_key == key,
            USERS.c.deleted.is_(None))).first()
        if user is None:
            return None
        results = conn.execute(select(RESULTS).where(RESULTS.c.user_id == user.id)
                               .order_by(RESULTS.c.id)).all()
        ratings = conn.execute(select(RATINGS).where(RATINGS.c.user_id == user.id)).all()
        seats = conn.execute(
            select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.bot, SEATS.c.name,
                   SEATS.c.user_id, USERS.c.name.label("account"))
            .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
            .where(SEATS.c.table_id.in_([r.table_id for r in results]))).all()
    by_table: dict[str, list[Any]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    history: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        if r.rated:
            history.setdefault(r.game, []).append(
                {"table": r.table_id, "at": _aware(r.at).isoformat(), "rating": display(r.mu)})
    opponents: Counter[str] = Counter()
    accounts: dict[str, str | None] = {}
    for r in results:
        for s in by_table.get(r.table_id, []):
            if s.user_id == user.id or s.kind != "human" or not s.name:
                continue
            opponents[s.name] += 1
            accounts[s.name] = s.account
    recent = []
    for r in results[::-1][:10]:
        players = sorted(by_table.get(r.table_id, []), key=lambda s: s.seat)
        recent.append({"table": r.table_id, "game": r.game, "at": _aware(r.at).isoformat(),
                       "rank": r.rank, "won": r.won, "rated": r.rated,
                       "players": [s.name or s.bot or "" for s in players]})
    return {
        "name": user.name, "played": len(results), "won": sum(r.won for r in results),
        "ratings": [{"game": g.game, "rating": display(g.mu), "mu": g.mu, "sigma": g.sigma,
                     "games": g.games, "level": nearest_level(g.game, g.mu),
                     "history": history.get(g.game, [])}
                    for g in sorted(ratings, key=lambda g: g.game)],
        "recent": recent,
        "opponents": [{"name": n, "account": accounts[n], "games": c}
                      for n, c in sorted(opponents.items(), key=lambda i: (-i[1], i[0]))[:5]],
    }

