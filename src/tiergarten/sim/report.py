"""`--report DIR`: an HTML page with plots of a run, a tournament or a sweep.

The page (`index.html`) shows ratings with their intervals (openskill), the head-to-head win
matrix, the win rate by seat (first-player advantage), and the distributions of game length
and points; each plot is a PNG beside it, drawn with matplotlib (Agg, no display needed), and
the figures behind them are in `report.json`. Bots appear in level order (`by_level`), and
legends stand beside the plot, never over its bars.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from tiergarten.bots.levels import NAMES as LEVEL_NAMES  # noqa: E402

from .league import HeadToHead, Rating, _head_to_head, rate  # noqa: E402
from .tournament import SimResult  # noqa: E402

Labelled = Sequence[tuple[str, SimResult]]


def write_report(directory: Path | str, title: str, runs: Labelled,
                 ratings: dict[str, Rating] | None = None,
                 head_to_head: Sequence[HeadToHead] | None = None,
                 extra: dict[str, Any] | None = None) -> Path:
    """Write index.html, report.json and the plots into `directory`; return the page's path.

    `runs` are the labelled results to show (one plain run, a tournament's pairings, or one
    result per value of a sweep). Ratings and head-to-head figures are computed from the runs
    when not given.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    names = by_level(name for _, r in runs for name in r.players)
    if ratings is None:
        ratings = rate([r for _, r in runs], names)
    if head_to_head is None:
        k = len(runs[0][1].players)
        head_to_head = _head_to_head([r for _, r in runs], k)
    plots = [
        ("ratings.png", "Ratings (openskill, mu ± 2 sigma)", _ratings(ratings)),
        ("head_to_head.png", "Head-to-head: row's win rate per seat against column",
         _matrix(names, head_to_head)),
        ("seats.png", "Win rate by seat (95% intervals; dashed: fair share)", _seats(runs)),
        ("length.png", "Game length (decisions)", _lengths(runs)),
        ("points.png", "Points by bot", _points(runs)),
    ]
    sections = []
    for file, heading, fig in plots:
        if fig is None:
            continue
        fig.savefig(out / file, dpi=90, bbox_inches="tight")
        plt.close(fig)
        sections.append(f"<h2>{html.escape(heading)}</h2><img src='{file}' alt='{heading}'>")
    data = {"title": title, "ratings": {k: v.to_dict() for k, v in ratings.items()},
            "head_to_head": [h.to_dict() for h in head_to_head],
            "runs": [{"label": label, **r.to_dict()} for label, r in runs], **(extra or {})}
    (out / "report.json").write_text(json.dumps(data, indent=2, allow_nan=False),
                                     encoding="utf-8")
    page = out / "index.html"
    page.write_text(_page(title, runs, ratings, sections), encoding="utf-8")
    return page


def _page(title: str, runs: Labelled, ratings: dict[str, Rating], sections: list[str]) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{r.mu:.1f}</td><td>{r.low:.1f} – {r.high:.1f}"
        f"</td></tr>" for name, r in sorted(ratings.items(), key=lambda kv: -kv[1].mu))
    runs_rows = "".join(
        f"<tr><td>{html.escape(label)}</td><td>{html.escape(', '.join(r.players))}</td>"
        f"<td>{r.n}</td><td>{r.decisions.mean:.1f}</td>"
        f"<td>{100 * r.first_seat.win_rate:.1f}%</td></tr>" for label, r in runs)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2em .6em}}
img{{max-width:100%}}</style></head><body>
<h1>{html.escape(title)}</h1>
<h2>Ratings</h2><table><tr><th>Bot</th><th>mu</th><th>interval</th></tr>{rows}</table>
<h2>Runs</h2><table><tr><th>Run</th><th>Line-up</th><th>Games</th><th>Mean length</th>
<th>Seat 0 wins</th></tr>{runs_rows}</table>
{''.join(sections)}
<p>Figures: report.json. Every game replays from its seed (see docs/lab.md).</p>
</body></html>
"""


def by_level(names: Iterable[str]) -> list[str]:
    """Distinct names with the levels first, in level order, then the others as they came.

    >>> by_level(["random", "hard", "easy", "expert", "hard", "normal", "greedy"])
    ['easy', 'normal', 'hard', 'expert', 'random', 'greedy']
    """
    seen = list(dict.fromkeys(names))
    return [n for n in LEVEL_NAMES if n in seen] + [n for n in seen if n not in LEVEL_NAMES]


def legend_beside(ax: Any) -> None:
    """The legend to the right of the axes, where it hides no bar."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


def _ratings(ratings: dict[str, Rating]) -> Any:
    order = by_level(ratings)
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(order)))
    mus = [ratings[k].mu for k in order]
    ax.errorbar(mus, range(len(order)), xerr=[2 * ratings[k].sigma for k in order], fmt="o",
                capsize=4)
    ax.set_yticks(range(len(order)), order)
    ax.invert_yaxis()  # read top down, in level order
    ax.set_xlabel("rating (mu)")
    return fig


def _matrix(names: list[str], cells: Sequence[HeadToHead]) -> Any:
    if not cells:
        return None
    grid = [[math.nan] * len(names) for _ in names]
    for h in cells:
        grid[names.index(h.bot)][names.index(h.other)] = h.win_rate
    fig, ax = plt.subplots(figsize=(1.5 + 0.9 * len(names), 1 + 0.8 * len(names)))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if not math.isnan(value):
                ax.text(j, i, f"{value:.0%}", ha="center", va="center")
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_yticks(range(len(names)), names)
    fig.colorbar(image, ax=ax)
    return fig


def _seats(runs: Labelled) -> Any:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.8 / len(runs)
    for j, (label, r) in enumerate(runs):
        xs = [s + j * width for s in range(len(r.seats))]
        rates = [t.win_rate for t in r.seats]
        err = [[t.win_rate - t.low for t in r.seats], [t.high - t.win_rate for t in r.seats]]
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=label)
        ax.axhline(1 / len(r.seats), color="grey", linestyle="--", linewidth=0.8)
    k = max(len(r.seats) for _, r in runs)
    ax.set_xticks([s + 0.4 - width / 2 for s in range(k)], [f"seat {s}" for s in range(k)])
    ax.set_ylabel("win rate")
    if len(runs) > 1:
        legend_beside(ax)
    return fig


def _lengths(runs: Labelled) -> Any:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for label, r in runs:
        ax.hist([o.decisions for o in r.outcomes], bins=30, alpha=0.5, label=label)
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    if len(runs) > 1:
        legend_beside(ax)
    return fig


def _points(runs: Labelled) -> Any:
    by_bot: dict[str, list[float]] = {}
    for _, r in runs:
        for o in r.outcomes:
            for seat, name in enumerate(o.seats):
                by_bot.setdefault(name, []).append(o.scores[seat])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = by_level(by_bot)
    ax.boxplot([by_bot[n] for n in names])
    ax.set_xticks(range(1, len(names) + 1), names)
    ax.set_ylabel("points per game")
    return fig


def save_records(directory: Path | str, runs: Labelled) -> list[Path]:
    """Write every kept game record as `<run>-<game index>.json` (replay with `tiergarten
    replay`); runs planned without records are skipped."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for label, r in runs:
        stem = "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in label) or "run"
        for o in r.outcomes:
            if o.record is None:
                continue
            path = out / f"{stem}-{o.index:05d}.json"
            path.write_text(json.dumps(o.record, indent=1), encoding="utf-8")
            paths.append(path)
    return paths


__all__ = ["by_level", "legend_beside", "save_records", "write_report"]
