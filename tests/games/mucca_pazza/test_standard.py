"""Standard rules (RULES.md §4, the default variant), one scenario per rule."""

from __future__ import annotations

import random

import pytest

import tiergarten
from tiergarten.games.mucca_pazza import StandardState

from .positions import standard

# Ten animals, nothing complete. Frog needs one slide (legs right); dog two.
HEADS = "frog dragon monkey cockatoo pig turtle dog zebra cat horse"
BODIES = "frog monkey cockatoo pig turtle dog zebra cat horse dragon"
LEGS = "dragon monkey cockatoo pig turtle zebra dog cat horse frog"


def test_set_up_shows_ten_cards_and_gives_three_stars_each() -> None:
    for seed in range(20):
        obs = tiergarten.load("mucca_pazza", players=3).new_state(seed).observe(None)
        assert len(obs["landing"]) == 10 and obs["pile_size"] == 20
        assert obs["stars"] == [3, 3, 3] and obs["cards"] == [0, 0, 0]
        assert obs["grid"] is None and obs["target"] is None and obs["complete"] == []


def test_a_turn_must_contain_at_least_one_slide() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog dog")
    assert "stop" not in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(tiergarten.IllegalAction, match="at least one slide"):
        state.apply(0, "stop")
    state.apply(0, "slide heads left")
    assert "stop" in [str(a) for a in state.legal_actions(0)]


def test_completing_an_animal_wins_all_its_displayed_cards_after_sliding() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog frog dog cat", pile="pig horse zebra")
    state.apply(0, "slide legs right")  # frog complete, but the turn goes on until stop
    assert state.to_move() == (0,) and state.observe(0)["cards"] == [0, 0]
    state.apply(0, "stop")
    obs = state.observe(0)
    assert obs["won"][0] == ["frog", "frog"] and obs["turn"] == 1
    scored = [e for e in obs["log"] if e["act"] == "score"]
    assert [(e["seat"], e["cards"]) for e in scored] == [(0, {"frog": 2})]


def test_the_landing_place_is_refilled_from_the_pile_top_first() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog frog dog cat pig pig zebra zebra horse horse",
                     pile="turtle cat monkey")
    state.apply(0, "slide legs right")
    state.apply(0, "stop")
    obs = state.observe(0)
    assert obs["pile_size"] == 1 and len(obs["landing"]) == 10
    assert obs["landing"].count("turtle") == 1 and obs["landing"].count("cat") == 2
    assert obs["log"][-1]["cards"] == ["turtle", "cat"]


def test_completing_an_animal_with_no_displayed_card_gives_nothing() -> None:
    state = standard(HEADS, BODIES, LEGS, "dog cat", pile="pig")
    state.apply(0, "slide legs right")
    state.apply(0, "stop")
    assert state.observe(0)["cards"] == [0, 0]


def test_an_animal_complete_before_the_turn_scores_too() -> None:
    # the frog stands complete (someone made it while no frog card was displayed)
    state = standard(HEADS, BODIES, "frog monkey cockatoo pig turtle zebra dog cat horse dragon",
                     "frog dog dog horse")
    assert state.observe(0)["complete"] == ["frog"]
    state.apply(0, "slide heads left")
    state.apply(0, "slide heads right")  # there and back: a turn must slide at least once
    state.apply(0, "stop")
    assert state.observe(0)["won"][0] == ["frog"]


def test_every_complete_animal_with_displayed_cards_scores_at_once() -> None:
    # heads and bodies agree; the legs stand one place left of them
    state = standard(HEADS, HEADS, "dragon monkey cockatoo pig turtle dog zebra cat horse frog",
                     "frog dog dog horse", pile="pig")
    state.apply(0, "slide legs right")
    assert len(state.observe(0)["complete"]) == 10
    state.apply(0, "stop")
    obs = state.observe(0)
    assert sorted(obs["won"][0]) == ["dog", "dog", "frog", "horse"]
    assert obs["landing"] == ["pig"]


def test_stars_buy_extra_slides_and_are_spent_when_the_slide_is_made() -> None:
    state = standard(HEADS, BODIES, LEGS, "dog", pile="pig")
    for _ in range(3):
        state.apply(0, "slide heads left")
    obs = state.observe(0)
    assert obs["slides_left"] == 0 and obs["stars"] == [3, 3] and obs["turn"] == 0
    state.apply(0, "slide heads left")  # a fourth slide: one star
    obs = state.observe(0)
    assert obs["stars"] == [2, 3] and obs["log"][-1]["star"] is True
    state.apply(0, "slide heads left")
    state.apply(0, "slide heads left")
    obs = state.observe(0)
    assert obs["stars"] == [0, 3] and obs["turn"] == 1  # no slide left: the turn ends itself
    assert obs["slides_left"] == 3


def test_without_stars_the_third_slide_ends_the_turn() -> None:
    state = standard(HEADS, BODIES, LEGS, "dog", pile="pig", stars=(0, 0))
    for _ in range(3):
        state.apply(0, "slide bodies right")
    assert state.to_move() == (1,)


def test_after_the_last_pile_card_each_player_has_exactly_one_more_turn() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog dog cat cat pig pig zebra zebra horse horse",
                     pile="turtle", players=3, turn=1)
    state.apply(1, "slide legs right")  # frog: the refill reveals the last pile card
    state.apply(1, "stop")
    obs = state.observe(None)
    assert obs["pile_size"] == 0 and obs["final_round"] == 3
    assert obs["log"][-1]["act"] == "final"
    for seat in (2, 0, 1):
        assert state.to_move() == (seat,)
        state.apply(seat, "slide heads left")
        state.apply(seat, "stop")
    assert state.is_over() and state.result().reason == "final_round"


def test_the_game_ends_early_when_no_card_is_left_to_win() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog")
    state.apply(0, "slide legs right")
    state.apply(0, "stop")
    assert state.is_over() and state.result().reason == "no_cards_left"
    assert state.result().scores == (1, 0)


def test_ties_are_broken_by_stars_left() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog", players=3, stars=(1, 2, 2))
    state.won = [[0, 0], [1, 1], [2, 2]]
    state.over, state.reason = True, "final_round"
    result = state.result()
    assert result.scores == (2, 2, 2) and result.ranks == (3, 1, 1) and result.winners == (1, 2)


def test_the_pile_is_hidden_and_resample_shuffles_only_it() -> None:
    state = tiergarten.load("mucca_pazza").new_state(seed=5)
    assert isinstance(state, StandardState)
    samples = [state.resample(0, random.Random(s)) for s in range(10)]
    assert all(s.observe(0) == state.observe(0) for s in samples)
    assert len({tuple(s.pile) for s in samples if isinstance(s, StandardState)}) > 1
    assert "pile" not in state.observe(0)
