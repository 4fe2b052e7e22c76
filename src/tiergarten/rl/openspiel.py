"""Every tiergarten game as an OpenSpiel game: `register()`, then
`pyspiel.load_game("python_tiergarten_maumau", {"players": 3, "rounds": 1})`.

The games are sequential with sampled chance (the deal comes from a seed, as in the engine);
out-of-turn rights are offered as windows with a `wait` action, id `game.num_actions` (see
turns.py), so `num_distinct_actions` is the game's action count plus one. Parameters are
`players`, `seed` (-1: a fresh seed for every new game; else the sequence of deals is fixed),
`rules` (the rules version, default the newest: a game's string and its serialisation name it;
OpenSpiel fills in every parameter, so under an older version the options still default as the
newest's: give them) and the game's options; an option whose default is none takes 0 for
none, and a mapping option (MammuZ's `dinosaur_powers`) is written as JSON text. Returns are
terminal and zero-sum: the winners share +1, the others -1.

Observation tensor and information-state tensor are the game's encoder vector of the seat's
observation (encoders/). The observation string is the seat's observation as JSON; the
information-state string adds the seat's own past decisions (action ids, `wait` included).
`resample_from_infostate` is `state.resample(seat, rng)`, so OpenSpiel's ISMCTSBot runs.

>>> import pyspiel
>>> names = register()
>>> game = pyspiel.load_game("python_tiergarten_maumau", {"players": 2, "rounds": 1, "seed": 1})
>>> game.num_distinct_actions(), game.num_players(), game.observation_tensor_shape()
(108, 2, [125])
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from tiergarten.core import Game, Option, State, game_class, games, load

from .common import rewards
from .encoders import encoder
from .turns import Turns

PREFIX = "python_tiergarten_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _param(option: Option) -> Any:
    """The pyspiel parameter default standing for an option's default."""
    if option.default is None:
        return 0
    if isinstance(option.default, dict | list):
        return json.dumps(option.default, sort_keys=True)
    return option.default


def _option(option: Option, value: Any) -> Any:
    """The tiergarten option value a pyspiel parameter stands for."""
    if option.default is None and value == 0:
        return None
    if isinstance(option.default, dict | list) and isinstance(value, str):
        return json.loads(value)
    return value


def game_type(game_id: str) -> pyspiel.GameType:
    """The pyspiel GameType of a registered tiergarten game, read from its GameInfo."""
    info = game_class(game_id).info
    # `rules`: the rules version (default the newest), so a game's string names it
    params: dict[str, Any] = {"players": info.default_players, "seed": -1,
                              "rules": info.rules_version}
    params.update({o.name: _param(o) for o in info.options})
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"tiergarten {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if info.chance
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
        seed = int(params.get("seed", -1))
        self._seeds = random.Random(None if seed < 0 else seed)
        self.encoder = encoder(self.tg)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.tg.num_actions + 1,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=info.max_decisions * players)
        super().__init__(game_type(self.game_id), game_info, params)

    def new_initial_state(self) -> TiergartenState:
        return TiergartenState(self, Turns(self.tg.new_state(self._seeds.getrandbits(63))),
                               [[] for _ in range(self.tg.players)])

    def __deepcopy__(self, memo: dict[int, Any]) -> TiergartenGame:
        return self  # a game is fixed once made; states share it

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class TiergartenState(pyspiel.State):  # type: ignore[misc]
    """A tiergarten state seen one seat at a time (turns.py)."""

    def __init__(self, game: TiergartenGame, turns: Turns, own: list[list[int]]) -> None:
        super().__init__(game)
        self.tg_game = game
        self.turns = turns
        self.own = own  # each seat's own decisions so far (its action ids)

    @property
    def tg(self) -> State:
        """The tiergarten state underneath."""
        return self.turns.state

    def current_player(self) -> int:
        seat = self.turns.current()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.turns.current():
            return []
        return self.turns.legal_ids()

    def _apply_action(self, action: int) -> None:
        seat = self.turns.current()
        assert seat is not None
        self.own[seat].append(int(action))
        self.turns.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self.turns.wait_id:
            return "wait"
        return self.tg.game.actions[action].text

    def is_terminal(self) -> bool:
        return self.tg.is_over()

    def returns(self) -> list[float]:
        if not self.tg.is_over():
            return [0.0] * self.tg.game.players
        return rewards(self.tg.result())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TiergartenState:
        """A state `player_id` cannot tell from this one (the engine's `resample`)."""
        rng = random.Random(int(probability_sampler() * 2**52))
        twin = self.turns.clone(self.tg.resample(player_id, rng))
        return TiergartenState(self.tg_game, twin, [list(o) for o in self.own])

    def __deepcopy__(self, memo: dict[int, Any]) -> TiergartenState:
        return TiergartenState(self.tg_game, self.turns.clone(), [list(o) for o in self.own])

    def __str__(self) -> str:
        return json.dumps(self.tg.observe(None), sort_keys=True, separators=(",", ":"))


class Observer:
    """OpenSpiel's PyObserver: the encoder vector and the observation as JSON."""

    def __init__(self, game: TiergartenGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoder = game.encoder
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.private = (iig_obs_type is None
                        or iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _observe(self, state: TiergartenState, player: int) -> dict[str, Any]:
        return state.tg.observe(player if self.private else None)

    def set_from(self, state: TiergartenState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(self._observe(state, player))

    def string_from(self, state: TiergartenState, player: int) -> str:
        text = json.dumps(self._observe(state, player), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall and self.private:
            text += "|own:" + ",".join(map(str, state.own[player]))
        return text


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
