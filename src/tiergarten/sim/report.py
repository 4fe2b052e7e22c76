"""`--report DIR`: an HTML page with plots of a run, a tournament or a sweep.

The page (`index.html`) shows, as the run calls for them: the `--until-separated` verdict
with its intervals; a sweep's table of every figure over its 95% interval per value, and a
word when the values change nothing; ratings with their intervals (openskill, when two bots
or more meet outside a sweep); the head-to-head matrix, every cell with its interval and n;
the win rate by seat (first-player advantage); game length as a CDF with its percentiles;
points; and the designer's figures (lead changes, comebacks, kingmaking, downtime, usage).
Each plot is a PNG beside it, drawn with matplotlib (Agg, no display needed), with its alt
text; the figures behind them are in `report.json`. Bots appear in level order
(`by_level`), and legends stand beside the plot, never over its bars.
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

from .display import sweep_figures, sweep_notes  # noqa: E402
from .league import HeadToHead, Rating, _head_to_head, rate  # noqa: E402
from .separation import Verdict  # noqa: E402
from .tournament import SimResult  # noqa: E402

Labelled = Sequence[tuple[str, SimResult]]
PERCENTILES = (10, 25, 50, 75, 90)


def write_report(directory: Path | str, title: str, runs: Labelled,
                 ratings: dict[str, Rating] | None = None,
                 head_to_head: Sequence[HeadToHead] | None = None,
                 extra: dict[str, Any] | None = None, sweep: str | None = None,
                 verdict: Verdict | None = None) -> Path:
    """Write index.html, report.json and the plots into `directory`; return the page's path.

    `runs` are the labelled results to show (one plain run, a tournament's pairings, or one
    result per value of a sweep: then `sweep` is its option, and the labels `option=value`).
    Ratings and head-to-head figures are computed from the runs when not given; a sweep and
    a run of one bot show none (each value would be rated as the same bot). `verdict` is the
    `--until-separated` answer, shown first.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    names = by_level(name for _, r in runs for name in r.players)
    rated = sweep is None and len(names) > 1
    if ratings is None:
        ratings = rate([r for _, r in runs], names) if rated else {}
    if head_to_head is None:
        k = len(runs[0][1].players)
        head_to_head = _head_to_head([r for _, r in runs], k) if sweep is None else ()
    sections: list[str] = []
    if verdict is not None:
        sections.append(_verdict(verdict))
    if sweep is not None:
        sections.append(_sweep(sweep, runs))
    if rated and ratings:
        sections.append(_ratings_table(ratings))
    plots = [
        ("ratings.png", "Ratings (openskill, mu ± 2 sigma)",
         _ratings(ratings) if rated and ratings else None, ""),
        ("head_to_head.png", "Head to head: the row's win rate per seat-game against the "
         "column, with its 95% interval and n", _matrix(names, head_to_head),
         _head_to_head_table(head_to_head)),
        ("seats.png", "Win rate by seat (95% intervals; dashed: fair share)", _seats(runs), ""),
        ("length.png", "Game length: the share of games at most so many decisions (CDF)",
         _lengths(runs), _percentiles(runs)),
        ("points.png", "Points by bot", _points(runs), ""),
    ]
    for file, heading, fig, after in plots:
        if fig is None:
            continue
        fig.savefig(out / file, dpi=90, bbox_inches="tight")
        plt.close(fig)
        sections.append(f"<h2>{_e(heading)}</h2>\n<img src=\"{_e(file)}\" alt=\"{_e(heading)}\">"
                        + after)
    sections.append(_designer(runs))
    data = {"title": title, "ratings": {k: v.to_dict() for k, v in ratings.items()},
            "head_to_head": [h.to_dict() for h in head_to_head],
            "runs": [{"label": label, **r.to_dict()} for label, r in runs], **(extra or {})}
    if sweep is not None:
        data["sweep"] = {"option": sweep, "notes": sweep_notes(sweep, _values(runs)),
                         "differs": {f.name: f.differs for f in sweep_figures(runs)}}
    if verdict is not None:
        data["until_separated"] = verdict.to_dict()
    (out / "report.json").write_text(json.dumps(data, indent=2, allow_nan=False),
                                     encoding="utf-8")
    page = out / "index.html"
    page.write_text(_page(title, runs, sections), encoding="utf-8")
    return page


def _e(text: object) -> str:
    """Text for HTML, quotes too (it goes into attributes as well as cells)."""
    return html.escape(str(text), quote=True)


