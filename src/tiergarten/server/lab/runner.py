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
- **the time:** once the first games of each line-up are in, their time says what the rest
  will take (`sim.pool.Estimate`, shown with the run); a run that would take longer than
  `lab_seconds` stops there, saying so;
- **cancel:** its owner may cancel a run, queued or running: a running one stops after the
  games in hand (the pool's queued games are dropped).

A finished run keeps its figures (`simulate --json`'s) and its HTML report (`--report`'s
page, plots and report.json) in a folder of its own; the newest `KEPT` finished runs are
kept, in memory and in a temporary folder, until the server stops. Runs are this process's:
they are not stored in the database and do not survive a restart.
"""

from __future__ import annotations

import logging
import secrets
import shutil
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiergarten.sim.pool import Estimate, duration
from tiergarten.sim.request import Mode, as_json, check, write_html

from ..edge.settings import Settings

log = logging.getLogger("tiergarten.lab")

KEPT = 100  # finished runs kept (the oldest go first)
RETRY_AFTER = 30  # seconds: when to try again after a full queue
ACTIVE = ("queued", "running")
REPORT_LOCK = threading.Lock()  # matplotlib's pyplot is not for two threads at once


class LabError(ValueError):
    """A run that cannot be had; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class Cancelled(Exception):
    """Raised from a run's progress to stop its games."""


class TooLong(Exception):
    """Raised from a run's estimate: the rest would take longer than the lab allows."""


@dataclass
class Run:
    """One run: its request as asked, its checked `mode`, its progress and its result."""

    id: str
    owner: str
    request: dict[str, Any]
    mode: Mode
    total: int  # games in all (line-ups × games)
    status: str = "queued"
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    estimate: str | None = None  # what the rest costs, from the first games
    folder: Path | None = None
    asked: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    cancelling: bool = False
    playing: threading.Event = field(default_factory=threading.Event)  # its first games are in
    finished: threading.Event = field(default_factory=threading.Event)

    def to_dict(self, position: int | None = None) -> dict[str, Any]:
        end = self.ended or time.time()
        return {"id": self.id, "status": self.status, "request": self.request,
                "done": self.done, "total": self.total, "position": position,
                "elapsed_s": None if self.started is None else round(end - self.started, 3),
                "estimate": self.estimate, "error": self.error, "result": self.result,
                "report": f"api/lab/runs/{self.id}/report" if self.folder else None}


class Lab:
    """The runs of one server process (see the module doc)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runs: dict[str, Run] = {}  # in the order asked
        self.waiting: deque[Run] = deque()
        self.running: set[str] = set()
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.held = False  # tests: runs wait until `release`
        self._folder: Path | None = None

    # -- asking ------------------------------------------------------------------------------

    def submit(self, owner: str, game: str, players: list[str] | None, games: int, seed: int,
               options: dict[str, Any], sweep: str | None = None) -> Run:
        """Check a run and queue it; LabError says what was wrong and what is allowed."""
        s = self.settings
        try:
            mode = check(game, players, games, seed, options, s.lab_workers,
                         sweep_option=sweep)
        except ValueError as exc:
            raise LabError(" ".join(str(exc).split())) from exc
        total = games * len(mode.plans)
        if total > s.lab_games:
            raise LabError(f"a lab run plays at most {s.lab_games:,} games in all; this one "
                           f"asks for {total:,} ({len(mode.plans)} line-up(s) of {games:,})")
        request = {"game": game, "players": list(mode.plans[0].players), "games": games,
                   "seed": seed, "options": dict(options), "sweep": sweep}
        with self.lock:
            mine = sum(r.owner == owner and r.status in ACTIVE for r in self.runs.values())
            if mine >= s.lab_per_user:
                raise LabError(f"you have {mine} lab run(s) queued or running, the most one "
                               f"person may have at once ({s.lab_per_user}); wait for one to "
                               "finish or cancel one", 429)
            if len(self.waiting) >= s.lab_queue:
                raise LabError(f"the lab's queue is full: {len(self.waiting)} runs are "
                               f"waiting, the most it holds; try again in a minute", 503,
                               RETRY_AFTER)
            run = Run(secrets.token_urlsafe(9), owner, request, mode, total)
            self.runs[run.id] = run
            self.waiting.append(run)
            self._forget_old()
        self._next()
        return run

    def get(self, run_id: str) -> Run | None:
        return self.runs.get(run_id)

    def position(self, run: Run) -> int | None:
        """A queued run's place in the queue (1: next), else None."""
        with self.lock:
            for i, waiting in enumerate(self.waiting):
                if waiting is run:
                    return i + 1
        return None

    def cancel(self, run: Run, owner: str) -> None:
        """Cancel a queued or running run of `owner`'s (LabError otherwise)."""
        if run.owner != owner:
            raise LabError("only whoever started a run may cancel it", 403)
        with self.lock:
            if run.status not in ACTIVE:
                raise LabError(f"this run is {run.status} already; only a queued or running "
                               "run can be cancelled", 409)
            run.cancelling = True
            if run in self.waiting:
                self.waiting.remove(run)
                self._end(run, "cancelled")

    # -- playing -----------------------------------------------------------------------------

    def hold(self) -> None:
        """Start no run until `release` (tests: to see runs queued)."""
        self.held = True

    def release(self) -> None:
        self.held = False
        self._next()

    def _next(self) -> None:
        with self.lock:
            while (not self.held and self.waiting
                   and len(self.running) < self.settings.lab_running):
                run = self.waiting.popleft()
                self.running.add(run.id)
                run.status, run.started = "running", time.time()
                thread = threading.Thread(target=self._play, args=(run,), daemon=True,
                                          name=f"tg-lab-{run.id}")
                self.threads = [t for t in self.threads if t.is_alive()] + [thread]
                thread.start()

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
        with self.lock:
            self.running.discard(run.id)
            self._end(run, status)
        self._next()

    def _end(self, run: Run, status: str) -> None:
        run.status, run.ended = status, time.time()
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

    def stop(self) -> None:
        """Cancel every run, wait for the running ones to stop, remove the reports."""
        with self.lock:
            for run in self.runs.values():
                run.cancelling = True
            for run in list(self.waiting):
                self._end(run, "cancelled")
            self.waiting.clear()
        for thread in self.threads:
            thread.join(timeout=30)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
