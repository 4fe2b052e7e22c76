"""Bots by name: `random` plays any game; heuristics know one game each.

>>> import random, tiergarten
>>> game = tiergarten.load("maumau", players=2)
>>> [repr(make(name, game, seat, random.Random(1))) for seat, name in enumerate(names("maumau"))]
['easy@0', 'expert@1', 'hard@2', 'heuristic@3', 'ismcts@4', 'normal@5', 'random@6']
>>> names(game) == names("maumau")
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tiergarten.core import Game, OptionError

from .base import Bot, RandomBot
from .ismcts import ISMCTSBot
from .lecker_mammut import BOTS as LECKER_MAMMUT_BOTS
from .mammuz import MammuZHeuristic
from .maumau import MauMauHeuristic
from .mucca_pazza import ChildBot, MemoryBot, MuccaBot

Factory = Callable[[Game, int, random.Random], Bot]

_ANY_GAME: dict[str, Factory] = {"random": RandomBot, "ismcts": ISMCTSBot}
_BY_GAME: dict[str, dict[str, Factory]] = {
    "maumau": {"heuristic": MauMauHeuristic},
    "mucca_pazza": {"greedy": MuccaBot, "heuristic": MuccaBot, "memory": MemoryBot,
                    "child": ChildBot},
    "mammuz": {"heuristic": MammuZHeuristic},
    "lecker_mammut": dict(LECKER_MAMMUT_BOTS),
}


def names(game: Game | str) -> tuple[str, ...]:
    """The bot names that can sit at a table of `game` (a game or its id: the same names)."""
    game_id = game if isinstance(game, str) else game.id
    return tuple(sorted({*_BY_GAME.get(game_id, {}), *_ANY_GAME}))


def make(name: str, game: Game, seat: int, rng: random.Random) -> Bot:
    """A bot called `name` for `seat`; unknown names raise OptionError listing the known ones."""
    factory = _BY_GAME.get(game.id, {}).get(name) or _ANY_GAME.get(name)
    if factory is None:
        raise OptionError(f"no bot {name!r} for {game.id}", names(game.id))
    return factory(game, seat, rng)


Adviser = Callable[[Mapping[str, Any], Sequence[str] | None], dict[str, Any]]


def adviser(game_id: str) -> Adviser | None:
    """The hint adviser of a game: `advise(observation, legal)` exported by the game's module
    `tiergarten.bots.<game id>`, found by convention (None: the game gives no hints)."""
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError:
        return None
    advise: Adviser | None = getattr(module, "advise", None)
    return advise


def register(game_id: str, name: str, factory: Factory) -> None:
    """Make a bot available by name for one game."""
    _BY_GAME.setdefault(game_id, {})[name] = factory


def _register_levels() -> None:
    """easy, normal, hard, expert for every game that has levels (see levels.py)."""
    from .levels import LEVELS, factory

    for game_id, table in LEVELS.items():
        for level in table:
            register(game_id, level, factory(level))


_register_levels()

__all__ = ["Bot", "RandomBot", "adviser", "make", "names", "register"]
