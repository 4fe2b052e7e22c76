"""What the adapters share: rewards from a result, agent names, seeding."""

from __future__ import annotations

import random
from typing import Any

from tiergarten.core import Game, Result, load


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def rewards(result: Result) -> list[float]:
    """Zero-sum terminal rewards: the winners share +1, the others share -1 (all 0 if every
    seat wins)."""
    n = len(result.scores)
    won = len(result.winners)
    if won == n:
        return [0.0] * n
    return [1.0 / won if s in result.winners else -1.0 / (n - won) for s in range(n)]


def make_game(game: Game | str, players: int | None, options: dict[str, object]) -> Game:
    if isinstance(game, Game):
        if players is not None or options:
            raise ValueError("pass either a loaded game or an id with players and options")
        return game
    return load(game, players=players, **options)


class Seeder:
    """Game seeds for successive resets: `reset(seed=s)` restarts the sequence from `s`."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.rng = random.Random(seed)
        return self.rng.getrandbits(63)


def tally(table: dict[str, Any]) -> tuple[int, list[int]]:
    """Lecker Mammut!'s shaping potential from the spectator's table: the round, and for each
    seat the cards in its prize piles less its penalty cards this round."""
    held = [sum(p["size"] for p in piles) for piles in table["prize_piles"]]
    return table["round"], [h - pen for h, pen in zip(held, table["penalty_cards"], strict=True)]


def shaped(before: tuple[int, list[int]], after: tuple[int, list[int]],
           weight: float) -> list[float]:
    """Each seat's shaped reward for a step: `weight` × the change of its tally (cards won by
    good hits, less penalty cards and cards others took from it), 0 across a round's end."""
    if weight == 0.0 or before[0] != after[0]:
        return [0.0] * len(after[1])
    return [weight * (a - b) for a, b in zip(after[1], before[1], strict=True)]


__all__ = ["Seeder", "agent_name", "make_game", "rewards", "shaped", "tally"]
