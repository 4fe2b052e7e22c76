"""Junior rules (docs/games/mucca_pazza.md, variant `junior`), one scenario per rule."""

from __future__ import annotations

import random

import pytest

import tiergarten
from tiergarten.games.mucca_pazza import JuniorState
from tiergarten.games.mucca_pazza.cards import CARD_NAMES

from .positions import J_BODIES, J_HEADS, J_LEGS, junior

GRID = ("frog dragon pig monkey cockatoo frog dragon pig monkey cockatoo "
        "frog dragon pig monkey cockatoo ghost")


def test_set_up_deals_five_animals_their_fifteen_cards_and_the_ghost_face_down() -> None:
    for seed in range(30):
        state = tiergarten.load("mucca_pazza", variant="junior").new_state(seed)
        obs = state.observe(0)
        animals = set(obs["board"]["heads"])
        assert len(animals) == 5
        assert obs["grid"] == [None] * 16 and obs["pile_size"] == 16
        assert isinstance(state, JuniorState)
        names = sorted(CARD_NAMES[c] for c in state.grid)
        assert names == sorted([*(a for a in animals for _ in range(3)), "ghost"])
        assert obs["phase"] == "reveal" and obs["target"] is None


def test_a_revealed_card_sets_the_target_and_up_to_three_slides() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 2")  # dragon: two slides away
    obs = state.observe(1)
    assert (obs["target"], obs["targets"], obs["grid"][1], obs["phase"]) == (
        "dragon", ["dragon"], "dragon", "slide")
    assert [str(a) for a in state.legal_actions(0)][-1] == "stop"
    assert len(state.legal_actions(0)) == 7


def test_success_ends_the_turn_at_once_and_keeps_the_card() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 1")  # frog
    state.apply(0, "slide bodies left")
    obs = state.observe(0)
    assert obs["won"] == [["frog"], []] and obs["cards"] == [1, 0]
    assert obs["grid"][0] == "taken" and obs["turn"] == 1 and obs["phase"] == "reveal"
    assert "frog" in obs["complete"]


def test_failure_after_three_slides_turns_the_card_back_in_place() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 3")  # pig needs three slides; we make three others
    for _ in range(2):
        state.apply(0, "slide heads left")
        assert state.to_move() == (0,)
    state.apply(0, "slide heads left")
    obs = state.observe(1)
    assert obs["grid"][2] is None and obs["turn"] == 1 and obs["cards"] == [0, 0]
    assert obs["log"][-1]["act"] == "fail" and obs["log"][-1]["position"] == 3
    state.apply(1, "reveal 3")  # the next player may reveal the same card
    assert state.observe(1)["target"] == "pig"


def test_stop_ends_the_turn_as_a_failure_even_without_sliding() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 4")
    state.apply(0, "stop")
    obs = state.observe(0)
    assert obs["grid"][3] is None and obs["turn"] == 1 and obs["slides_left"] == 3


def test_a_card_whose_animal_is_complete_is_turned_back_and_another_revealed() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 1")
    state.apply(0, "slide bodies left")  # seat 0 completes the frog
    state.apply(1, "reveal 11")  # another frog: already complete
    obs = state.observe(1)
    assert obs["turn"] == 1 and obs["phase"] == "reveal" and obs["grid"][10] is None
    assert obs["turned_back"] == [11]
    assert [e["act"] for e in obs["log"][-2:]] == ["reveal", "back"]
    with pytest.raises(tiergarten.IllegalAction, match="turned position 11 .* back this turn"):
        state.apply(1, "reveal 11")
    state.apply(1, "reveal 2")
    assert state.observe(1)["target"] == "dragon"


def test_the_ghost_may_complete_any_animal_not_complete_when_revealed() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 1")
    state.apply(0, "slide bodies left")  # frog complete
    state.apply(1, "reveal 16")
    obs = state.observe(1)
    assert obs["target"] == "ghost"
    assert sorted(obs["targets"]) == ["cockatoo", "dragon", "monkey", "pig"]
    # breaking and remaking the frog does not count: it was complete when the ghost came up
    state.apply(1, "slide bodies right")
    state.apply(1, "slide bodies left")
    assert state.observe(1)["turn"] == 1
    state.apply(1, "stop")
    state.apply(0, "reveal 16")
    state.apply(0, "slide heads right")  # brings the monkey together (and breaks the frog)
    assert state.observe(0)["won"][0] == ["frog", "ghost"]


def test_when_only_complete_animals_are_left_face_down_the_revealer_takes_the_card() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 1")
    state.apply(0, "slide bodies left")  # frog complete; frogs at 6 and 11 remain face down
    state.face = [2] * 16
    state.face[5] = state.face[10] = 0  # only the two frogs are left
    state._legal = None
    state.apply(1, "reveal 6")
    obs = state.observe(1)
    assert obs["won"][1] == ["frog"] and obs["turn"] == 0 and not obs["over"]
    assert obs["log"][-1]["act"] == "last"
    state.apply(0, "reveal 11")
    assert state.is_over()
    result = state.result()
    assert result.scores == (2, 1) and result.winners == (0,)
    assert result.reason == "all_cards_taken"


def test_a_turned_back_card_is_face_down_in_every_observation_but_resample_keeps_it() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.apply(0, "reveal 5")
    state.apply(0, "stop")
    for seat in (0, 1, None):
        assert state.observe(seat)["grid"][4] is None
    for seed in range(20):
        sample = state.resample(1, random.Random(seed))
        assert isinstance(sample, JuniorState)
        assert sample.grid[4] == state.grid[4]
        assert sample.observe(1) == state.observe(1)
    grids = {tuple(state.resample(1, random.Random(s)).grid) for s in range(20)}  # type: ignore[attr-defined]
    assert len(grids) > 1


def test_ties_share_the_win() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, GRID)
    state.won = [[0, 1], [2, 3]]
    state.face = [2] * 16
    state.face[0] = 0
    state.over = True
    state.reason = "all_cards_taken"
    assert state.result().winners == (0, 1)
