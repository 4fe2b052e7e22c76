"""Play many games between bots and tally who wins, by seat and by bot.

Seeding (the same for any number of workers, so results never depend on the pool):
- game `i` is dealt from seed `seed + i`;
- the line-up is rotated by `i`: in game `i` seat `s` holds `players[(s + i) % k]`, so every bot
  sits in every seat equally often (exactly so when `n` is a multiple of `k`);
- the bot in seat `s` of game `i` draws from its own `random.Random` seeded by the text
  `"tiergarten.sim:{seed}:{i}:{s}"` (see `bot_rng`).

>>> from tiergarten.sim.pool import run
>>> result = run("maumau", ["heuristic", "random"], n=4, seed=1, options={"rounds": 1}, workers=1)
>>> [o.seats for o in result.outcomes]
[('heuristic', 'random'), ('random', 'heuristic'), ('heuristic', 'random'), ('random', 'heuristic')]
>>> [b.games for b in result.bots], sum(s.wins for s in result.seats)
([4, 4], 4.0)
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tiergarten import bots
from tiergarten.core import Game, load
from tiergarten.core.match import play_match
from tiergarten.core.realtime import play_virtual

from .measures import Designer, Measures, designer, measure
from .stats import Summary, wilson

Progress = Callable[[int, int], None]  # (games done, games in all)
RESULT_FORMAT = 2  # 2: the rules version, every game's designer measures
MAX_CHUNK = 200  # games per task sent to a worker
BACKENDS = ("local", "ray")


# -- one game -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """How game `index` of a run went: who sat where, scores, winners and its length."""

    index: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    decisions: int
    rounds: int | None
    reason: str
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    measures: Measures | None = field(default=None, repr=False)  # lead changes, usage, ...

    def win_share(self, seat: int) -> float:
        """The part of a win `seat` gets: 1 alone, 1/k when k seats share it, else 0."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seats": list(self.seats), "scores": list(self.scores),
                "winners": list(self.winners), "decisions": self.decisions,
                "rounds": self.rounds, "reason": self.reason,
                **({"measures": self.measures.to_dict()} if self.measures else {})}


