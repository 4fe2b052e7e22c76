"""At the end of a game the observation says nothing stale: no turn, no target, nothing to do.

Every key of the observation is checked, in both variants, so a key added later must be
decided here too (docs/games/mucca_pazza.md, Observation).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tiergarten

from .positions import J_BODIES, J_HEADS, J_LEGS, junior

KEYS = {"game", "variant", "seat", "players", "board", "complete", "turn", "to_move", "phase",
        "slides_left", "slides_made", "stars", "landing", "pile_size", "grid", "target",
        "targets", "turned_back", "final_round", "cards", "won", "log", "over", "result"}


def check_end(state: tiergarten.State, seat: int | None) -> dict[str, Any]:
    """Assert every key of `seat`'s final observation; return it for game-specific checks."""
    obs = state.observe(seat)
    junior = obs["variant"] == "junior"
    assert set(obs) == KEYS
    assert (obs["game"], obs["seat"], obs["players"]) == ("mucca_pazza", seat, state.game.players)
    assert obs["over"] is True and obs["result"] == state.result().to_dict()
    assert (obs["turn"], obs["to_move"], obs["phase"]) == (None, [], None)
    assert (obs["slides_left"], obs["slides_made"]) == (0, 0)
    assert (obs["target"], obs["targets"]) == (None, None)
    assert obs["cards"] == [len(w) for w in obs["won"]]
    assert obs["log"][-1] == {"n": obs["log"][-1]["n"], "seat": None, "act": "over",
                              "reason": obs["result"]["reason"]}
    heads = obs["board"]["heads"]
    whole = [a for a, b, c in zip(heads, obs["board"]["bodies"], obs["board"]["legs"],
                                  strict=True) if a == b == c]
    assert obs["complete"] == whole
    if junior:
        assert (obs["stars"], obs["landing"], obs["final_round"]) == (None, None, None)
        assert obs["turned_back"] == []
        assert obs["pile_size"] == obs["grid"].count(None)
        assert "ghost" not in obs["grid"] and not set(obs["grid"]) - {None, "taken"}
    else:
        assert (obs["grid"], obs["turned_back"]) == (None, None)
        assert len(obs["stars"]) == state.game.players
        assert isinstance(obs["landing"], list)
    assert not any(state.legal_actions(s) for s in range(state.game.players))
    return obs


@pytest.mark.parametrize("variant", ["standard", "junior"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_random_game_ends_with_nothing_stale(variant: str, players: int) -> None:
    game = tiergarten.load("mucca_pazza", players=players, variant=variant)
    for seed in range(3):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for seat in (*range(players), None):
            obs = check_end(state, seat)
            if variant == "junior":
                assert obs["grid"] == ["taken"] * 16 and obs["pile_size"] == 0
            else:
                assert obs["pile_size"] == 0 and obs["final_round"] == 0


def test_the_last_junior_card_taken_leaves_no_target() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    state.face = [2] * 16
    state.face[0] = 0  # only the frog at position 1 is left
    state._legal = None
    state.apply(0, "reveal 1")
    assert state.observe(0)["target"] == "frog"
    state.apply(0, "slide bodies left")  # frog complete: the last card is taken
    obs = check_end(state, 1)
    assert obs["grid"] == ["taken"] * 16 and obs["result"]["reason"] == "all_cards_taken"


def test_a_junior_turn_cut_short_by_the_decision_bound_turns_its_card_back() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    state.decisions = state.game.info.max_decisions - 1
    state.apply(0, "reveal 3")  # the bound is reached with the frog face up, played for
    obs = check_end(state, 0)
    assert obs["grid"] == [None] * 16 and obs["result"]["reason"] == "decision_limit"
