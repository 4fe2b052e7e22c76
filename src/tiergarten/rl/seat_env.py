"""What the single-seat Gymnasium envs share (`SeatEnv`): the learner's seat, its bots, the
spaces and rendering. `TiergartenGym` (single.py) and `RealTimeGym` (single_realtime.py) build
on it; `gym_env` (single.py) picks one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tiergarten import bots
from tiergarten.core import Game, State

from .common import make_game, rewards
from .encoders import encoder
from .render import RENDER_MODES, ansi, check_mode


class SeatEnv(gymnasium.Env[Any, Any]):
    """What the single-seat envs share: the learner's seat, its bots, spaces and rendering."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, game: Game | str, opponents: str | Sequence[str] = "random",
                 seat: int = 0, players: int | None = None, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, **options: Any) -> None:
        self.game = make_game(game, players, options)
        n = self.game.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of {n} players")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents are needed, got {len(names)}")
        for name in names:
            if name not in bots.names(self.game.id):
                raise ValueError(f"no bot {name!r} for {self.game.id}; choose one of "
                                 f"{', '.join(bots.names(self.game.id))}")
        self.opponents = list(names)
        self.seat = seat
        self.illegal_penalty = illegal_penalty
        self.render_mode = check_mode(render_mode)
        self.encoder = encoder(self.game)
        size = self.game.num_actions + 1
        self.wait_id = self.game.num_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.action_space = spaces.Discrete(size)
        self.state: State | None = None
        self._bots: dict[int, bots.Bot] = {}

    def _new_game(self, seed: int | None) -> random.Random:
        """Reset the Gymnasium seeding, deal a game and seat the bots; return the generator
        the env draws its own choices from."""
        gymnasium.Env.reset(self, seed=seed)
        root = random.Random(int(self.np_random.integers(2**62)))
        rng = random.Random(root.getrandbits(64))
        self.state = self.game.new_state(root.getrandbits(63))
        others = [s for s in range(self.game.players) if s != self.seat]
        self._bots = {s: bots.make(name, self.game, s, random.Random(root.getrandbits(64)))
                      for s, name in zip(others, self.opponents, strict=True)}
        return rng

    def legal_ids(self) -> list[int]:
        """The ids the learner may choose now (empty once the game is over)."""
        raise NotImplementedError

    def action_masks(self) -> np.ndarray:
        """The legal ids now as a boolean mask (for maskable learners)."""
        mask = np.zeros(self.game.num_actions + 1, dtype=bool)
        mask[self.legal_ids()] = True
        return mask

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.state is not None
        return {"observation": self.encoder.encode(self.state.observe(self.seat)),
                "action_mask": self.action_masks().astype(np.int8)}

    def _ended(self, reward: float, info: dict[str, Any]) -> tuple[float, bool]:
        """The step's reward and whether the game is over (its result then in `info`)."""
        assert self.state is not None
        over = self.state.is_over()
        if over:
            result = self.state.result()
            reward += rewards(result)[self.seat]
            info["result"] = result.to_dict()
        return reward, over

    def render(self) -> str | None:
        """The learner's own screen as the terminal draws it (render_mode "ansi"), else None:
        the learner is "You", the bots are named as at the terminal ("Hard 2")."""
        if self.render_mode is None or self.state is None:
            return None
        from tiergarten.terminal.render import PERSON, seat_names

        kinds = list(self.opponents)
        kinds.insert(self.seat, PERSON)
        return ansi(self.game, self.state.observe(self.seat), seat_names(kinds),
                    f"{self.game.info.title} · seed {self.state.seed}")


__all__ = ["SeatEnv"]
