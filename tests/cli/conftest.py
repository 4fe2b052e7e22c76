"""Helpers for running the `tiergarten` command in-process."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tiergarten
from tiergarten import bots
from tiergarten.cli import app
from tiergarten.core import State
from tiergarten.core.match import play_match
from tiergarten.terminal import Match

Reader = Callable[[str, Sequence[str]], str]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """Invoke the CLI in a scratch directory with `input` as piped stdin."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args: str, input: str = "") -> Any:
        return runner.invoke(app, list(args), input=input)

    return invoke


def first_move(prompt: str, completions: Sequence[str]) -> str:
    """A person who always types the first legal move's notation (completions start with
    the legal moves, then the commands)."""
    return completions[0] if completions else ""


def careful_move(prompt: str, completions: Sequence[str]) -> str:
    """The first legal move, saying Mau (or Mau Mau) whenever that move may say it."""
    first = first_move(prompt, completions)
    calls = [c for c in completions if c.startswith(first + " ") and c.endswith("mau")]
    return calls[-1] if calls else first


def quiet_console() -> Console:
    return Console(record=True, width=100, force_terminal=False, color_system=None,
                   file=open("/dev/null", "w"))  # noqa: SIM115


def play_in_process(players: str, seed: int, read: Reader, **options: Any) -> tuple[Match, str]:
    """Play a whole match at a fake terminal; return the match and everything it printed."""
    console = quiet_console()
    match = Match("maumau", players.split(","), seed, options, pace=0, console=console,
                  read=read, live=False)
    match.run()
    return match, console.export_text()


def load_record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


GAMES = {"maumau": 3, "mammuz": 4, "mucca_pazza": 3, "lecker_mammut": 3}  # game: players


def random_game(game_id: str, players: int, seed: int, **options: Any,
                ) -> Iterator[tuple[State, int, str]]:
    """A seeded game of random legal moves: yields (state before, seat, move) for each move,
    the move applied once the caller goes on."""
    rng = random.Random(seed)
    state = tiergarten.load(game_id, players, **options).new_state(seed)
    while not state.is_over():
        seat = rng.choice(state.to_move())
        move = str(rng.choice(state.legal_actions(seat)))
        yield state, seat, move
        state.apply(seat, move)


def finished(game_id: str, players: int, seed: int, **options: Any) -> State:
    """The end of `random_game` (its one state, every move applied)."""
    moves = random_game(game_id, players, seed, **options)
    state = next(moves)[0]
    for _ in moves:
        pass
    assert state.is_over()
    return state


BOTS = {"maumau": ["heuristic", "random", "heuristic"],
        "mammuz": ["heuristic", "heuristic", "random", "random"],
        "mucca_pazza": ["greedy", "random", "memory"],
        "lecker_mammut": ["normal", "hard", "slow"]}  # one line-up per game, seat by seat


def bot_game(game_id: str, seed: int, **options: Any) -> State:
    """A finished game between the game's bots of `BOTS` (real-time bots in virtual time)."""
    game = tiergarten.load(game_id, len(BOTS[game_id]), **options)
    agents = [bots.make(who, game, seat, random.Random(f"{seed}:{seat}"))
              for seat, who in enumerate(BOTS[game_id])]
    return play_match(game, agents, seed)
