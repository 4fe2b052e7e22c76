"""Running a study: its line-ups in one pool, files written as line-ups finish, and the page.

- **The exact bots and rules.** A page and its `figures.json` say which rules version each
  line-up played and what every bot name stood for (`bot_definition`: the class and its
  parameters), so a level redefined later cannot pass for the one the study measured.
- **Sizes.** The full study plays each line-up's own count; `-n N` plays N games per line-up
  (rounded to whole rotations of the table), `--quick` the study's `QUICK` count.
- **As it goes.** Whenever a line-up's last game is in, `figures.json` and the page are
  rewritten with the line-ups done so far (marked partial), so an interrupted study leaves
  what it found; the finished page then replaces them.
- **The check.** Game `i` of a line-up is the same game at any size, so the full study also
  works out the figures of the quick form from its first games (`figures.json`, `quick`):
  re-running `tiergarten study GAME --quick` must give exactly those figures, or the committed
  study is stale (tests/sim/test_sim_studies.py does this for every study).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from tiergarten.core import game_class

from ..pool import Estimate, execute_many
from ..tournament import Plan, Progress, SimResult, bot_definition, summarise
from .page import Page, strip_timing

DEFAULT_QUICK = 60  # games per line-up of a study's quick form, unless it says otherwise

Games = Callable[[int, int], int]  # (games asked for, players) -> games played


def games_for(scale: float) -> Games:
    """How many games a line-up plays: its count times `scale` (1 for the real study, less
    in tests), rounded to a whole number of rotations of the table."""
    def games(n: int, players: int) -> int:
        return max(players, players * round(n * scale / players))
    return games


def games_each(n: int) -> Games:
    """Every line-up `n` games, rounded to a whole number of rotations of its table.

    >>> g = games_each(50)
    >>> g(12_000, 2), g(12_000, 3), g(400, 4), g(1, 7)
    (50, 51, 48, 49)
    """
    def games(_: int, players: int) -> int:
        return max(players, players * round(n / players))
    return games


def quick_n(module: ModuleType) -> int:
    return int(getattr(module, "QUICK", DEFAULT_QUICK))


def made_with(lines: dict[str, Plan]) -> dict[str, Any]:
    """The exact make of a study: seed, the rules version and games of every line-up, and
    what each bot name stood for."""
    bots: dict[str, str] = {}
    for p in lines.values():
        for name in dict.fromkeys(p.players):
            key = f"{p.game}:{name}"
            if key not in bots:
                bots[key] = bot_definition(p.game, name, len(p.players), p.rules)
    rules = sorted({p.rules for p in lines.values() if p.rules is not None})
    return {"seeds": sorted({p.seed for p in lines.values()}), "rules": rules,
            "bots": dict(sorted(bots.items())),
            "games": {key: p.n for key, p in lines.items()}}


def figures(module: ModuleType, game: str, lines: dict[str, Plan],
            results: dict[str, SimResult], page: Page) -> None:
    """Write a study's sections into `page` (its figures into `page.figures`)."""
    page.keep("made_with", made_with(lines))
    module.write(results, page)


def quick_figures(module: ModuleType, game: str, lines: dict[str, Plan],
                  results: dict[str, SimResult]) -> dict[str, Any]:
    """The figures the quick form would write, from the first games of the full line-ups."""
    each = games_each(quick_n(module))
    small = {key: replace(p, n=min(p.n, each(p.n, len(p.players)))) for key, p in lines.items()}
    prefix = {key: summarise(small[key], results[key].outcomes[:small[key].n], 0.0)
              for key in lines}
    scratch = Page(None, "")
    figures(module, game, small, prefix, scratch)
    return scratch.figures


def run(game: str, module: ModuleType, lines: dict[str, Plan], folder: Path, preamble: str,
        check: bool, progress: Progress | None = None,
        estimate: Callable[[Estimate], None] | None = None) -> tuple[Path, float]:
    """Play a study's line-ups, writing partial files as they finish, then its page; `check`
    adds the quick form's figures (when every line-up has at least its games)."""
    began = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    title = f"{game_class(game).info.title}: a balance study"
    keys = list(lines)
    done: dict[str, SimResult] = {}

    def finished(j: int, result: SimResult) -> None:
        done[keys[j]] = result
        _partial(folder, title, preamble, lines, done)

    results = execute_many(list(lines.values()), progress, estimate=estimate,
                           finished=finished)
    by_key: dict[str, SimResult] = dict(zip(keys, results, strict=True))
    page = Page(folder, title)
    page.text(preamble)
    figures(module, game, lines, by_key, page)
    _bots(page, page.figures["made_with"])
    each = games_each(quick_n(module))
    if check and all(p.n >= each(p.n, len(p.players)) for p in lines.values()):
        page.keep("quick", quick_figures(module, game, lines, by_key))
    return page.write(), time.perf_counter() - began


def _bots(page: Page, made: dict[str, Any]) -> None:
    page.heading("The bots and rules")
    rules = ", ".join(str(r) for r in made["rules"])
    page.text(f"Played under rules version {rules} (`tiergarten.load(..., rules=N)`). Each "
              "name stood for this bot (its class and parameters; a level's name can be given "
              "to another bot later, this cannot):")
    page.table(["name", "bot"], [[f"`{key.partition(':')[2]}`", f"`{text}`"]
                                 for key, text in made["bots"].items()])


def _partial(folder: Path, title: str, preamble: str, lines: dict[str, Plan],
             done: dict[str, SimResult]) -> None:
    """The files of a study still being run: the line-ups done so far."""
    page = [f"# {title} (being run)", "",
            f"Partial: {len(done)} of {len(lines)} line-ups done; this page is replaced when "
            "the study finishes.", "", preamble, "",
            "| line-up | bots | games | seat 0 wins (95%) | length (decisions, 95%) |",
            "|---|---|---|---|---|"]
    for key in lines:
        if key in done:
            r = done[key]
            s = r.seats[0]
            page.append(f"| {key} | {', '.join(r.players)} | {r.n:,} | {s.win_rate:.1%} "
                        f"({100 * s.low:.1f}–{s.high:.1%}) | {r.decisions.mean:.1f} "
                        f"({r.decisions.low:.1f}–{r.decisions.high:.1f}) |")
    (folder / "README.md").write_text("\n".join(page) + "\n", encoding="utf-8")
    data = {"partial": True, "done": len(done), "lines": len(lines),
            "results": {key: strip_timing(done[key]) for key in lines if key in done}}
    (folder / "figures.json").write_text(json.dumps(data, indent=1, allow_nan=False) + "\n",
                                         encoding="utf-8")


__all__ = ["DEFAULT_QUICK", "games_each", "games_for", "made_with", "quick_figures",
           "quick_n", "run"]
