"""The lab's runs: checked when asked for, queued, played by the lab's workers, cancellable.

A run is what `tiergarten simulate` plays — one line-up, or a sweep of one option — checked
and played by `tiergarten.sim.request` (the same checks, the same games, the same figures:
game `i` is seeded by the seed and `i` alone, whatever the workers). What the server adds is
the bound:

- **the games:** a run plays at most `lab_games` games in all (line-ups × games);
- **the queue:** `lab_running` runs play at once, each on `lab_workers` processes (1: a
  thread of the server's process); up to `lab_queue` more wait, in the order they came, and a
  run beyond that is refused (503, with Retry-After);
- **per user:** one user (a signed-in account, else an address) has at most `lab_per_user`
  runs queued or running at once (429);
- **across workers:** those three are counts held in the server's `Counters` (edge/counters.py)
  under `lab:running`, `lab:queued` and `lab:user:{owner}`: this process's own
  (`LocalCounters`), or with Redis the whole deployment's (`RedisCounters`, which says how a
  dead worker and a Redis blip are counted). A run takes a place in the queue,
  then a place to play, which in a cluster may come free on another worker: while runs wait,
  the lab tries again every `POLL` seconds;
- **the time:** once the first games of each line-up are in, their time says what the rest
  will take (`sim.pool.Estimate`, shown with the run); a run that would take longer than
  `lab_seconds` stops there, saying so;
- **cancel:** its owner may cancel a run, queued or running: a running one stops after the
  games in hand (the pool's queued games are dropped).

A finished run keeps its figures (`simulate --json`'s) and its HTML report (`--report`'s
page, plots and report.json) in a folder of its own; the newest `KEPT` finished runs are
kept, in memory and in a temporary folder, until the server stops. Runs are this process's:
they are not stored in the database and do not survive a restart. In a cluster, requests about
a run another worker plays are run by that worker (cluster/labruns.py, cluster/forward.py);
`placed` hears of every new run, so that the other workers can find it.

The lab's state is the event loop's (`submit`, `cancel` and the starting of runs run there);
a run's thread writes only its own progress and result, and hands its end to the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tiergarten.sim.pool import Estimate, duration
from tiergarten.sim.request import as_json, check, write_html

from ..edge.counters import Counters, LocalCounters
from ..edge.settings import Settings
from .run import ACTIVE, Cancelled, LabError, Run, TooLong

log = logging.getLogger("tiergarten.lab")

KEPT = 100  # finished runs kept (the oldest go first)
RETRY_AFTER = 30  # seconds: when to try again after a full queue
REPORT_LOCK = threading.Lock()  # matplotlib's pyplot is not for two threads at once
POLL = 1.0  # seconds between tries for a place to play while runs wait (in a cluster)
RUNNING, QUEUED = "lab:running", "lab:queued"  # the counts of runs playing, waiting


def join_all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(timeout=30)


def user_key(owner: str) -> str:
    """The count of one user's runs queued or running."""
    return f"lab:user:{owner}"


