"""Which games exist, and loading one by id. Game modules are imported only when loaded."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .errors import OptionError
from .game import Game, State, check_record, replay_into

_GAMES: dict[str, str] = {}


def register(game_id: str, target: str) -> None:
    """Make `game_id` loadable from `target`, written as "package.module:ClassName"."""
    _GAMES[game_id] = target


def games() -> tuple[str, ...]:
    """The ids of every registered game, sorted."""
    return tuple(sorted(_GAMES))


def game_class(game_id: str) -> type[Game]:
    """The Game class registered under `game_id`."""
    if game_id not in _GAMES:
        raise OptionError(f"unknown game {game_id!r}", games())
    module, _, name = _GAMES[game_id].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), name)
    return cls


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """A game with its player count and options checked (bad ones raise OptionError)."""
    return game_class(game_id)(players, **options)


def replay(record: Mapping[str, Any]) -> State:
    """Rebuild the state a record describes, checking every action on the way."""
    check_record(record)
    game = load(record["game"], record["players"], **record["options"])
    return replay_into(game.new_state(record["seed"]), record["actions"])
