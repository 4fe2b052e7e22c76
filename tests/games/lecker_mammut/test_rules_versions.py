"""docs/games/lecker_mammut.md, Rules versions: rules 2 (the round 3 corrections) beside rules 1,
which stays as it was.

- Rules 2: the table's timer passes for the seats only while no feature shows three visible
  cards; mistakes and other acts that change nothing never end a round beside a triple.
- Rules 2: who gives a prize pile back is decided by the penalty cards held, not by the mistakes
  made (a mistake with no face-down card left takes no card and decides nothing).

Each reproduction runs under `rules=1` (the old behaviour is kept) and the default (the newest).
"""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.games.lecker_mammut import INFO

from .positions import last_event, position

BOARS = "red-boar blue-boar yellow-boar"
PILE_A = "red-bear orange-bear yellow-bear"


def flip_all(state: tiergarten.State) -> None:
    while (flipper := state.observe(None)["flipper"]) is not None:
        state.apply(flipper, "flip")


def first_top(state: tiergarten.State, seat: int) -> str:
    return next(str(a) for a in state.legal_actions(seat) if str(a).startswith("top "))


def test_lecker_mammut_has_three_rules_versions_and_plays_the_newest() -> None:
    assert [v.number for v in INFO.rules] == [1, 2, 3] and INFO.rules_version == 3
    assert [v.unversioned for v in INFO.rules] == [True, False, False]
    assert tiergarten.load("lecker_mammut", players=2).rules == 3
    state = tiergarten.load("lecker_mammut", players=2, rules=1).new_state(seed=1)
    assert state.record()["rules"] == 1
    assert tiergarten.replay(state.record()).game.rules == 1


# -- rule 1: the round ends only when nobody wants to hit any more ----------------------------

def mistakes_beside_triples(rules: int | None) -> tiergarten.State:
    """Every card flipped; seat 1 takes the bears; then twelve mistakes on `bear` by seat 0,
    while six cards of every colour show in the middle."""
    game = tiergarten.load("lecker_mammut", players=2, rounds=1, rules=rules)
    state = game.new_state(seed=1)
    flip_all(state)
    state.apply(1, "hit bear")
    state.apply(1, first_top(state, 1))
    for _ in range(12):
        state.apply(0, "hit bear")
    return state


def test_rules_1_the_timer_ended_a_round_on_mistakes_while_triples_showed() -> None:
    state = mistakes_beside_triples(rules=1)
    assert state.is_over()
    obs = state.observe(None)
    assert len(obs["middle"]) == 42
    assert {"act": "timer", "idle": 12} in obs["log"]


def test_mistakes_beside_a_triple_never_end_the_round() -> None:
    state = mistakes_beside_triples(rules=None)
    assert not state.is_over()
    obs = state.observe(None)
    assert (obs["phase"], len(obs["middle"]), obs["passed"]) == ("ending", 42, [])
    assert all(e["act"] != "timer" for e in obs["log"])
    for _ in range(100):  # however many
        state.apply(0, "hit bear")
    assert not state.is_over()
    state.apply(1, "hit red")  # the triple is taken: the round goes on
    assert state.observe(None)["phase"] == "choosing"


def test_the_timer_waits_while_a_triple_shows_and_runs_again_once_it_is_taken() -> None:
    old = position(middle=BOARS, piles=["", ""], idle_limit=3, rules=1, rounds=1)
    for _ in range(3):
        old.apply(0, "hit pink")
    assert old.is_over()  # rules 1: the timer ran out beside three boars

    state = position(middle=BOARS, piles=["", ""], idle_limit=3, rounds=1)
    for _ in range(3):
        state.apply(0, "hit pink")
    state.apply(1, "pass")  # a pass changes nothing either
    assert not state.is_over()
    state.apply(1, "hit boar")
    state.apply(1, "top red-boar")  # now no feature shows three
    for _ in range(2):
        state.apply(0, "hit pink")
    assert not state.is_over()
    state.apply(0, "hit pink")
    assert state.is_over() and {"act": "timer", "idle": 3} in state.observe(None)["log"]
    assert state.result().scores == (0, 3)


def test_every_seat_passing_ends_the_round_even_beside_a_triple() -> None:
    state = position(middle=BOARS, piles=["", ""], rounds=1)
    state.apply(0, "pass")
    state.apply(1, "pass")  # the players themselves say nobody wants to hit
    assert state.is_over()


def test_random_play_still_ends_well_within_the_decision_bound() -> None:
    import random

    for seed in range(6):
        rng = random.Random(seed)
        state = tiergarten.load("lecker_mammut", players=3, rounds=1).new_state(seed=seed)
        while not state.is_over():
            seat = rng.choice([s for s in state.to_move() if state.legal_actions(s)])
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.result().reason == "rounds"
        assert len(state.history) < INFO.max_decisions // 10


# -- rule 2: the most penalty cards held give a pile back -------------------------------------

def cardless_mistakes(rules: int | None) -> tiergarten.State:
    """Seat 1 takes a real penalty card; seat 0 later makes two mistakes when no face-down card
    is left (more mistakes, no penalty card), then both pass."""
    game = tiergarten.load("lecker_mammut", players=2, rounds=1, idle_limit=0, rules=rules)
    state = game.new_state(seed=11)
    for _ in range(3):
        state.apply(0, "flip")
    state.apply(1, "hit deer")
    state.apply(1, "top red-deer")
    state.apply(1, "hit orange")  # a mistake: seat 1 takes the next card face down
    flip_all(state)
    state.apply(0, "hit bear")
    state.apply(0, first_top(state, 0))
    state.apply(0, "hit bear")
    state.apply(0, "hit bear")  # mistakes with nothing left to take
    obs = state.observe(None)
    assert (obs["penalties"], obs["penalty_cards"]) == ([2, 1], [0, 1])
    assert [p["size"] for p in obs["prize_piles"][0]] == [7]
    assert [p["size"] for p in obs["prize_piles"][1]] == [3]
    state.apply(0, "pass")
    state.apply(1, "pass")
    return state


def test_rules_1_the_most_mistakes_gave_a_pile_back_without_a_penalty_card() -> None:
    state = cardless_mistakes(rules=1)
    log = state.observe(None)["log"]
    assert {"act": "return", "seat": 0, "pile": 1, "size": 7} in log
    assert log[-1] == {"act": "round_over", "round": 1, "points": [0, 3], "penalties": [2, 1]}
    assert state.result().scores == (0, 3)


def test_the_most_penalty_cards_held_give_a_pile_back() -> None:
    state = cardless_mistakes(rules=None)
    log = state.observe(None)["log"]
    assert {"act": "return", "seat": 1, "pile": 1, "size": 3} in log
    assert log[-1] == {"act": "round_over", "round": 1, "points": [7, 0], "penalties": [2, 1],
                       "penalty_cards": [0, 1]}
    assert state.result().scores == (7, 0)


@pytest.mark.parametrize(("rules", "scores"), [(1, [0, 3]), (None, [3, 3])])
def test_a_mistake_with_no_card_left_decides_a_return_only_under_rules_1(
        rules: int | None, scores: list[int]) -> None:
    state = position(piles=["", ""], prizes=[[PILE_A], ["red-deer blue-deer pink-deer"]],
                     rules=rules, idle_limit=0)
    state.apply(0, "hit boar")
    assert last_event(state)["penalty_card"] is False
    state.apply(0, "pass")
    state.apply(1, "pass")
    assert state.observe(None)["scores"] == scores
