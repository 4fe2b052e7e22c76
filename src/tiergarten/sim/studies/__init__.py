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
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from tiergarten.core import games

from ..pool import Estimate
from ..tournament import Plan, Progress

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
    from .runner import games_for as scaled

    return scaled(scale)


def plan_study(game: str, workers: int | None = None, scale: float = 1.0,
               n: int | None = None, quick: bool = False) -> tuple[ModuleType, dict[str, Plan]]:
    """The study's module and its checked line-ups: each line-up's own count times `scale`,
    or `n` games per line-up (`quick`: the study's quick form, see `runner`)."""
    from .runner import games_each, quick_n

    module = study_module(game)
    if quick:
        n = quick_n(module)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ValueError(f"the number of games (-n) must be a whole number of at least 1, "
                         f"not {n!r}")
    return module, module.lines(games_each(n) if n is not None else games_for(scale), workers)


def study_folder(game: str, out: Path | str | None, n: int | None, quick: bool) -> Path:
    """Where a study writes: `out`, else docs/lab/GAME for the full study, else
    study/GAME-quick or study/GAME-nN (a smaller study never overwrites the committed one)."""
    if out is not None:
        return Path(out)
    if quick:
        return Path("study") / f"{game}-quick"
    return Path("docs") / "lab" / game if n is None else Path("study") / f"{game}-n{n}"


def run_study(game: str, out: Path | str | None = None, workers: int | None = None,
              scale: float = 1.0, progress: Progress | None = None,
              estimate: Callable[[Estimate], None] | None = None, n: int | None = None,
              quick: bool = False) -> tuple[Path, float]:
    """Play a game's study and write its page into `out` (default: see `study_folder`),
    files as it goes; return the page's path and the seconds it took."""
    from .runner import run

    module, lines = plan_study(game, workers, scale, n, quick)
    return run(game, module, lines, study_folder(game, out, n, quick), _preamble(game, lines),
               not quick, progress, estimate)


def _preamble(game: str, lines: dict[str, Plan]) -> str:
    counts = sorted({p.n for p in lines.values()})
    n = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
    total = sum(p.n for p in lines.values())
    rules = ", ".join(str(r) for r in sorted({p.rules for p in lines.values() if p.rules}))
    return (f"Made by `tiergarten study {game}` (seed {SEED}; rules version {rules}; "
            f"{len(lines)} line-ups of {n} games each, {total:,} games in all). Every figure "
            "comes with its 95% interval: "
            "Wilson's for win rates, the normal one for means. Seats rotate through the "
            "line-up game by game, and every line-up plays the same deals (seed + game "
            "number). The figures are the game as these bots play it: a seat effect can be a "
            "bot's habit as much as the rules', and people may play otherwise; the bots are "
            "named exactly at the end of the page. Run the command again after a rule or bot "
            "change: it overwrites this page, its plots and `figures.json` (the numbers "
            "behind them), and the test of the study's quick form says when that is due.")


def total_games(lines: dict[str, Plan]) -> int:
    return sum(p.n for p in lines.values())


__all__ = ["SEED", "games_for", "plan_study", "run_study", "studies", "study_folder",
           "study_module", "total_games"]
