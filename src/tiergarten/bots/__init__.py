"""Bots by name: `random` plays any game; heuristics know one game each.

Each game's bots and its level table live in that game's module, `bots/<id>.py`, which exports
`BOTS` (name -> factory) and `LEVELS` (level name -> factory, in level order); see levels.py.

>>> import random, tiergarten
>>> game = tiergarten.load("maumau", players=2)
>>> names("maumau")
('easy', 'expert', 'hard', 'heuristic', 'ismcts', 'learned', 'master', 'normal', 'random')
>>> [repr(make(name, game, seat, random.Random(1))) for seat, name in enumerate(names(game)[:3])]
['easy@0', 'expert@1', 'hard@2']
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
from .levels import LEVELS, factory

Factory = Callable[[Game, int, random.Random], Bot]

_ANY_GAME: dict[str, Factory] = {"random": RandomBot, "ismcts": ISMCTSBot}
_BY_GAME: dict[str, dict[str, Factory]] = {}


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
    """Make a bot available by name for one game: `factory(game, seat, rng)` makes it for a
    seat (a `Bot`: `propose(view)` from the seat's `SeatView` only). From then on the name
    works wherever a bot name does in this process: `make`, `gym_env(opponents=...)`, the
    simulator (workers that start afresh import `Plan.imports` to register theirs). A policy
    (a trained network, a frozen copy of a learner) sits at a seat through
    `tiergarten.bots.policy.policy_factory`; see docs/bots.md, "Your own bot"."""
    _BY_GAME.setdefault(game_id, {})[name] = factory


def unregister(game_id: str, name: str) -> None:
    """Take a name registered by `register` off again (the game's own bots stay)."""
    _BY_GAME.get(game_id, {}).pop(name, None)


def _register_games() -> None:
    """Every game's own bots (`BOTS` of bots/<id>.py), then its levels (named after them)."""
    import importlib

    for game_id, table in LEVELS.items():
        module = importlib.import_module(f"{__name__}.{game_id}")
        for name, bot in getattr(module, "BOTS", {}).items():
            register(game_id, name, bot)
        for level in table:
            register(game_id, level, factory(level))
    from . import learned

    for game_id in learned.shipped():
        register(game_id, learned.NAME, learned.make)


_register_games()

__all__ = ["Bot", "RandomBot", "adviser", "make", "names", "register", "unregister"]
