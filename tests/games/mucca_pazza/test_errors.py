"""Bad input is refused with a reason and what is allowed; the state is left unchanged."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import J_BODIES, J_HEADS, J_LEGS, junior


def test_unknown_notation_says_how_actions_are_written() -> None:
    game = tiergarten.load("mucca_pazza")
    for text in ("slide head left", "slide heads up", "reveal 17", "reveal 0", "jump", ""):
        with pytest.raises(tiergarten.NotationError, match="slide <row> <direction>"):
            game.parse_action(text)
    assert str(game.parse_action("  SLIDE   Legs  Right ")) == "slide legs right"


def test_bad_options_and_player_counts_are_refused() -> None:
    with pytest.raises(tiergarten.OptionError, match="variant.*standard, junior"):
        tiergarten.load("mucca_pazza", variant="kids")
    for players in (1, 5):
        with pytest.raises(tiergarten.OptionError, match="2 to 4 players"):
            tiergarten.load("mucca_pazza", players=players)


def test_standard_refuses_reveals_and_an_early_stop() -> None:
    state = tiergarten.load("mucca_pazza").new_state(seed=1)
    before = state.observe(0)
    with pytest.raises(tiergarten.IllegalAction, match="no card grid") as info:
        state.apply(0, "reveal 3")
    assert "slide heads left" in info.value.allowed
    with pytest.raises(tiergarten.IllegalAction, match="seat 1 may not act now .to move: 0"):
        state.apply(1, "slide heads left")
    with pytest.raises(tiergarten.IllegalAction, match="no seat"):
        state.apply(2, "slide heads left")
    assert state.observe(0) == before


def test_a_standard_reveal_is_refused_with_only_the_moves_allowed_now() -> None:
    # before the first slide `stop` is not allowed, so the reason does not offer it
    state = tiergarten.load("mucca_pazza").new_state(seed=1)
    with pytest.raises(tiergarten.IllegalAction) as first:
        state.apply(0, "reveal 3")
    assert first.value.reason == "the standard game has no card grid to reveal from: slide a row"
    state.apply(0, "slide heads left")
    with pytest.raises(tiergarten.IllegalAction) as later:
        state.apply(0, "reveal 3")
    assert later.value.reason.endswith(": slide a row or stop")


def test_junior_refusals_name_the_reason() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    with pytest.raises(tiergarten.IllegalAction, match="reveal a face-down card first"):
        state.apply(0, "slide heads left")
    with pytest.raises(tiergarten.IllegalAction, match="reveal a face-down card first"):
        state.apply(0, "stop")
    state.apply(0, "reveal 2")
    with pytest.raises(tiergarten.IllegalAction, match="revealed frog at position 2"):
        state.apply(0, "reveal 3")
    state.apply(0, "slide bodies left")  # frog complete: taken
    with pytest.raises(tiergarten.IllegalAction, match="position 2 has been taken"):
        state.apply(1, "reveal 2")


def test_the_decision_limit_ends_a_game_that_runs_on() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    state.decisions = state.game.info.max_decisions - 2
    state.apply(0, "reveal 3")
    state.apply(0, "stop")
    assert state.is_over() and state.result().reason == "decision_limit"
    assert not state.legal_actions(1) and state.to_move() == ()
