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

>>> from tiergarten import sim
>>> r = sim.run("maumau", ["heuristic", "random"], 40, 1, {"rounds": 1}, workers=1)
>>> q = of_run(r)
>>> q.what, q.separated
('the win rates of heuristic and random', True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .league import League
from .tournament import SimResult

T = TypeVar("T")


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

    @property
    def overlapping(self) -> list[tuple[Interval, Interval]]:
        return [(self.intervals[a], self.intervals[b]) for a, b in self.pairs
                if not self.intervals[a].apart(self.intervals[b])]

    @property
    def separated(self) -> bool:
        return not self.overlapping

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.what, "intervals": [i.to_dict() for i in self.intervals],
                "separated": self.separated,
                "overlapping": [[a.label, b.label] for a, b in self.overlapping]}


def _every_two(what: str, intervals: Sequence[Interval]) -> Question:
    return Question(what, tuple(intervals),
                    tuple(itertools.combinations(range(len(intervals)), 2)))


def _names(labels: Sequence[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def of_run(r: SimResult) -> Question:
    """A line-up's question: its bots' win rates, or (one bot) seat 0 against the fair share."""
    if len(r.bots) == 1:
        seat = r.seats[0]
        fair = r.first_seat.fair
        return Question("seat 0's win rate against the fair share",
                        (Interval("seat 0", seat.win_rate, seat.low, seat.high),
                         Interval("fair share", fair, fair, fair)), ((0, 1),))
    return _every_two(f"the win rates of {_names([t.name for t in r.bots])}",
                      [Interval(t.name, t.win_rate, t.low, t.high) for t in r.bots])


def of_sweep(option: str, runs: Sequence[tuple[str, SimResult]]) -> Question:
    """A sweep's question: seat 0's win rate per value (one bot) or the first bot's."""
    first = runs[0][1]
    one_bot = len(set(first.players)) == 1
    bot = first.players[0]
    what = "seat 0's win rate" if one_bot else f"{bot}'s win rate"
    picked = [(value, r.seats[0] if one_bot else next(t for t in r.bots if t.name == bot))
              for value, r in runs]
    intervals = [Interval(f"{option}={value}", t.win_rate, t.low, t.high)
                 for value, t in picked]
    return _every_two(f"{what} for {_names([i.label for i in intervals])}", intervals)


def of_league(t: League) -> Question:
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
            intervals.append(Interval(f"{bot} v {other}", h.win_rate, h.low, h.high))
        pairs.append((len(intervals) - 2, len(intervals) - 1))
    return Question(what, tuple(intervals), tuple(pairs))


@dataclass(frozen=True)
class Verdict:
    """How an `--until-separated` run ended: the last answer, after how many games."""

    question: Question
    games: int  # per line-up (or per value)
    cap: int
    batches: int

    @property
    def separated(self) -> bool:
        return self.question.separated

    def text(self) -> str:
        """"separated after N games" or "not separated at the cap of N games: ..."."""
        if self.separated:
            return (f"{self.question.what}: separated after {self.games:,} games "
                    f"({self.batches} batch{'es' if self.batches != 1 else ''})")
        still = "; ".join(f"{a.label} ({_span(a)}) and {b.label} ({_span(b)})"
                          for a, b in self.question.overlapping)
        return (f"{self.question.what}: not separated at the cap of {self.cap:,} games; "
                f"still overlapping: {still}")

    def to_dict(self) -> dict[str, Any]:
        return {"separated": self.separated, "games": self.games, "cap": self.cap,
                "batches": self.batches, "text": self.text(), **self.question.to_dict()}


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


def until_separated(grow: Callable[[int, T | None], T], ask: Callable[[T], Question],
                    batch: int, cap: int) -> tuple[T, Verdict]:
    """Call `grow(games, previous)` for batch, 2 batch, ... games (the last one `cap`) until
    `ask` of the outcome is separated or the cap is reached."""
    check_cap(batch, cap)
    games, batches, outcome = 0, 0, None
    while True:
        games = min(cap, games + batch)
        batches += 1
        outcome = grow(games, outcome)
        question = ask(outcome)
        if question.separated or games >= cap:
            return outcome, Verdict(question, games, cap, batches)


__all__ = ["Interval", "Question", "Verdict", "check_cap", "of_league", "of_run", "of_sweep",
           "until_separated"]
