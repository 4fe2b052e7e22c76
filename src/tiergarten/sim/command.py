"""`tiergarten simulate`: a progress bar on stderr, then a table (or JSON) on stdout.

The CLI parses arguments and calls `simulate_command`; everything the command shows comes from
`tiergarten.sim.run`'s result.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
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
from rich.table import Table

from tiergarten.core import game_class

from .league import League, league, parse_sweep, sweep
from .tournament import BACKENDS, Plan, SimResult, Tally, execute, plan
from .tournament import Progress as Tick

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def simulate_command(game: str, players: list[str] | None, n: int, seed: int,
                     options: dict[str, str], as_json: bool, workers: int | None,
                     tournament: str | None = None, seats: int | None = None,
                     sweep_option: str | None = None, report: Path | None = None,
                     save: Path | None = None, backend: str = "local",
                     address: str | None = None) -> int:
    """Run a simulation — one line-up, a tournament (`tournament`: round-robin or gauntlet
    between the named entrants at tables of `seats`) or a sweep (`sweep_option`:
    "option=a,b,c") — and print its report; `report` writes an HTML page with plots, `save`
    every game's record. Return the exit status (2 for a bad request)."""
    err = Console(stderr=True)
    entrants = _split(players)
    extra: dict[str, Any] = {"records": save is not None, "backend": backend, "address": address}
    try:
        if backend not in BACKENDS:
            raise ValueError(f"no backend {backend!r}; allowed: {', '.join(BACKENDS)}")
        if tournament is not None and sweep_option is not None:
            raise ValueError("choose either a tournament or a sweep")
        if tournament is not None:
            if not entrants:
                raise ValueError("a tournament needs --players naming the entrants")
            total = _tournament_size(game, entrants, n, tournament, seats)
            job: Callable[[Tick], Any] = lambda bar: league(  # noqa: E731
                game, entrants, n, seed, options, workers, tournament, seats, bar, **extra)
        elif sweep_option is not None:
            name, values = parse_sweep(sweep_option)
            for value in values:  # check every value before playing anything
                plan(game, entrants, n, seed, {**options, name: value}, workers)
            total = n * len(values)
            job = lambda bar: sweep(game, entrants, name, values, n, seed,  # noqa: E731
                                    options, workers, bar, **extra)
        else:
            p = plan(game, entrants, n, seed, options, workers, save is not None)
            total = n
            job = lambda bar: execute(p, bar, backend, address)  # noqa: E731
        if save is not None:
            _check_folder(save, "--save")
        if report is not None:
            _check_folder(report, "--report")
    except ValueError as exc:
        err.print(f"error: {' '.join(str(exc).split())}", markup=False, highlight=False,
                  soft_wrap=True)
        return EXIT_USAGE
    try:
        outcome = _with_bar(game, total, job, err)
    except KeyboardInterrupt:
        err.print("interrupted", markup=False, highlight=False)
        return EXIT_INTERRUPTED
    runs = _labelled(outcome, sweep_option)
    _write_files(game, outcome, runs, report, save, err)
    if as_json:
        data = outcome.to_dict() if not isinstance(outcome, list) else {
            "sweep": sweep_option, "runs": [{"value": v, **r.to_dict()} for v, r in outcome]}
        sys.stdout.write(json.dumps(data, indent=2, allow_nan=False) + "\n")
        sys.stdout.flush()
    elif isinstance(outcome, League):
        show_league(outcome, Console())
    elif isinstance(outcome, list):
        show_sweep(sweep_option or "", outcome, Console())
    else:
        show(outcome, Console())
    return 0


