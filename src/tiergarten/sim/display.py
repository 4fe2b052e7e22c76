"""What `tiergarten simulate` prints on stdout: tables of a run, a tournament or a sweep.

Everything shown comes from the results (`SimResult`, `League`); nothing here plays a game.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Figure:
    """One figure of a sweep, per value: its estimate and 95% interval (rates are 0..1)."""

    name: str
    rate: bool  # a win rate (shown in percent) or a mean
    values: tuple[tuple[float, float, float], ...]  # per value: (estimate, low, high)

    @property
    def differs(self) -> bool:
        """True when the intervals of some two values do not overlap."""
        return any(a[2] < b[1] or b[2] < a[1] for a, b in itertools.combinations(self.values, 2))

    def cell(self, j: int) -> str:
        x, low, high = self.values[j]
        if self.rate:
            return f"{_pct(x)} ({_pct(low).rstrip('%')}–{_pct(high)})"
        return f"{x:.1f} ({low:.1f}–{high:.1f})"


def sweep_figures(runs: Sequence[tuple[str, SimResult]]) -> list[Figure]:
    """The figures a sweep compares, per value: each bot's win rate (line-ups of different
    bots), seat 0's win rate and points, the length, and the designer's lead changes a game
    and comeback rate."""
    first = runs[0][1]
    bots = list(dict.fromkeys(first.players)) if len(set(first.players)) > 1 else []
    out = []
    for bot in bots:
        tallies = [next(t for t in r.bots if t.name == bot) for _, r in runs]
        out.append(Figure(f"{bot} wins", True, tuple((t.win_rate, t.low, t.high)
                                                     for t in tallies)))
    out.append(Figure("seat 0 wins", True, tuple((r.seats[0].win_rate, r.seats[0].low,
                                                  r.seats[0].high) for _, r in runs)))
    out.append(Figure("seat 0 points", False, tuple(_span(r.seats[0].points) for _, r in runs)))
    out.append(Figure("length (decisions)", False, tuple(_span(r.decisions) for _, r in runs)))
    leads = [r.designer.lead_changes if r.designer else None for _, r in runs]
    if all(x is not None for x in leads):
        out.append(Figure("lead changes a game", False,
                          tuple(_span(x) for x in leads if x is not None)))
    backs = [r.designer.comebacks if r.designer else None for _, r in runs]
    if all(x is not None for x in backs):
        out.append(Figure("comebacks", True, tuple((x.rate, x.low, x.high) for x in backs
                                                   if x is not None)))
    return out


def _span(s: Summary) -> tuple[float, float, float]:
    return (s.mean, s.low, s.high)


def sweep_notes(option: str, runs: Sequence[tuple[str, SimResult]]) -> list[str]:
    """What to say under a sweep: that its values played the very same games, or that no
    figure differs beyond its interval, and the one-bot warning."""
    notes = []
    name = option.partition("=")[0]
    first = runs[0][1]
    same = all(_games(r) == _games(first) for _, r in runs[1:])
    if same:
        notes.append(f"The values of {name} change nothing here: every one of the {first.n:,} "
                     "games went exactly the same under each value.")
    elif not any(f.differs for f in sweep_figures(runs)):
        notes.append(f"No figure differs between the values of {name} beyond its 95% interval "
                     f"({first.n:,} games a value): no effect shows at this size; a smaller "
                     "one may need more games.")
    note = same_bot_note(first.players)
    if note is not None:
        notes.append(note)
    return notes


def _games(r: SimResult) -> list[tuple[Any, ...]]:
    return [(o.seats, o.scores, o.winners, o.decisions) for o in r.outcomes]


def show_sweep(option: str, runs: Sequence[tuple[str, SimResult]], console: Console) -> None:
    """One column per value (or, where the columns do not fit the terminal, one row per value
    and figure): every figure over its 95% interval, never split across lines."""
    name = option.partition("=")[0]
    first = runs[0][1]
    console.print(_heading(first, exclude=name, games=f"{first.n} games a value",
                           lead=f"sweep of {name}"), highlight=False)
    figures = sweep_figures(runs)
    values = [value for value, _ in runs]
    title = f"Sweep of {name} (each figure over its 95% interval)"
    label = max(len(f.name) for f in figures) + 2 + 4  # " *" and the borders
    wide = label + sum(max(max(len(f.cell(j)) for f in figures), len(f"{name}={v}")) + 3
                       for j, v in enumerate(values))
    if wide <= console.width:
        table = Table(title=title, title_justify="left")
        table.add_column("figure", no_wrap=True)
        for value in values:
            table.add_column(f"{name}={value}", justify="right", no_wrap=True)
        for f in figures:
            table.add_row(f.name + (" *" if f.differs else ""),
                          *(f.cell(j) for j in range(len(runs))))
    else:
        table = Table(title=title, title_justify="left")
        for column in ("figure", name, "estimate (95%)"):
            table.add_column(column, no_wrap=True, justify="right" if column != "figure"
                             else "left")
        for f in figures:
            for j, value in enumerate(values):
                table.add_row(f.name + (" *" if f.differs else "") if j == 0 else "", value,
                              f.cell(j), end_section=j == len(values) - 1)
    console.print(table)
    if any(f.differs for f in figures):
        console.print("* the intervals of some two values do not overlap", highlight=False)
    for note in sweep_notes(option, runs):
        console.print(note, highlight=False)


def show_verdict(verdict: Verdict, console: Console) -> None:
    console.print(f"[bold]Until separated[/bold] — {verdict.text()}", highlight=False)


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
    for line in designer_lines(result):
        console.print(line, highlight=False)


def designer_lines(r: SimResult, top: int = 8) -> list[str]:
    """The designer's figures of a run in words (docs/lab.md defines each)."""
    d = r.designer
    if d is None:
        return []
    lines = []
    if d.lead_changes is not None:
        s = d.lead_changes
        parts = [f"Lead (by {d.standing}): {s.mean:.2f} lead changes a game (95% {s.low:.2f} "
                 f"– {s.high:.2f})"]
        if d.comebacks is not None:
            c = d.comebacks
            parts.append(f"comebacks {_pct(c.rate)} (95% {_pct(c.low)} – {_pct(c.high)})")
        if d.kingmaking is not None:
            k = d.kingmaking
            parts.append(f"kingmaking {_pct(k.rate)} (95% {_pct(k.low)} – {_pct(k.high)})")
        lines.append("; ".join(parts))
    waits = ", ".join("–" if w is None else f"{w.mean:.1f}" for w in d.downtime)
    lines.append(f"Downtime (the others' decisions between two turns, mean a game) by seat: "
                 f"{waits}; longest wait {d.longest_wait}")
    used = ", ".join(f"{u.key} {u.per_game.mean:.1f} ({_pct(u.share)})" for u in d.usage[:top])
    lines.append(f"Most used (a game, share of decisions): {used}")
    return lines


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


__all__ = ["Figure", "designer_lines", "rate", "same_bot_note", "show", "show_league", "show_sweep",
           "show_verdict", "sweep_figures", "sweep_notes"]
