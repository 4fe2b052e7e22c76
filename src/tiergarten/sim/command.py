"""`tiergarten simulate`: a progress bar on stderr, then a table (or JSON) on stdout.

The CLI parses arguments and calls `simulate_command`; everything the command shows comes from
the results of `tiergarten.sim` (run, league, sweep), drawn by `sim.display`.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tiergarten import bots
from tiergarten.bots.ismcts import ISMCTSBot
from tiergarten.core import load

from .display import show, show_league, show_sweep, show_verdict
from .league import League
from .pool import SHORTEN, Estimate
from .request import Hook, Mode, check, labelled, split_names, write_html
from .request import as_json as outcome_json
from .separation import Verdict, check_cap, until_separated
from .tournament import Plan

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
CAP_BATCHES = 10  # --until-separated without --cap: at most this many batches of -n games



def simulate_command(game: str, players: list[str] | None, n: int, seed: int,
                     options: dict[str, str], as_json: bool, workers: int | None,
                     tournament: str | None = None, seats: int | None = None,
                     sweep_option: str | None = None, report: Path | None = None,
                     save: Path | None = None, backend: str = "local",
                     address: str | None = None, until_separated: bool = False,
                     cap: int | None = None) -> int:
    """Run a simulation — one line-up, a tournament (`tournament`: round-robin or gauntlet
    between the named entrants at tables of `seats`) or a sweep (`sweep_option`:
    "option=a,b,c") — and print its report; `report` writes an HTML page with plots, `save`
    every game's record. `until_separated` plays batches of `n` games (per line-up or value)
    until the intervals the question is about separate or `cap` games are reached (default
    10 batches). Return the exit status (2 for a bad request)."""
    err = Console(stderr=True)
    try:
        mode = check(game, split_names(players), n, seed, options, workers, tournament, seats,
                     sweep_option, save is not None, backend, address)
        if cap is not None and not until_separated:
            raise ValueError("--cap goes with --until-separated")
        limit = (cap if cap is not None else n * CAP_BATCHES) if until_separated else n
        if until_separated:
            check_cap(n, limit)
        if save is not None:
            _check_folder(save, "--save")
        if report is not None:
            _check_folder(report, "--report")
    except ValueError as exc:
        err.print(f"error: {' '.join(str(exc).split())}", markup=False, highlight=False,
                  soft_wrap=True)
        return EXIT_USAGE
    try:
        outcome, verdict = _with_bar(game, mode, n, limit if until_separated else None, err)
    except KeyboardInterrupt:
        err.print("interrupted", markup=False, highlight=False)
        return EXIT_INTERRUPTED
    _write_files(game, outcome, report, save, err, verdict, sweep_option)
    if as_json:
        sys.stdout.write(json.dumps(outcome_json(outcome, sweep_option, verdict), indent=2,
                                    allow_nan=False) + "\n")
        sys.stdout.flush()
        return 0
    console = Console()
    if isinstance(outcome, League):
        show_league(outcome, console)
    elif isinstance(outcome, list):
        show_sweep(sweep_option or "", outcome, console)
    else:
        show(outcome, console)
    if verdict is not None:
        show_verdict(verdict, console)
    return 0


def searching(plans: Sequence[Plan]) -> bool:
    """True when a seat of some line-up holds a searching bot (ISMCTS: the hard and expert
    levels of Mau Mau and MammuZ, `ismcts`), whose games are slow."""
    for p in plans:
        game = load(p.game, len(p.players), **p.options)
        for seat, name in enumerate(dict.fromkeys(p.players)):
            if isinstance(bots.make(name, game, seat, random.Random(0)), ISMCTSBot):
                return True
    return False


def _check_folder(path: Path, flag: str) -> None:
    if path.exists() and not path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a file; give a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot write to {flag} {str(path)!r}: {exc}") from exc


def _write_files(game: str, outcome: Any, report: Path | None, save: Path | None,
                 err: Console, verdict: Verdict | None, sweep_option: str | None = None) -> None:
    from .report import save_records

    if save is not None:
        paths = save_records(save, labelled(outcome, sweep_option))
        err.print(f"{len(paths)} game records saved in {save}", markup=False, highlight=False)
    if report is not None:
        page = write_html(report, game, outcome, verdict, sweep_option)
        err.print(f"report written to {page}", markup=False, highlight=False)


def _cost_hook(plans: Sequence[Plan], cap: int | None, err: Console,
               shorten: str = SHORTEN) -> Hook:
    """Say once, up front, what a run will cost when its bots search or it is long, and warn
    when it will take more than a few minutes."""
    slow = searching(plans)
    told: list[bool] = []

    def hook(estimate: Estimate) -> None:
        if told:
            return
        told.append(True)
        if cap is not None:  # the first batch was timed; the cap bounds the rest
            estimate = Estimate(estimate.per_game, tuple(cap - 1 for _ in estimate.per_game),
                                estimate.workers)
        if slow or estimate.worth_saying:
            upto = "up to the cap: " if cap is not None else ""
            err.print(f"cost: {upto}{estimate.text()}", markup=False, highlight=False)
        warning = estimate.warning(shorten)
        if warning is not None:
            err.print(warning, markup=False, highlight=False)
    return hook


@contextmanager
def _bar(description: str, total: int, err: Console) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr; yields `tick(done, total=None)`."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=err) as bar:
        task = bar.add_task(description, total=total)

        def tick(done: int, total: int | None = None) -> None:
            bar.update(task, completed=done, total=total)
        yield tick


def _with_bar(game: str, mode: Mode, n: int, cap: int | None, err: Console,
              ) -> tuple[Any, Verdict | None]:
    """Play the request under a progress bar, its cost said up front; with a cap, play
    batches of `n` until separated."""
    lines = len(mode.plans)
    hook = _cost_hook(mode.plans, cap, err)
    with _bar(f"simulating {game}", (cap or n) * lines, err) as tick:
        if cap is None:
            return mode.grow(n, None, tick, hook), None
        outcome, verdict = until_separated(lambda games, prev: mode.grow(games, prev, tick, hook),
                                           mode.ask, n, cap)
        tick(verdict.games * lines, verdict.games * lines)
        return outcome, verdict


def study_command(game: str, out: Path | None, workers: int | None, n: int | None = None,
                  quick: bool = False) -> int:
    """`tiergarten study GAME`: play a balance study under a progress bar and write its page
    (and, as line-ups finish, the partial page); `n` games per line-up or the `quick` form
    instead of the study's own sizes. Return the exit status (2 for a bad request)."""
    from .studies import plan_study, run_study, study_folder, total_games

    err = Console(stderr=True)
    try:
        if quick and n is not None:
            raise ValueError("choose either -n or --quick")
        _, lines = plan_study(game, workers, n=n, quick=quick)
        if out is not None:
            _check_folder(out, "--out")
    except ValueError as exc:
        err.print(f"error: {' '.join(str(exc).split())}", markup=False, highlight=False,
                  soft_wrap=True)
        return EXIT_USAGE
    hook = _cost_hook(list(lines.values()), None, err, "fewer games (-n, --quick) or more "
                      "workers (--workers) shorten it")
    folder = study_folder(game, out, n, quick)
    err.print(f"writing into {folder} as line-ups finish", markup=False, highlight=False)
    try:
        with _bar(f"study of {game}", total_games(lines), err) as tick:
            page, seconds = run_study(game, folder, workers,
                                      progress=lambda done, _t: tick(done), estimate=hook,
                                      n=n, quick=quick)
    except KeyboardInterrupt:
        err.print(f"interrupted: the line-ups done so far are in {folder}", markup=False,
                  highlight=False)
        return EXIT_INTERRUPTED
    err.print(f"{page} written: {total_games(lines):,} games in {seconds:.0f} s",
              markup=False, highlight=False)
    return 0
