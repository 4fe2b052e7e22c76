"""One seat of a real-time game (Lecker Mammut!) as a Gymnasium env against tiergarten bots,
in time slices of virtual time.

Each step is one slice of `slice_seconds` (default 0.25). The learner sees the table at the
slice's start and chooses a legal id or `wait` (id `game.num_actions`, always legal). The bots
play on their own clocks, as in `tiergarten.core.realtime.run_virtual`: every bot move due
before the slice ends is applied at its time. Then the learner's action lands, judged as made
on the table it saw (`state.is_void(seat, action, seen)`): a hit or a flip a quicker bot has
made stale is void, not applied (`info["void"]`); any other action a bot has made illegal in
the meantime lapses (`info["lapsed"]`). So the learner needs one slice to react, and its
observations come once per slice. An id outside the mask is a wait (`info["illegal"]`, plus
`illegal_penalty`). After `max_slices` slices (default 4 × the game's decision bound) the
episode is truncated: a learner that never flips its pile stalls the game. `shaping=w` adds `w`
× the change of the learner's tally at every slice (cards won, less penalty cards and cards
taken from it: parallel.py), a signal that the result of a game of random hits never gives.

>>> env = RealTimeGym("lecker_mammut", opponents="hard", players=2, rounds=1)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, int(env.action_space.n), env.legal_ids()[-1] == env.wait_id
((479,), 83, True)
>>> obs, reward, terminated, truncated, info = env.step(env.wait_id)
>>> sorted(info), env.now
(['illegal', 'lapsed', 'void'], 0.25)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import numpy as np

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView
from tiergarten.core.realtime import earliest

from .common import shaped, tally
from .seat_env import SeatEnv


class _Learner:
    """The learner's place among the agents the bots' clock loop asks: it never proposes."""

    interactive = True

    def propose(self, view: SeatView) -> Proposal | None:
        return None


class RealTimeGym(SeatEnv):
    """A real-time game's single-seat env in time slices; see the module doc."""

    def __init__(self, game: Game | str, opponents: str | Sequence[str] = "random",
                 seat: int = 0, players: int | None = None, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, slice_seconds: float = 0.25,
                 max_slices: int | None = None, shaping: float = 0.0,
                 **options: Any) -> None:
        super().__init__(game, opponents, seat, players, illegal_penalty, render_mode,
                         **options)
        if not self.game.info.real_time:
            raise ValueError(f"{self.game.id} is turn-based: gym_env() gives its TiergartenGym")
        if not slice_seconds > 0:
            raise ValueError(f"slice_seconds must be positive, not {slice_seconds!r}")
        self.slice_seconds = float(slice_seconds)
        self.shaping = float(shaping)
        self.metadata = {**self.metadata, "render_fps": 1 / self.slice_seconds}  # slices
        self.max_slices = max_slices or 4 * self.game.info.max_decisions
        self.now = 0.0  # virtual seconds since the game began
        self.slices = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._new_game(seed)
        self.now, self.slices = 0.0, 0
        return self._obs(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        state = self.state
        assert state is not None, "call reset() first"
        if state.is_over():
            raise RuntimeError("the episode is over: call reset()")
        chosen = int(action)
        info: dict[str, Any] = {"illegal": chosen not in self.legal_ids(), "void": False,
                                "lapsed": False}
        reward = self.illegal_penalty if info["illegal"] else 0.0
        seen = len(state.history)  # the table the learner chose on
        before = tally(state.observe(None)) if self.shaping else None
        end = self.now + self.slice_seconds
        self._bots_until(end)
        if chosen != self.wait_id and not info["illegal"] and not state.is_over():
            self._land(self.game.action_from_id(chosen), seen, info)
        self.now, self.slices = end, self.slices + 1
        if before is not None:
            reward += shaped(before, tally(state.observe(None)), self.shaping)[self.seat]
        reward, over = self._ended(reward, info)
        return self._obs(), reward, over, not over and self.slices >= self.max_slices, info

    def legal_ids(self) -> list[int]:
        if self.state is None or self.state.is_over():
            return []
        return sorted(a.id for a in self.state.legal_actions(self.seat)) + [self.wait_id]

    def _bots_until(self, end: float) -> None:
        """Apply every bot move due by `end`, each at its time."""
        state = self.state
        assert state is not None
        agents = [self._bots.get(s) or _Learner() for s in range(self.game.players)]
        while not state.is_over():
            move = earliest(state, agents, self.now)
            if move is None or move.time > end:
                return
            self.now = move.time
            state.apply(move.seat, move.action)

    def _land(self, action: Action, seen: int, info: dict[str, Any]) -> None:
        """The learner's action at the end of the slice, on the table it saw at the start."""
        state = self.state
        assert state is not None
        if state.is_void(self.seat, action, seen):
            info["void"] = True
        elif action in state.legal_actions(self.seat):
            state.apply(self.seat, action)
        else:
            info["lapsed"] = True


__all__ = ["RealTimeGym"]
