"""Tournaments between many bots, openskill ratings, and option sweeps.

A tournament is a list of *pairings*, each an ordinary run (`sim.run`) with its own
line-up, all dealt from the same seed, so every pairing meets the same deals (common random
numbers: less noise in the comparison). For two entrants A and B at a table of `k` seats a
pairing is the line-up A, B (for k = 2) or two line-ups, A against k-1 B's and B against k-1 A's
(for k > 2). A *round robin* pairs every two entrants; a *gauntlet* pairs the first entrant
with each of the others.

Ratings are openskill's Plackett-Luce model, updated game by game in a fixed order (pairing,
then game index), so they depend on the seed alone. A name seated several times in one game
counts as several copies; its new rating is the mean of theirs. The interval is mu ± 2 sigma.

>>> t = league("maumau", ["random", "heuristic", "easy"], n=4, seed=1,
...            options={"rounds": 1}, workers=1)
>>> [p.players for p in t.pairings]
[('random', 'heuristic'), ('random', 'easy'), ('heuristic', 'easy')]
>>> sorted(t.ratings)
['easy', 'heuristic', 'random']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from .pool import execute_many
from .stats import wilson
from .tournament import Outcome, Plan, Progress, SimResult, plan

FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class Rating:
    """An entrant's openskill rating: mu, sigma, and the interval mu ± 2 sigma."""

    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "interval": [self.low, self.high]}


def rate(results: Sequence[SimResult], names: Sequence[str]) -> dict[str, Rating]:
    """openskill ratings of `names` from every game of `results`, in order."""
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in names}
    for result in results:
        for o in result.outcomes:
            _update(model, current, o)
    return {name: Rating(r.mu, r.sigma) for name, r in current.items()}


def _update(model: PlackettLuce, current: dict[str, Any], o: Outcome) -> None:
    ranks = _ranks(o.scores, o.winners)
    teams = [[model.rating(mu=current[name].mu, sigma=current[name].sigma)] for name in o.seats]
    new = model.rate(teams, ranks=ranks)
    for name in set(o.seats):
        copies = [new[s][0] for s, seat_name in enumerate(o.seats) if seat_name == name]
        current[name] = model.rating(mu=math.fsum(c.mu for c in copies) / len(copies),
                                     sigma=math.fsum(c.sigma for c in copies) / len(copies),
                                     name=name)


def _ranks(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """1 for the winners, then the others by score (ties share), as openskill wants them."""
    others = sorted({s for i, s in enumerate(scores) if i not in winners}, reverse=True)
    return [1.0 if i in winners else 2.0 + others.index(s) for i, s in enumerate(scores)]


@dataclass(frozen=True)
class HeadToHead:
    """How `bot` did in the pairing with `other`: its seat-games, wins, win rate with a 95%
    interval, against the fair share of one seat (1/k)."""

    bot: str
    other: str
    games: int
    wins: float
    low: float
    high: float
    fair: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "other": self.other, "games": self.games, "wins": self.wins,
                "win_rate": self.win_rate, "interval": [self.low, self.high],
                "fair": self.fair}


@dataclass(frozen=True)
class League:
    """A whole tournament: its pairings' results, ratings and the head-to-head figures."""

    game: str
    format: str
    entrants: tuple[str, ...]
    seats: int
    pairings: tuple[SimResult, ...]
    ratings: dict[str, Rating]
    head_to_head: tuple[HeadToHead, ...]

    def cell(self, bot: str, other: str) -> HeadToHead | None:
        return next((h for h in self.head_to_head if h.bot == bot and h.other == other), None)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "entrants": list(self.entrants),
                "seats": self.seats,
                "ratings": {k: v.to_dict() for k, v in self.ratings.items()},
                "head_to_head": [h.to_dict() for h in self.head_to_head],
                "pairings": [p.to_dict() for p in self.pairings]}


def pairs(entrants: Sequence[str], format: str) -> list[tuple[str, str]]:
    """The pairs that meet: every two (round robin) or the first with each other (gauntlet).

    >>> pairs(["a", "b", "c"], "gauntlet")
    [('a', 'b'), ('a', 'c')]
    """
    if format not in FORMATS:
        raise ValueError(f"no tournament format {format!r}; allowed: {', '.join(FORMATS)}")
    if len(set(entrants)) != len(entrants) or len(entrants) < 2:
        raise ValueError("a tournament needs at least two different entrants, each named once")
    if format == "gauntlet":
        return [(entrants[0], other) for other in entrants[1:]]
    return list(itertools.combinations(entrants, 2))


