"""Helpers for running the `tiergarten` command in-process."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tiergarten.cli import app
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
