"""Batched envs: many games of one turn-based game stepped in one call, observations and masks
as arrays, games that end dealt anew at once (auto-reset), optionally in worker processes that
each step a slice of the games (`workers=2` uses both cores of a 2-core machine).

- `BatchedGames(id, num_games)`: the multi-agent form, PettingZoo AEC-style in batch: in every
  game one agent is asked (`agent[i]`, the seat of turns.py, windows included); `step(actions)`
  takes one id per game for that agent and returns `(obs, mask, agent, rewards, terminated,
  truncated)`: `obs[i]` (float32, the encoder vector) and `mask[i]` (int8) are for the agent
  asked next, `rewards[i, seat]` is every seat's reward for the step (terminal, zero-sum: the
  winners share +1), and a game that ended in the step (`terminated[i]`) has already been
  dealt again: its `obs[i]`, `mask[i]`, `agent[i]` are the new game's. An id outside the mask
  changes nothing (the same agent is asked again; `illegal[i]`). Self-play learners read
  `agent` to tell whose step it was.
- `VectorSeatEnv(id, num_envs, opponents=...)`: the Gymnasium vector API (a
  `gymnasium.vector.VectorEnv`) of `gym_env`: one learner seat per game against bots, Dict
  observations `observation` (num_envs, size) and `action_mask` (num_envs, ids); auto-reset
  in the same step (`metadata["autoreset_mode"]`: the observation after a terminal step is
  the next game's; `infos["result"]` holds the ended games' results, the rest empty). An id
  outside the mask is replaced by a random legal one, as in `gym_env`.

Observations are exactly `encoder(game).encode(state.observe(seat))`: each row is written
from the encoder's `sparse(state, seat)` (Mau Mau's reads its state directly, the hot path;
other games build the observation first), one scatter per call for all rows.

>>> envs = BatchedGames("maumau", 4, players=2, rounds=1)
>>> obs, mask, agent = envs.reset(seed=1)
>>> obs.shape, mask.shape, agent.tolist()
((4, 125), (4, 108), [1, 1, 1, 1])
>>> import numpy as np
>>> actions = np.array([np.flatnonzero(m)[0] for m in mask])
>>> obs, mask, agent, rewards, terminated, truncated = envs.step(actions)
>>> rewards.shape, terminated.tolist()
((4, 2), [False, False, False, False])
>>> envs.close()
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import random
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np

from tiergarten import bots
from tiergarten.core import Game
from tiergarten.core.match import SeatView

from ..encoders import encoder
from .common import make_game, rewards
from .turns import Turns


class _Slice:
    """Games lo..hi of a batch, stepped in this process, writing into the shared arrays."""

    def __init__(self, game: Game, arrays: dict[str, np.ndarray], lo: int, hi: int,
                 opponents: Sequence[str] | None, seat: int) -> None:
        self.game = game
        self.a = arrays
        self.lo, self.hi = lo, hi
        self.encoder = encoder(game)
        self.n = game.players
        self.wait_id = game.num_actions
        self.opponents = None if opponents is None else list(opponents)
        self.seat = seat
        self.turns: list[Turns] = []
        self.bots: list[dict[int, bots.Bot]] = []
        self.rngs: list[random.Random] = []  # one a game: the same games however sliced

    # -- dealing ----------------------------------------------------------------------------

    def reset(self, seed: int) -> None:
        self.rngs = [random.Random(seed * 1_000_003 + i) for i in range(self.lo, self.hi)]
        self.bots = []
        self.turns = [self._deal(i) for i in range(self.lo, self.hi)]
        for k in range(self.hi - self.lo):
            self._settle(k)
        self._write(range(self.hi - self.lo))

    def _settle(self, k: int) -> None:
        """Let game k's bots act; deal again while they finish it before its learner is asked."""
        self._run_bots(k)
        while self.opponents is not None and self.turns[k].state.is_over():
            self.turns[k] = self._deal(self.lo + k)
            self._run_bots(k)

    def _deal(self, i: int) -> Turns:
        rng = self.rngs[i - self.lo]
        turns = Turns(self.game.new_state(rng.getrandbits(63)))
        if self.opponents is not None:
            k = i - self.lo
            seats = [s for s in range(self.n) if s != self.seat]
            made = {s: bots.make(name, self.game, s, random.Random(rng.getrandbits(64)))
                    for s, name in zip(seats, self.opponents, strict=True)}
            if k < len(self.bots):
                self.bots[k] = made
            else:
                self.bots.append(made)
        return turns

    # -- stepping ---------------------------------------------------------------------------

    def step(self) -> None:
        a = self.a
        actions = a["actions"]
        mask = a["mask"]
        rew = a["rewards"]
        term = a["terminated"]
        illegal = a["illegal"]
        lo = self.lo
        rew[lo:self.hi] = 0.0
        term[lo:self.hi] = False
        illegal[lo:self.hi] = False
        changed = []
        for k, turns in enumerate(self.turns):
            i = lo + k
            chosen = int(actions[i])
            if not (0 <= chosen < mask.shape[1]) or not mask[i, chosen]:
                illegal[i] = True
                if self.opponents is None:
                    continue  # the same agent is asked again: its row stands
                chosen = self.rngs[k].choice(turns.legal_ids())
            turns.step(chosen)
            self._run_bots(k)
            state = turns.state
            if state.is_over():
                rew[i] = rewards(state.result())
                term[i] = True
                self._results.append((i, state.result().to_dict()))
                self.turns[k] = turns = self._deal(i)
                self._settle(k)
            changed.append(k)
        self._write(changed)

    _results: list[tuple[int, dict[str, Any]]] = []

    def _run_bots(self, k: int) -> None:
        """Let the bots of game k act until its learner is asked or it is over."""
        if self.opponents is None:
            return
        turns = self.turns[k]
        table = self.bots[k]
        while True:
            seat = turns.current()
            if seat is None or seat == self.seat:
                return
            legal = turns.legal()
            proposal = table[seat].propose(SeatView(turns.state, seat, legal))
            if proposal is not None:
                turns.step(proposal[1].id)
            elif turns.is_window():
                turns.step(turns.wait_id)
            else:
                turns.step(self.rngs[k].choice(legal).id)

    def _write(self, rows: Sequence[int] | range) -> None:
        """The rows of the games in `rows` (slice positions): observation, mask, agent."""
        a = self.a
        obs, mask, agent = a["obs"], a["mask"], a["agent"]
        lo = self.lo
        at_o: list[int] = []
        idx_o: list[int] = []
        val_o: list[float] = []
        at_m: list[int] = []
        idx_m: list[int] = []
        sparse = self.encoder.sparse
        for k in rows:
            i = lo + k
            turns = self.turns[k]
            seat = turns.current()
            assert seat is not None
            agent[i] = seat
            ix, vx = sparse(turns.state, seat)
            at_o.extend([i] * len(ix))
            idx_o.extend(ix)
            val_o.extend(vx)
            ids = turns.legal_ids()
            at_m.extend([i] * len(ids))
            idx_m.extend(ids)
        if not rows:
            return
        where = np.fromiter((lo + k for k in rows), np.int64)
        obs[where] = 0.0
        mask[where] = 0
        obs[at_o, idx_o] = val_o
        mask[at_m, idx_m] = 1


