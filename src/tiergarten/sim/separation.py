"""`--until-separated`: play in batches until the intervals a question is about separate.

The question of each mode (every interval is a 95% Wilson interval):

- one line-up of different bots: their win rates (per seat-game), every two bots;
- one line-up of one bot: seat 0's win rate against the fair share (first-seat advantage);
- a sweep: the swept values' win rates, every two values: seat 0's when every seat holds the
  same bot, else the first bot's;
- a round robin: neighbouring entrants, in the order of their ratings: each one's head-to-head
  win rate against the other; a gauntlet: the first entrant against each of the others, alike.

Intervals are separated when they do not overlap. The run grows by `batch` games per line-up
(or per value) until the question's intervals are all separated or `cap` games are reached;
game `i` is the same game in every batch, so a run that stops after N games is exactly the
run of N games, whatever the number of workers.

Looking after every batch is looking again and again at the same figures: with 95% intervals
at every look, two equal bots would come apart by luck more often than 5% of the time. So the
intervals of the stopping rule are widened by Bonferroni over the planned looks
(`looks = ceil(cap / batch)`): each look uses the level 1 - 0.05 / looks (`level`), so the
chance that a pair of equal figures separates at any look is at most 5%. Two intervals that do
not overlap at a level z put the difference at least z standard errors from zero whatever the
correlation of the two figures (sd(a - b) <= sd(a) + sd(b)), so the rule is a test of the
difference at that level in every mode: two bots of one line-up (whose rates are tied), values
of a sweep (played on the same deals) and head-to-head pairs alike. A question of several
pairs is separated only when all are: a false verdict needs one equal pair to separate, which
each does at most 5% of the time. Bonferroni over the looks is simple and holds however the
looks are correlated; O'Brien-Fleming would stop later at first and a little sooner at the
cap, for boundaries that need numerical integration (docs/lab.md has the measured rate).

>>> from tiergarten import sim
>>> r = sim.run("maumau", ["heuristic", "random"], 40, 1, {"rounds": 1}, workers=1)
>>> q = of_run(r)
>>> q.what, q.separated
('the win rates of heuristic and random', True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, TypeVar

from .league import League
from .stats import Z95, wilson
from .tournament import SimResult, Tally

T = TypeVar("T")
ALPHA = 0.05  # the chance of a false separation over all the looks of a run


def looks(batch: int, cap: int) -> int:
    """How many times a run of batches of `batch` games up to `cap` looks at its figures.

    >>> looks(50, 1000), looks(6, 18), looks(100, 150)
    (20, 3, 2)
    """
    return math.ceil(cap / batch)


def level(planned: int, alpha: float = ALPHA) -> float:
    """The z of each look's two-sided interval, Bonferroni over `planned` looks.

    >>> round(level(1), 2), round(level(10), 2), round(level(20), 2)
    (1.96, 2.81, 3.02)
    """
    return NormalDist().inv_cdf(1 - alpha / (2 * planned))


def confidence(z: float) -> float:
    """The two-sided confidence of an interval of z standard errors."""
    return 2 * NormalDist().cdf(z) - 1


def _rate(label: str, t: Tally, z: float) -> Interval:
    low, high = wilson(t.wins, t.games, z)
    return Interval(label, t.win_rate, low, high)


@dataclass(frozen=True)
class Interval:
    """One figure of a question: a rate with its 95% interval (a fair share has low = high)."""

    label: str
    value: float
    low: float
    high: float

    def apart(self, other: Interval) -> bool:
        """True when the two intervals do not overlap."""
        return self.high < other.low or other.high < self.low

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "interval": [self.low, self.high]}


@dataclass(frozen=True)
class Question:
    """What a run is asked: which intervals must come apart (`pairs` index `intervals`)."""

    what: str
    intervals: tuple[Interval, ...]
    pairs: tuple[tuple[int, int], ...]
    z: float = Z95  # the intervals' width in standard errors

    @property
    def overlapping(self) -> list[tuple[Interval, Interval]]:
        return [(self.intervals[a], self.intervals[b]) for a, b in self.pairs
                if not self.intervals[a].apart(self.intervals[b])]

    @property
    def separated(self) -> bool:
        return not self.overlapping

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.what, "intervals": [i.to_dict() for i in self.intervals],
                "confidence": confidence(self.z), "separated": self.separated,
                "overlapping": [[a.label, b.label] for a, b in self.overlapping]}


def _every_two(what: str, intervals: Sequence[Interval], z: float) -> Question:
    return Question(what, tuple(intervals),
                    tuple(itertools.combinations(range(len(intervals)), 2)), z)


def _names(labels: Sequence[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def of_run(r: SimResult, z: float = Z95) -> Question:
    """A line-up's question: its bots' win rates, or (one bot) seat 0 against the fair share;
    intervals of `z` standard errors."""
    if len(r.bots) == 1:
        fair = r.first_seat.fair
        return Question("seat 0's win rate against the fair share",
                        (_rate("seat 0", r.seats[0], z),
                         Interval("fair share", fair, fair, fair)), ((0, 1),), z)
    return _every_two(f"the win rates of {_names([t.name for t in r.bots])}",
                      [_rate(t.name, t, z) for t in r.bots], z)


def of_sweep(option: str, runs: Sequence[tuple[str, SimResult]], z: float = Z95) -> Question:
    """A sweep's question: seat 0's win rate per value (one bot) or the first bot's."""
    first = runs[0][1]
    one_bot = len(set(first.players)) == 1
    bot = first.players[0]
    what = "seat 0's win rate" if one_bot else f"{bot}'s win rate"
    picked = [(value, r.seats[0] if one_bot else next(t for t in r.bots if t.name == bot))
              for value, r in runs]
    intervals = [_rate(f"{option}={value}", t, z) for value, t in picked]
    return _every_two(f"{what} for {_names([i.label for i in intervals])}", intervals, z)