class Lab:
    """The runs of one server process, bounded by `counters` (see the module doc)."""

    def __init__(self, settings: Settings, counters: Counters | None = None) -> None:
        self.settings = settings
        self.counters: Counters = counters or LocalCounters()
        self.runs: dict[str, Run] = {}  # in the order asked
        self.waiting: deque[Run] = deque()
        self.running: set[str] = set()
        self.lock = threading.Lock()  # the reports' folder, made by the runs' threads
        self.threads: list[threading.Thread] = []
        self.held = False  # tests: runs wait until `release`
        self.placed: Callable[[str], Awaitable[None]] | None = None  # hears of each new run
        self._folder: Path | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._starting: asyncio.Lock | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the runs on this event loop (the first `submit` does, if nobody did)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._wake, self._starting = asyncio.Event(), asyncio.Lock()
            self._task = self._loop.create_task(self._starter(), name="lab")

    # -- asking ------------------------------------------------------------------------------

    async def submit(self, owner: str, game: str, players: list[str] | None, games: int,
                     seed: int, options: dict[str, Any], sweep: str | None = None) -> Run:
        """Check a run and queue it; LabError says what was wrong and what is allowed."""
        self.start()
        s = self.settings
        try:
            mode = check(game, players, games, seed, options, s.lab_workers,
                         sweep_option=sweep)
        except ValueError as exc:
            raise LabError(" ".join(str(exc).split()), code="lab_refused") from exc
        total = games * len(mode.plans)
        if total > s.lab_games:
            raise LabError(f"a lab run plays at most {s.lab_games:,} games in all; this one "
                           f"asks for {total:,} ({len(mode.plans)} line-up(s) of {games:,})",
                           code="lab_too_many_games", params={"most": s.lab_games, "total": total})
        request = {"game": game, "players": list(mode.plans[0].players), "games": games,
                   "seed": seed, "options": dict(options), "sweep": sweep}
        if not await self.counters.hold(user_key(owner), s.lab_per_user):
            raise LabError(f"you have {s.lab_per_user} lab run(s) queued or running, the most "
                           f"one person may have at once ({s.lab_per_user}); wait for one to "
                           "finish or cancel one", 429, code="lab_per_user",
                           params={"most": s.lab_per_user})
        if not await self.counters.hold(QUEUED, s.lab_queue):
            self.counters.release(user_key(owner))
            raise LabError(f"the lab's queue is full: {s.lab_queue} runs are waiting, the "
                           "most it holds; try again in a minute", 503, RETRY_AFTER,
                           "lab_queue_full", {"queue": s.lab_queue})
        run = Run(secrets.token_urlsafe(9), owner, request, mode, total)
        self.runs[run.id] = run
        self.waiting.append(run)
        self._forget_old()
        if self.placed is not None:
            await self.placed(run.id)
        if not await self._start_waiting():
            self._poke()  # no place to play now: the starter tries again every POLL seconds
        return run

    def get(self, run_id: str) -> Run | None:
        return self.runs.get(run_id)

    def position(self, run: Run) -> int | None:
        """A queued run's place in this process's queue (1: next), else None."""
        for i, waiting in enumerate(self.waiting):
            if waiting is run:
                return i + 1
        return None

    def cancel(self, run: Run, owner: str) -> None:
        """Cancel a queued or running run of `owner`'s (LabError otherwise)."""
        if run.owner != owner:
            raise LabError("only whoever started a run may cancel it", 403, code="lab_not_yours")
        if run.status not in ACTIVE:
            raise LabError(f"this run is {run.status} already; only a queued or running "
                           "run can be cancelled", 409, code="lab_finished",
                           params={"status": run.status})
        run.cancelling = True
        if run in self.waiting:
            self.waiting.remove(run)
            self.counters.release(QUEUED)
            self._end(run, "cancelled")

    # -- playing -----------------------------------------------------------------------------

    def hold(self) -> None:
        """Start no run until `release` (tests: to see runs queued)."""
        self.held = True

    def release(self) -> None:
        """Start the runs again (from any thread)."""
        self.held = False
        self._post(self._poke)

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _post(self, call: Callable[..., None], *args: Any) -> bool:
        """Run `call(*args)` on the lab's event loop (from a run's thread, or a test's)."""
        if self._loop is None:
            return False
        try:
            self._loop.call_soon_threadsafe(call, *args)
        except RuntimeError:  # the loop is closed: the server has stopped
            return False
        return True

    async def _starter(self) -> None:
        """Start waiting runs when a place to play comes free: at once when one of this
        process's runs ends, and every `POLL` seconds while runs wait (another worker's)."""
        assert self._wake is not None
        while True:
            self._wake.clear()
            try:
                waits = not await self._start_waiting()
            except Exception:  # logged; the lab goes on, trying again in a moment
                log.exception("the lab could not start its waiting runs")
                waits = True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL if waits else None)

    async def _start_waiting(self) -> bool:
        """Start the waiting runs there is room for; False if some wait for a place."""
        assert self._starting is not None
        async with self._starting:
            while not self.held and self.waiting:
                if not await self.counters.hold(RUNNING, self.settings.lab_running):
                    return False
                if not self.waiting:  # cancelled meanwhile
                    self.counters.release(RUNNING)
                    break
                run = self.waiting.popleft()
                self.counters.release(QUEUED)
                self.running.add(run.id)
                run.status, run.started = "running", time.time()
                thread = threading.Thread(target=self._play, args=(run,), daemon=True,
                                          name=f"tg-lab-{run.id}")
                self.threads = [t for t in self.threads if t.is_alive()] + [thread]
                thread.start()
        return True

    def _play(self, run: Run) -> None:
        def tick(done: int) -> None:
            run.done = done
            run.playing.set()
            if run.cancelling:
                raise Cancelled

        def hook(estimate: Estimate) -> None:
            run.estimate = estimate.text()
            most = self.settings.lab_seconds
            if estimate.seconds > most:
                raise TooLong(f"this run would take about {duration(estimate.seconds)} (from "
                              f"its first games), longer than the {duration(most)} a lab run "
                              "may take; fewer games or quicker bots shorten it")

        status = "done"
        try:
            outcome = run.mode.grow(run.request["games"], None, tick, hook)
            run.result = as_json(outcome, run.request["sweep"], None)
            folder = self.folder() / run.id
            with REPORT_LOCK:
                write_html(folder, run.request["game"], outcome, None, run.request["sweep"])
            run.folder = folder
        except Cancelled:
            status = "cancelled"
        except TooLong as exc:
            status, run.error = "failed", str(exc)
        except Exception as exc:  # a run's failure is its own: said, logged, the lab goes on
            status, run.error = "failed", f"{type(exc).__name__}: {exc}"
            log.exception("lab run %s failed", run.id)
        if not self._post(self._ended, run, status):
            self._end(run, status)  # no loop to tell: the server has stopped

    def _ended(self, run: Run, status: str) -> None:
        """A running run has ended (on the loop): its place to play is free."""
        self.running.discard(run.id)
        self.counters.release(RUNNING)
        self._end(run, status)
        self._poke()

    def _end(self, run: Run, status: str) -> None:
        run.status, run.ended = status, time.time()
        self.counters.release(user_key(run.owner))
        run.finished.set()

    def _forget_old(self) -> None:
        ended = [r for r in self.runs.values() if r.status not in ACTIVE]
        for run in ended[:max(0, len(ended) - KEPT)]:
            del self.runs[run.id]
            if run.folder is not None:
                shutil.rmtree(run.folder, ignore_errors=True)

    def folder(self) -> Path:
        """The temporary folder of the runs' reports (made when first needed)."""
        with self.lock:
            if self._folder is None:
                self._folder = Path(tempfile.mkdtemp(prefix="tiergarten-lab-"))
            return self._folder

    async def stop(self) -> None:
        """Cancel every run, wait for the running ones to stop, remove the reports."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for run in self.runs.values():
            run.cancelling = True
        for run in list(self.waiting):
            self.counters.release(QUEUED)
            self._end(run, "cancelled")
        self.waiting.clear()
        await asyncio.to_thread(join_all, list(self.threads))
        await asyncio.sleep(0)  # the runs' ends, posted to this loop
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
        self._loop = self._wake = self._starting = self._task = None