def _table(header: Sequence[str], rows: Iterable[Sequence[object]], caption: str = "",
           cls: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    cap = f"<caption>{_e(caption)}</caption>" if caption else ""
    klass = f' class="{_e(cls)}"' if cls else ""
    return f"<table{klass}>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _rate(x: float, low: float, high: float) -> str:
    return f"{x:.1%} ({100 * low:.1f}–{high:.1%})"


def _values(runs: Labelled) -> list[tuple[str, SimResult]]:
    return [(label.partition("=")[2] or label, r) for label, r in runs]


def _verdict(v: Verdict) -> str:
    q = v.question
    rows = [(i.label, _pct(i.value), "–" if i.low == i.high else
             f"{100 * i.low:.1f}–{i.high:.1%}") for i in q.intervals]
    still = "".join(f"<li>{_e(a.label)} and {_e(b.label)}</li>" for a, b in q.overlapping)
    verdict = "separated" if v.separated else "not separated"
    return (f"<h2>Until separated: {_e(verdict)}</h2>\n<p class=\"verdict\">{_e(v.text())}</p>"
            + _table(["figure", "estimate", "interval"], rows,
                     f"The question's intervals at the last look: {v.level}", "verdict")
            + (f"<p>Still overlapping:</p><ul>{still}</ul>" if still else ""))


def _sweep(option: str, runs: Labelled) -> str:
    figures = sweep_figures(runs)
    values = [label for label, _ in runs]
    rows = [[f.name + (" *" if f.differs else ""), *(f.cell(j) for j in range(len(runs)))]
            for f in figures]
    notes = sweep_notes(option, _values(runs))
    star = ("<p>* the intervals of some two values do not overlap.</p>"
            if any(f.differs for f in figures) else "")
    return (f"<h2>Sweep of {_e(option)}</h2>\n"
            + _table(["figure", *values], rows,
                     f"Every figure over its 95% interval, {runs[0][1].n:,} games a value",
                     "sweep")
            + star + "".join(f"<p class=\"note\">{_e(n)}</p>" for n in notes))


def _ratings_table(ratings: dict[str, Rating]) -> str:
    rows = [(name, f"{r.mu:.1f}", f"{r.low:.1f} – {r.high:.1f}")
            for name, r in sorted(ratings.items(), key=lambda kv: -kv[1].mu)]
    return "<h2>Ratings</h2>\n" + _table(["bot", "mu", "interval (mu ± 2 sigma)"], rows)


def _head_to_head_table(cells: Sequence[HeadToHead]) -> str:
    rows = [(h.bot, h.other, f"{h.games:,}", _rate(h.win_rate, h.low, h.high), _pct(h.fair))
            for h in cells]
    return _table(["bot", "against", "seat-games (n)", "win rate (95%)", "fair"], rows,
                  "Head to head", "head-to-head") if rows else ""


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile, nearest rank (a game's length, never between two)."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def _percentiles(runs: Labelled) -> str:
    rows = []
    for label, r in runs:
        xs = sorted(o.decisions for o in r.outcomes)
        rows.append([label, f"{len(xs):,}", *(f"{_percentile(xs, q):.0f}" for q in PERCENTILES),
                     f"{xs[-1]:.0f}", f"{r.decisions.mean:.1f} ({r.decisions.low:.1f}–"
                     f"{r.decisions.high:.1f})"])
    return _table(["run", "games", *(f"p{q}" for q in PERCENTILES), "longest",
                   "mean (95%)"], rows, "Game length in decisions: percentiles", "lengths")


def _designer(runs: Labelled) -> str:
    rows: list[list[str]] = []
    keys: dict[str, int] = {}
    for label, r in runs:
        d = r.designer
        if d is None:
            continue
        rows.append([label, f"{r.n:,}",
                     "–" if d.lead_changes is None else
                     f"{d.lead_changes.mean:.2f} ({d.lead_changes.low:.2f}–"
                     f"{d.lead_changes.high:.2f})",
                     "–" if d.comebacks is None else
                     _rate(d.comebacks.rate, d.comebacks.low, d.comebacks.high),
                     "–" if d.kingmaking is None else
                     _rate(d.kingmaking.rate, d.kingmaking.low, d.kingmaking.high),
                     "; ".join("–" if w is None else f"{w.mean:.1f}" for w in d.downtime),
                     str(d.longest_wait)])
        for u in d.usage:
            keys[u.key] = keys.get(u.key, 0) + u.uses
    if not rows:
        return ""
    top = sorted(keys, key=lambda key: (-keys[key], key))[:12]
    usage = []
    for key in top:
        cells = []
        for _, r in runs:
            use = next((u for u in (r.designer.usage if r.designer else ()) if u.key == key),
                       None)
            cells.append("–" if use is None else f"{use.per_game.mean:.2f} ({use.share:.1%})")
        usage.append([key, *cells])
    standing = next((r.designer.standing for _, r in runs
                     if r.designer is not None and r.designer.standing), None)
    return ("<h2>What designers ask next</h2>\n"
            f"<p>From each game's public record after every turn; the leader is the one seat "
            f"strictly best by {_e(standing or 'score')} (docs/lab.md defines every "
            "measure).</p>"
            + _table(["run", "games", "lead changes a game (95%)", "comebacks (95%)",
                      "kingmaking (95%)", "downtime by seat (others' decisions)",
                      "longest wait"], rows, "Lead, comebacks, kingmaking, downtime",
                     "designer")
            + _table(["used", *[label for label, _ in runs]], usage,
                     "Uses a game (share of all decisions): actions by their first word, "
                     "and cards", "usage"))


def _page(title: str, runs: Labelled, sections: list[str]) -> str:
    rows = [(label, ", ".join(r.players), f"{r.n:,}", str(r.rules or "–"),
             f"{r.decisions.mean:.1f}", _rate(r.first_seat.win_rate, r.seats[0].low,
                                              r.seats[0].high)) for label, r in runs]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>
<style>body{{font-family:sans-serif;max-width:64em;margin:2em auto}}
table{{border-collapse:collapse;margin:.5em 0}}td,th{{border:1px solid #ccc;padding:.2em .6em}}
td{{white-space:nowrap}}caption{{text-align:left;font-style:italic}}
img{{max-width:100%}}.verdict{{font-weight:bold}}</style></head><body>
<h1>{_e(title)}</h1>
<h2>Runs</h2>
{_table(["run", "line-up", "games", "rules", "mean length", "seat 0 wins (95%)"], rows)}
{chr(10).join(s for s in sections if s)}
<p>Figures: report.json. Every game replays from its seed (see docs/lab.md).</p>
</body></html>
"""


def fragment(page: str, files: str = "") -> str:
    """The body of a report's page (what `_page` wrote) for showing inside another page: no
    head, no style; its pictures' addresses prefixed with `files` (where the PNGs are served).

    >>> fragment('<html><head><style>b{}</style></head><body>\\n<h1>T</h1>'
    ...          '<img src="seats.png" alt="a"></body></html>', "runs/1/")
    '<h1>T</h1><img src="runs/1/seats.png" alt="a">'
    """
    body = page.partition("<body>")[2].rpartition("</body>")[0].strip()
    return body.replace('<img src="', f'<img src="{html.escape(files, quote=True)}')


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
    """The head-to-head matrix: each cell the row's win rate against the column, with its 95%
    interval and its seat-games n."""
    if not cells:
        return None
    grid = [[math.nan] * len(names) for _ in names]
    for h in cells:
        grid[names.index(h.bot)][names.index(h.other)] = h.win_rate
    size = 1.6 * len(names)
    fig, ax = plt.subplots(figsize=(2.2 + size, 1.2 + 0.8 * size))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    for h in cells:
        ax.text(names.index(h.other), names.index(h.bot),
                f"{h.win_rate:.0%}\n{100 * h.low:.0f}–{h.high:.0%}\nn={h.games:,}",
                ha="center", va="center", fontsize="small")
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("against")
    ax.set_ylabel("bot")
    fig.colorbar(image, ax=ax, label="win rate per seat-game")
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
    """Game length as an empirical CDF per run: overlaid lines stay readable where overlaid
    histograms do not; dotted lines mark the quartiles."""
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for label, r in runs:
        xs = sorted(o.decisions for o in r.outcomes)
        ys = [(i + 1) / len(xs) for i in range(len(xs))]
        ax.step(xs, ys, where="post", label=label)
    for q in (0.25, 0.5, 0.75):
        ax.axhline(q, color="grey", linestyle=":", linewidth=0.8)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("share of games (at most)")
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


__all__ = ["by_level", "fragment", "legend_beside", "save_records", "write_report"]
