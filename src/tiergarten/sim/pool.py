"""Playing plans: every line-up of a run, a tournament or a sweep in one pool (or on Ray).

Each plan's first `PILOT` unplayed games go first, one task each: their mean time is the
per-game cost estimate (`Estimate`) announced before the rest are played, and it sizes the
remaining tasks so that slow games (the searching levels) report progress game by game.
Where the task boundaries fall never changes an outcome (game `i` is seeded by `i` alone), so
the figures stay independent of the number of workers, the task sizes and the backend.

>>> from tiergarten.sim.tournament import plan
>>> seen = []
>>> [r.n for r in execute_many([plan("maumau", None, 3, 1, {"rounds": 1}, workers=1)],
...                            estimate=seen.append)]
[3]
>>> seen[0].remaining, seen[0].workers
((0,), 1)
"""

from __future__ import annotations

import importlib
import math
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from .ray_backend import run_tasks
from .tournament import (
    BACKENDS,
    MAX_CHUNK,
    Outcome,
    Plan,
    Progress,
    SimResult,
    plan,
    play_range,
    summarise,
)

PILOT = 3  # games per plan timed before the rest: one game's time is too noisy
TASK_SECONDS = 2.0  # slow games go out in tasks of about this long, so progress keeps moving
LONG_RUN = 180.0  # seconds: a run expected to take longer than this gets a warning
SHORTEN = "fewer games (-n), more workers (--workers) or a Ray cluster (--backend ray) shorten it"
WORTH_SAYING = 10.0  # seconds: shorter runs of quick bots are not worth an estimate line


@dataclass(frozen=True)
class Task:
    """Games start..stop-1 of plan number `plan`."""

    plan: int
    start: int
    stop: int


@dataclass(frozen=True)
class Estimate:
    """What the rest of a run will cost, from each plan's pilot game."""

    per_game: tuple[float, ...]  # mean seconds a pilot game of each plan took
    remaining: tuple[int, ...]  # games of each plan still to play after its pilots
    workers: int  # processes that will play them

    @property
    def seconds(self) -> float:
        """The expected wall time of the rest: the work shared out over the workers."""
        work = math.fsum(c * r for c, r in zip(self.per_game, self.remaining, strict=True))
        return work / self.workers

    @property
    def is_long(self) -> bool:
        return self.seconds > LONG_RUN

    @property
    def worth_saying(self) -> bool:
        return self.seconds >= WORTH_SAYING

    def text(self) -> str:
        """One line for the user, e.g. "about 85 ms a game (from the first games); the other
        998 games take about 42 s on 2 workers".

        >>> print(Estimate((0.085,), (998,), 2).text())
        about 85 ms a game (from the first games); the other 998 games take about 42 s
        on 2 workers
        >>> print(Estimate((0.2, 1.5), (9, 9), 1).text())
        about 200 ms to 1.5 s a game over 2 line-ups (from the first games of each); the other
        18 games take about 15 s on 1 worker
        """
        low, high = min(self.per_game), max(self.per_game)
        if len(self.per_game) == 1:
            cost = f"about {duration(low)} a game (from the first games)"
        else:
            spread = duration(low) if duration(low) == duration(high) else \
                f"{duration(low)} to {duration(high)}"
            cost = (f"about {spread} a game over {len(self.per_game)} line-ups (from the "
                    "first games of each)")
        games = sum(self.remaining)
        workers = f"{self.workers} worker" + ("s" if self.workers != 1 else "")
        rest = f"the other {games:,} games take" if games != 1 else "the other game takes"
        return f"{cost}; {rest} about {duration(self.seconds)} on {workers}"

    def warning(self, shorten: str = SHORTEN) -> str | None:
        """A warning for a run longer than a few minutes, saying how to shorten it."""
        if not self.is_long:
            return None
        return f"warning: this run will take about {duration(self.seconds)}; {shorten}"


