"""What every bot shares: a seat, a seeded rng, and the `propose` the match loop calls."""

from __future__ import annotations

import random

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView


class Bot:
    """A bot sees only its seat's view: observation, legal actions, and sampled states."""

    name = "bot"
    interactive = False
    think = 1.0  # nominal seconds before an ordinary move; out-of-turn actions may be quicker

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng

    def propose(self, view: SeatView) -> Proposal | None:
        action = self.choose(view)
        return None if action is None else (self.think, action)

    def choose(self, view: SeatView) -> Action | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{self.name}@{self.seat}"


class RandomBot(Bot):
    """Any legal action, uniformly; its timing is random too, so it sometimes acts first."""

    name = "random"

    def propose(self, view: SeatView) -> Proposal | None:
        return (self.rng.random(), self.rng.choice(view.legal))

    def choose(self, view: SeatView) -> Action | None:
        return self.rng.choice(view.legal)
