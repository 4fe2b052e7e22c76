"""Every game registered with pyspiel: OpenSpiel's random simulation test (with serialisation),
the serialisation round trip, the perfect-recall information state, ISMCTSBot, resampling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import tiergarten
from tiergarten.rl.openspiel import register, short_name

from .cases import CASES, case_id, every_case

register()


def dealt(game, seed: int = 0):
    """A new state of `game` past the deal's chance nodes (outcomes from a seeded generator)."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
    return state


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
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_serialisation_round_trip(game: str, options: dict) -> None:
    """`serialize_game_and_state` and back, at every few steps of a random game: the same
    game, history, table, legal actions and information states; play goes on the same."""
    loaded = pyspiel.load_game(short_name(game), {**options, "seed": 5})
    state = loaded.new_initial_state()
    rng = np.random.RandomState(2)
    steps = 0
    while not state.is_terminal() and steps < 150:
        if steps % 15 == 0 or state.is_chance_node():
            text = pyspiel.serialize_game_and_state(loaded, state)
            again, copy = pyspiel.deserialize_game_and_state(text)
            assert str(again) == str(loaded) and copy.history() == state.history()
            assert str(copy) == str(state)
            assert copy.current_player() == state.current_player()
            if not state.is_chance_node():
                assert copy.legal_actions() == state.legal_actions()
                for seat in range(loaded.num_players()):
                    assert (copy.information_state_string(seat)
                            == state.information_state_string(seat))
                    assert (copy.information_state_tensor(seat)
                            == state.information_state_tensor(seat))
                action = rng.choice(state.legal_actions())
                copy.apply_action(action)
                twin = state.clone()
                twin.apply_action(action)
                assert str(copy) == str(twin)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 20


def test_a_deal_is_the_engines_seed_of_the_chance_outcomes() -> None:
    game = pyspiel.load_game(short_name("maumau"), {"players": 2, "rounds": 1, "seed": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2**16
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state.apply_action(7)
    state.apply_action(11)
    assert state.tg.seed == (3 * 2**16 + 7) * 2**16 + 11
    assert tiergarten.replay(state.tg.record()).observe(None) == state.tg.observe(None)
    twin = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(Exception, match="resampled state cannot be serialised"):
        twin.serialize()


def test_information_state_is_of_perfect_recall() -> None:
    """Two histories that differ only beyond the observation's short log, or in a seat's own
    earlier decision, give different information states; the observation may be the same."""
    game = pyspiel.load_game(short_name("mucca_pazza"), {"players": 2, "seed": 1})
    state = dealt(game)
    seat = state.current_player()
    slides = [a for a in state.legal_actions() if "stop" not in state.action_to_string(a)]
    left, right = state.clone(), state.clone()
    left.apply_action(slides[0])
    right.apply_action(slides[1])
    back = {a: state.action_to_string(a) for a in state.legal_actions()}
    undo_left = next(a for a, t in back.items() if t == _opposite(back[slides[0]]))
    undo_right = next(a for a, t in back.items() if t == _opposite(back[slides[1]]))
    left.apply_action(undo_left)
    right.apply_action(undo_right)
    assert left.tg.observe(None)["board"] == right.tg.observe(None)["board"]
    assert left.information_state_string(seat) != right.information_state_string(seat)
    assert left.information_state_tensor(seat) != right.information_state_tensor(seat)
    size = game.tg.num_actions + 1 + game.recall * len(state.observation_tensor(seat))
    assert game.information_state_tensor_shape() == [size]
    assert state.information_state_string(seat).startswith(
        state.observation_string(seat))  # the first thing seen: the deal


def _opposite(slide: str) -> str:
    """The slide back: `slide heads left` undoes `slide heads right`."""
    words = slide.split()
    words[-1] = {"left": "right", "right": "left"}.get(words[-1], words[-1])
    return " ".join(words)


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
    state = dealt(loaded)
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
    state = dealt(game)
    copy = state.clone()
    draw = game.tg.parse_action("draw").id
    assert draw in copy.legal_actions()
    copy.apply_action(draw)
    assert state.tg.history == [] and len(copy.tg.history) == 1
    assert state.tg.observe(None)["stock_size"] == copy.tg.observe(None)["stock_size"] + 1


def test_lecker_mammut_sequential_view_reaches_the_end() -> None:
    options = CASES["lecker_mammut"][0]
    game = pyspiel.load_game(short_name("lecker_mammut"), {**options, "seed": 4})
    state = dealt(game)
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
