"""A policy at a seat: any function of the seat's observation vector and action mask, played by
`PolicyBot`, plus `NumpyPolicy`, a small network stored as an `.npz` file and run with numpy
only (no torch to play).

A policy sees what every bot sees, its seat's `SeatView`: the observation is the game's encoder
vector of `view.observation` (`tiergarten.rl.encoder(game)`, the vector the RL envs give), the
mask is 1 for the ids of `view.legal` and, when the seat acts out of turn (another seat is the
one the game waits on, `observation["to_move"][0]`), for `wait` (id `game.num_actions`): the
action space of the envs (docs/research.md). Choosing `wait` proposes nothing.

Put one at a table by registering a factory under a name, then use the name anywhere a bot
name goes (`tiergarten simulate`, `gym_env(opponents=...)`, a league):

>>> import random, numpy as np, tiergarten
>>> from tiergarten.core.match import SeatView
>>> def lowest(observation, mask):  # any callable: a trained network, a frozen copy, ...
...     return int(np.flatnonzero(mask)[0])
>>> make = policy_factory(lowest)  # then: tiergarten.bots.register("maumau", "lowest", make)
>>> game = tiergarten.load("maumau", players=2, rounds=1)
>>> state = game.new_state(seed=3)
>>> seat = state.to_move()[0]
>>> bot = make(game, seat, random.Random(0))
>>> bot, str(bot.choose(SeatView(state, seat, state.legal_actions(seat))))
(lowest@1, 'draw')
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView

from .base import Bot

Policy = Callable[[np.ndarray, np.ndarray], int]
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class NumpyPolicy:
    """A multilayer perceptron over the observation (and, if `inputs` says so, the action mask
    first, as Stable-Baselines3's `MultiInputPolicy` concatenates a Dict observation's keys in
    sorted order): hidden layers with `activation`, a linear layer of logits over every id; the
    choice is the legal id of highest logit (or sampled, with `greedy=False`)."""

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]],
                 activation: str = "tanh", inputs: Sequence[str] = ("observation",),
                 meta: Mapping[str, Any] | None = None) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r}: choose one of {sorted(ACTIVATIONS)}")
        unknown = set(inputs) - {"observation", "action_mask"}
        if unknown or not inputs:
            raise ValueError(f"inputs are 'observation' and/or 'action_mask', not {inputs!r}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32))
                       for w, b in layers]
        self.activation = activation
        self.inputs = tuple(inputs)
        self.meta = dict(meta or {})

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Logits for a batch (2-D) or one observation (1-D)."""
        parts = {"observation": observation, "action_mask": mask}
        x = np.concatenate([np.asarray(parts[k], np.float32) for k in self.inputs], axis=-1)
        act = ACTIVATIONS[self.activation]
        for w, b in self.layers[:-1]:
            x = act(x @ w.T + b)
        w, b = self.layers[-1]
        out: np.ndarray = x @ w.T + b
        return out

    def __call__(self, observation: np.ndarray, mask: np.ndarray,
                 rng: random.Random | None = None) -> int:
        logits = np.where(np.asarray(mask) > 0, self.logits(observation, mask), -np.inf)
        if rng is None:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        return int(rng.choices(range(len(p)), weights=(p / p.sum()).tolist())[0])

    @property
    def size(self) -> int:
        """Parameters in all layers."""
        return sum(w.size + b.size for w, b in self.layers)

    def save(self, path: str | Path, dtype: Any = np.float16) -> None:
        """As a compressed `.npz` (weights as float16 by default: half the bytes, and the
        same choices in practice)."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(dtype), b.astype(dtype)
        arrays["activation"] = np.array(self.activation)
        arrays["inputs"] = np.array(",".join(self.inputs))
        arrays["meta"] = np.array(repr(sorted(self.meta.items())))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path | io.BytesIO) -> NumpyPolicy:
        import ast

        with np.load(path, allow_pickle=False) as data:
            count = sum(1 for k in data.files if k.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            meta = dict(ast.literal_eval(str(data["meta"]))) if "meta" in data.files else {}
            return cls(layers, str(data["activation"]), str(data["inputs"]).split(","), meta)


class PolicyBot(Bot):
    """A policy at a seat, seeing only that seat's `SeatView` (see the module doc)."""

    name = "policy"
    think = 1.0

    def __init__(self, game: Game, seat: int, rng: random.Random, policy: Policy,
                 name: str = "policy", sample: bool = False) -> None:
        super().__init__(game, seat, rng)
        from tiergarten.encoders import encoder

        self.policy = policy
        self.name = name
        self.sample = sample
        self.encoder = encoder(game)
        self.wait_id = game.num_actions

    def propose(self, view: SeatView) -> Proposal | None:
        action = self.choose(view)
        if action is None:
            return None
        return (self.think if self._in_turn(view) else 0.5 * self.think, action)

    def _in_turn(self, view: SeatView) -> bool:
        to_move = view.observation.get("to_move") or [self.seat]
        return bool(to_move[0] == self.seat)

    def choose(self, view: SeatView) -> Action | None:
        if not view.legal:
            return None
        mask = np.zeros(self.game.num_actions + 1, np.float32)
        mask[[a.id for a in view.legal]] = 1.0
        if not self._in_turn(view):
            mask[self.wait_id] = 1.0
        obs = self.encoder.encode(view.observation)
        if isinstance(self.policy, NumpyPolicy):
            chosen = self.policy(obs, mask, self.rng if self.sample else None)
        else:
            chosen = int(self.policy(obs, mask))
        if chosen == self.wait_id or not mask[chosen]:
            return None if not self._in_turn(view) else view.legal[0]
        return self.game.actions[chosen]


def policy_factory(policy: Policy, name: str | None = None,
                   sample: bool = False) -> Callable[[Game, int, random.Random], Bot]:
    """A bot factory for `tiergarten.bots.register`: `policy` at the seat, named `name`
    (by default the name it is registered under is not known here: "policy")."""
    label = name or getattr(policy, "__name__", None) or "policy"

    def make(game: Game, seat: int, rng: random.Random) -> Bot:
        return PolicyBot(game, seat, rng, policy, label, sample)

    return make


__all__ = ["NumpyPolicy", "Policy", "PolicyBot", "policy_factory"]
