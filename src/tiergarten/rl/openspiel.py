"""Every tiergarten game as an OpenSpiel game: `register()`, then
`pyspiel.load_game("python_tiergarten_maumau", {"players": 3, "rounds": 1})`.

The games are sequential with explicit chance: a new game begins with two chance nodes of
`DEAL_OUTCOMES` (65,536) equally likely outcomes each, `hi` and `lo`, which pick the deal: the
engine's seed `base * 2**32 + hi * 2**16 + lo`, `base` being the `seed` parameter (0 when it
is -1, its default), so `tiergarten.replay` rebuilds any game from its history (2**32 deals a
table of options; OpenSpiel's serialisation needs explicit chance, since a Python game cannot
hand its random generator's state to OpenSpiel). Out-of-turn rights are offered as windows
with a `wait` action, id `game.num_actions` (see turns.py), so `num_distinct_actions` is the
game's action count plus one. Parameters are `players`, `seed`, `rules` (the rules version,
default the newest: a game's string and its serialisation name it; OpenSpiel fills in every
parameter, so under an older version the options still default as the newest's: give them),
`recall` (the observations the perfect-recall tensor holds, below) and the game's options; an
option whose default is none takes 0 for none, and a mapping option (MammuZ's
`dinosaur_powers`) as `key:value;key:value` (JSON text is read too, but a game string
with it cannot be parsed back). Returns are terminal and zero-sum: the winners
share +1, the others -1.

Observation tensor: the game's encoder vector of the seat's observation (encoders/); the
observation string: that observation as JSON. The information state is of perfect recall: its
string is every observation the seat has had, as JSON (each one that differs from the one
before, in order) with its own decisions among them (`|<id>`, `wait` included), so two
histories the seat could tell apart never share it; its tensor is the encoder vectors of the
seat's last `recall` distinct observations (default 4, newest first, zeros before the first)
and a count of its own decisions per action id (/ 16, clipped): perfect recall as far as the
window reaches, which a fixed-size tensor of a game of hundreds of moves cannot go beyond.
`resample_from_infostate` is `state.resample(seat, rng)`, so OpenSpiel's ISMCTSBot runs; the
twin keeps the seat's own information state (and asks the same seat).

States serialise (`state.serialize()`, `pyspiel.serialize_game_and_state`): the engine state as
its record (the seed and the actions), which `deserialize_state` replays. A resampled state
cannot be serialised: its hidden cards were sampled, not dealt by a seed.

>>> import pyspiel
>>> names = register()
>>> game = pyspiel.load_game("python_tiergarten_maumau", {"players": 2, "rounds": 1, "seed": 1})
>>> game.num_distinct_actions(), game.num_players(), game.observation_tensor_shape()
(108, 2, [125])
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 65536)
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from tiergarten.core import Game, Option, State, game_class, games, load

from ..encoders import encoder
from .common import rewards
from .turns import Turns

PREFIX = "python_tiergarten_"
DEAL_OUTCOMES = 2**16  # outcomes of each of the two chance nodes that pick the deal
DEAL_NODES = 2
RECALL = 4  # the default `recall`: observations in the perfect-recall tensor


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _param(option: Option) -> Any:
    """The pyspiel parameter default standing for an option's default: a mapping as
    `key:value;key:value` (a game string splits its parameters at commas, so not JSON)."""
    if option.default is None:
        return 0
    if isinstance(option.default, dict):
        return ";".join(f"{k}:{v}" for k, v in sorted(option.default.items()))
    if isinstance(option.default, list):
        return ";".join(map(str, option.default))
    return option.default


def _option(option: Option, value: Any) -> Any:
    """The tiergarten option value a pyspiel parameter stands for (a mapping or list as
    `_param` writes it, or as JSON text)."""
    if option.default is None and value == 0:
        return None
    if isinstance(option.default, dict | list) and isinstance(value, str):
        if value.lstrip().startswith(("{", "[")):
            return json.loads(value)
        items = [item for item in value.split(";") if item]
        if isinstance(option.default, dict):
            return dict(item.split(":", 1) for item in items)
        return items
    return value


def game_type(game_id: str) -> pyspiel.GameType:
    """The pyspiel GameType of a registered tiergarten game, read from its GameInfo."""
    info = game_class(game_id).info
    # `rules`: the rules version (default the newest), so a game's string names it
    params: dict[str, Any] = {"players": info.default_players, "seed": -1,
                              "rules": info.rules_version, "recall": RECALL}
    params.update({o.name: _param(o) for o in info.options})
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"tiergarten {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if info.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if info.perfect_information
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


class TiergartenGame(pyspiel.Game):  # type: ignore[misc]
    """A tiergarten game with its players and options fixed, as a pyspiel game."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        info = game_class(self.game_id).info
        players = int(params.get("players", info.default_players))
        options = {o.name: _option(o, params[o.name]) for o in info.options if o.name in params}
        rules = int(params.get("rules", info.rules_version))
        self.tg: Game = load(self.game_id, players=players, rules=rules, **options)
        self.base = max(int(params.get("seed", -1)), 0)  # the table of deals
        self.recall = int(params.get("recall", RECALL))
        if self.recall < 1:
            raise ValueError(f"recall must be at least 1, not {self.recall}")
        self.chance = info.chance
        self.encoder = encoder(self.tg)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.tg.num_actions + 1,
            max_chance_outcomes=DEAL_OUTCOMES if self.chance else 0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=info.max_decisions * players)
        super().__init__(game_type(self.game_id), game_info, params)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_NODES if self.chance else 0

    def deal_seed(self, outcomes: list[int]) -> int:
        """The engine's seed of the deal the chance outcomes (hi, lo) pick."""
        seed = self.base
        for outcome in outcomes:
            seed = seed * DEAL_OUTCOMES + outcome
        return seed

    def new_initial_state(self) -> TiergartenState:
        state = TiergartenState(self)
        if not self.chance:
            state.begin(self.tg.new_state(self.deal_seed([0] * DEAL_NODES)))
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> TiergartenGame:
        return self  # a game is fixed once made; states share it

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class Recall:
    """What a seat has seen: its observations in order (each that differs from the one
    before, as JSON and as encoder vectors) with its own decisions among them."""

    __slots__ = ("text", "frames", "last", "counts")

    def __init__(self) -> None:
        self.text: list[str] = []
        self.frames: list[np.ndarray] = []  # newest last
        self.last: dict[str, Any] | None = None
        self.counts: dict[int, int] = {}

    def copy(self) -> Recall:
        new = Recall()
        new.text, new.frames = list(self.text), list(self.frames)
        new.last, new.counts = self.last, dict(self.counts)
        return new

    def see(self, obs: dict[str, Any], encode: Any) -> None:
        if obs != self.last:
            self.last = obs
            self.text.append(json.dumps(obs, sort_keys=True, separators=(",", ":")))
            self.frames.append(encode(obs))

    def decide(self, action: int) -> None:
        self.text.append(f"|{action}")
        self.counts[action] = self.counts.get(action, 0) + 1

    def __reduce__(self) -> tuple[Any, ...]:
        return (_recall, (self.text, self.frames, self.last, self.counts))


