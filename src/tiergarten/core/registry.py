"""Which games exist, and loading one by id. Game modules are imported only when loaded."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import IllegalAction, OptionError
from .game import Game, State, check_record, replay_into
from .rules import unversioned

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


def replay(record: Mapping[str, Any], candidates: Sequence[int] | None = None) -> State:
    """Rebuild the state a record describes, under the rules version it names, checking every
    action on the way.

    A record from before versions were named (format 1) is replayed under the first of
    `candidates` it replays under; by default the versions released before then, oldest
    first (`core.rules.unversioned`). The state's own record then names that version.
    """
    check_record(record)
    cls = game_class(record["game"])
    if "rules" in record and record.get("format", 1) != 1:
        versions: Sequence[int] = [record["rules"]]
    else:
        versions = candidates if candidates is not None else unversioned(cls.info.rules)
    failure: IllegalAction | None = None
    for rules in versions:
        game = cls(record["players"], rules=rules, **record["options"])
        try:
            return replay_into(game.new_state(record["seed"]), record["actions"])
        except IllegalAction as exc:
            failure = failure or exc  # the first candidate's reason is the one to show
    assert failure is not None, "a record is replayed under at least one version"
    raise failure
