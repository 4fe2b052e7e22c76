"""Balance studies: one command per game plays every line-up the study needs and writes a
short page with tables and plots (`tiergarten study GAME`, see docs/lab.md).

A game's study is found by convention, as its other faces are: the module
`tiergarten/sim/studies/<game id>.py` (docs/architecture.md, "Adding a game"), which names its
line-ups (`lines`: key -> plan, seeded by `SEED`) and turns their results into a page (`write`).
All line-ups of a study play in one pool, so a study uses every worker; the figures depend only
on the seed and the rules, never on the number of workers, and the page holds no times or
dates: regenerating a study overwrites the same files with the same bytes until a rule changes.

>>> len(studies()) >= 4 and all(game in games() for game in studies())
True
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from tiergarten.core import game_class, games

from ..pool import Estimate, execute_many
from ..tournament import Plan, Progress, SimResult
from .page import Page

SEED = 1

Games = Callable[[int, int], int]  # (games asked for, players) -> games played


def studies() -> tuple[str, ...]:
    """Every registered game that has a study: a module of this package named by its id."""
    return tuple(sorted(g for g in games() if importlib.util.find_spec(f"{__name__}.{g}")))


def study_module(game: str) -> ModuleType:
    if game not in studies():
        raise ValueError(f"no study of {game!r}; allowed: {', '.join(studies())}")
    return importlib.import_module(f"{__name__}.{game}")


def games_for(scale: float) -> Games:
    """How many games a line-up plays: its count times `scale` (1 for the real study, less
    in tests), rounded to a whole number of rotations of the table."""
    def games(n: int, players: int) -> int:
        return max(players, players * round(n * scale / players))
    return games


def plan_study(game: str, workers: int | None = None,
               scale: float = 1.0) -> tuple[ModuleType, dict[str, Plan]]:
    """The study's module and its checked line-ups."""
    module = study_module(game)
    return module, module.lines(games_for(scale), workers)


def run_study(game: str, out: Path | str | None = None, workers: int | None = None,
              scale: float = 1.0, progress: Progress | None = None,
              estimate: Callable[[Estimate], None] | None = None) -> tuple[Path, float]:
    """Play a game's study and write its page into `out` (default docs/lab/GAME); return the
    page's path and the seconds it took."""
    began = time.perf_counter()
    module, lines = plan_study(game, workers, scale)
    results = execute_many(list(lines.values()), progress, estimate=estimate)
    folder = Path(out) if out is not None else Path("docs") / "lab" / game
    folder.mkdir(parents=True, exist_ok=True)
    page = Page(folder, f"{game_class(game).info.title}: a balance study")
    by_key: dict[str, SimResult] = dict(zip(lines, results, strict=True))
    page.text(_preamble(game, lines))
    module.write(by_key, page)
    return page.write(), time.perf_counter() - began


def _preamble(game: str, lines: dict[str, Plan]) -> str:
    counts = sorted({p.n for p in lines.values()})
    n = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
    total = sum(p.n for p in lines.values())
    return (f"Made by `tiergarten study {game}` (seed {SEED}; {len(lines)} line-ups of {n} "
            f"games each, {total:,} games in all). Every figure comes with its 95% interval: "
            "Wilson's for win rates, the normal one for means. Seats rotate through the "
            "line-up game by game, and every line-up plays the same deals (seed + game "
            "number). The figures are the game as these bots play it: a seat effect can be a "
            "bot's habit as much as the rules', and people may play otherwise. Run the "
            "command again after a rule change: it overwrites this page, its plots and "
            "`figures.json` (the numbers behind them).")


def total_games(lines: dict[str, Plan]) -> int:
    return sum(p.n for p in lines.values())


__all__ = ["SEED", "games_for", "plan_study", "run_study", "studies",
           "study_module", "total_games"]
