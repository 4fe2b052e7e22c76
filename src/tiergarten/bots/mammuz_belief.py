"""Belief-weighted worlds for MammuZ: how truthful the lays in the open herd are.

`view.resample` fills every other seat's lay with cards drawn uniformly from what the seat has
not seen, so a lay is as true as the unseen cards are dense in its species — about one card in
five. Players lie far less early in a herd (they add their true cards first) and far more late
(a herd of twenty cards holds most of the species' cards already, and every later add is a
lie); a lay that empties the layer's hand is nearly always true. `LayBelief` draws `CANDIDATES`
uniform worlds and picks one with odds weighted by `TRUTH_ODDS`: for every card of another
seat's lay in the open herd that is of the declared species in that world, the world's weight
is multiplied by the odds ratio for that lay's context (how big the herd was once the lay was
made, and how many cards the layer held after it). A ratio above 1 makes true cards likelier
than uniform, below 1 rarer.

The ratios are `odds(true) / odds(uniform)` measured on self-play of the careful heuristic
(the `expert` level): `python benchmarks/mammuz_truth.py` prints this table (300 four-player
games from seed 1, about 10,300 cards laid; a context with hardly any lays is noisy, and one
where no laid card was true, or every one, is held at 0.01 or 100; where nothing was
expected, at 1). Only public facts (the herd's lay counts, hand sizes) and the worlds the view
itself samples are used.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tiergarten.core import State
from tiergarten.games.mammuz.cards import BY_NAME
from tiergarten.games.mammuz.state import MammuZState

CANDIDATES = 4  # uniform worlds drawn per sampled world
HERD_STEP = 5  # herd-size buckets: 0-4, 5-9, 10-14, 15-19, 20+ cards once the lay was made
# TRUTH_ODDS[herd bucket][layer's hand after the lay: 0, 1, 2, 3+], as benchmarks/mammuz_truth.py
# prints it
TRUTH_ODDS = (
    (24.4, 5.71, 6.31, 11.1),
    (13.7, 1.91, 1.48, 1.83),
    (1, 0.01, 1.34, 1.84),
    (1, 0.192, 1.51, 2.85),
    (1, 0.01, 0.01, 0.01),
)

Lay = tuple[int, int, float]  # index in the herd, declared species, odds ratio per true card


def contexts(obs: dict[str, Any]) -> list[Lay]:
    """For every other seat's lay in the open herd: (index, species, odds ratio)."""
    if obs["species"] is None or not obs["herd"]:
        return []
    species = BY_NAME[obs["species"]]
    sizes: list[int] = obs["hand_sizes"]
    herd: list[dict[str, Any]] = obs["herd"]
    later = [0] * len(sizes)  # cards each seat laid after the lay being looked at
    after = sum(lay["count"] for lay in herd)  # herd size once that lay was made
    out = []
    for i in range(len(herd) - 1, -1, -1):
        seat, count = herd[i]["seat"], herd[i]["count"]
        held = sizes[seat] + later[seat]
        later[seat] += count
        if seat != obs["seat"]:
            row = TRUTH_ODDS[min(after // HERD_STEP, len(TRUTH_ODDS) - 1)]
            out.append((i, species, row[min(held, len(row) - 1)]))
        after -= count
    return out


class LayBelief:
    """Weights sampled worlds by how truthful the others' lays in the open herd look."""

    def __init__(self, candidates: int = CANDIDATES) -> None:
        self.candidates = candidates
        self.lays: list[Lay] = []

    def update(self, observation: dict[str, Any]) -> None:
        self.lays = contexts(observation)

    def sample(self, resample: Callable[[random.Random], State], rng: random.Random) -> State:
        if not self.lays:
            return resample(rng)
        worlds = [resample(rng) for _ in range(self.candidates)]
        weights = [self.weight(w) for w in worlds]
        pick = rng.random() * sum(weights)
        for world, weight in zip(worlds, weights, strict=True):
            pick -= weight
            if pick <= 0:
                return world
        return worlds[-1]

    def weight(self, world: State) -> float:
        assert isinstance(world, MammuZState)
        w = 1.0
        for i, species, odds in self.lays:
            w *= odds ** sum(1 for k in world.lays[i][1] if k == species)
        return w


__all__ = ["CANDIDATES", "TRUTH_ODDS", "LayBelief", "contexts"]
