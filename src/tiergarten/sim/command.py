"""`tiergarten simulate`: a progress bar on stderr, then a table (or JSON) on stdout.

The CLI parses arguments and calls `simulate_command`; everything the command shows comes from
`tiergarten.sim.run`'s result.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
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

from .tournament import Plan, SimResult, Tally, execute, plan

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def simulate_command(game: str, players: list[str] | None, n: int, seed: int,
                     options: dict[str, str], as_json: bool, workers: int | None) -> int:
    """Run a simulation and print its report; return the exit status (2 for a bad request)."""
    err = Console(stderr=True)
    try:
        p = plan(game, _split(players), n, seed, options, workers)
    except ValueError as exc:
        err.print(f"error: {' '.join(str(exc).split())}", markup=False, highlight=False,
                  soft_wrap=True)
        return EXIT_USAGE
    try:
        result = _run_with_bar(p, err)
    except KeyboardInterrupt:
        err.print("interrupted", markup=False, highlight=False)
        return EXIT_INTERRUPTED
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n")
        sys.stdout.flush()
    else:
        show(result, Console())
    return 0


def _split(players: Sequence[str] | None) -> list[str] | None:
    """Accept ["heuristic", "random"] as well as ["heuristic,random"]."""
    if not players:
        return None
    names = [name.strip() for item in players for name in item.split(",")]
    return [name for name in names if name] or None


def _run_with_bar(p: Plan, err: Console) -> SimResult:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=err) as bar:
        task = bar.add_task(f"simulating {p.game}", total=p.n)
        return execute(p, lambda done, _total: bar.update(task, completed=done))


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
