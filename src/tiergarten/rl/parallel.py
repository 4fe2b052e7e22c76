"""PettingZoo Parallel envs of every game (`parallel_env(id)`).

A real-time game (Lecker Mammut!) is cut into time slices: one `step` is one slice. In each
slice every seat chooses one id of `game.num_actions + 1`: a legal action of the engine, or
`wait` (the last id, always legal). The env only orders: the chosen actions are taken one after
the other in a random order drawn from the env's seeded generator (who was quicker within the
slice), and the game judges each as made by a seat that had seen the table as it was at the
start of the slice (`state.is_void(seat, action, seen)`): a slower hand on a table a good hit
has changed is void, not applied (`info["void"]`); any other action that an earlier one in the
slice has made illegal (a pass after someone's mistake in the same slice) lapses. An id outside
a seat's mask is taken as `wait` (`info["illegal"]` says so: PettingZoo's seed test samples
actions without masks). After `max_cycles` slices (default 4 × the game's decision bound) the
episode is truncated.

A turn-based game is its AEC env (aec.py) through PettingZoo's `turn_based_aec_to_parallel`:
each step applies the action of the one agent asked (its mask is the only non-empty one; after
a step `info["active_agent"]` names the next), the others' actions are ignored. An id outside
that agent's mask changes nothing (`info["illegal"]`) and the same agent is asked again; after
`max_cycles` steps (default 4 × the decision bound × players) the episode is truncated.

Rewards come at the end: the winners share +1, the others -1. Lecker Mammut! under random play
ends 0 to 0 (random hits are mistakes: the penalty cards eat every pile), so a learner starting
from random play gets no signal from the result alone: `shaping=w` adds, at every slice, `w` ×
the change of each seat's tally (cards won in its prize piles, less penalty cards and cards
others took from it; nothing across a round's end). `w = 0.02` is a fair start (docs/research.md).

>>> from tiergarten.rl import parallel_env
>>> env = parallel_env("lecker_mammut", players=2, rounds=1)
>>> obs, infos = env.reset(seed=0)
>>> sorted(obs), obs["player_0"]["observation"].shape
(['player_0', 'player_1'], (479,))
>>> env = parallel_env("maumau", players=2, rounds=1)
>>> obs, infos = env.reset(seed=3)
>>> [a for a in env.agents if obs[a]["action_mask"].any()]
['player_1']
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from tiergarten.core import Action, Game, IllegalAction, State

from ..encoders import encoder
from .common import Seeder, agent_name, make_game, rewards, shaped, tally
from .render import RENDER_MODES, check_mode, draw


class RealTimeParallel(ParallelEnv):  # type: ignore[misc]
    """A real-time game: every seat acts (or waits) in every time slice; see the module doc."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "tiergarten_v0", "render_fps": 4}

    def __init__(self, game: Game | str, players: int | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None,
                 shaping: float = 0.0, **options: Any) -> None:
        self.game = make_game(game, players, options)
        self.shaping = float(shaping)
        if not self.game.info.real_time:
            raise ValueError(f"{self.game.id} is turn-based: parallel_env() converts its AEC env")
        self.metadata = {**self.metadata, "name": f"tiergarten_{self.game.id}_v0"}
        self.render_mode = check_mode(render_mode)
        self.max_cycles = max_cycles or 4 * self.game.info.max_decisions
        self.encoder = encoder(self.game)
        self.wait_id = self.game.num_actions
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self.agents: list[str] = []
        size = self.game.num_actions + 1
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._act_space = spaces.Discrete(size)
        self._seeder = Seeder()
        self._order = random.Random()
        self.state: State | None = None
        self.cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        game_seed = self._seeder.next(seed)
        self._order = random.Random(game_seed ^ 0x5EED)
        self.state = self.game.new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        if self.render_mode == "human":
            self.render()
        return self._observations(), {a: {} for a in self.agents}

    def _mask(self, seat: int) -> np.ndarray:
        assert self.state is not None
        mask = np.zeros(self.game.num_actions + 1, dtype=np.int8)
        mask[[a.id for a in self.state.legal_actions(seat)]] = 1
        mask[self.wait_id] = 1
        return mask

    def _observations(self) -> dict[str, Any]:
        assert self.state is not None
        return {agent_name(s): {"observation": self.encoder.encode(self.state.observe(s)),
                                "action_mask": self._mask(s)}
                for s in range(self.game.players) if agent_name(s) in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        state = self.state
        assert state is not None, "call reset() first"
        seen = len(state.history)  # what every seat saw when it chose
        before = tally(state.observe(None)) if self.shaping else None
        chosen: list[tuple[int, Action]] = []
        illegal: set[str] = set()
        for s in range(self.game.players):
            a = actions.get(agent_name(s))
            if a is None or int(a) == self.wait_id:
                continue
            action = self.game.action_from_id(int(a))
            if action not in state.legal_actions(s):
                illegal.add(agent_name(s))  # outside the mask: taken as a wait
                continue
            chosen.append((s, action))
        self._order.shuffle(chosen)
        void: set[str] = set()
        for s, action in chosen:
            if state.is_over():
                break
            if state.is_void(s, action, seen):
                void.add(agent_name(s))  # a quicker hand changed what it was made on
                continue
            with contextlib.suppress(IllegalAction):  # made illegal by a quicker action: lapses
                state.apply(s, action)
        self.cycles += 1
        over = state.is_over()
        truncated = not over and self.cycles >= self.max_cycles
        obs = self._observations()
        live = list(self.agents)
        rew = {a: 0.0 for a in live}
        if before is not None:
            for s, r in enumerate(shaped(before, tally(state.observe(None)), self.shaping)):
                rew[agent_name(s)] = r
        infos: dict[str, dict[str, Any]] = {a: {"illegal": a in illegal, "void": a in void}
                                            for a in live}
        if over:
            result = state.result()
            for s, r in enumerate(rewards(result)):
                rew[agent_name(s)] += r
                infos[agent_name(s)]["result"] = result.to_dict()
        terms = {a: over for a in live}
        truncs = {a: truncated for a in live}
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, terms, truncs, infos

    def render(self) -> Any:
        """The spectator's table in the render mode (render.py): text, an image, or None."""
        if self.render_mode is None or self.state is None:
            return None
        return draw(self.render_mode, self.game, self.state.observe(None), self.possible_agents,
                    f"{self.game.info.title} · seed {self.state.seed}")

    def close(self) -> None:
        pass


LeckerMammutParallel = RealTimeParallel  # the name before every game had a Parallel env


__all__ = ["LeckerMammutParallel", "RealTimeParallel"]
