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
from dataclasses import dataclass, replace
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
from tiergarten.core import game_class, load

from .display import show, show_league, show_sweep, show_verdict
from .league import League, league, league_plans, parse_sweep, sweep
from .pool import SHORTEN, Estimate, execute_many
from .separation import (
    Question,
    Verdict,
    check_cap,
    of_league,
    of_run,
    of_sweep,
    until_separated,
)
from .tournament import BACKENDS, Plan, SimResult, plan

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
CAP_BATCHES = 10  # --until-separated without --cap: at most this many batches of -n games

Tick = Callable[[int], None]  # games done so far, over the whole command
Hook = Callable[[Estimate], None]


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
        mode = _mode(game, _split(players), n, seed, options, workers, tournament, seats,
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
    runs = _labelled(outcome, sweep_option)
    _write_files(game, outcome, runs, report, save, err, verdict, sweep_option)
    if as_json:
        sys.stdout.write(json.dumps(_json(outcome, sweep_option, verdict), indent=2,
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


def _json(outcome: Any, sweep_option: str | None, verdict: Verdict | None) -> dict[str, Any]:
    from .display import sweep_figures, sweep_notes

    if isinstance(outcome, list):
        data: dict[str, Any] = {"sweep": sweep_option,
                                "runs": [{"value": v, **r.to_dict()} for v, r in outcome],
                                "differs": {f.name: f.differs for f in sweep_figures(outcome)},
                                "notes": sweep_notes(sweep_option or "", outcome)}
    else:
        data = outcome.to_dict()
    if verdict is not None:
        data["until_separated"] = verdict.to_dict()
    return data


@dataclass(frozen=True)
class _Mode:
    """One kind of request, checked: how to grow it to `games` games per line-up (keeping a
    previous outcome's games) and what its --until-separated question is."""

    plans: list[Plan]  # the checked line-ups, for counting and estimating
    grow: Callable[[int, Any, Tick, Hook], Any]  # (games, previous, tick, hook) -> outcome
    ask: Callable[[Any, float], Question]  # (outcome, each look's z) -> the question


def _mode(game: str, entrants: list[str] | None, n: int, seed: int, options: dict[str, str],
          workers: int | None, tournament: str | None, seats: int | None,
          sweep_option: str | None, records: bool, backend: str, address: str | None) -> _Mode:
    """Check a request before anything is played; bad ones raise ValueError."""
    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if tournament is not None and sweep_option is not None:
        raise ValueError("choose either a tournament or a sweep")
    where: dict[str, Any] = {"backend": backend, "address": address}

    def offsetting(tick: Tick, previous: int, lines: int) -> Callable[[int, int], None]:
        return lambda done, _total: tick(previous * lines + done)

    if tournament is not None:
        if not entrants:
            raise ValueError("a tournament needs --players naming the entrants")
        _, plans = league_plans(game, entrants, n, seed, options, workers, tournament, seats,
                                records)

        def grow_league(games: int, prev: League | None, tick: Tick, hook: Hook) -> League:
            return league(game, entrants, games, seed, options, workers, tournament, seats,
                          offsetting(tick, prev.pairings[0].n if prev else 0, len(plans)),
                          records, estimate=hook,
                          before=list(prev.pairings) if prev else None, **where)
        return _Mode(plans, grow_league, of_league)
    if sweep_option is not None:
        name, values = parse_sweep(sweep_option)
        plans = [plan(game, entrants, n, seed, {**options, name: value}, workers, records)
                 for value in values]  # every value checked before anything is played

        def grow_sweep(games: int, prev: list[tuple[str, SimResult]] | None, tick: Tick,
                       hook: Hook) -> list[tuple[str, SimResult]]:
            return sweep(game, entrants, name, values, games, seed, options, workers,
                         offsetting(tick, prev[0][1].n if prev else 0, len(plans)), records,
                         estimate=hook, before=[r for _, r in prev] if prev else None, **where)
        return _Mode(plans, grow_sweep, lambda runs, z: of_sweep(name, runs, z))
    p = plan(game, entrants, n, seed, options, workers, records)

    def grow_run(games: int, prev: SimResult | None, tick: Tick, hook: Hook) -> SimResult:
        return execute_many([replace(p, n=games)], offsetting(tick, prev.n if prev else 0, 1),
                            before=[prev] if prev else None, estimate=hook, **where)[0]
    return _Mode([p], grow_run, of_run)


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


def _labelled(outcome: Any, sweep_option: str | None) -> list[tuple[str, SimResult]]:
    if isinstance(outcome, League):
        return [(" v ".join(dict.fromkeys(r.players)) + f" ({','.join(r.players)})", r)
                for r in outcome.pairings]
    if isinstance(outcome, list):
        name = (sweep_option or "").partition("=")[0]
        return [(f"{name}={value}", r) for value, r in outcome]
    return [("run", outcome)]


def _write_files(game: str, outcome: Any, runs: list[tuple[str, SimResult]],
                 report: Path | None, save: Path | None, err: Console,
                 verdict: Verdict | None, sweep_option: str | None = None) -> None:
    from .report import save_records, write_report

    if save is not None:
        paths = save_records(save, runs)
        err.print(f"{len(paths)} game records saved in {save}", markup=False, highlight=False)
    if report is not None:
        title = f"{game_class(game).info.title}: " + (
            f"{outcome.format} of {', '.join(outcome.entrants)}" if isinstance(outcome, League)
            else ", ".join(runs[0][1].players))
        kwargs: dict[str, Any] = {"verdict": verdict}
        if isinstance(outcome, League):
            kwargs.update(ratings=outcome.ratings, head_to_head=outcome.head_to_head)
        if isinstance(outcome, list):
            kwargs["sweep"] = (sweep_option or "").partition("=")[0]
        page = write_report(report, title, runs, **kwargs)
        err.print(f"report written to {page}", markup=False, highlight=False)


def _split(players: Sequence[str] | None) -> list[str] | None:
    """Accept ["heuristic", "random"] as well as ["heuristic,random"]."""
    if not players:
        return None
    names = [name.strip() for item in players for name in item.split(",")]
    return [name for name in names if name] or None


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


def _with_bar(game: str, mode: _Mode, n: int, cap: int | None, err: Console,
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
