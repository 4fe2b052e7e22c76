"""A PettingZoo AEC environment over any registered game (`pettingzoo_env(id)`).

Observations are dicts: `observation`, the game's fixed-shape float32 vector (encoders/), and
`action_mask`, int8 over `game.num_actions + 1` ids: the game's fixed action space plus `wait`,
which only a seat acting out of turn may choose (see turns.py). Rewards come at the end: the
winners share +1, the others -1.

An action outside the mask (`illegal=`): `"raise"` (default, as a PettingZoo classic `raw_env`
asserts) raises `tiergarten.IllegalAction`; `"terminate"` is the classic `env()`'s
`TerminateIllegalWrapper`: the game ends at once, the seat that chose it gets -1 and every
other 0, `infos[agent]["illegal"]` names it; `"ignore"` (the Parallel view of a turn-based
game uses it) changes nothing, the same seat is asked again and `infos[agent]["illegal"]` says
so.

`max_cycles` counts cycles as PettingZoo does: a cycle is a step of every agent, so after
`max_cycles` × players steps (windows and ignored actions count) every agent is truncated
(default: no limit, the game's decision bound ends it). The seats are asked in the game's order,
not round the table (a Mau Mau player who draws is asked again), so PettingZoo's
`max_cycles_test`, which wants every agent asked exactly `max_cycles` times, is passed by the
cyclic form `pettingzoo_env(id, cyclic=True)`: every agent once a cycle (envs.py). A real-time
game is its Parallel env (parallel.py) through PettingZoo's `parallel_to_aec`: every agent
chooses in turn, and the choices of one cycle form one slice.

>>> env = TiergartenAEC("maumau", players=2, rounds=1)
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection
((125,), True, 'player_1')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tiergarten.core import Game, IllegalAction, State

from ..encoders import encoder
from .common import Seeder, agent_name, make_game, rewards
from .render import RENDER_MODES, check_mode, draw
from .turns import Turns

ILLEGAL = ("raise", "terminate", "ignore")


class TiergartenAEC(AECEnv):  # type: ignore[misc]
    """Agent-environment-cycle env: one seat acts at a time (out-of-turn rights as windows)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "tiergarten_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: Game | str, players: int | None = None,
                 render_mode: str | None = None, illegal: str = "raise",
                 max_cycles: int | None = None, max_steps: int | None = None,
                 illegal_reward: float = -1.0, **options: Any) -> None:
        super().__init__()
        self.game = make_game(game, players, options)
        if self.game.info.real_time:
            raise ValueError(f"{self.game.id} is played in real time: pettingzoo_env() gives "
                             "its Parallel env as an AEC env")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r}: choose 'raise', 'terminate' or 'ignore'")
        self.metadata = {**self.metadata, "name": f"tiergarten_{self.game.id}_v0"}
        self.render_mode = check_mode(render_mode)
        self.illegal = illegal
        self.max_cycles = max_cycles
        # the step bound: max_cycles cycles of one step per agent, or a bound in steps (the
        # Parallel view counts its own steps: max_steps)
        self.max_steps = max_steps if max_cycles is None else max_cycles * self.game.players
        self.illegal_reward = float(illegal_reward)
        self.cycles = 0  # steps taken (windows and ignored actions included)
        self.encoder = encoder(self.game)
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.game.num_actions + 1
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._act_space = spaces.Discrete(size)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._seeder = Seeder()
        self.state: State | None = None
        self.turns: Turns | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    @property
    def wait_id(self) -> int:
        return self.game.num_actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state = self.game.new_state(self._seeder.next(seed))
        self.turns = Turns(self.state)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.cycles = 0
        self.agent_selection = agent_name(self._current())
        if self.render_mode == "human":
            self.render()

    def _current(self) -> int:
        assert self.turns is not None
        seat = self.turns.current()
        assert seat is not None
        return seat

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None and self.turns is not None
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions + 1, dtype=np.int8)
        if not self.state.is_over() and self.turns.current() == seat:
            mask[self.turns.legal_ids()] = 1
        return {"observation": self.encoder.encode(self.state.observe(seat)),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and self.turns is not None
        chosen = None if action is None else int(action)
        legal = chosen in self.turns.legal_ids()
        if not legal and self.illegal == "raise":
            raise IllegalAction(f"{agent} may not take action {action!r} now",
                                self.turns.legal_ids())
        if not legal and self.illegal == "terminate":
            self._terminate_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.cycles += 1
        if self.illegal == "ignore":
            self.infos = {a: {"illegal": a == agent and not legal} for a in self.agents}
        if chosen is not None and legal:
            self.turns.step(chosen)
        self._next(agent)
        if self.render_mode == "human":
            self.render()

    def _terminate_illegal(self, agent: str) -> None:
        """PettingZoo's `TerminateIllegalWrapper`: the game ends, `agent` gets the illegal
        reward, every other agent 0; every agent then takes its dead step."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = self.illegal_reward
        self.terminations = {a: True for a in self.agents}
        self.infos = {a: {"illegal": a == agent} for a in self.agents}
        self._accumulate_rewards()
        self._deads_step_first()

    def _next(self, agent: str) -> None:
        """After `agent`'s step: rewards and ends, or the next seat asked (or truncation)."""
        assert self.state is not None
        if self.state.is_over():
            result = self.state.result()
            for seat, r in enumerate(rewards(result)):
                a = agent_name(seat)
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {**self.infos[a], "result": result.to_dict()}
            seat = (self._seat[agent] + 1) % self.game.players
        else:
            seat = self._current()
            if self.max_steps is not None and self.cycles >= self.max_steps:
                self.truncations = {a: True for a in self.agents}
        self.agent_selection = agent_name(seat)
        self._accumulate_rewards()

    def render(self) -> Any:
        """The spectator's table in the render mode (render.py): text, an image, or None."""
        if self.render_mode is None or self.state is None:
            return None
        return draw(self.render_mode, self.game, self.state.observe(None), self.possible_agents,
                    f"{self.game.info.title} · seed {self.state.seed}")

    def close(self) -> None:
        pass


__all__ = ["TiergartenAEC"]
