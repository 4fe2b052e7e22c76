"""Self-play and a league for a one-seat learner: the learner against frozen copies of itself
and the level bots, through the Gymnasium env of docs/research.md.

- `League(game_id)`: a pool of opponents: bot names (default `random`, `normal`, `hard`,
  `expert`) and frozen copies of the learner, each copy a `NumpyPolicy`
  (tiergarten.bots.policy) registered as a bot under `<prefix>-<n>`, so it sits at a seat as
  every bot does, seeing only its `SeatView`. `League.opponents(k)` draws `k`: each a copy (of
  the last `keep`) with chance `self_play`, else a bot.
- `LeagueEnv(league, **gym_env_kwargs)`: `gym_env` whose opponents are drawn from the league at
  every reset, the learner at a random seat (`rotate=True`), so one policy learns every seat.
- `from_maskable_ppo(model)`: a NumpyPolicy from an sb3-contrib `MaskablePPO` with
  `"MultiInputPolicy"` (its actor: the Dict observation's keys concatenated in order, the
  policy MLP, the action head), so a frozen copy (and the shipped learned bot) plays with numpy
  only. Needs torch only here, where the model is.

The worked recipe is `examples/selfplay_maskable_ppo.py` (docs/research.md, "Self-play").

>>> league = League("maumau", bots=("random", "hard"), seed=1)
>>> env = LeagueEnv(league, players=3, rounds=1)
>>> obs, info = env.reset(seed=2)
>>> len(env.unwrapped.opponents), sorted(set(env.unwrapped.opponents)) <= ["hard", "random"]
(2, True)
>>> env.action_masks().shape
(108,)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from tiergarten import bots
from tiergarten.bots.policy import NumpyPolicy, policy_factory

from .single import gym_env

DEFAULT_BOTS = ("random", "normal", "hard", "expert")


class League:
    """The opponents of one learner: bots by name and frozen copies of the learner."""

    def __init__(self, game_id: str, bots: Sequence[str] = DEFAULT_BOTS, self_play: float = 0.5,
                 keep: int = 5, prefix: str = "self", seed: int | None = None) -> None:
        if not 0.0 <= self_play <= 1.0:
            raise ValueError(f"self_play is a chance, not {self_play!r}")
        self.game_id = game_id
        self.bots = list(bots)
        self.self_play = self_play
        self.keep = keep
        self.prefix = prefix
        self.copies: list[str] = []  # names of the frozen copies, oldest first
        self.policies: dict[str, NumpyPolicy] = {}
        self.rng = random.Random(seed)

    def add(self, policy: NumpyPolicy) -> str:
        """Freeze `policy` into the league; returns the bot name it sits under."""
        name = f"{self.prefix}-{len(self.copies) + 1}"
        bots.register(self.game_id, name, policy_factory(policy, name))
        self.copies.append(name)
        self.policies[name] = policy
        return name

    def close(self) -> None:
        """Take the frozen copies off the bot registry."""
        for name in self.copies:
            bots.unregister(self.game_id, name)

    def opponents(self, k: int) -> list[str]:
        """`k` opponents: each a recent copy with chance `self_play` (when there is one), else
        one of the bots."""
        recent = self.copies[-self.keep:]
        return [self.rng.choice(recent) if recent and self.rng.random() < self.self_play
                else self.rng.choice(self.bots) for _ in range(k)]


class LeagueEnv(gymnasium.Wrapper[Any, Any, Any, Any]):
    """`gym_env` against opponents drawn from a league at every reset (see the module doc)."""

    def __init__(self, league: League, rotate: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("opponents", league.bots[0])
        super().__init__(gym_env(league.game_id, **kwargs))
        self.league = league
        self.rotate = rotate
        self._rng = random.Random(league.rng.getrandbits(64))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[Any, dict[str, Any]]:
        base: Any = self.env.unwrapped
        if seed is not None:
            self._rng.seed(seed)
        n = base.game.players
        base.opponents = self.league.opponents(n - 1)
        if self.rotate:
            base.seat = self._rng.randrange(n)
        obs, info = self.env.reset(seed=seed, options=options)
        info = {**info, "opponents": list(base.opponents), "seat": base.seat}
        return obs, info

    def action_masks(self) -> np.ndarray:
        base: Any = self.env.unwrapped
        masks: np.ndarray = base.action_masks()
        return masks


def from_maskable_ppo(model: Any, **meta: Any) -> NumpyPolicy:
    """The actor of an sb3-contrib MaskablePPO (`"MultiInputPolicy"` or `"MlpPolicy"`, tanh or
    relu, no observation normalisation) as a NumpyPolicy; `meta` is stored with it."""
    policy = model.policy  # its features extractor flattens and concatenates: no weights
    state = {k: v.detach().cpu().numpy() for k, v in policy.state_dict().items()}
    net = sorted({int(k.split(".")[2]) for k in state
                  if k.startswith("mlp_extractor.policy_net.") and k.endswith(".weight")})
    layers = [(state[f"mlp_extractor.policy_net.{i}.weight"],
               state[f"mlp_extractor.policy_net.{i}.bias"]) for i in net]
    layers.append((state["action_net.weight"], state["action_net.bias"]))
    name = type(policy.activation_fn()).__name__.lower()
    activation = {"tanh": "tanh", "relu": "relu"}.get(name)
    if activation is None:
        raise ValueError(f"activation {name!r} has no numpy twin here")
    space = model.observation_space
    inputs = list(space.spaces) if isinstance(space, gymnasium.spaces.Dict) else ["observation"]
    return NumpyPolicy(layers, activation, inputs, meta)


__all__ = ["DEFAULT_BOTS", "League", "LeagueEnv", "NumpyPolicy", "from_maskable_ppo"]