def _worker(conn: Connection, game: Game, shared: dict[str, Any], shapes: dict[str, Any],
            lo: int, hi: int, opponents: Sequence[str] | None, seat: int) -> None:
    arrays = {k: np.frombuffer(buf, dtype=shapes[k][1]).reshape(shapes[k][0])
              for k, buf in shared.items()}
    part = _Slice(game, arrays, lo, hi, opponents, seat)
    part._results = []
    while True:
        command, arg = conn.recv()
        if command == "reset":
            part.reset(arg)
            conn.send(None)
        elif command == "step":
            part._results = []
            part.step()
            conn.send(part._results)
        else:
            conn.close()
            return


class _Batch:
    """The arrays and the slices (here or in worker processes) of a batch of games."""

    def __init__(self, game: Game | str, num_games: int, workers: int, players: int | None,
                 options: dict[str, Any], opponents: Sequence[str] | None, seat: int) -> None:
        self.game = make_game(game, players, options)
        if self.game.info.real_time:
            raise ValueError(f"{self.game.id} is played in real time: the batched envs are "
                             "for turn-based games")
        if num_games < 1 or workers < 1:
            raise ValueError("num_games and workers must be at least 1")
        self.num_games = num_games
        self.workers = min(workers, num_games)
        size = encoder(self.game).size
        ids = self.game.num_actions + 1
        n = self.game.players
        self.shapes: dict[str, tuple[tuple[int, ...], Any]] = {
            "obs": ((num_games, size), np.float32), "mask": ((num_games, ids), np.int8),
            "agent": ((num_games,), np.int64), "rewards": ((num_games, n), np.float32),
            "terminated": ((num_games,), np.bool_), "illegal": ((num_games,), np.bool_),
            "actions": ((num_games,), np.int64)}
        bounds = np.linspace(0, num_games, self.workers + 1).astype(int).tolist()
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.results: list[tuple[int, dict[str, Any]]] = []
        if self.workers == 1:
            self.arrays = {k: np.zeros(shape, dtype) for k, (shape, dtype) in self.shapes.items()}
            self.local: _Slice | None = _Slice(self.game, self.arrays, 0, num_games, opponents,
                                               seat)
            self.local._results = self.results
            return
        self.local = None
        ctx = mp.get_context("fork")
        shared = {k: ctx.RawArray("b", int(np.prod(shape)) * np.dtype(dtype).itemsize)
                  for k, (shape, dtype) in self.shapes.items()}
        self.arrays = {k: np.frombuffer(buf, dtype=self.shapes[k][1]).reshape(
            self.shapes[k][0]) for k, buf in shared.items()}
        for w in range(self.workers):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(there, self.game, shared, self.shapes,
                                                     bounds[w], bounds[w + 1], opponents, seat),
                               daemon=True)
            proc.start()
            self.conns.append(here)
            self.procs.append(proc)

    def reset(self, seed: int | None) -> None:
        seed = random.SystemRandom().getrandbits(32) if seed is None else seed
        if self.local is not None:
            self.local.reset(seed)
            return
        for conn in self.conns:
            conn.send(("reset", seed))
        for conn in self.conns:
            conn.recv()

    def step(self, actions: Any) -> None:
        self.arrays["actions"][:] = np.asarray(actions, dtype=np.int64).reshape(-1)
        if self.local is not None:
            self.results.clear()
            self.local.step()
            return
        for conn in self.conns:
            conn.send(("step", None))
        self.results = [r for conn in self.conns for r in conn.recv()]

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
        for proc in self.procs:
            proc.join(timeout=5)
        self.conns, self.procs = [], []