def _tournament_size(game: str, entrants: list[str], n: int, format: str,
                     seats: int | None) -> int:
    """Check a tournament's entrants and table before playing; return its number of games."""
    from .league import lineups, pairs

    info = game_class(game).info
    k = seats if seats is not None else max(2, info.min_players)
    lines = [line for a, b in pairs(entrants, format) for line in lineups(a, b, k)]
    for line in lines:
        plan(game, line, n, 0, {}, 1)
    return n * len(lines)


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
                 report: Path | None, save: Path | None, err: Console) -> None:
    from .report import save_records, write_report

    if save is not None:
        paths = save_records(save, runs)
        err.print(f"{len(paths)} game records saved in {save}", markup=False, highlight=False)
    if report is not None:
        title = f"{game_class(game).info.title}: " + (
            f"{outcome.format} of {', '.join(outcome.entrants)}" if isinstance(outcome, League)
            else ", ".join(runs[0][1].players))
        kwargs: dict[str, Any] = {}
        if isinstance(outcome, League):
            kwargs = {"ratings": outcome.ratings, "head_to_head": outcome.head_to_head}
        page = write_report(report, title, runs, **kwargs)
        err.print(f"report written to {page}", markup=False, highlight=False)


def _split(players: Sequence[str] | None) -> list[str] | None:
    """Accept ["heuristic", "random"] as well as ["heuristic,random"]."""
    if not players:
        return None
    names = [name.strip() for item in players for name in item.split(",")]
    return [name for name in names if name] or None


def _with_bar(game: str, total: int, job: Callable[[Tick], Any], err: Console) -> Any:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=err) as bar:
        task = bar.add_task(f"simulating {game}", total=total)
        return job(lambda done, _total: bar.update(task, completed=done))


def _run_with_bar(p: Plan, err: Console) -> SimResult:
    result: SimResult = _with_bar(p.game, p.n, lambda bar: execute(p, bar), err)
    return result


def show_league(t: League, console: Console) -> None:
    """Ratings with intervals, then every head-to-head figure."""
    console.print(f"[bold]{game_class(t.game).info.title}[/bold] ({t.game}) · {t.format} · "
                  f"{len(t.pairings)} line-ups at {t.seats} seats · "
                  f"{sum(r.n for r in t.pairings)} games", highlight=False)
    table = Table(title="Ratings (openskill)", title_justify="left")
    for column in ("Bot", "mu", "interval (mu ± 2 sigma)"):
        table.add_column(column, justify="left" if column == "Bot" else "right")
    for name, r in sorted(t.ratings.items(), key=lambda kv: -kv[1].mu):
        table.add_row(name, f"{r.mu:.1f}", f"{r.low:.1f} – {r.high:.1f}")
    console.print(table)
    h2h = Table(title="Head to head: the bot's win rate per seat against the other",
                title_justify="left")
    for column in ("Bot", "Against", "Seat-games", "Win rate", "95% interval", "Fair"):
        h2h.add_column(column, justify="left" if column in ("Bot", "Against") else "right")
    for h in t.head_to_head:
        style = "green" if h.low > h.fair else "red" if h.high < h.fair else "default"
        h2h.add_row(h.bot, h.other, str(h.games), _pct(h.win_rate),
                    f"{_pct(h.low)} – {_pct(h.high)}", _pct(h.fair), style=style)
    console.print(h2h)


def show_sweep(option: str, runs: list[tuple[str, SimResult]], console: Console) -> None:
    """One row per option value: each bot's win rate, seat 0's win rate, game length."""
    name = option.partition("=")[0]
    bots = list(dict.fromkeys(t.name for _, r in runs for t in r.bots))
    table = Table(title=f"Sweep of {name}", title_justify="left")
    table.add_column(name)
    for bot in bots:
        table.add_column(f"{bot} wins", justify="right")
    table.add_column("Seat 0 wins", justify="right")
    table.add_column("Length (decisions)", justify="right")
    for value, r in runs:
        tallies = {t.name: t for t in r.bots}
        table.add_row(value, *(f"{_pct(tallies[b].win_rate)} ({_pct(tallies[b].low)} – "
                               f"{_pct(tallies[b].high)})" if b in tallies else "–"
                               for b in bots),
                      f"{_pct(r.first_seat.win_rate)}", f"{r.decisions.mean:.1f}")
    console.print(table)


# -- the report -----------------------------------------------------------------------------

def show(result: SimResult, console: Console) -> None:
    """Print the report of a run: a heading, tables by bot, by seat and by both, then summary
    lines."""
    console.print(_heading(result), highlight=False)
    console.print(_table("By bot", "bot", result.bots, result))
    console.print(_table("By seat", "seat", result.seats, result))
    if len(result.bots) > 1:
        console.print(_split_table(result))
    for line in _summary(result):
        console.print(line, highlight=False)


