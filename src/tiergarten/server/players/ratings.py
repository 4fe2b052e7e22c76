"""Ratings of accounts per game (openskill's Plackett-Luce, as the lab's leagues), results,
leaderboards and profiles.

When a game ends, every account seated gets a `results` row (rank, won). The game is *rated*
when every person's seat is an account's (distinct accounts; guests are not rated) and at least
one account played: multi-player games are rated as rankings. Bots carry fixed ratings per game
and level, measured by `tiergarten ratings calibrate` (bot_levels.py), never updated, so games
against bots rate too, and a player's profile says which level is nearest to them.

Games are rated one at a time, in one order that live rating and `rebuild` share: the server
rates a finished game in the players port's rating turn (`PlayerStore.rating_turn`: on
PostgreSQL under an advisory lock, so every process of a cluster waits its turn too), and the
game's results take the next ids, so the order of the results
*is* the order the games were rated in. `rebuild` recomputes everything from the tables' logs
in that order, with the same `record_game`, so it gives the same numbers; a finished game that
was never rated (it ended before ratings existed, or its rating failed) takes its place among
the others by its last act's time.

>>> display(25.0), nearest_level("maumau", 25.5)
(1000, 'normal')
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from tiergarten.core import State
from tiergarten.core.registry import replay

from ..storage.player_store import PlayerStore, RatingTurn, ResultRow, SeatView
from ..storage.store import TableRow
from .accounts import name_key
from .bot_levels import BOT_SIGMA, bot_mu, levels, nearest_level

MODEL = PlackettLuce()
SCALE = 40  # a rating as shown: 40 * mu (a new player shows 1000)


def display(mu: float) -> int:
    return round(SCALE * mu)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def record_game(turn: RatingTurn, row: TableRow, ranks: Sequence[int],
                winners: Sequence[int], at: dt.datetime) -> bool:
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
        known = turn.current(row.game, list(users.values()))
        start = MODEL.rating()
        teams = []
        for s in row.seats:
            if s.user_id is not None:
                mu, sigma = known.get(s.user_id, (start.mu, start.sigma))
            else:
                mu, sigma = bot_mu(row.game, s.bot or ""), BOT_SIGMA
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for seat, user_id in users.items():
            after[user_id] = (new[seat][0].mu, new[seat][0].sigma)
            turn.put_rating(user_id, row.game, *after[user_id], fresh=user_id not in known)
    turn.add_results([
        ResultRow(row.id, row.game, seat, user_id, ranks[seat], seat in winners, rated,
                  after[user_id][0] if rated else None, after[user_id][1] if rated else None,
                  at)
        for seat, user_id in sorted(users.items())])
    return rated


def game_over(players: PlayerStore, row: TableRow, state: State | None = None) -> bool:
    """The live server's hook: a table's game has just ended (its last act committed); `state`
    is the finished game, as the table holds it (else it is replayed from the record)."""
    state = replay(row.record()) if state is None else state
    if not state.is_over():
        return False
    result = state.result()
    with players.rating_turn() as turn:
        if turn.rated(row.id):
            return False  # told twice (a restart at the end): counted once
        return record_game(turn, row, result.ranks, result.winners,
                           turn.ended_at(row.id) or _now())


def rating_order(turn: RatingTurn) -> list[tuple[str, dt.datetime]]:
    """Every finished game with its last act's time, in the order they were rated: by their
    first result's id; a game without results (never rated) by its time among the others."""
    ended = turn.finished()
    rated = [t for t in turn.rated_order() if t in ended]
    seen = set(rated)
    others = sorted((t for t in ended if t not in seen), key=lambda t: (ended[t], t))
    order: list[str] = []
    for table_id in rated:  # merged: the rated keep their order, the others go by time
        while others and (ended[others[0]], others[0]) < (ended[table_id], table_id):
            order.append(others.pop(0))
        order.append(table_id)
    return [(t, ended[t]) for t in order + others]


def rebuild(players: PlayerStore, load: Any) -> dict[str, int]:
    """Forget every result and rating, then rate every finished game again from its log, in
    the order they were rated (`rating_order`). `load(table_id)` gives a table's row (the
    store's `load_table`)."""
    with players.rating_turn() as turn:
        turn.clear_ratings()  # a write first: SQLite takes its write lock at once
        order = rating_order(turn)
        turn.clear_results()
        games = rated = 0
        for table_id, at in order:
            row = load(table_id)
            state = replay(row.record())
            if not state.is_over():
                continue
            result = state.result()
            games += 1
            rated += record_game(turn, row, result.ranks, result.winners, at)
    return {"games": games, "rated": rated}


# -- reading: leaderboards and profiles -------------------------------------------------------

def leaderboard(players: PlayerStore, game: str, limit: int = 50) -> dict[str, Any]:
    board = [{"name": r.name, "rating": display(r.mu), "mu": r.mu, "sigma": r.sigma,
              "games": r.games} for r in players.board(game, limit)]
    return {"game": game, "players": board,
            "bots": [{"bot": b, "rating": display(bot_mu(game, b))} for b in levels(game)]}


def profile(players: PlayerStore, name: str) -> dict[str, Any] | None:
    """A player's page: ratings per game with their history, games played and won, recent
    games (with replays) and favourite opponents. None for no such (live) account."""
    key = name_key(name)
    user = None if key is None else players.user(key)
    if user is None:
        return None
    results = players.results(user.id)
    ratings = players.ratings(user.id)
    by_table: dict[str, list[SeatView]] = {}
    for s in players.seats_at(list(dict.fromkeys(r.table_id for r in results))):
        by_table.setdefault(s.table_id, []).append(s)
    history: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        if r.rated and r.mu is not None:
            history.setdefault(r.game, []).append(
                {"table": r.table_id, "at": r.at.isoformat(), "rating": display(r.mu)})
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
        seated = sorted(by_table.get(r.table_id, []), key=lambda s: s.seat)
        recent.append({"table": r.table_id, "game": r.game, "at": r.at.isoformat(),
                       "rank": r.rank, "won": r.won, "rated": r.rated,
                       "players": [s.name or s.bot or "" for s in seated]})
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
