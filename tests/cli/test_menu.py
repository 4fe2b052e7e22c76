"""The short menu and its guided steps (MammuZ's lay: which cards, then which species), the
one-line refusals, and the log lines the issue asked for, at a piped terminal."""

from __future__ import annotations

import os
from collections.abc import Sequence

import pytest
from rich.console import Console

import tiergarten
from tiergarten.terminal import Match, renderer_for
from tiergarten.terminal.mammuz_lay import Cards
from tiergarten.terminal.menu import Wrong

from .conftest import quiet_console

MAMMUZ = ["me", "heuristic", "heuristic", "random"]


class Script:
    """A person typing `lines` in order, then "1" (the first entry, card, species) for ever."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str, completions: Sequence[str]) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "1"


def mammuz(script: Script, seed: int = 3) -> tuple[Match, list[str]]:
    console = quiet_console()
    match = Match("mammuz", MAMMUZ, seed, pace=0, console=console, read=script, live=False)
    match.run()
    return match, [line.rstrip() for line in console.export_text().splitlines()]


def test_a_mammuz_lay_in_two_steps_which_cards_then_which_species() -> None:
    # seed 3: You open, holding 1 bear, 2 deer, 2 tiger, 3 hare, 2 squirrel
    script = Script("1", "4 4 2", "hare", "quit")
    match, out = mammuz(script)
    assert script.prompts[:3] == ["> ", "cards> ", "species> "]
    assert match.state.history[0] == (0, match.game.parse_action("lay hare hare deer as hare"))
    menu = out[out.index(next(line for line in out if line.startswith("1  open a herd"))):]
    assert menu[1].startswith("Type a number or a move")  # the whole menu: one entry
    assert "1 bear×1   2 deer×2   3 tiger×2   4 hare×3   5 squirrel×2" in out
    assert "Declare 2 hare, 1 deer as which species?" in out


def test_a_herd_open_asks_for_the_cards_only_and_lists_each_doubt() -> None:
    script = Script("1", "4 4 2", "hare", "1", "3", "quit")  # 2nd turn: lay a tiger
    match, out = mammuz(script)
    mine = [str(a) for seat, a in match.state.history if seat == 0]
    assert mine == ["lay hare hare deer as hare", "lay tiger as hare"]
    assert "1  lay 1 to 4 cards as hare (you pick them next)" in out
    assert any(line.startswith("2  doubt: turn card 1 of Random 4's ") for line in out)


def test_wrong_answers_get_one_line_and_the_question_again() -> None:
    script = Script("lay mammoth as bear", "9", "1", "mammoth", "1 1", "2 2 2 3 4", "x",
                    "", "quit")
    _, out = mammuz(script)
    said = [line.removeprefix("> ").removeprefix("cards> ") for line in out]
    assert "you hold no mammoth; see the menu, or press Tab twice for every move" in said
    assert "there is no move 9: type 1, or a move" in said  # the menu has one entry
    assert said.count("you hold no mammoth") == 1
    assert "you hold 1 bear, not 2" in said
    assert "a lay has 1 to 4 cards, not 5" in said
    assert "no card 'x': type numbers from 1 to 5 or the names above" in said
    assert not any("legal now" in line or "more)" in line for line in out)
    assert script.prompts[-2:] == ["cards> ", "> "]  # Enter alone went back to the menu


def test_every_wrong_answer_fits_one_line_of_an_80_column_terminal() -> None:
    # seed 3: You hold 1 of the 3 bears; a lay of five cards cannot be read; there is no card 6
    script = Script("extinct bear", "lay hare hare hare hare hare as hare", "1", "6", "4 4 2",
                    "mouse", "quit")
    console = Console(record=True, width=80, force_terminal=False, color_system=None,
                      file=open(os.devnull, "w"))  # noqa: SIM115
    Match("mammuz", MAMMUZ, 3, pace=0, console=console, read=script, live=False).run()
    out = [line.rstrip() for line in console.export_text().splitlines()]
    said = [line for line in out if line.startswith(("you hold", "cannot read", "no card",
                                                     "no species"))]
    assert all(len(line) <= 78 for line in said), said
    assert said[0] == "you hold 1 of the 3 bear cards still in the game; you need them all"
    assert said[1].startswith("cannot read 'lay hare hare ")  # the typed move, cut short
    assert said[1].endswith("…' as a move: help shows how moves are written")
    assert said[2:] == ["no card '6': type numbers from 1 to 5 or the names above",
                        "no species 'mouse': type 1 to 7 or one of the names above"]


def test_a_whole_move_typed_at_a_step_is_taken_too() -> None:
    match, _ = mammuz(Script("1", "lay bear as mammoth", "quit"))
    assert str(match.state.history[0][1]) == "lay bear as mammoth"


def test_a_whole_mammuz_game_from_the_menu() -> None:
    match, out = mammuz(Script())
    assert match.state.is_over()
    assert any(line.startswith("The game ended: ") for line in out)


def test_the_steps_say_what_is_wrong() -> None:
    step = Cards(["bear", "hare", "hare", "pterosaurus"], "hare", ["hare"])
    assert step.answer("2 pt") == "lay hare pterosaurus as hare"
    with pytest.raises(Wrong, match="you hold 2 hare, not 3"):
        step.answer("hare hare HARE")
    with pytest.raises(Wrong, match="no card 'm': type numbers from 1 to 3"):
        step.answer("m")  # mammoth, marmot, mouse
    with pytest.raises(Wrong, match="a lay has 1 to 4 cards, not 0"):
        step.answer(" , ")


def test_few_lays_are_listed_as_moves() -> None:
    obs = {"hand": ["hare"], "species": "hare", "herd": [{"seat": 1, "count": 1, "cards": None}]}
    labels = [c.label.plain for c in renderer_for("mammuz").menu(
        ["lay hare as hare", "doubt 1"], obs, ["You", "Bot 2"])]
    assert labels == ["lay hare as hare", "doubt: turn card 1 of Bot 2's 1"]


def test_mau_mau_says_who_an_8_skips_and_that_a_9_reverses() -> None:
    state = tiergarten.load("maumau", 3, first_card_effects=False).new_state(9)  # Qs up
    state.apply(1, "play 8s")  # seat 2 is skipped
    state.apply(0, "play 9s")  # play turns back: seat 2 next
    names = ["You", "Heuristic 2", "Random 3"]
    lines = [t.plain for t in renderer_for("maumau", False).events(state.observe(0), names)]
    assert lines == ["Heuristic 2 played 8s: Random 3 is skipped",
                     "You played 9s: play reversed (anticlockwise)"]
    assert state.observe(0)["turn"] == 2


def test_a_two_player_9_skips_unless_the_option_says_none() -> None:
    names = ["Random 1", "You"]  # seat 1 starts a two-player round
    for nine, said in (("skip", "You played 9s: Random 1 is skipped"), ("none", "You played 9s")):
        game = tiergarten.load("maumau", 2, first_card_effects=False, two_player_nine=nine)
        state = next(s for s in map(game.new_state, range(100))
                     if "play 9s" in [str(a) for a in s.legal_actions(1)])
        state.apply(1, "play 9s")
        assert [t.plain for t in renderer_for("maumau", False).events(
            state.observe(None), names)] == [said], nine
