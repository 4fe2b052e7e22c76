"""One observation encoder per game, built only from `state.observe(seat)`.

Found by convention: `tiergarten.encoders.<game id>` exports `ENCODER`, the encoder class,
so a new game adds its module and edits nothing here.

>>> import tiergarten
>>> game = tiergarten.load("maumau", players=2, rounds=1)
>>> enc = encoder(game)
>>> enc.encode(game.new_state(seed=1).observe(0)).shape
(125,)
"""

from __future__ import annotations

import importlib

from tiergarten.core import Game

from .base import Encoder, Field

_EXTRA: dict[str, type[Encoder]] = {}  # encoders registered from outside the package


def encoder_class(game_id: str) -> type[Encoder]:
    """The encoder class for `game_id`; a game without one raises KeyError naming it."""
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError:
        raise KeyError(f"no observation encoder for {game_id!r}: add "
                       f"tiergarten/encoders/{game_id}.py exporting ENCODER") from None
    cls: type[Encoder] = module.ENCODER
    return cls


def encoder(game: Game) -> Encoder:
    """The observation encoder for `game`."""
    return encoder_class(game.id)(game)


def register(cls: type[Encoder]) -> None:
    """Add an encoder for a game outside the package (its `game_id`)."""
    _EXTRA[cls.game_id] = cls


__all__ = ["Encoder", "Field", "encoder", "encoder_class", "register"]
