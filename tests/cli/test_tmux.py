"""`tiergarten play` and `replay` in a real 80x24 terminal (tmux): a whole MammuZ game played
from the short menu, with the table and the hand on screen after every move, wrong answers in
one line, Tab completion, Ctrl-C's exit status, and the replay's columns."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmux import Terminal

SEATS = ("You", "Heuristic 2", "Heuristic 3", "Random 4")
PLAY = ("play", "mammuz", "--players", "me,heuristic,heuristic,random", "--seed", "3",
        "--pace", "0")
PROMPTS = (">", "cards>", "species>")
MOVES = 80  # answers at most, and seconds at most, for the whole game
GAME_SECONDS = 240


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path)
    try:
        yield term
    finally:
        term.close()


def prompt(screen: list[str]) -> str | None:
    """The prompt the person is asked at, once the screen is drawn and nothing is typed."""
    shown = [line for line in screen if line.strip()]
    return shown[-1].strip() if shown and shown[-1].strip() in PROMPTS else None


def asked_or_ended(term: Terminal) -> list[str]:
    return term.wait(lambda s: prompt(s) is not None or term.exit_status() is not None)


def assert_table_on_screen(screen: list[str]) -> None:
    """The whole MammuZ table fits: the frame's top, every seat, the herd and the hand."""
    assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
    text = "\n".join(screen)
    assert screen[0].startswith("╭─ MammuZ · seed 3"), text
    for name in SEATS:
        assert re.search(rf"^│ +(▶ +)?{name} +\d+ ", text, re.MULTILINE), (name, text)
    assert "Herd of " in text or "No herd is open." in text, text
    assert re.search(r"^│ Your hand: ", text, re.MULTILINE), text


def menu(screen: list[str]) -> list[str]:
    """The lines under the frame, down to the prompt."""
    bottom = max(i for i, line in enumerate(screen) if line.startswith("╰"))
    return [line for line in screen[bottom + 1:] if line.strip()][:-1]


def test_a_whole_mammuz_game_from_the_short_menu_keeps_the_table_on_screen(
        terminal: Terminal, tmp_path: Path) -> None:
    terminal.start(*PLAY, "--save", "game.json")
    first = asked_or_ended(terminal)
    assert_table_on_screen(first)
    assert menu(first)[0].startswith("1  open a herd: lay 1 to 4 cards, then name their")
    assert len(menu(first)) <= 3 and "595" not in "\n".join(first)

    terminal.type("lay mammoth as bear")  # seed 3: You hold no mammoth
    said = "you hold no mammoth; see the menu, or press Tab twice for every move"
    screen = terminal.wait(lambda s: prompt(s) == ">" and said in s)  # one line, under the menu
    assert_table_on_screen(screen)
    assert menu(screen)[-1] == said

    terminal.type("1")  # the guided lay: which cards, then which species
    screen = terminal.wait(lambda s: prompt(s) == "cards>")
    assert_table_on_screen(screen)
    assert "1 bear×1   2 deer×2   3 tiger×2   4 hare×3   5 squirrel×2" in screen
    terminal.type("mammoth")
    screen = terminal.wait(lambda s: prompt(s) == "cards>" and "you hold no mammoth" in s)
    assert_table_on_screen(screen)
    terminal.type("")  # back to the menu
    terminal.wait(lambda s: prompt(s) == ">")

    terminal.send("-l", "lay bear as h")
    terminal.send("Tab")  # the whole line completes: one species starts with h
    terminal.wait(lambda s: "> lay bear as hare" in [line.strip() for line in s])
    terminal.send("Enter")

    deadline = time.monotonic() + GAME_SECONDS
    for _ in range(MOVES):
        screen = asked_or_ended(terminal)
        if terminal.exit_status() is not None:
            break
        assert_table_on_screen(screen)
        assert len(menu(screen)) <= 9, menu(screen)  # at most: a lay, 4 doubts, extinctions
        terminal.type("1")  # the first entry, the first card, the first species
        terminal.wait(lambda s, before=screen: s != before or terminal.exit_status() is not None)
        assert time.monotonic() < deadline
    assert terminal.ended() == 0
    end = "\n".join(terminal.screen())
    assert re.search(r"^(You win|\w+ \d wins)\.$", end, re.MULTILINE), end
    assert "The game ended: " in end and "Your hand:" in end
    record = json.loads((tmp_path / "game.json").read_text())
    mine = [text for seat, text in record["actions"] if seat == 0]
    assert mine[0] == "lay bear as hare" and len(mine) > 3


def test_ctrl_c_stops_saves_and_exits_130(terminal: Terminal, tmp_path: Path) -> None:
    terminal.start(*PLAY, "--save", "stopped.json")
    asked_or_ended(terminal)
    terminal.send("C-c")
    assert terminal.ended() == 130
    assert "Stopped." in terminal.screen()
    assert json.loads((tmp_path / "stopped.json").read_text())["agents"][0] == "me"


def test_the_replay_of_a_saved_game_in_columns(terminal: Terminal, tmp_path: Path) -> None:
    from tiergarten.terminal import Match

    from .conftest import quiet_console

    match = Match("mammuz", ["me", "heuristic", "heuristic", "random"], 3, pace=0,
                  console=quiet_console(), read=lambda prompt, completions: "1", live=False)
    assert match.run() == "over"
    match.save(tmp_path / "game.json")
    terminal.start("replay", "game.json")
    assert terminal.ended() == 0
    lines = terminal.everything()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#  Player"))
    move_at, hand_at = lines[head].index("Move"), lines[head].index("Hand before the move")
    rows = [line for line in lines[head + 1:] if re.match(r" +\d+  \S", line)]
    assert len(rows) == len(match.state.history)
    for line in rows:  # each column starts where its heading does, after a blank
        assert line[move_at - 2:move_at] == "  " and line[move_at] != " ", line
        assert line[hand_at - 2:hand_at] == "  " and line[hand_at] != " ", line
    assert any("→ " in line and " doubted " in line for line in lines)
    assert any(line.startswith("The game ended: ") for line in lines)
