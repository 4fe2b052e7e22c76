"""Every game registered with pyspiel: OpenSpiel's random simulation test, ISMCTSBot, resampling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import tiergarten
from tiergarten.rl.openspiel import register, short_name

from .cases import CASES, case_id, every_case

register()


class ShortRollout:
    """An evaluator for ISMCTS: a random rollout of at most `depth` steps (0 if unfinished),
    so a whole game with search stays quick in a unit test."""

    def __init__(self, depth: int, seed: int) -> None:
        self.depth = depth
        self.rng = np.random.RandomState(seed)

    def evaluate(self, state):
        state = state.clone()
        for _ in range(self.depth):
            if state.is_terminal():
                return np.array(state.returns())
            state.apply_action(self.rng.choice(state.legal_actions()))
        return np.array(state.returns()) if state.is_terminal() else np.zeros(state.num_players())

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {short_name(g) for g in tiergarten.games()} <= names


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_random_sim_test(game: str, options: dict) -> None:
    loaded = pyspiel.load_game(short_name(game), {**options, "seed": 7})
    sims = 1 if game == "mucca_pazza" else 2
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=False, verbose=False)


def test_parameters_reach_the_game() -> None:
    game = pyspiel.load_game(short_name("mammuz"), {"players": 5, "next_starter": "taker"})
    assert game.num_players() == 5
    assert game.tg.options["next_starter"] == "taker"
    assert game.num_distinct_actions() == game.tg.num_actions + 1
    maumau = pyspiel.load_game(short_name("maumau"), {"players": 2})
    assert maumau.tg.options["rounds"] is None  # 0 stands for none


def _play_with_ismcts(game_id: str, params: dict, seed: int) -> pyspiel.State:
    game = pyspiel.load_game(short_name(game_id), {**params, "seed": seed})
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, ShortRollout(12, seed), 2.0, max_simulations=6,
                           random_state=rng)
    worlds = np.random.RandomState(seed + 1)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(
        player, worlds.uniform))  # seeded worlds (the default sampler is not seeded)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return state


@pytest.mark.parametrize(("game", "params"), [("maumau", {"players": 2, "rounds": 1}),
                                              ("mammuz", {"players": 3})], ids=case_id)
def test_ismcts_bot_plays_to_the_end(game: str, params: dict) -> None:
    state = _play_with_ismcts(game, params, 5)
    assert state.tg.is_over()
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.returns() == pytest.approx(
        _play_with_ismcts(game, params, 5).returns())  # seeded: the same game again


@pytest.mark.parametrize(("game", "options"),
                         every_case(["maumau", "mammuz", "mucca_pazza"]), ids=case_id)
def test_resampled_state_has_the_same_information_state(game: str, options: dict) -> None:
    loaded = pyspiel.load_game(short_name(game), {**options, "seed": 3})
    state = loaded.new_initial_state()
    rng = np.random.RandomState(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal() and checked < 120:
        checked += 1
        player = state.current_player()
        twin = state.resample_from_infostate(player, sampler)
        assert twin.current_player() == player
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.information_state_tensor(player) == state.information_state_tensor(player)
        assert twin.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10


def test_clone_is_independent() -> None:
    game = pyspiel.load_game(short_name("maumau"), {"players": 3, "rounds": 1, "seed": 2})
    state = game.new_initial_state()
    copy = state.clone()
    draw = game.tg.parse_action("draw").id
    assert draw in copy.legal_actions()
    copy.apply_action(draw)
    assert state.tg.history == [] and len(copy.tg.history) == 1
    assert state.tg.observe(None)["stock_size"] == copy.tg.observe(None)["stock_size"] + 1


def test_lecker_mammut_sequential_view_reaches_the_end() -> None:
    options = CASES["lecker_mammut"][0]
    game = pyspiel.load_game(short_name("lecker_mammut"), {**options, "seed": 4})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.tg.is_over()


def test_the_rules_version_is_a_parameter_and_is_named_by_the_game() -> None:
    default = pyspiel.load_game(short_name("maumau"), {"players": 2})
    older = pyspiel.load_game(short_name("maumau"), {"players": 2, "rules": 2})
    assert default.tg.rules == tiergarten.load("maumau").info.rules_version
    assert older.tg.rules == 2  # its options default as the newest's: OpenSpiel fills them in
    assert "rules=2" in str(older)  # the game's string (and so its serialisation) names it
