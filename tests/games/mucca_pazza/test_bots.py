"""Mucca Pazza bots: they play from observations only, use the solver, remember, and win.

The strength tests play fixed seeds (so they are repeatable) with seats alternating, and ask for
a clear margin over what the figures in the docs show for 2,000 games.
"""

from __future__ import annotations

import random

import tiergarten
from tiergarten.bots import make, names
from tiergarten.core.match import SeatView, play_match
from tiergarten.games.mucca_pazza import JuniorState, solve
from tiergarten.games.mucca_pazza.cards import ANIMALS

from .positions import J_BODIES, J_HEADS, J_LEGS, junior, standard
from .test_standard import HEADS


def win_share(variant: str, bot: str, other: str, games: int) -> float:
    game = tiergarten.load("mucca_pazza", players=2, variant=variant)
    share = 0.0
    for i in range(games):
        lineup = (bot, other) if i % 2 == 0 else (other, bot)
        agents = [make(n, game, s, random.Random(1000 + i * 2 + s)) for s, n in enumerate(lineup)]
        result = play_match(game, agents, seed=5000 + i).result()
        share += sum(1 / len(result.winners) for w in result.winners if lineup[w] == bot)
    return share / games


def test_the_bots_are_registered() -> None:
    assert {"greedy", "memory", "child", "random"} <= set(names("mucca_pazza"))


def test_greedy_beats_random_in_standard() -> None:
    assert win_share("standard", "greedy", "random", 60) > 0.9


def test_greedy_beats_random_in_junior() -> None:
    assert win_share("junior", "greedy", "random", 60) > 0.9


def test_memory_beats_the_forgetful_child_in_junior() -> None:
    assert win_share("junior", "memory", "child", 300) > 0.53


def _choice(state: tiergarten.State, bot: str, seat: int) -> str:
    agent = make(bot, state.game, seat, random.Random(0))
    return str(agent.choose(SeatView(state, seat, state.legal_actions(seat))))


def play_turn(state: tiergarten.State, bot: str, seat: int) -> list[str]:
    moves = []
    while state.to_move() == (seat,):
        moves.append(_choice(state, bot, seat))
        state.apply(seat, moves[-1])
    return moves


def test_greedy_wins_two_animals_with_one_slide_and_keeps_its_stars() -> None:
    # the legs stand one place left of the heads and bodies: one slide completes all ten
    legs = "dragon monkey cockatoo pig turtle dog zebra cat horse frog"
    state = standard(HEADS, HEADS, legs, "frog dog", pile="cat")
    assert play_turn(state, "greedy", 0) == ["slide legs right"]  # the turn ends there
    obs = state.observe(0)
    assert obs["cards"][0] == 2 and obs["stars"][0] == 3


def test_greedy_spends_a_star_when_it_wins_more() -> None:
    heads = " ".join(ANIMALS)
    bodies = " ".join(ANIMALS[2:] + ANIMALS[:2])
    legs = " ".join(ANIMALS[-2:] + ANIMALS[:-2])  # every animal four slides away
    state = standard(heads, bodies, legs, "frog", pile="cat")
    assert len(play_turn(state, "greedy", 0)) == 4  # the fourth slide completes: no stop
    obs = state.observe(0)
    assert obs["cards"][0] == 1 and obs["stars"][0] == 2


def test_greedy_never_tries_to_slide_past_a_completion() -> None:
    # heads right completes the frog, bodies left the pig; both together the dog and the cat
    board = ("frog dog cat horse pig", "pig frog horse dog cat", "horse frog dog cat pig")
    state = standard(*board, "frog dog dog dog", pile="cat", stars=(0, 0))
    assert play_turn(state, "greedy", 0) == ["slide heads right"]  # the frog ends the turn
    assert state.observe(0)["won"][0] == ["frog"]
    state = standard(*board, "frog dog dog dog", pile="cat")  # a star buys a way round
    assert play_turn(state, "greedy", 0) == ["slide heads left"] * 3 + ["slide legs right"]
    assert state.observe(0)["won"][0] == ["dog"] * 3 and state.observe(0)["stars"][0] == 2


def test_greedy_wins_what_the_solver_says_on_real_boards() -> None:
    game = tiergarten.load("mucca_pazza", players=2)
    for seed in range(40):
        state, rng = game.new_state(seed), random.Random(seed)
        for _ in range(seed % 5):  # a few random turns first, to vary the table
            seat = state.to_move()[0]
            while state.to_move() == (seat,):
                state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.to_move()[0]
        obs = state.observe(seat)
        best = solve(obs["board"], landing=obs["landing"], slides=3, stars=obs["stars"][seat])
        moves = play_turn(state, "greedy", seat)
        after = state.observe(seat)
        assert after["cards"][seat] - obs["cards"][seat] == best.cards, seed
        assert obs["stars"][seat] - after["stars"][seat] == best.stars, seed
        if best.cards:  # the solver's own slides, and the turn ended at the completion
            assert moves == list(best.slides), seed


def test_memory_remembers_a_card_revealed_in_another_players_turn() -> None:
    # the frog (position 1) is one slide away; seat 1 reveals it and stops
    grid = "frog pig pig pig pig pig pig pig pig pig pig pig pig pig pig ghost"
    state = junior(J_HEADS, J_BODIES, J_LEGS, grid)
    memory = make("memory", state.game, 0, random.Random(0))
    state.apply(0, "reveal 2")  # a pig, three slides away
    memory.choose(SeatView(state, 0, state.legal_actions(0)))
    state.apply(0, "stop")
    state.apply(1, "reveal 1")
    state.apply(1, "stop")
    assert isinstance(state, JuniorState) and state.observe(0)["grid"][0] is None
    view = SeatView(state, 0, state.legal_actions(0))
    assert str(memory.choose(view)) == "reveal 1"
    state.apply(0, "reveal 1")
    view = SeatView(state, 0, state.legal_actions(0))
    assert str(memory.choose(view)) == "slide bodies left"
