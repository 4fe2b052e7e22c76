"""Golden traces of every game: each stored whole game replays exactly (see tests/golden.py).

A failure here means an engine's behaviour changed. If the change is meant, regenerate with
`.venv/bin/python tests/games/<id>/golden.py --regen` and review the diff of the JSON files.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from tests.golden import Traces, check_format, check_frozen, check_moves, check_replay

GAMES = ("maumau", "mammuz", "mucca_pazza", "lecker_mammut")
TRACES: dict[str, Traces] = {
    gid: importlib.import_module(f"tests.games.{gid}.golden").TRACES for gid in GAMES}
CASES = [(gid, name) for gid, traces in TRACES.items() for name in sorted(traces.lineups)]
FROZEN = [path for traces in TRACES.values() for path in traces.frozen()]


@pytest.mark.parametrize(("gid", "name"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_golden_game_replays_to_its_stored_observations_and_result(gid: str, name: str) -> None:
    check_replay(TRACES[gid], name)


@pytest.mark.parametrize(("gid", "name"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_golden_game_replays_move_by_move_with_each_move_legal(gid: str, name: str) -> None:
    check_moves(TRACES[gid], name)


@pytest.mark.parametrize("path", FROZEN, ids=[f"{p.parts[-4]}-{p.parent.name}-{p.stem}"
                                               for p in FROZEN])
def test_a_golden_game_of_an_older_rules_version_replays_as_it_did(path: Path) -> None:
    check_frozen(path)


@pytest.mark.parametrize("gid", GAMES)
def test_the_stored_files_are_written_as_the_script_writes_them(gid: str) -> None:
    check_format(TRACES[gid])


def test_every_registered_game_has_golden_traces() -> None:
    import tiergarten

    assert set(tiergarten.games()) == set(GAMES)
