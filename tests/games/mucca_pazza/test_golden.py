"""Golden traces: each stored whole game replays to exactly the stored observations and result.

A failure here means the engine's behaviour changed. If the change is meant, regenerate with
`.venv/bin/python tests/games/mucca_pazza/golden.py --regen` and review the diff of the JSON files.
"""

from __future__ import annotations

import json

import pytest

import tiergarten

from .golden import GAMES, dumps, final_view, load_trace


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_golden_game_replays_to_its_stored_observations_and_result(name: str) -> None:
    stored = load_trace(name)
    bots, options, seed = GAMES[name]
    assert (stored["name"], stored["bots"]) == (name, list(bots))
    assert (stored["record"]["seed"], stored["record"]["players"]) == (seed, len(bots))
    state = tiergarten.replay(stored["record"])
    assert state.is_over()
    assert json.loads(json.dumps(state.record())) == stored["record"]
    replayed = json.loads(json.dumps(final_view(state)))
    for seat, (now, then) in enumerate(zip(replayed["observations"], stored["observations"],
                                           strict=True)):
        for key in then:
            assert now[key] == then[key], f"seat {seat}: {key} differs"
        assert set(now) == set(then), f"seat {seat}: the observation's keys changed"
    assert replayed["result"] == stored["result"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_golden_game_replays_move_by_move_with_each_move_legal(name: str) -> None:
    record = load_trace(name)["record"]
    game = tiergarten.load("mucca_pazza", players=record["players"], **record["options"])
    state = game.new_state(record["seed"])
    for seat, text in record["actions"]:
        assert not state.is_over()
        assert text in [str(a) for a in state.legal_actions(seat)]
        state.apply(seat, text)
    assert state.is_over()


def test_the_stored_files_are_written_as_the_script_writes_them() -> None:
    for name in GAMES:
        stored = load_trace(name)
        assert json.loads(dumps(stored)) == stored