def duration(seconds: float) -> str:
    """A short, readable duration that never rounds a cost to nothing.

    >>> [duration(s) for s in (0.00042, 0.085, 1.54, 42.4, 754, 7322)]
    ['0.42 ms', '85 ms', '1.5 s', '42 s', '13 min', '2.0 h']
    """
    if seconds < 0.001:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def timed_range(p: Plan, start: int, stop: int) -> tuple[list[Outcome], float]:
    """Play games start..stop-1 of a plan and say how long they took (a worker's task). The
    plan's `imports` are imported first: bots registered at run time by those modules reach
    workers that start afresh (spawn, Ray)."""
    for module in p.imports:
        importlib.import_module(module)
    began = time.perf_counter()
    played = play_range(p, start, stop)
    return played, time.perf_counter() - began


def chunk_size(p: Plan, workers: int, per_game: float) -> int:
    """Games per task: about 25 tasks a worker, at most MAX_CHUNK, and for slow games no more
    than TASK_SECONDS' worth."""
    size = max(1, min(MAX_CHUNK, math.ceil(p.n / (workers * 25))))
    if per_game > 0:
        size = min(size, max(1, int(TASK_SECONDS / per_game)))
    return size


def execute_many(plans: Sequence[Plan], progress: Progress | None = None,
                 backend: str = "local", address: str | None = None,
                 before: Sequence[SimResult | None] | None = None,
                 estimate: Callable[[Estimate], None] | None = None,
                 finished: Callable[[int, SimResult], None] | None = None) -> list[SimResult]:
    """Play every game of every plan, all in one process pool (or on Ray), and tally each.

    `before` holds, per plan, the result of the same plan for fewer games (or None): only the
    games after it are played and its outcomes are kept, so growing a run batch by batch gives
    the result of one run of the final size. `estimate` hears the cost of the rest once every
    plan's pilot game is in; `progress` hears (games done, games to play) across all plans;
    `finished` hears (plan number, its result) as soon as each plan's last game is in."""
    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    earlier = list(before) if before is not None else [None] * len(plans)
    starts = [_start(p, b) for p, b in zip(plans, earlier, strict=True)]
    total = sum(p.n - s for p, s in zip(plans, starts, strict=True))
    workers = max((p.workers for p in plans), default=1)
    began = time.perf_counter()
    played: dict[Task, list[Outcome]] = {}
    busy = [0.0] * len(plans)  # seconds each plan's games took in the workers
    owed = [p.n - s for p, s in zip(plans, starts, strict=True)]  # games still to come in
    done = 0
    with _runner(plans, backend, address, workers, total) as run:
        def collect(tasks: Sequence[Task]) -> None:
            nonlocal done
            for task, outcomes, seconds in run(tasks):
                played[task] = outcomes
                busy[task.plan] += seconds
                done += len(outcomes)
                owed[task.plan] -= len(outcomes)
                if progress is not None:
                    progress(done, total)
                if finished is not None and owed[task.plan] == 0:
                    j = task.plan
                    finished(j, _assemble(j, plans[j], earlier[j], played,
                                          time.perf_counter() - began, busy))

        piloted = [min(PILOT, p.n - s) for p, s in zip(plans, starts, strict=True)]
        collect([Task(j, s + i, s + i + 1) for j, s in enumerate(starts)
                 for i in range(piloted[j])])
        timed = [j for j, count in enumerate(piloted) if count]
        per_game = [busy[j] / count if count else 0.0 for j, count in enumerate(piloted)]
        if estimate is not None and timed:
            estimate(Estimate(tuple(per_game[j] for j in timed),
                              tuple(plans[j].n - starts[j] - piloted[j] for j in timed),
                              workers))
        collect(_rest(plans, [s + c for s, c in zip(starts, piloted, strict=True)], workers,
                      per_game))
    wall = time.perf_counter() - began
    return [_assemble(j, p, earlier[j], played, wall, busy) for j, p in enumerate(plans)]


def _start(p: Plan, earlier: SimResult | None) -> int:
    if earlier is None:
        return 0
    same = (earlier.game, earlier.players, earlier.seed, earlier.options, earlier.rules) == (
        p.game, p.players, p.seed, p.options, p.rules)
    if not same or earlier.n > p.n:
        raise ValueError("a result can only be extended by the same plan with more games")
    return earlier.n


