"""Standard rules (docs/games/mucca_pazza.md, the default variant), one scenario per rule."""

from __future__ import annotations

import random

import pytest

import tiergarten
from tiergarten.games.mucca_pazza import StandardState

from .positions import standard

# Ten animals in a legal standard set-up, nothing complete. The frog is one slide away (bodies
# right), the dog two (bodies left twice; the first completes nothing). The heads slide seven
# times left or three times right, and the legs three times left, completing nothing.
HEADS = "frog dragon monkey cockatoo pig turtle dog zebra cat horse"
BODIES = "monkey cat zebra pig turtle cockatoo dragon horse dog frog"
LEGS = "frog pig cat horse zebra dragon dog monkey turtle cockatoo"


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
    state.apply(0, "stop")
    assert state.observe(0)["turn"] == 1 and state.observe(0)["cards"] == [0, 0]


def test_a_slide_that_completes_an_animal_ends_the_turn_and_wins_its_cards() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog frog dog cat", pile="pig horse zebra")
    state.apply(0, "slide bodies right")  # frog complete: the turn is over at once
    obs = state.observe(0)
    assert obs["complete"] == ["frog"] and obs["turn"] == 1 and obs["to_move"] == [1]
    assert obs["won"][0] == ["frog", "frog"] and obs["stars"] == [3, 3]
    assert [e["act"] for e in obs["log"][-4:]] == ["slide", "score", "refill", "final"]
    assert obs["log"][-3] == {"n": obs["log"][-3]["n"], "seat": 0, "act": "score",
                              "cards": {"frog": 2}}


def test_no_slide_is_legal_after_a_completion() -> None:
    # the dog (three cards) is two slides away, but the frog completes on the way
    state = standard(HEADS, BODIES, LEGS, "frog dog dog dog", pile="pig")
    state.apply(0, "slide bodies right")
    assert state.legal_actions(0) == () and state.to_move() == (1,)
    for move in ("slide bodies left", "stop"):
        with pytest.raises(tiergarten.IllegalAction, match="seat 0 may not act now"):
            state.apply(0, move)
    assert state.observe(0)["won"][0] == ["frog"]


def test_the_landing_place_is_refilled_from_the_pile_top_first() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog frog dog cat pig pig zebra zebra horse horse",
                     pile="turtle cat monkey")
    state.apply(0, "slide bodies right")
    obs = state.observe(0)
    assert obs["pile_size"] == 1 and len(obs["landing"]) == 10
    assert obs["landing"].count("turtle") == 1 and obs["landing"].count("cat") == 2
    assert obs["log"][-1]["cards"] == ["turtle", "cat"]


def test_completing_an_animal_with_no_displayed_card_ends_the_turn_with_nothing() -> None:
    state = standard(HEADS, BODIES, LEGS, "dog cat", pile="pig")
    state.apply(0, "slide bodies right")  # the frog: no frog card is displayed
    obs = state.observe(0)
    assert obs["complete"] == ["frog"] and obs["turn"] == 1
    assert obs["cards"] == [0, 0] and obs["landing"] == ["pig", "dog", "cat"]  # refilled
    assert [(e["seat"], e["cards"]) for e in obs["log"] if e["act"] == "score"] == [(0, {})]


def test_there_and_back_remakes_an_animal_complete_before_the_turn_and_ends_it() -> None:
    # the frog stands complete: someone made it while no frog card was displayed
    bodies = BODIES.split()
    state = standard(HEADS, " ".join(bodies[-1:] + bodies[:-1]), LEGS, "frog dog dog horse")
    assert state.observe(0)["complete"] == ["frog"]
    state.apply(0, "slide heads left")  # every slide moves a whole row: the frog is broken
    assert state.observe(0)["complete"] == [] and state.to_move() == (0,)
    state.apply(0, "slide heads right")  # back: the frog stands again, the turn ends
    obs = state.observe(0)
    assert obs["complete"] == ["frog"] and obs["won"][0] == ["frog"] and obs["turn"] == 1


def test_one_slide_completing_several_animals_wins_all_their_cards() -> None:
    # heads and bodies agree; the legs stand one place left of them
    state = standard(HEADS, HEADS, "dragon monkey cockatoo pig turtle dog zebra cat horse frog",
                     "frog dog dog horse", pile="pig")
    state.apply(0, "slide legs right")
    obs = state.observe(0)
    assert len(obs["complete"]) == 10 and obs["turn"] == 1
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


def test_a_star_slide_that_completes_an_animal_ends_the_turn() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog", pile="pig")
    for move in ("slide heads left", "slide heads right", "slide legs left"):
        state.apply(0, move)
    state.apply(0, "slide legs right")  # a star: back where the turn began, nothing complete
    assert state.observe(0)["stars"] == [2, 3] and state.to_move() == (0,)
    state.apply(0, "slide bodies right")  # a second star: the frog
    obs = state.observe(0)
    assert obs["stars"] == [1, 3] and obs["won"][0] == ["frog"] and obs["turn"] == 1


def test_without_stars_the_third_slide_ends_the_turn() -> None:
    state = standard(HEADS, BODIES, LEGS, "dog", pile="pig", stars=(0, 0))
    for _ in range(3):
        state.apply(0, "slide heads right")
    assert state.to_move() == (1,)


def test_after_the_last_pile_card_each_player_has_exactly_one_more_turn() -> None:
    state = standard(HEADS, BODIES, LEGS, "frog dog cat cat pig pig zebra zebra horse horse",
                     pile="turtle", players=3, turn=1)
    state.apply(1, "slide bodies right")  # frog: the refill reveals the last pile card
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
    state.apply(0, "slide bodies right")
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