def _heading(r: SimResult) -> str:
    info = game_class(r.game).info
    defaults = {o.name: o.default for o in info.options}
    changed = [f"{k}={_text(v)}" for k, v in r.options.items() if v != defaults.get(k)]
    parts = [f"[bold]{info.title}[/bold] ({r.game})", f"{r.n} games",
             f"{len(r.players)} players: {', '.join(r.players)}", f"seed {r.seed}"]
    if changed:
        parts.append("options: " + ", ".join(changed))
    return " · ".join(parts)


def _text(value: Any) -> str:
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _table(title: str, key: str, tallies: Sequence[Tally], r: SimResult) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(key.capitalize())
    table.add_column("Games", justify="right")  # for a bot: the seats it held, over all games
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("Mean points", justify="right")
    fair = 1 / len(r.players)
    for t in tallies:
        table.add_row(t.name, str(t.games), _wins(t.wins), _pct(t.win_rate), _interval(t),
                      f"{t.points.mean:.1f}", style=_style(t, fair))
    return table


def _split_table(r: SimResult) -> Table:
    """Each bot's win rate in each seat it held (only for line-ups of different bots)."""
    table = Table(title="Win rate by bot and seat", title_justify="left")
    table.add_column("Bot")
    for seat in range(len(r.players)):
        table.add_column(f"Seat {seat}", justify="right")
    fair = 1 / len(r.players)
    for t in r.bots:
        cells = {int(s.name): s for s in t.by_seat}
        table.add_row(t.name, *(
            f"[{_style(cells[seat], fair)}]{_pct(cells[seat].win_rate)}[/]" if seat in cells
            else "–" for seat in range(len(r.players))))
    return table


def _interval(t: Tally) -> str:
    return f"{_pct(t.low)} – {_pct(t.high)}"


def _style(t: Tally, fair: float) -> str:
    """Green when the interval lies above the fair share, red when below."""
    return "green" if t.low > fair else "red" if t.high < fair else "default"


def _pct(x: float) -> str:
    """A percentage with one decimal, or two where one would round a near-certainty to 0 or 100.

    >>> _pct(0.5), _pct(0.9995), _pct(1.0), _pct(0.00004)
    ('50.0%', '99.95%', '100.0%', '0.00%')
    """
    text = f"{x:.1%}"
    return f"{x:.2%}" if text in ("0.0%", "100.0%") and x not in (0, 1) else text


def _wins(wins: float) -> str:
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.2f}"


def _summary(r: SimResult) -> list[str]:
    d = r.decisions
    length = f"Game length: {d.mean:.1f} decisions (95% {d.low:.1f} – {d.high:.1f}, " \
             f"range {d.minimum:.0f} – {d.maximum:.0f})"
    if r.rounds is not None:
        length += f", {r.rounds.mean:.2f} rounds (range {r.rounds.minimum:.0f} – " \
                  f"{r.rounds.maximum:.0f})"
    f = r.first_seat
    verdict = "significant" if f.is_significant else "not significant"
    first = (f"First-seat advantage: seat 0 wins {_pct(f.win_rate)} against a fair share of "
             f"{f.fair:.1%}: {100 * f.advantage:+.1f} pp (95% {100 * f.low:+.1f} to "
             f"{100 * f.high:+.1f} pp), {verdict}")
    ended = "Ended by: " + ", ".join(f"{k} {v}" for k, v in r.reasons.items())
    workers = f"{r.workers} worker" + ("s" if r.workers != 1 else "")
    speed = (f"{r.n} games in {r.elapsed:.1f} s: {r.games_per_s:,.0f} games/s, "
             f"{r.decisions_per_s:,.0f} decisions/s ({workers})")
    lines = [length, first, ended, speed]
    if not r.is_balanced and len(set(r.players)) > 1:
        lines.insert(2, f"Note: {r.n} games is not a multiple of {len(r.players)} players, so "
                        "the rotation seats some bots once more than others; per-seat figures "
                        "lean slightly towards them.")
    return lines