class BatchedGames:
    """The multi-agent batched form (see the module doc)."""

    def __init__(self, game: Game | str, num_games: int, workers: int = 1,
                 players: int | None = None, **options: Any) -> None:
        self._batch = _Batch(game, num_games, workers, players, options, None, 0)
        self.game = self._batch.game
        self.num_games = num_games
        self.wait_id = self.game.num_actions
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]

    @property
    def illegal(self) -> np.ndarray:
        return self._batch.arrays["illegal"]

    @property
    def results(self) -> list[tuple[int, dict[str, Any]]]:
        """(game index, result) of every game that ended in the last step."""
        return list(self._batch.results)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._batch.reset(seed)
        a = self._batch.arrays
        return a["obs"], a["mask"], a["agent"]

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        """One id per game for the agent asked in it; the arrays are reused by the next call
        (copy what you keep)."""
        self._batch.step(actions)
        a = self._batch.arrays
        truncated = np.zeros(self.num_games, np.bool_)
        return a["obs"], a["mask"], a["agent"], a["rewards"], a["terminated"], truncated

    def close(self) -> None:
        self._batch.close()


class VectorSeatEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """The Gymnasium vector form: one learner seat per game against bots (module doc)."""

    def __init__(self, game: Game | str, num_envs: int, opponents: str | Sequence[str] = "random",
                 seat: int = 0, workers: int = 1, players: int | None = None,
                 **options: Any) -> None:
        from gymnasium import spaces
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space

        loaded = make_game(game, players, options)
        n = loaded.players
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents are needed, got {len(names)}")
        for name in names:
            if name not in bots.names(loaded.id):
                raise ValueError(f"no bot {name!r} for {loaded.id}")
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of {n} players")
        self._batch = _Batch(loaded, num_envs, workers, None, {}, names, seat)
        self.game = loaded
        self.num_envs = num_envs
        self.seat = seat
        size = encoder(loaded).size
        ids = loaded.num_actions + 1
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (ids,), np.int8)})
        self.single_action_space = spaces.Discrete(ids)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def _obs(self) -> dict[str, np.ndarray]:
        a = self._batch.arrays
        return {"observation": a["obs"], "action_mask": a["mask"]}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._batch.reset(seed)
        return self._obs(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        self._batch.step(actions)
        a = self._batch.arrays
        reward = a["rewards"][:, self.seat].copy()
        infos: dict[str, Any] = {}
        if self._batch.results:
            result = np.empty(self.num_envs, dtype=object)
            for i, r in self._batch.results:
                result[i] = r
            infos = {"result": result, "_result": a["terminated"].copy()}
        return (self._obs(), reward, a["terminated"].copy(),
                np.zeros(self.num_envs, np.bool_), infos)

    def action_masks(self) -> np.ndarray:
        return self._batch.arrays["mask"].astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self._batch.close()


__all__ = ["BatchedGames", "VectorSeatEnv"]
