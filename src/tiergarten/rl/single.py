"""One seat as a Gymnasium environment, the other seats played by tiergarten bots.

`gym_env(id)` gives any game: a turn-based one as `TiergartenGym` (here), a real-time one as
`RealTimeGym` (single_realtime.py, in time slices).

The learner's seat is asked whenever the sequential view of the game (turns.py) asks it: on its
turn and in every out-of-turn window (where `wait`, id `game.num_actions`, is legal). Opponent
bots decide from their own seat's view; in a window a bot acts if it proposes something (a bot
proposing nothing waits).

Invalid actions: an action outside the mask is not applied; a uniformly random legal action
(from the env's seeded generator) is taken instead, `info["illegal"]` is True and the step's
reward includes `illegal_penalty` (default 0). So `check_env`'s random actions are safe, and a
masked policy never meets the rule.

>>> env = gym_env("maumau", opponents="hard", players=2, rounds=1)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, int(env.action_space.n)
((125,), 108)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from tiergarten import bots
from tiergarten.core import Game, State, game_class
from tiergarten.core.match import SeatView

from .common import make_game, rewards
from .encoders import encoder
from .render import RENDER_MODES, ansi, check_mode
from .turns import Turns


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
        from tiergarten.terminal.driver import PERSON, seat_names

        kinds = list(self.opponents)
        kinds.insert(self.seat, PERSON)
        return ansi(self.game, self.state.observe(self.seat), seat_names(kinds),
                    f"{self.game.info.title} · seed {self.state.seed}")


class TiergartenGym(SeatEnv):
    """A turn-based game's single-seat env: the learner plays `seat`, bots play the others."""

    def __init__(self, game: Game | str, opponents: str | Sequence[str] = "random",
                 seat: int = 0, players: int | None = None, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__(game, opponents, seat, players, illegal_penalty, render_mode,
                         **options)
        if self.game.info.real_time:
            raise ValueError(f"{self.game.id} is played in real time: gym_env() gives its "
                             "RealTimeGym")
        self.turns: Turns | None = None
        self._rng = random.Random()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._rng = self._new_game(seed)
        assert self.state is not None
        self.turns = Turns(self.state)
        self._run_bots()
        return self._obs(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        assert self.state is not None and self.turns is not None, "call reset() first"
        if self.state.is_over():
            raise RuntimeError("the episode is over: call reset()")
        legal = self.turns.legal_ids()
        info: dict[str, Any] = {"illegal": False}
        reward = 0.0
        chosen = int(action)
        if chosen not in legal:
            info["illegal"] = True
            reward += self.illegal_penalty
            chosen = self._rng.choice(legal)
        self.turns.step(chosen)
        self._run_bots()
        reward, over = self._ended(reward, info)
        return self._obs(), reward, over, False, info

    def legal_ids(self) -> list[int]:
        if self.turns is None or self.state is None or self.state.is_over():
            return []
        return self.turns.legal_ids()

    def _run_bots(self) -> None:
        """Let the bots act until the learner is asked or the game is over."""
        turns = self.turns
        assert turns is not None and self.state is not None
        while True:
            seat = turns.current()
            if seat is None or seat == self.seat:
                return
            legal = turns.legal()
            proposal = self._bots[seat].propose(SeatView(self.state, seat, legal))
            if proposal is not None:
                turns.step(proposal[1].id)
            elif turns.is_window():
                turns.step(turns.wait_id)
            else:  # the seat whose turn it is must act
                turns.step(self._rng.choice(legal).id)


def gym_env(game: Game | str, opponents: str | Sequence[str] = "random", seat: int = 0,
            players: int | None = None, **options: Any) -> SeatEnv:
    """`gym_env("maumau", opponents="hard")`: one seat against tiergarten bots. A real-time
    game is played in time slices (`RealTimeGym`: also `slice_seconds=`, `max_slices=`)."""
    info = game.info if isinstance(game, Game) else game_class(game).info
    if info.real_time:
        from .single_realtime import RealTimeGym

        return RealTimeGym(game, opponents, seat, players, **options)
    return TiergartenGym(game, opponents, seat, players, **options)


__all__ = ["SeatEnv", "TiergartenGym", "gym_env"]
