"""Named levels — `easy`, `normal`, `hard`, `expert` — the same four names for every game.

Each game maps them onto the bot and budget that suits it (figures in docs/bots.md):

| game            | easy   | normal    | hard                    | expert                  |
|-----------------|--------|-----------|-------------------------|-------------------------|
| `maumau`        | random | heuristic | ISMCTS, 100 iterations  | ISMCTS, 400 iterations  |
| `mammuz`        | random | heuristic | ISMCTS, 20 iterations   | ISMCTS, 200 iterations  |
| `mucca_pazza`   | random | child*    | memory                  | two-ply*                |
| `lecker_mammut` | slow   | normal    | hard                    | expert reflexes         |

Search levels use iteration budgets, never seconds, so a tournament gives the same games on
any machine and any number of workers. In Mau Mau a rollout stops at the end of the round or
after `MAUMAU_DEPTH` steps and is scored by who went out (or, cut short, by hand sizes); out-of-
turn catches are left to the heuristic, which always catches. In MammuZ rollouts play the game
out (a game is about thirty decisions) and extinguishing out of turn is left to the heuristic.
Mucca Pazza's bots are already solver-based (the exact best turn); *in the standard variant
`normal` never spends a star, `hard` plays the greedy best turn (the memory bots play greedy
there) and `expert` weighs each end of its turn against the next player's expected best reply
(`MuccaExpert`; in junior it is the exact greedy slider); Lecker Mammut! is a game of
reaction times, so its levels are reaction-time models, `expert` a quicker hand than `hard`.
The search levels are guarded (`GUARD`): the heuristic's move stands unless the search finds
one clearly better, so a small budget never plays worse than the heuristic by mere noise.

>>> import random, tiergarten
>>> game = tiergarten.load("mammuz")
>>> [repr(make_level(name, game, 0, random.Random(1))) for name in NAMES]
['easy@0', 'normal@0', 'hard@0', 'expert@0']
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from tiergarten.core import Action, Game, OptionError, State
from tiergarten.core.match import SeatView

from .base import Bot, RandomBot
from .ismcts import ISMCTSBot, Policy, Search, random_policy, win_shares
from .lecker_mammut import HardBot, LeckerBot, NormalBot, Reflexes, SlowBot
from .mammuz import MammuZHeuristic
from .maumau import MauMauHeuristic
from .mucca_pazza import ChildBot, MemoryBot
from .mucca_pazza_expert import MuccaExpert

Factory = Callable[[Game, int, random.Random], Bot]
NAMES = ("easy", "normal", "hard", "expert")
MAUMAU_DEPTH = 30  # rollout steps before a Mau Mau position is judged by hand sizes
HAND_WEIGHT = 0.35  # how strongly one card fewer in hand counts in that judgement
GUARD = 1.0  # standard errors by which search must beat the heuristic's move to replace it
WIDENING = 0.5  # MammuZ: a node holds at most 2 sqrt(visits + 1) of its hundreds of lays


class MauMauRound:
    """Rollouts to the end of the round (or `depth` steps): who went out takes the value; a
    rollout cut short is judged by hand sizes (fewer cards, more likely to go out first)."""

    def __init__(self, depth: int = MAUMAU_DEPTH) -> None:
        self.depth = depth

    def begin(self, state: State) -> Any:
        return list(state.observe(None)["scores"])

    def is_done(self, state: State, start: Any, steps: int) -> bool:
        return steps >= self.depth

    def values(self, state: State, start: Any) -> Sequence[float]:
        if state.is_over():
            return win_shares(state)
        public = state.observe(None)
        gains = [now - before for now, before in zip(public["scores"], start, strict=True)]
        total = sum(gains)
        if total > 0:  # a round ended: the seat that went out scored
            return [g / total for g in gains]
        weights = [math.exp(-HAND_WEIGHT * size) for size in public["hand_sizes"]]
        norm = sum(weights)
        return [w / norm for w in weights]


class HeuristicPolicy:
    """A rollout policy that lets a heuristic bot play every seat of the sampled state (from
    that seat's view of the sampled state, so the heuristic itself stays honest)."""

    def __init__(self, kind: type[Bot], game: Game, rng: random.Random) -> None:
        self.bots = [kind(game, seat, rng) for seat in range(game.players)]

    def __call__(self, state: State, seat: int, legal: Sequence[Action],
                 rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.bots[seat].choose(SeatView(state, seat, legal)) or legal[0]


def _search(iterations: int, fallback: type[Bot], evaluator: Any = None,
            rollouts: type[Bot] | None = None, guard: float | None = None,
            widening: float | None = None) -> Factory:
    def factory(game: Game, seat: int, rng: random.Random) -> Bot:
        helper = fallback(game, seat, random.Random(rng.getrandbits(64)))
        policy: Policy = random_policy
        if rollouts is not None:
            policy = HeuristicPolicy(rollouts, game, random.Random(rng.getrandbits(64)))
        search = Search(iterations=iterations, evaluator=evaluator, policy=policy, guard=guard,
                        widening=widening)
        return ISMCTSBot(game, seat, rng, search, fallback=helper)
    return factory


class MuccaNormal(ChildBot):
    """Mucca Pazza at normal level: the child in junior; in standard the greedy turn without
    ever spending a star (stars buy extra slides: the greedy bot's edge)."""

    def _standard(self, obs: dict[str, Any]) -> Action:
        return super()._standard({**obs, "stars": [0] * len(obs["stars"])})


EXPERT_REFLEXES = Reflexes(median=0.60, spread=0.25, steal=0.10, false_hit=0.01, pace=0.7,
                           choose=0.4)


class ExpertBot(LeckerBot):
    """Lecker Mammut! at expert level: a quicker, steadier hand than `hard`."""

    name = "expert"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng, EXPERT_REFLEXES)

LEVELS: dict[str, dict[str, Factory]] = {
    "maumau": {"easy": RandomBot, "normal": MauMauHeuristic,
               "hard": _search(100, MauMauHeuristic, MauMauRound(), guard=GUARD),
               "expert": _search(400, MauMauHeuristic, MauMauRound(), guard=GUARD)},
    "mammuz": {"easy": RandomBot, "normal": MammuZHeuristic,
               "hard": _search(20, MammuZHeuristic, guard=GUARD, widening=WIDENING),
               "expert": _search(200, MammuZHeuristic, guard=GUARD, widening=WIDENING)},
    "mucca_pazza": {"easy": RandomBot, "normal": MuccaNormal, "hard": MemoryBot,
                    "expert": MuccaExpert},
    "lecker_mammut": {"easy": SlowBot, "normal": NormalBot, "hard": HardBot,
                      "expert": ExpertBot},
}


def make_level(level: str, game: Game, seat: int, rng: random.Random) -> Bot:
    """The bot playing `level` at `seat`, named after the level."""
    table = LEVELS.get(game.id)
    if table is None or level not in table:
        raise OptionError(f"no level {level!r} for {game.id}", NAMES if table else ())
    bot = table[level](game, seat, rng)
    bot.name = level
    return bot


def factory(level: str) -> Factory:
    """A registry factory for `level` (the bot is named after the level)."""
    def make(game: Game, seat: int, rng: random.Random) -> Bot:
        return make_level(level, game, seat, rng)
    return make


__all__ = ["LEVELS", "NAMES", "ExpertBot", "MauMauRound", "factory", "make_level"]