def _recall(text: list[str], frames: list[np.ndarray], last: dict[str, Any] | None,
            counts: dict[int, int]) -> Recall:
    new = Recall()
    new.text, new.frames, new.last, new.counts = text, frames, last, counts
    return new


class TiergartenState(pyspiel.State):  # type: ignore[misc]
    """A tiergarten state seen one seat at a time (turns.py), after the deal's chance nodes."""

    def __init__(self, game: TiergartenGame) -> None:
        super().__init__(game)
        self.deal: list[int] = []  # the chance outcomes so far
        self.turns: Turns | None = None
        self.recall: list[Recall] = [Recall() for _ in range(game.tg.players)]

    @property
    def tg_game(self) -> TiergartenGame:
        game: TiergartenGame = self.get_game()
        return game

    @property
    def tg(self) -> State:
        """The tiergarten state underneath (once dealt)."""
        assert self.turns is not None, "the deal's chance nodes come first"
        return self.turns.state

    def begin(self, state: State) -> None:
        """The deal is made: play starts on `state`."""
        self.turns = Turns(state)
        self._saw()

    def _saw(self) -> None:
        """Every seat sees the table after a step (a wait changes nothing: no new entry)."""
        assert self.turns is not None
        encode = self.tg_game.encoder.encode
        for seat, recall in enumerate(self.recall):
            recall.see(self.turns.state.observe(seat), encode)

    def current_player(self) -> int:
        if self.turns is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.turns.current()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.turns is not None:
            return []
        return [(i, 1.0 / DEAL_OUTCOMES) for i in range(DEAL_OUTCOMES)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.turns is None or player != self.turns.current():
            return []
        return self.turns.legal_ids()

    def _apply_action(self, action: int) -> None:
        if self.turns is None:
            if not 0 <= action < DEAL_OUTCOMES:
                raise ValueError(f"chance outcome {action} is not in 0..{DEAL_OUTCOMES - 1}")
            self.deal.append(int(action))
            if len(self.deal) == DEAL_NODES:
                game = self.tg_game
                self.begin(game.tg.new_state(game.deal_seed(self.deal)))
            return
        seat = self.turns.current()
        assert seat is not None
        self.recall[seat].decide(int(action))
        self.turns.step(int(action))
        if action != self.turns.wait_id:
            self._saw()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {'hi' if not self.deal else 'lo'} {action}"
        if action == self.tg_game.tg.num_actions:
            return "wait"
        return self.tg_game.tg.actions[action].text

    def is_terminal(self) -> bool:
        return self.turns is not None and self.turns.state.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.tg_game.tg.players
        return rewards(self.tg.result())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TiergartenState:
        """A state `player_id` cannot tell from this one (the engine's `resample`). The twin
        keeps `player_id`'s information state; every other seat's starts at the resampling
        (what it saw before in the sampled world was never drawn)."""
        assert self.turns is not None, "nothing to resample before the deal"
        rng = random.Random(int(probability_sampler() * 2**52))
        turns = self.turns.clone(self.tg.resample(player_id, rng))  # not replayable
        twin = self._copy(turns)
        twin.recall = [r.copy() if seat == player_id else Recall()
                       for seat, r in enumerate(self.recall)]
        twin._saw()
        return twin

    def _copy(self, turns: Turns | None) -> TiergartenState:
        new = TiergartenState(self.tg_game)
        new.deal, new.turns = list(self.deal), turns
        new.recall = [r.copy() for r in self.recall]
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> TiergartenState:
        return self._copy(None if self.turns is None else self.turns.clone())

    def __str__(self) -> str:
        if self.turns is None:
            return f"dealing: {self.deal}"
        return json.dumps(self.tg.observe(None), sort_keys=True, separators=(",", ":"))


class Observer:
    """OpenSpiel's PyObserver: the encoder vector and the observation as JSON; with perfect
    recall, the seat's whole past as text and its last observations as a tensor."""

    def __init__(self, game: TiergartenGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoder = game.encoder
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.private = (iig_obs_type is None
                        or iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)
        self.recall = game.recall if self.perfect_recall else 1
        size = self.encoder.size
        self.actions = game.tg.num_actions + 1 if self.perfect_recall else 0
        self.tensor = np.zeros(size * self.recall + self.actions, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if self.perfect_recall:
            self.dict = {"observations": self.tensor[:size * self.recall].reshape(
                self.recall, size), "own_actions": self.tensor[size * self.recall:]}

    def _observe(self, state: TiergartenState, player: int) -> dict[str, Any]:
        if state.turns is None:
            return {}
        return state.tg.observe(player if self.private else None)

    def set_from(self, state: TiergartenState, player: int) -> None:
        self.tensor[:] = 0.0
        if state.turns is None:
            return
        size = self.encoder.size
        if not (self.perfect_recall and self.private):
            self.tensor[:size] = self.encoder.encode(self._observe(state, player))
            return
        recall = state.recall[player]
        for i, frame in enumerate(reversed(recall.frames[-self.recall:])):
            self.tensor[i * size:(i + 1) * size] = frame
        own = self.tensor[size * self.recall:]
        for action, count in recall.counts.items():
            own[action] = min(count / 16.0, 1.0)

    def string_from(self, state: TiergartenState, player: int) -> str:
        if self.perfect_recall and self.private:
            return "".join(state.recall[player].text)
        return json.dumps(self._observe(state, player), sort_keys=True, separators=(",", ":"))


_REGISTERED: set[str] = set()


def register() -> tuple[str, ...]:
    """Register every tiergarten game with pyspiel (idempotent); return their short names."""
    for game_id in games():
        if game_id in _REGISTERED:
            continue
        cls = type(f"Tiergarten_{game_id}", (TiergartenGame,), {"game_id": game_id})
        pyspiel.register_game(game_type(game_id), cls)
        _REGISTERED.add(game_id)
    return tuple(short_name(g) for g in games())


__all__ = ["PREFIX", "TiergartenGame", "TiergartenState", "game_type", "register", "short_name"]