def of_league(t: League, z: float = Z95) -> Question:
    """A tournament's question: neighbouring entrants by rating (round robin) or the first
    entrant and each other one (gauntlet), by their head-to-head win rates."""
    if t.format == "gauntlet":
        meetings = [(t.entrants[0], other) for other in t.entrants[1:]]
        what = f"{t.entrants[0]} against each other entrant, head to head"
    else:
        order = sorted(t.entrants, key=lambda name: -t.ratings[name].mu)
        meetings = list(itertools.pairwise(order))
        what = "neighbouring entrants by rating (" + " > ".join(order) + "), head to head"
    intervals: list[Interval] = []
    pairs = []
    for a, b in meetings:
        for bot, other in ((a, b), (b, a)):
            h = t.cell(bot, other)
            if h is None:
                raise ValueError(f"{bot} and {other} never met")
            low, high = wilson(h.wins, h.games, z)
            intervals.append(Interval(f"{bot} v {other}", h.win_rate, low, high))
        pairs.append((len(intervals) - 2, len(intervals) - 1))
    return Question(what, tuple(intervals), tuple(pairs), z)


@dataclass(frozen=True)
class Verdict:
    """How an `--until-separated` run ended: the last answer, after how many games."""

    question: Question
    games: int  # per line-up (or per value)
    cap: int
    batches: int
    looks: int = 1  # planned: ceil(cap / batch); each look's level is Bonferroni's

    @property
    def level(self) -> str:
        """Each look's confidence, in words."""
        return (f"{_level(confidence(self.question.z))} intervals at each look, Bonferroni "
                f"over {self.looks} planned look{'s' if self.looks != 1 else ''}")

    @property
    def separated(self) -> bool:
        return self.question.separated

    def text(self) -> str:
        """"separated after N games" or "not separated at the cap of N games: ..."."""
        if self.separated:
            return (f"{self.question.what}: separated after {self.games:,} games "
                    f"({self.batches} batch{'es' if self.batches != 1 else ''}); {self.level}")
        still = "; ".join(f"{a.label} ({_span(a)}) and {b.label} ({_span(b)})"
                          for a, b in self.question.overlapping)
        return (f"{self.question.what}: not separated at the cap of {self.cap:,} games; "
                f"still overlapping: {still}; {self.level}")

    def to_dict(self) -> dict[str, Any]:
        return {"separated": self.separated, "games": self.games, "cap": self.cap,
                "batches": self.batches, "looks": self.looks, "text": self.text(),
                **self.question.to_dict()}


def _level(c: float) -> str:
    """A confidence in words.

    >>> _level(0.95), _level(confidence(level(10))), _level(confidence(level(200)))
    ('95%', '99.5%', '99.975%')
    """
    return f"{100 * c:.5g}%"


def _span(i: Interval) -> str:
    if i.low == i.high:
        return f"{i.value:.1%}"
    return f"{i.low:.1%}–{i.high:.1%}"


def check_cap(batch: int, cap: int) -> None:
    """The cap is a whole number of games, at least one batch.

    >>> check_cap(100, 50)
    Traceback (most recent call last):
    ...
    ValueError: the cap (--cap) must be a whole number of at least one batch (-n 100), not 50
    """
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < batch:
        raise ValueError(f"the cap (--cap) must be a whole number of at least one batch "
                         f"(-n {batch}), not {cap!r}")


def until_separated(grow: Callable[[int, T | None], T],
                    ask: Callable[[T, float], Question], batch: int, cap: int,
                    alpha: float = ALPHA) -> tuple[T, Verdict]:
    """Call `grow(games, previous)` for batch, 2 batch, ... games (the last one `cap`) until
    `ask(outcome, z)` is separated or the cap is reached; z is each look's level, Bonferroni's
    over the planned looks, so that equal figures separate with a chance of at most `alpha`."""
    check_cap(batch, cap)
    planned = looks(batch, cap)
    z = level(planned, alpha)
    games, batches, outcome = 0, 0, None
    while True:
        games = min(cap, games + batch)
        batches += 1
        outcome = grow(games, outcome)
        question = ask(outcome, z)
        if question.separated or games >= cap:
            return outcome, Verdict(question, games, cap, batches, planned)


__all__ = ["ALPHA", "Interval", "Question", "Verdict", "check_cap", "confidence", "level",
           "looks", "of_league", "of_run", "of_sweep", "until_separated"]
