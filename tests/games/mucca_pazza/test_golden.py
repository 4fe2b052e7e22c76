"""Golden traces: each stored whole game replays exactly (see tests/golden.py).

A failure here means the engine's behaviour changed. If the change is meant, regenerate with
`.venv/bin/python tests/games/mucca_pazza/golden.py --regen` and review the diff of the JSON files.
"""

from __future__ import annotations

import pytest
from tests.golden import check_format, check_moves, check_replay

from .golden import TRACES


@pytest.mark.parametrize("name", sorted(TRACES.lineups))
def test_a_golden_game_replays_to_its_stored_observations_and_result(name: str) -> None:
    check_replay(TRACES, name)


@pytest.mark.parametrize("name", sorted(TRACES.lineups))
def test_a_golden_game_replays_move_by_move_with_each_move_legal(name: str) -> None:
    check_moves(TRACES, name)


def test_the_stored_files_are_written_as_the_script_writes_them() -> None:
    check_format(TRACES)
