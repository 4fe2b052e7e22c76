"""Named levels — `easy`, `normal`, `hard`, `expert`, `master` — the same five for every game.

A level is a name for a strength, not for an algorithm: each game maps the names onto the bots
that give clear steps in that game. The table of a game lives in its own bot module
(`bots/<id>.py` exports `LEVELS`: level name -> factory, in level order); this module keeps
what is generic: the names, `make_level`, and the helpers the search levels are built from.
What each level is, how strong and how fast, is in docs/bots.md.

Search levels use iteration budgets, never seconds (a time cap only as a safety bound), so a
tournament gives the same games on any machine and any number of workers. They are guarded
(`GUARD`): the heuristic's move stands unless the search finds one clearly better, so a small
budget never plays worse than the heuristic by mere noise.

>>> import random, tiergarten
>>> game = tiergarten.load("mammuz")
>>> [repr(make_level(name, game, 0, random.Random(1))) for name in NAMES]
['easy@0', 'normal@0', 'hard@0', 'expert@0', 'master@0']
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from tiergarten.core import Action, Game, OptionError, State, games
from tiergarten.core.match import SeatView

from .base import Bot
from .ismcts import Belief, Budget, Evaluator, ISMCTSBot, Policy, Prune, Search, random_policy

Factory = Callable[[Game, int, random.Random], Bot]
NAMES = ("easy", "normal", "hard", "expert", "master")
GUARD = 1.0  # standard errors by which search must beat the heuristic's move to replace it


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


def searching(iterations: int, fallback: type[Bot], *,
              evaluator: Callable[[Game], Evaluator] | None = None,
              rollouts: type[Bot] | Policy | None = None, guard: float | None = GUARD,
              widening: float | None = None, prune: Prune | None = None, c: float = 0.7,
              belief: Callable[[Game, int], Belief] | None = None,
              budget: Budget | None = None) -> Factory:
    """A factory of ISMCTS bots of `iterations` per move, guarded by `fallback` (a heuristic
    that also takes the out-of-turn rights). `evaluator` and `belief` are built per game (and
    seat); `rollouts` is a policy, or a heuristic bot class that then plays every seat
    (`HeuristicPolicy`); `budget` may choose each move's iterations (at most `iterations`
    is then a convention, not enforced); the rest is passed to `Search`."""
    def factory(game: Game, seat: int, rng: random.Random) -> Bot:
        helper = fallback(game, seat, random.Random(rng.getrandbits(64)))
        policy: Policy = random_policy
        if isinstance(rollouts, type):
            policy = HeuristicPolicy(rollouts, game, random.Random(rng.getrandbits(64)))
        elif rollouts is not None:
            policy = rollouts
        config = Search(iterations=iterations, c=c, policy=policy, guard=guard,
                        evaluator=None if evaluator is None else evaluator(game),
                        widening=widening, prune=prune)
        return ISMCTSBot(game, seat, rng, config, fallback=helper,
                         belief=None if belief is None else belief(game, seat), budget=budget)
    return factory


class _Tables(Mapping[str, Mapping[str, Factory]]):
    """Every game's level table, read from `tiergarten.bots.<game id>.LEVELS` on first use
    (the game modules import this one, so it cannot import them when it is loaded)."""

    def __init__(self) -> None:
        self._tables: dict[str, Mapping[str, Factory]] | None = None

    def _load(self) -> dict[str, Mapping[str, Factory]]:
        if self._tables is None:
            tables = {}
            for game_id in games():
                try:
                    module = importlib.import_module(f"{__package__}.{game_id}")
                except ModuleNotFoundError:
                    continue
                table = getattr(module, "LEVELS", None)
                if table is not None:
                    tables[game_id] = table
            self._tables = tables
        return self._tables

    def __getitem__(self, game_id: str) -> Mapping[str, Factory]:
        return self._load()[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


LEVELS: Mapping[str, Mapping[str, Factory]] = _Tables()


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


__all__ = ["GUARD", "LEVELS", "NAMES", "HeuristicPolicy", "factory", "make_level", "searching"]
