"""`learned`: a policy trained by self-play in a league (examples/selfplay_maskable_ppo.py,
sb3-contrib's MaskablePPO) and shipped as numpy weights (`bots/weights/<game id>.npz`, float16,
a few hundred KB); it plays with numpy only, through its seat's `SeatView` like every bot
(`PolicyBot`: the encoder vector of the seat's observation and its mask), choosing the legal id
of highest logit. Registered as `learned` for every game whose weights ship (Mau Mau, Mucca
Pazza). How it was trained and how strong it is: docs/bots.md, "learned".

>>> import random, tiergarten
>>> game = tiergarten.load("maumau", players=2)
>>> make(game, 0, random.Random(1)).policy.meta["game"]
'maumau'
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import TYPE_CHECKING

from tiergarten.core import Game

from .base import Bot

if TYPE_CHECKING:
    from .policy import NumpyPolicy

WEIGHTS = Path(__file__).with_name("weights")
NAME = "learned"


def shipped() -> list[str]:
    """The games whose learned weights ship with the package."""
    return sorted(p.stem for p in WEIGHTS.glob("*.npz"))


@functools.cache
def policy(game_id: str) -> NumpyPolicy:
    """The game's shipped network, loaded once (numpy is imported here, not with the bots)."""
    from .policy import NumpyPolicy

    return NumpyPolicy.load(WEIGHTS / f"{game_id}.npz")


def make(game: Game, seat: int, rng: random.Random) -> Bot:
    from .policy import PolicyBot

    return PolicyBot(game, seat, rng, policy(game.id), NAME)


__all__ = ["NAME", "WEIGHTS", "make", "policy", "shipped"]