def _rest(plans: Sequence[Plan], starts: Sequence[int], workers: int,
          per_game: Sequence[float]) -> list[Task]:
    tasks = []
    for j, (p, start) in enumerate(zip(plans, starts, strict=True)):
        size = chunk_size(p, workers, per_game[j])
        tasks += [Task(j, a, min(a + size, p.n)) for a in range(start, p.n, size)]
    return tasks


def _assemble(j: int, p: Plan, earlier: SimResult | None, played: dict[Task, list[Outcome]],
              wall: float, busy: Sequence[float]) -> SimResult:
    """Tally plan j's outcomes in index order. Its elapsed time is its share of the wall time,
    in proportion to the time its games took (all plans shared the workers)."""
    mine = sorted((t for t in played if t.plan == j), key=lambda t: t.start)
    outcomes = (earlier.outcomes if earlier is not None else ()) + tuple(
        o for t in mine for o in played[t])
    work = math.fsum(busy)
    share = wall * busy[j] / work if work > 0 else wall / len(busy)
    return summarise(p, outcomes, share + (earlier.elapsed if earlier is not None else 0.0))


Runner = Callable[[Sequence[Task]], Iterator[tuple[Task, list[Outcome], float]]]


class _runner:  # noqa: N801 - used as a context manager, like open()
    """Runs tasks in this process, in a process pool kept for both phases, or on Ray."""

    def __init__(self, plans: Sequence[Plan], backend: str, address: str | None, workers: int,
                 total: int) -> None:
        self.plans = plans
        self.backend = backend
        self.address = address
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        if backend == "local" and workers > 1 and total > 1:
            self.pool = ProcessPoolExecutor(max_workers=min(workers, total),
                                            initializer=_ignore_interrupts)

    def __enter__(self) -> Runner:
        if self.backend == "ray":
            return self._ray
        return self._serial if self.pool is None else self._pooled

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def _serial(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, list[Outcome], float]]:
        for t in tasks:
            yield (t, *timed_range(self.plans[t.plan], t.start, t.stop))

    def _pooled(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, list[Outcome], float]]:
        assert self.pool is not None
        futures: dict[Future[tuple[list[Outcome], float]], Task] = {
            self.pool.submit(timed_range, self.plans[t.plan], t.start, t.stop): t
            for t in tasks}
        for future in as_completed(futures):
            yield (futures[future], *future.result())

    def _ray(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, list[Outcome], float]]:
        yield from run_tasks(timed_range, self.plans, tasks, self.address, self.workers)


def execute(p: Plan, progress: Progress | None = None, backend: str = "local",
            address: str | None = None) -> SimResult:
    """Play every game of a checked plan, in a process pool unless `p.workers` is 1, or on a
    Ray cluster (`backend="ray"`, `address` of an existing one or a local one); the figures
    are the same either way (`execute_many` plays several plans at once).

    Workers import tiergarten afresh under the "spawn" start method (not Linux's default), so
    games and bots registered at run time reach them only where processes fork, or through
    the plan's `imports`."""
    return execute_many([p], progress, backend, address)[0]


def run(game_id: str, players: Sequence[str] | None = None, n: int = 1000, seed: int = 0,
        options: Mapping[str, Any] | None = None, workers: int | None = None,
        progress: Progress | None = None, records: bool = False, backend: str = "local",
        address: str | None = None) -> SimResult:
    """Play `n` games of `game_id` between bots named in `players` (default: random bots at the
    game's usual table size) and return the tallies. The figures depend only on the arguments,
    never on `workers` (None: one process per core; 1: in this process) nor on the backend."""
    return execute(plan(game_id, players, n, seed, options, workers, records), progress,
                   backend, address)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels what is queued and stops cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["LONG_RUN", "PILOT", "Estimate", "Task", "chunk_size", "duration", "execute",
           "execute_many", "run", "timed_range"]
