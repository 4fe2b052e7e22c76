"""One seat as a Gymnasium environment, the other seats played by tiergarten bots.

`gym_env(id)` gives any game: a turn-based one as `TiergartenGym` (here), a real-time one as
`RealTimeGym` (single_realtime.py, in time slices).

The learner's seat is asked whenever the sequential view of the game (turns.py) asks it: on its
turn and in every out-of-turn window (where `wait`, id `game.num_actions`, is legal). Opponent
bots decide from their own seat's view; in a window a bot acts if it proposes something (a bot
proposing nothing waits).

A game that the bots finish before the learner is asked (a rare Mau Mau deal at two players:
the opponent goes out on a run of skips) is dealt again from the env's generator, so `reset`
always returns a game the learner plays.

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

import numpy as np

from tiergarten.core import Game, game_class
from tiergarten.core.match import SeatView

from .seat_env import SeatEnv
from .single_realtime import RealTimeGym
from .turns import Turns


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
        while self.state.is_over():  # the bots finished it before the learner was asked
            self._rng = self._new_game(None)  # (Mau Mau: a run of 8s at two players): again
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
        return RealTimeGym(game, opponents, seat, players, **options)
    return TiergartenGym(game, opponents, seat, players, **options)


__all__ = ["SeatEnv", "TiergartenGym", "gym_env"]