def lineups(a: str, b: str, seats: int) -> list[tuple[str, ...]]:
    """The line-ups of the pairing of a and b at a table of `seats`.

    >>> lineups("a", "b", 2), lineups("a", "b", 3)
    ([('a', 'b')], [('a', 'b', 'b'), ('b', 'a', 'a')])
    """
    if seats == 2:
        return [(a, b)]
    return [(a, *[b] * (seats - 1)), (b, *[a] * (seats - 1))]


def league_plans(game_id: str, entrants: Sequence[str], n: int = 100, seed: int = 0,
                 options: Mapping[str, Any] | None = None, workers: int | None = None,
                 format: str = "round-robin", seats: int | None = None,
                 records: bool = False) -> tuple[int, list[Plan]]:
    """The table size and the checked plans of a tournament: one per line-up of every pairing,
    in pairing order."""
    from tiergarten.core import game_class

    info = game_class(game_id).info
    k = seats if seats is not None else max(2, info.min_players)
    plans = [plan(game_id, line, n, seed, options, workers, records)
             for a, b in pairs(list(entrants), format) for line in lineups(a, b, k)]
    return k, plans


def league(game_id: str, entrants: Sequence[str], n: int = 100, seed: int = 0,
           options: Mapping[str, Any] | None = None, workers: int | None = None,
           format: str = "round-robin", seats: int | None = None,
           progress: Progress | None = None, records: bool = False,
           **execute_args: Any) -> League:
    """Play a round robin or a gauntlet: `n` games per line-up of every pairing, every line-up
    in one pool (`execute_args` go to `pool.execute_many`: backend, address, before, estimate;
    `before` is an earlier league's pairings, which are kept and extended)."""
    k, plans = league_plans(game_id, entrants, n, seed, options, workers, format, seats,
                            records)
    results = execute_many(plans, progress, **execute_args)
    return League(game_id, format, tuple(entrants), k, tuple(results),
                  rate(results, entrants), _head_to_head(results, k))


def _head_to_head(results: Sequence[SimResult], k: int) -> tuple[HeadToHead, ...]:
    wins: dict[tuple[str, str], list[float]] = {}
    for r in results:
        names = sorted(set(r.players))
        if len(names) != 2:
            continue
        for bot in names:
            other = names[1] if bot == names[0] else names[0]
            shares = wins.setdefault((bot, other), [])
            for o in r.outcomes:
                shares.extend(o.win_share(s) for s, name in enumerate(o.seats) if name == bot)
    out = []
    for (bot, other), shares in wins.items():
        total = math.fsum(shares)
        low, high = wilson(total, len(shares))
        out.append(HeadToHead(bot, other, len(shares), total, low, high, 1 / k))
    return tuple(out)


# -- sweeps ---------------------------------------------------------------------------------

def parse_sweep(text: str) -> tuple[str, list[str]]:
    """`option=a,b,c` -> ("option", ["a", "b", "c"]).

    >>> parse_sweep("jack_on_jack=true,false")
    ('jack_on_jack', ['true', 'false'])
    """
    name, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or not items:
        raise ValueError(f"--sweep wants option=a,b,c, not {text!r}")
    return name.strip(), items


def sweep(game_id: str, players: Sequence[str] | None, option: str, values: Sequence[str],
          n: int = 100, seed: int = 0, options: Mapping[str, Any] | None = None,
          workers: int | None = None, progress: Progress | None = None,
          records: bool = False, **execute_args: Any) -> list[tuple[str, SimResult]]:
    """The same run once per value of `option` (same seed, so the same deals where the option
    leaves dealing alone), all in one pool (`execute_args` as for `league`)."""
    plans = [plan(game_id, players, n, seed, {**(options or {}), option: v}, workers, records)
             for v in values]
    return list(zip(values, execute_many(plans, progress, **execute_args), strict=True))


__all__ = ["FORMATS", "HeadToHead", "League", "Rating", "league", "league_plans", "lineups",
           "pairs", "parse_sweep", "rate", "sweep"]
