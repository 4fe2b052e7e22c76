"""Ratings of accounts per game (openskill's Plackett-Luce, as the lab's leagues), results,
leaderboards and profiles.

When a game ends, every account seated gets a `results` row (rank, won). The game is *rated*
when every person's seat is an account's (distinct accounts; guests are not rated) and at least
one account played: multi-player games are rated as rankings. Bots carry fixed ratings per level
(`BOT_MU`, never updated), so games against bots rate too, and a player's profile says which
level is nearest to them. `rebuild` recomputes everything from the tables' logs in the order the
games ended, with the same `record_game` the live server uses, so it gives the same numbers.

>>> display(25.0), nearest_level(26.0)
(1000, 'normal')
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from tiergarten.core.registry import replay

from .accounts import name_key
from .schema import ACTIONS, RATINGS, RESULTS, SEATS, TABLES, USERS
from .store import TableRow

MODEL = PlackettLuce()
BOT_SIGMA = 1.0  # a bot's rating is known, not learnt
# Where each bot level sits (openskill mu, the same for every game): from the lab's leagues,
# rounded so that the levels step evenly. Unknown names rate as `normal`.
BOT_MU = {"random": 15.0, "child": 17.0, "easy": 19.0, "fast": 22.0, "slow": 22.0,
          "greedy": 24.0, "memory": 24.0, "heuristic": 25.0, "normal": 25.0, "hard": 29.0,
          "ismcts": 31.0, "expert": 33.0}
LEVELS = ("random", "easy", "normal", "hard", "expert")  # what a player is told to try
SCALE = 40  # a rating as shown: 40 * mu (a new player shows 1000)


def display(mu: float) -> int:
    return round(SCALE * mu)


def nearest_level(mu: float) -> str:
    return min(LEVELS, key=lambda name: (abs(BOT_MU[name] - mu), BOT_MU[name]))


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
    rated = (all(s.user_id is not None for s in people)
             and len(set(users.values())) == len(users))
    after: dict[int, tuple[float, float]] = {}
    if rated:
        current, known = _current(conn, row.game, list(users.values()))
        teams = []
        for s in row.seats:
            if s.user_id is not None:
                mu, sigma = current[s.user_id]
            else:
                mu, sigma = BOT_MU.get(s.bot or "", BOT_MU["normal"]), BOT_SIGMA
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


def game_over(engine: Engine, row: TableRow) -> bool:
    """The live server's hook: a table's game has just ended (its last act committed)."""
    state = replay(row.record())
    if not state.is_over():
        return False
    result = state.result()
    with engine.begin() as conn:
        if conn.execute(select(RESULTS.c.id).where(RESULTS.c.table_id == row.id)).first():
            return False  # told twice (a restart at the end): counted once
        return record_game(conn, row, result.ranks, result.winners, _ended_at(conn, row.id))


def rebuild(engine: Engine, load: Any) -> dict[str, int]:
    """Forget every result and rating, then rate every finished game again from its log, in
    the order the games ended (their last act's time, then id). `load(table_id)` gives a
    table's row (the store's `load_table`)."""
    with engine.begin() as conn:
        conn.execute(delete(RESULTS))
        conn.execute(delete(RATINGS))
        ended = conn.execute(
            select(TABLES.c.id, func.max(ACTIONS.c.at).label("at"))
            .join(ACTIONS, ACTIONS.c.table_id == TABLES.c.id)
            .where(TABLES.c.status == "over").group_by(TABLES.c.id)).all()
        order = sorted(ended, key=lambda r: (_aware(r.at), r.id))
        games = rated = 0
        for entry in order:
            row = load(entry.id)
            state = replay(row.record())
            if not state.is_over():
                continue
            result = state.result()
            games += 1
            rated += record_game(conn, row, result.ranks, result.winners, _aware(entry.at))
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
            "bots": [{"bot": b, "rating": display(BOT_MU[b])} for b in LEVELS]}


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
                     "games": g.games, "level": nearest_level(g.mu),
                     "history": history.get(g.game, [])}
                    for g in sorted(ratings, key=lambda g: g.game)],
        "recent": recent,
        "opponents": [{"name": n, "account": accounts[n], "games": c}
                      for n, c in sorted(opponents.items(), key=lambda i: (-i[1], i[0]))[:5]],
    }

