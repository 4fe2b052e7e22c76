"""What every balance study shares: a markdown page with tables and PNG plots, win rates by
position at the table, and the words for an interval against a fair share.

A page holds nothing that changes from run to run (no times, no dates), so regenerating a
study with the same rules rewrites the same page.

>>> t = rate_tally("seat 0", [1, 0, 0, 1, 0, 0])
>>> cell(t), against(t, 1 / 3)
('33.3% (9.7–70.0%)', 'within the fair share 33.3%')
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from tiergarten.core import load  # noqa: E402

from ..measures import Rate  # noqa: E402
from ..report import legend_beside  # noqa: E402
from ..stats import Summary  # noqa: E402
from ..tournament import SimResult, Tally  # noqa: E402

FirstPlayer = Callable[[dict[str, Any]], int]  # initial public observation -> seat


class Page:
    """A markdown page being written into `out`, with its figures beside it."""

    def __init__(self, out: Path | None, title: str) -> None:
        self.out = out  # None: figures only, no files (the quick form's check)
        self.lines = [f"# {title}", ""]
        self.figures: dict[str, Any] = {}
        self.plots: list[str] = []  # the PNG files drawn, in order

    def text(self, *paragraphs: str) -> None:
        for paragraph in paragraphs:
            self.lines += [paragraph, ""]

    def heading(self, title: str, level: int = 2) -> None:
        self.lines += [f"{'#' * level} {title}", ""]

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        self.lines.append("| " + " | ".join(header) + " |")
        self.lines.append("|" + "|".join("---" for _ in header) + "|")
        self.lines += ["| " + " | ".join(row) + " |" for row in rows]
        self.lines.append("")

    def plot(self, fig: Any, file: str, alt: str) -> None:
        """Save `fig` as `file` beside the page and show it there."""
        if self.out is not None:
            fig.savefig(self.out / file, dpi=90, bbox_inches="tight",
                        metadata={"Software": None})  # no version stamp: same bytes next time
        plt.close(fig)
        self.plots.append(file)
        self.lines += [f"![{alt}]({file})", ""]

    def keep(self, key: str, value: Any) -> None:
        """A figure for figures.json, the numbers behind the page."""
        self.figures[key] = value

    def write(self) -> Path:
        assert self.out is not None, "a page of figures only is not written"
        self.out.mkdir(parents=True, exist_ok=True)
        page = self.out / "README.md"
        page.write_text("\n".join(self.lines).rstrip() + "\n", encoding="utf-8")
        self._forget_plots()
        (self.out / "figures.json").write_text(
            json.dumps({**self.figures, "plots": self.plots}, indent=1, allow_nan=False)
            + "\n", encoding="utf-8")
        return page

    def _forget_plots(self) -> None:
        """Remove the plots an earlier page of this folder drew and this one does not (the
        old figures.json lists them), so no stale picture stays beside the page."""
        assert self.out is not None
        try:
            old = json.loads((self.out / "figures.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        for file in old.get("plots", []) if isinstance(old, dict) else []:
            if file not in self.plots and Path(file).name == file and file.endswith(".png"):
                (self.out / file).unlink(missing_ok=True)


# -- figures --------------------------------------------------------------------------------

def rate_tally(name: str, shares: Sequence[float]) -> Tally:
    """A win-rate tally of one position (no points)."""
    return Tally.of(name, shares, [0.0] * len(shares))


def by_position(r: SimResult, first_player: FirstPlayer) -> list[Tally]:
    """Win rates by position at the table, counted clockwise from the game's first player
    (read from the public observation of the game's initial state)."""
    k = len(r.players)
    game = load(r.game, k, rules=r.rules, **r.options)
    shares: list[list[float]] = [[] for _ in range(k)]
    for o in r.outcomes:
        first = first_player(game.new_state(r.seed + o.index).observe(None))
        for seat in range(k):
            shares[(seat - first) % k].append(o.win_share(seat))
    return [rate_tally(str(p), s) for p, s in enumerate(shares)]


def game_points(r: SimResult) -> Summary:
    """Points scored in a game, all seats together."""
    return Summary.of([math.fsum(o.scores) for o in r.outcomes])


def cell(t: Tally) -> str:
    return f"{t.win_rate:.1%} ({100 * t.low:.1f}–{t.high:.1%})"


def mean_cell(s: Summary, digits: int = 1) -> str:
    return f"{s.mean:.{digits}f} ({s.low:.{digits}f}–{s.high:.{digits}f})"


def against(t: Tally, fair: float) -> str:
    """Where a win rate's interval lies against a fair share."""
    where = "above" if t.low > fair else "below" if t.high < fair else "within"
    return f"{where} the fair share {fair:.1%}"


def apart(a: Tally | Summary, b: Tally | Summary) -> bool:
    """True when two 95% intervals do not overlap."""
    return a.high < b.low or b.high < a.low


def strip_timing(r: SimResult) -> dict[str, Any]:
    """A result's figures without its timing (which changes from run to run)."""
    data = r.to_dict()
    del data["timing"]
    return data


def rate_cell(r: Rate | None) -> str:
    return "–" if r is None else f"{r.rate:.1%} ({100 * r.low:.1f}–{r.high:.1%})"


def designer_section(page: Page, rows: Sequence[tuple[str, SimResult]], first: str,
                     top: int = 10) -> None:
    """Lead changes, comebacks, kingmaking and downtime per line-up, then how often each
    action or card is used (docs/lab.md defines each measure)."""
    standing = next((r.designer.standing for _, r in rows
                     if r.designer is not None and r.designer.standing), None)
    page.text("Read from each game's public record after every turn (a run of decisions by "
              f"one seat): the leader is the one seat strictly best by {standing or 'score'}; "
              "a lead change is a new leader; a comeback, a winner who was alone in last "
              "place after some turn; kingmaking (three or more seats), the winner's last "
              "taking of the lead made by a third seat's turn; downtime, the decisions the "
              "others take between two turns of a seat (mean per game, seat by seat). "
              "Definitions: docs/lab.md.")
    table, kept = [], {}
    for label, r in rows:
        d = r.designer
        if d is None:
            continue
        waits = "; ".join("–" if w is None else f"{w.mean:.1f}" for w in d.downtime)
        table.append([label, f"{r.n:,}",
                      "–" if d.lead_changes is None else mean_cell(d.lead_changes, 2),
                      rate_cell(d.comebacks), rate_cell(d.kingmaking), waits,
                      str(d.longest_wait)])
        kept[label] = {k: v for k, v in d.to_dict().items() if k != "usage"}
    page.table([first, "games", "lead changes a game (95%)", "comebacks (95%)",
                "kingmaking (95%)", "downtime by seat (decisions)", "longest wait"], table)
    totals: dict[str, int] = {}
    for _, r in rows:
        for u in (r.designer.usage if r.designer else ()):
            totals[u.key] = totals.get(u.key, 0) + u.uses
    keys = sorted(totals, key=lambda key: (-totals[key], key))[:top]
    usage = []
    for key in keys:
        cells = []
        for _, r in rows:
            use = next((u for u in (r.designer.usage if r.designer else ()) if u.key == key),
                       None)
            cells.append("–" if use is None else f"{use.per_game.mean:.2f} ({use.share:.1%})")
        usage.append([f"`{key}`", *cells])
    page.text(f"How often each action (its first word) or card is used: uses a game (share of "
              f"all decisions), the {len(keys)} most used:")
    page.table(["used", *[label for label, _ in rows]], usage)
    page.keep("designer", {"measures": kept, "usage": {
        label: {u.key: u.to_dict() for u in r.designer.usage} for label, r in rows
        if r.designer is not None}})


# -- plots ----------------------------------------------------------------------------------

def advantage_bars(ax: Any, groups: Sequence[str], series: Mapping[str, Sequence[Tally]],
                   fair: Sequence[float], legend: bool = True) -> None:
    """Grouped bars of win rates above (or below) each group's fair share, in percentage
    points, with their 95% intervals; the legend beside the axes."""
    width = 0.8 / max(1, len(series))
    for j, (label, tallies) in enumerate(series.items()):
        xs = [g + (j - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [100 * (t.win_rate - f) for t, f in zip(tallies, fair, strict=True)], width,
               yerr=[[100 * (t.win_rate - t.low) for t in tallies],
                     [100 * (t.high - t.win_rate) for t in tallies]], capsize=3, label=label)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("win rate − fair share (pp, 95%)")
    if legend and len(series) > 1:
        legend_beside(ax)


def mean_points(ax: Any, xs: Sequence[float], series: Mapping[str, Sequence[Summary]],
                label: str) -> None:
    """Means with their 95% intervals as points joined by lines, one line per series."""
    for name, values in series.items():
        ax.errorbar(xs, [s.mean for s in values],
                    yerr=[[s.mean - s.low for s in values], [s.high - s.mean for s in values]],
                    fmt="o-", capsize=3, label=name)
    ax.set_ylabel(label)
    if len(series) > 1:
        legend_beside(ax)


def figure(width: float = 6.5, height: float = 3.4) -> tuple[Any, Any]:
    return plt.subplots(figsize=(width, height))


def panels(count: int) -> tuple[Any, list[Any]]:
    """A figure of `count` plots side by side."""
    fig, axes = plt.subplots(1, count, figsize=(5 * count, 3.4), squeeze=False)
    return fig, list(axes[0])


def pair() -> tuple[Any, tuple[Any, Any]]:
    """A figure of two plots side by side."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    return fig, (axes[0], axes[1])


__all__ = ["Page", "advantage_bars", "against", "apart", "by_position", "cell",
           "designer_section", "figure", "game_points", "mean_cell", "mean_points", "pair",
           "panels", "rate_cell", "rate_tally", "strip_timing"]
