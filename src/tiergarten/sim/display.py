"""What `tiergarten simulate` prints on stdout: tables of a run, a tournament or a sweep.

Everything shown comes from the results (`SimResult`, `League`); nothing here plays a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from tiergarten.core import game_class

from .league import League
from .separation import Verdict
from .stats import Summary
from .tournament import SimResult, Tally


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


def same_bot_note(players: Sequence[str]) -> str | None:
    """The warning for a sweep whose every seat holds the same bot, or None.

    >>> same_bot_note(["heuristic"] * 3)[:75]
    'Note: every seat holds heuristic, so only effects of the seat and of the ga'
    >>> same_bot_note(["heuristic", "random"]) is None
    True
    """
    if len(set(players)) != 1:
        return None
    k = len(players)
    return (f"Note: every seat holds {players[0]}, so only effects of the seat and of the game's "
            f"length can show: each bot's win rate is 1/{k} = {_pct(1 / k)} by construction "
            "(not shown). To see how a rule treats skill, sweep a line-up of different bots.")


def show_sweep(option: str, runs: Sequence[tuple[str, SimResult]], console: Console) -> None:
    """One row per option value: seat 0's win rate and points and the game's length, each with
    its 95% interval, and each bot's win rate where the line-up has different bots."""
    name = option.partition("=")[0]
    first = runs[0][1]
    console.print(_heading(first, exclude=name, games=f"{first.n} games a value",
                           lead=f"sweep of {name}"), highlight=False)
    bots = list(dict.fromkeys(first.players)) if len(set(first.players)) > 1 else []
    table = Table(title=f"Sweep of {name} (each figure over its 95% interval)",
                  title_justify="left")
    table.add_column(name, no_wrap=True)
    for column in [f"{bot}\nwins" for bot in bots] + ["Seat 0\nwins", "Seat 0\npoints",
                                                      "Length\n(decisions)"]:
        table.add_column(column, justify="right", overflow="fold")  # never cut a figure
    for value, r in runs:
        tallies = {t.name: t for t in r.bots}
        seat = r.seats[0]
        table.add_row(value, *(_rate_cell(tallies[b]) for b in bots), _rate_cell(seat),
                      _mean_cell(seat.points), _mean_cell(r.decisions))
    console.print(table)
    note = same_bot_note(first.players)
    if note is not None:
        console.print(note, highlight=False)


def show_verdict(verdict: Verdict, console: Console) -> None:
    console.print(f"[bold]Until separated[/bold] — {verdict.text()}", highlight=False)


def _rate_cell(t: Tally) -> str:
    """A win rate over its interval (two lines, so that narrow terminals fit many columns)."""
    return f"{_pct(t.win_rate)}\n{_pct(t.low).rstrip('%')}–{_pct(t.high)}"


def _mean_cell(s: Summary) -> str:
    return f"{s.mean:.1f}\n{s.low:.1f}–{s.high:.1f}"


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


def _heading(r: SimResult, exclude: str | None = None, games: str | None = None,
             lead: str | None = None) -> str:
    info = game_class(r.game).info
    defaults = {o.name: o.default for o in info.options}
    changed = [f"{k}={_text(v)}" for k, v in r.options.items()
               if v != defaults.get(k) and k != exclude]
    parts = [f"[bold]{info.title}[/bold] ({r.game})", *([lead] if lead else []),
             games or f"{r.n} games", f"{len(r.players)} players: {', '.join(r.players)}",
             f"seed {r.seed}"]
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


def rate(x: float) -> str:
    """A speed (per second) that a slow run never shows as 0: whole numbers from 100 on,
    three significant digits below.

    >>> [rate(x) for x in (12345.6, 312.4, 42.42, 3.14159, 0.0345, 0.0)]
    ['12,346', '312', '42.4', '3.14', '0.0345', '0']
    """
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


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
    speed = (f"{r.n} games in {r.elapsed:.1f} s: {rate(r.games_per_s)} games/s, "
             f"{rate(r.decisions_per_s)} decisions/s ({workers})")
    lines = [length, first, ended, speed]
    if not r.is_balanced and len(set(r.players)) > 1:
        lines.insert(2, f"Note: {r.n} games is not a multiple of {len(r.players)} players, so "
                        "the rotation seats some bots once more than others; per-seat figures "
                        "lean slightly towards them.")
    return lines


__all__ = ["rate", "same_bot_note", "show", "show_league", "show_sweep", "show_verdict"]
