"""Every screen of a live 80x24 terminal keeps the whole table on it: in place of scrolling
the table's top away, the screen gives up log lines, then spacing (docs: README, the terminal
tour). Whole games at a fake live terminal, each screen measured at the prompt."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from tiergarten.terminal import Match

WIDTH, HEIGHT = 80, 24
CLEAR = "\x1b[H"  # where a redraw in place starts (Console.clear: erase, then home)


class Measured:
    """A person typing random legal moves who measures the screen at each prompt."""

    def __init__(self, buffer: io.StringIO, seed: int, prompts: int) -> None:
        self.buffer, self.rng, self.left = buffer, random.Random(seed), prompts
        self.tallest, self.screen = 0, ""

    def __call__(self, prompt: str, completions: Sequence[str]) -> str:
        text = self.buffer.getvalue()
        screen = text[text.rfind(CLEAR):]
        height = screen.count("\n") + 1  # the prompt's own line
        if height > self.tallest:
            self.tallest, self.screen = height, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
        self.left -= 1
        if self.left < 0:
            return "quit"
        moves = [c for c in completions if c not in ("help", "quit", "hint")]
        return self.rng.choice(moves) if moves and not prompt.startswith("Press") else ""


def tallest_screen(game: str, players: list[str], seed: int, prompts: int = 120,
                   **options: Any) -> Measured:
    buffer = io.StringIO()
    console = Console(file=buffer, width=WIDTH, height=HEIGHT, force_terminal=True,
                      color_system=None)
    person = Measured(buffer, seed, prompts)
    Match(game, players, seed, options, pace=0, console=console, read=person, live=True).run()
    text = buffer.getvalue()
    last = text[text.rfind(CLEAR):]
    # the last screen leaves room for where the game was saved (two lines) and the shell's prompt
    if last.count("\n") + 3 > person.tallest:
        person.tallest, person.screen = last.count("\n") + 3, last
    return person


@pytest.mark.parametrize(("game", "players", "options"), [
    ("maumau", ["me", "heuristic", "heuristic", "random"], {}),
    ("mammuz", ["me", "heuristic", "heuristic", "heuristic", "random", "random", "random"], {}),
    ("mucca_pazza", ["me", "greedy"], {}),
    ("mucca_pazza", ["me", "greedy", "greedy", "greedy"], {}),
    ("mucca_pazza", ["me", "greedy"], {"variant": "junior"}),
    ("mucca_pazza", ["me", "greedy", "greedy", "greedy"], {"variant": "junior"}),
])
def test_every_screen_of_a_game_fits_an_80x24_terminal(game: str, players: list[str],
                                                      options: dict[str, Any]) -> None:
    for seed in (1, 2):
        person = tallest_screen(game, players, seed, **options)
        assert person.tallest <= HEIGHT, person.screen
