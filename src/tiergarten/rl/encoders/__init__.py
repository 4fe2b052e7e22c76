"""One observation encoder per game, built only from `state.observe(seat)`.

>>> import tiergarten
>>> game = tiergarten.load("maumau", players=2, rounds=1)
>>> enc = encoder(game)
>>> enc.encode(game.new_state(seed=1).observe(0)).shape
(125,)
"""

from __future__ import annotations

from tiergarten.core import Game

from .base import Encoder, Field
from .lecker_mammut import LeckerMammutEncoder
from .mammuz import MammuZEncoder
from .maumau import MauMauEncoder
from .mucca_pazza import MuccaPazzaEncoder

ENCODERS: dict[str, type[Encoder]] = {
    cls.game_id: cls
    for cls in (MauMauEncoder, MammuZEncoder, LeckerMammutEncoder, MuccaPazzaEncoder)
}


def encoder(game: Game) -> Encoder:
    """The observation encoder for `game`; a game without one raises KeyError naming it."""
    cls = ENCODERS.get(game.id)
    if cls is None:
        raise KeyError(f"no observation encoder for {game.id!r}; known: {', '.join(ENCODERS)}")
    return cls(game)


def register(cls: type[Encoder]) -> None:
    """Add an encoder for a new game (its `game_id`)."""
    ENCODERS[cls.game_id] = cls


__all__ = ["ENCODERS", "Encoder", "Field", "encoder", "register"]