def lineup(players: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots seated in game `index`: the line-up rotated so seat s holds players[(s+i) % k].

    >>> lineup(["a", "b", "c"], 0), lineup(["a", "b", "c"], 1), lineup(["a", "b", "c"], 5)
    (('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b'))
    """
    shift = index % len(players)
    return tuple(players[shift:]) + tuple(players[:shift])


def bot_rng(seed: int, index: int, seat: int) -> random.Random:
    """The random source of the bot in `seat` of game `index` (text seeds hash stably)."""
    return random.Random(f"tiergarten.sim:{seed}:{index}:{seat}")


def play_game(game: Game, players: Sequence[str], seed: int, index: int,
              keep_record: bool = False) -> Outcome:
    """Play game `index` of a run seeded `seed`, with the line-up rotated by `index`;
    `keep_record` keeps the game's record (to save it)."""
    seats = lineup(players, index)
    agents = [bots.make(name, game, seat, bot_rng(seed, index, seat))
              for seat, name in enumerate(seats)]
    try:
        if game.info.real_time:  # reaction times decide who acts first: virtual time
            state, _ = play_virtual(game, agents, seed + index)
        else:
            state = play_match(game, agents, seed + index)
    except Exception as exc:
        raise RuntimeError(f"game {index} of the run (seed {seed + index}, seats "
                           f"{', '.join(seats)}) failed: {exc!r}") from exc
    result = state.result()
    rounds = state.observe(None).get("round")
    return Outcome(index, seats, tuple(result.scores), tuple(result.winners), len(state.history),
                   rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else None,
                   str(result.reason), state.record() if keep_record else None,
                   measure(game, seed + index, state.history, result.winners))


# -- a plan: everything checked before any game is played -----------------------------------

@dataclass(frozen=True)
class Plan:
    """A checked request: the game exists, the options and bot names are valid, counts fit."""

    game: str
    players: tuple[str, ...]
    n: int
    seed: int
    options: dict[str, Any]  # every option of the game, resolved
    workers: int
    records: bool = False  # keep every game's record (for --save)
    imports: tuple[str, ...] = ()  # modules a worker imports first: bots they register
    rules: int | None = None  # the rules version (None: the newest; `plan` names it)


def plan(game_id: str, players: Sequence[str] | None = None, n: int = 1000, seed: int = 0,
         options: Mapping[str, Any] | None = None, workers: int | None = None,
         records: bool = False, imports: Sequence[str] = ()) -> Plan:
    """Check a request; bad games, bots, options or counts raise ValueError (OptionError).
    `records` keeps every game's record in its outcome; `imports` names modules that register
    bots at run time, for workers that start afresh (see `pool.timed_range`)."""
    given = dict(options or {})
    if "players" in given:  # load's own argument: the table's size is the line-up's
        raise ValueError("the number of players is not an option: it is the number of bots "
                         "named (--players)")
    rules = given.pop("rules", None)  # a rules version, e.g. `-o rules=2`
    if isinstance(rules, str) and rules.strip().isdigit():
        rules = int(rules)
    game = load(game_id, len(players) if players else None, rules=rules, **given)
    line = tuple(players) if players else ("random",) * game.players
    for seat, name in enumerate(line):
        bots.make(name, game, seat, random.Random(0))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of games must be a whole number of at least 1, not {n!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    return Plan(game.id, line, n, seed, dict(game.options), workers, records,
                tuple(imports), game.rules)


def play_range(p: Plan, start: int, stop: int) -> list[Outcome]:
    """Play games start..stop-1 of a plan (the task each worker runs)."""
    game = load(p.game, len(p.players), rules=p.rules, **p.options)
    return [play_game(game, p.players, p.seed, i, p.records) for i in range(start, stop)]


# -- tallies --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Tally:
    """Wins and points of one seat or one bot: `games` counts seat-games played. A bot's
    tally also splits its games by the seat it held (`by_seat`, named by seat number)."""

    name: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    points: Summary
    by_seat: tuple[Tally, ...] = ()

    @classmethod
    def of(cls, name: str, wins: Sequence[float], points: Sequence[float],
           by_seat: tuple[Tally, ...] = ()) -> Tally:
        total = math.fsum(wins)
        low, high = wilson(total, len(wins))
        return cls(name, len(wins), total, total / len(wins), low, high, Summary.of(points),
                   by_seat)

    def to_dict(self) -> dict[str, Any]:
        out = {"games": self.games, "wins": self.wins, "win_rate": self.win_rate,
               "interval": [self.low, self.high], "points": self.points.to_dict()}
        if self.by_seat:
            out["by_seat"] = [{"seat": int(t.name), **t.to_dict()} for t in self.by_seat]
        return out


@dataclass(frozen=True)
class FirstSeat:
    """Seat 0's win rate against the fair share 1/players; the interval is of the difference."""

    win_rate: float
    fair: float
    advantage: float
    low: float
    high: float

    @property
    def is_significant(self) -> bool:
        """True when the 95% interval of the advantage excludes zero."""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        return {"win_rate": self.win_rate, "fair": self.fair, "advantage": self.advantage,
                "interval": [self.low, self.high], "significant": self.is_significant}


@dataclass(frozen=True)
class SimResult:
    """Everything a run found; `to_dict()` is JSON-safe, `outcomes` keeps every game."""

    game: str
    players: tuple[str, ...]
    n: int
    seed: int
    options: dict[str, Any]
    workers: int
    seats: tuple[Tally, ...]
    bots: tuple[Tally, ...]
    decisions: Summary
    rounds: Summary | None
    first_seat: FirstSeat
    reasons: dict[str, int]
    elapsed: float
    outcomes: tuple[Outcome, ...] = field(repr=False, compare=False)
    rules: int | None = None  # the rules version the games were played under
    designer: Designer | None = None  # lead changes, comebacks, downtime, usage

    @property
    def is_balanced(self) -> bool:
        """True when every bot sat in every seat equally often (n is a multiple of players);
        otherwise per-seat figures lean a little towards the bots seated first."""
        return self.n % len(self.players) == 0

    @property
    def games_per_s(self) -> float:
        return self.n / self.elapsed if self.elapsed > 0 else math.inf

    @property
    def decisions_per_s(self) -> float:
        total = self.decisions.mean * self.n
        return total / self.elapsed if self.elapsed > 0 else math.inf

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """A JSON-safe report; `games=True` adds every game's outcome. Only `timing` depends
        on the machine and the worker count."""
        length: dict[str, Any] = {"decisions": self.decisions.to_dict()}
        if self.rounds is not None:
            length["rounds"] = self.rounds.to_dict()
        out: dict[str, Any] = {
            "format": RESULT_FORMAT,
            "game": self.game,
            "players": list(self.players),
            "n": self.n,
            "seed": self.seed,
            "options": dict(self.options),
            "rules": self.rules,
            "seeding": "game i: seed + i; line-up rotated by i; bot rng 'tiergarten.sim:"
                       "{seed}:{i}:{seat}'",
            "fair_share": 1 / len(self.players),
            "rotation_balanced": self.is_balanced,
            "seats": [{"seat": int(t.name), **t.to_dict()} for t in self.seats],
            "bots": [{"bot": t.name, **t.to_dict()} for t in self.bots],
            "length": length,
            "first_seat": self.first_seat.to_dict(),
            "reasons": dict(self.reasons),
            "designer": None if self.designer is None else self.designer.to_dict(),
            "timing": {"workers": self.workers, "elapsed_s": self.elapsed,
                       "games_per_s": _finite(self.games_per_s),
                       "decisions_per_s": _finite(self.decisions_per_s)},
        }
        if games:
            out["outcomes"] = [o.to_dict() for o in self.outcomes]
        return out


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _bot_tally(name: str, by_seat: list[tuple[list[float], list[float]]]) -> Tally:
    """A bot's tally over every seat-game, with its split by seat (seats it never held are
    left out). Sums use math.fsum, so the order of the games does not change a figure."""
    held = [(seat, w, pts) for seat, (w, pts) in enumerate(by_seat) if w]
    return Tally.of(name, [x for _, w, _ in held for x in w],
                    [x for _, _, pts in held for x in pts],
                    tuple(Tally.of(str(seat), w, pts) for seat, w, pts in held))


def summarise(p: Plan, outcomes: Sequence[Outcome], elapsed: float) -> SimResult:
    """Tally outcomes (in index order, so sums are identical however the games were run)."""
    k = len(p.players)
    seat_wins: list[list[float]] = [[] for _ in range(k)]
    seat_points: list[list[float]] = [[] for _ in range(k)]
    # per bot and seat: [wins], [points]
    split: dict[str, list[tuple[list[float], list[float]]]] = {
        name: [([], []) for _ in range(k)] for name in p.players}
    reasons: dict[str, int] = {}
    for o in outcomes:
        for seat in range(k):
            share = o.win_share(seat)
            seat_wins[seat].append(share)
            seat_points[seat].append(o.scores[seat])
            wins, points = split[o.seats[seat]][seat]
            wins.append(share)
            points.append(o.scores[seat])
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
    seats = tuple(Tally.of(str(s), seat_wins[s], seat_points[s]) for s in range(k))
    tallies = tuple(_bot_tally(name, split[name]) for name in split)
    rounds = [o.rounds for o in outcomes]
    fair = 1 / k
    first = seats[0]
    return SimResult(
        p.game, p.players, p.n, p.seed, p.options, p.workers, seats, tallies,
        Summary.of([o.decisions for o in outcomes]),
        Summary.of([r for r in rounds if r is not None]) if None not in rounds else None,
        FirstSeat(first.win_rate, fair, first.win_rate - fair, first.low - fair,
                  first.high - fair),
        dict(sorted(reasons.items())), elapsed, tuple(outcomes), p.rules,
        designer(p.game, k, [o.measures for o in outcomes if o.measures is not None],
                 sum(o.decisions for o in outcomes)))


# -- what a bot's name stands for -----------------------------------------------------------

def bot_definition(game_id: str, name: str, players: int | None = None,
                   rules: int | None = None) -> str:
    """What `name` plays as in `game_id`, as a definition that a level's name can hide: the
    bot's class and the parameters it was built with (search settings, reaction models,
    memory). A level is redefined by changing its table; this text changes with it.

    >>> bot_definition("maumau", "expert")
    'tiergarten.bots.maumau.MauMauHeuristic'
    >>> bot_definition("lecker_mammut", "normal")[:72]
    'tiergarten.bots.lecker_mammut.NormalBot(reflexes=Reflexes(median=2.2, sp'
    """
    import dataclasses

    game = load(game_id, players, rules=rules)
    bot = bots.make(name, game, 0, random.Random(0))
    kind = type(bot)
    params = []
    for attr in ("recall", "sight", "glimpse", "think"):  # class-level knobs some bots have
        value = getattr(kind, attr, None)
        if value is not None and value != getattr(bots.Bot, attr, None):
            params.append(f"{attr}={value!r}")
    for key, value in sorted(vars(bot).items()):
        if key in ("game", "seat", "rng", "name") or key.startswith("_"):
            continue
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            params.append(f"{key}={value!r}")
        elif isinstance(value, bots.Bot):
            params.append(f"{key}={type(value).__module__}.{type(value).__qualname__}")
    searches = getattr(bot, "engine", None)
    config = getattr(searches, "search", None)
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
        shown = ", ".join(f"{k}={v!r}" for k, v in fields.items()
                          if isinstance(v, (int, float, str, bool, type(None))))
        params.append(f"search=({shown})")
    head = f"{kind.__module__}.{kind.__qualname__}"
    return head + (f"({', '.join(params)})" if params else "")
