"""Measuring the bots' fixed ratings: `tiergarten ratings calibrate`.

For every game with levels (`tiergarten.bots.levels.LEVELS`, in level order) the lab plays a
round robin of `random` and the levels (a level that is the random bot plays once, under the
level's name) at the game's smallest table, with the options a new table has, `-n` games per
line-up from a fixed seed (`tiergarten.sim.league`, the same games as `tiergarten simulate GAME
--players ... --tournament round-robin`). The bots' ratings are then fitted to all those games
at once: the mus under which openskill's Plackett-Luce model (the one the server rates with,
each bot at the fixed `BOT_SIGMA`) makes the results most likely, with openskill's prior for a
new player (mu 25, sigma 25/3) to keep a level that never lost finite. Fitting all games at
once, rather than updating game by game as the lab's league does, gives numbers that do not
depend on the order the games were played in. The scale is then shifted so that `normal` sits
at 25, where a new account starts: a newcomer is presumed a `normal` player until their games
say otherwise.

`calibrate` writes the figures to the file it is given (with the command, the number of games
and the head-to-head results behind them), fitted at the bots' sigma and put on the scale of
the anchor it is given. `tiergarten ratings calibrate` gives it the server's: its
`server/players/bot_ratings.json`, `ANCHOR` and `BOT_SIGMA` (`server/players/bot_levels.py`,
which reads that file; nothing else holds the figures). The lab itself imports nothing of the
server.

>>> games = [(("easy", "hard"), [2, 1])] * 3 + [(("hard", "easy"), [1, 2])] * 3
>>> fitted = fit(["easy", "hard"], games, seats=2, anchor="easy", sigma=1.0)
>>> round(fitted["easy"][0], 6), fitted["hard"][0] > 30
(25.0, True)
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from .league import league

PRIOR_MU, PRIOR_SIGMA = 25.0, 25.0 / 3  # openskill's new player
Game = tuple[Sequence[str], Sequence[float]]  # the bots seat by seat, and their ranks (1 best)


def entrants(game_id: str) -> tuple[list[str], dict[str, str]]:
    """The names a game's round robin seats (`random`, then its levels in order) and the names
    that are the same bot as one of them (`random` -> `easy` where easy is the random bot)."""
    from tiergarten.bots.base import RandomBot
    from tiergarten.bots.levels import LEVELS

    table = LEVELS[game_id]
    random_level = next((level for level, make in table.items() if make is RandomBot), None)
    same = {} if random_level is None else {"random": random_level}
    return [name for name in ("random", *table) if name not in same], same


def fit(names: Sequence[str], games: Sequence[Game], seats: int, *, anchor: str,
        sigma: float) -> dict[str, tuple[float, float]]:
    """Each name's mu and its standard error relative to `anchor` (which is put at 25): the
    maximum of the posterior of Plackett-Luce rankings (`c` as openskill computes it for
    `seats` teams of one bot each at `sigma`) under openskill's prior, by Newton's method."""
    index = {name: i for i, name in enumerate(names)}
    c = math.sqrt(seats * (sigma ** 2 + PlackettLuce().beta ** 2))
    mu = [PRIOR_MU] * len(names)
    for _ in range(100):
        grad, hess = _derivatives(mu, games, index, c)
        step = _solve([[-h for h in row] for row in hess], grad)
        mu = [m + s for m, s in zip(mu, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    _, hess = _derivatives(mu, games, index, c)
    cov = _inverse([[-h for h in row] for row in hess])
    a = index[anchor]
    shift = PRIOR_MU - mu[a]
    return {name: (mu[i] + shift, math.sqrt(max(0.0, cov[i][i] + cov[a][a] - 2 * cov[i][a])))
            for name, i in index.items()}


def _derivatives(mu: Sequence[float], games: Sequence[Game], index: Mapping[str, int],
                 c: float) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian (in mu) of the log posterior: for each seat in rank order, the log
    of its chance to come first among the seats not ranked above it (tied seats included)."""
    n = len(mu)
    grad = [-(m - PRIOR_MU) / PRIOR_SIGMA ** 2 for m in mu]
    hess = [[-1.0 / PRIOR_SIGMA ** 2 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for seated, ranks in games:
        ids = [index[name] for name in seated]
        for s, rank in enumerate(ranks):
            rest = [t for t, r in enumerate(ranks) if r >= rank]
            top = max(mu[ids[t]] for t in rest) / c
            weights = [math.exp(mu[ids[t]] / c - top) for t in rest]
            total = math.fsum(weights)
            share = [0.0] * n
            for t, w in zip(rest, weights, strict=True):
                share[ids[t]] += w / total
            grad[ids[s]] += 1.0 / c
            for i in range(n):
                grad[i] -= share[i] / c
                for j in range(n):
                    hess[i][j] -= ((share[i] if i == j else 0.0) - share[i] * share[j]) / c ** 2
    return grad, hess


def _solve(a: Sequence[Sequence[float]], b: Sequence[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small and regular)."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(a)
    columns = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def ranks(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """1 for the winners, then the others by score (ties share), as the lab's league ranks.

    >>> ranks([3, 9, 3], [1])
    [2.0, 1.0, 2.0]
    """
    others = sorted({s for i, s in enumerate(scores) if i not in winners}, reverse=True)
    return [1.0 if i in winners else 2.0 + others.index(s) for i, s in enumerate(scores)]


def calibrate_game(game_id: str, n: int, seed: int, workers: int | None,
                   say: Callable[[str], None], *, anchor: str, sigma: float) -> dict[str, Any]:
    """Play one game's round robin and fit its levels: the game's entry in the file."""
    names, same = entrants(game_id)
    began = time.monotonic()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if time.monotonic() - last[0] > 30 or done == total:
            last[0] = time.monotonic()
            say(f"{game_id}: {done}/{total} games, {time.monotonic() - began:.0f} s")

    result = league(game_id, names, n=n, seed=seed, workers=workers, progress=progress)
    games = [(o.seats, ranks(o.scores, o.winners)) for p in result.pairings for o in p.outcomes]
    fitted = fit(names, games, result.seats, anchor=anchor, sigma=sigma)
    order = {name: i for i, name in enumerate(names)}
    duels = sorted((h for h in result.head_to_head if order[h.bot] < order[h.other]),
                   key=lambda h: (order[h.bot], order[h.other]))
    return {
        "command": f"tiergarten ratings calibrate --game {game_id} -n {n} --seed {seed}",
        "seats": result.seats, "games_per_lineup": n, "seed": seed, "games": len(games),
        "levels": names, "same": same,
        "ratings": {name: {"mu": round(mu, 2), "se": round(se, 2)}
                    for name, (mu, se) in fitted.items()},
        "head_to_head": [{"bot": h.bot, "other": h.other, "games": h.games,
                          "win_rate": round(h.win_rate, 4)} for h in duels],
    }


def calibrate(games: Sequence[str], n: int, seed: int, workers: int | None, out: Path, *,
              anchor: str, sigma: float, say: Callable[[str], None] | None = None,
              ) -> dict[str, Any]:
    """Calibrate `games` (their levels fitted at `sigma`, `anchor` at 25) and write them into
    `out`, keeping the other games' entries."""
    tell = say or (lambda line: print(line, file=sys.stderr, flush=True))
    data: dict[str, Any] = json.loads(out.read_text("utf-8")) if out.exists() else {}
    data.setdefault("games", {})
    for game_id in games:
        tell(f"{game_id}: a round robin of {', '.join(entrants(game_id)[0])}, "
             f"{n} games per line-up")
        began = time.monotonic()
        data["games"][game_id] = calibrate_game(game_id, n, seed, workers, tell, anchor=anchor,
                                                sigma=sigma)
        tell(f"{game_id}: done in {(time.monotonic() - began) / 60:.1f} min")
        _write(out, data, anchor, sigma)  # a game at a time: a run stopped keeps what it did
    return data


def _write(out: Path, data: dict[str, Any], anchor: str, sigma: float) -> None:
    data = {"format": 1, "anchor": anchor, "sigma": sigma,
            "how": __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else "",
            "games": dict(sorted(data["games"].items()))}
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
