"""`tiergarten play`: whole games typed at a piped stdin, wrong moves, quitting, records."""

from __future__ import annotations

from pathlib import Path

import tiergarten
from tiergarten.games.maumau.actions import CATCH

from .conftest import careful_move, first_move, load_record, play_in_process

ONES = "1\n" * 600


def test_whole_game_typing_numbers_plays_the_first_menu_entry(run, tmp_path: Path) -> None:
    result = run("play", "maumau", "--players", "me,heuristic,random", "--option", "rounds=1",
                 "--seed", "11", "--pace", "0", "--save", "game.json", input=ONES)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Result" in result.output
    assert "Game saved to game.json" in result.output
    record = load_record(tmp_path / "game.json")
    assert record["agents"] == ["me", "heuristic", "random"]
    # replay the record: every move of the person is the first legal move at that point
    state = tiergarten.load("maumau", 3, **record["options"]).new_state(record["seed"])
    mine = 0
    for seat, text in record["actions"]:
        if seat == 0:
            assert text == str(state.legal_actions(0)[0])
            mine += 1
        state.apply(seat, text)
    assert state.is_over() and mine > 0


def test_whole_game_typing_notation() -> None:
    typed: list[str] = []

    def shout_first_move(prompt: str, completions: list[str]) -> str:
        text = first_move(prompt, completions)
        typed.append(text)
        return "  " + text.upper().replace(" ", "   ")  # case and spacing are free

    match, _ = play_in_process("me,random", 4, shout_first_move, rounds=1)
    assert match.state.is_over()
    mine = [text for seat, text in match.state.record()["actions"] if seat == 0]
    assert mine == typed


def test_screen_shows_table_hand_and_menu(run) -> None:
    result = run("play", "maumau", "--players", "me,heuristic,random", "--seed", "3",
                 "--pace", "0", "--no-save", input="quit\n")
    out = result.output
    assert result.exit_code == 0
    for part in ("Mau Mau · seed 3", "You", "Heuristic 2", "Random 3", "Top card:",
                 "Your hand:", "Recent:", "round 1 · first to 150 points", "draw a card"):
        assert part in out, part
    assert "Game saved" not in out


def test_wrong_moves_get_one_line_reasons_and_the_game_goes_on(run, tmp_path: Path) -> None:
    result = run("play", "maumau", "--players", "me,heuristic,random", "--seed", "3",
                 "--pace", "0", "--save", "q.json",
                 input="play 9d\nplay 7x\n99\npass\nquit\n")
    assert result.exit_code == 0 and "Stopped." in result.output
    # where the person was asked: after the bots' opening moves (the person made none)
    state = tiergarten.replay(load_record(tmp_path / "q.json"))
    legal = [str(a) for a in state.legal_actions(0)]
    assert "9d" in state.observe(0)["hand"] and "play 9d" not in legal  # (seed 3)
    lines = result.output.splitlines()
    # piped input is not echoed, so each reply follows the "> " prompt on its line, and fits
    # the 80 columns: the legal moves are on the menu above
    said = [line for line in lines if line.startswith("> ") and len(line) > 2]
    assert said == [
        "> 9d matches neither the suit in force (hearts) nor the rank of Jd; see the menu",
        "> cannot read 'play 7x' as a move: help shows how moves are written",
        f"> there is no move 99: type a number from 1 to {len(legal)}, or a move",
        "> pass is only for ending your turn after you have drawn a card; see the menu"]


def test_a_refusal_lists_the_legal_moves_when_they_fit() -> None:
    from rich.console import Console

    from tiergarten.terminal import Screen

    game = tiergarten.load("maumau", 3)
    screen = Screen(game, ["You", "Heuristic 2", "Random 3"], 3, Console(width=200), input, [0])
    screen.state = game.new_state(3)
    for seat, move in ((1, "draw"), (1, "pass"), (2, "play Jd h")):  # the bots' of seed 3
        screen.state.apply(seat, move)
    legal = ", ".join(str(a) for a in screen.state.legal_actions(0))
    assert screen.refusal(0, game.parse_action("play 9d")) == (
        f"9d matches neither the suit in force (hearts) nor the rank of Jd; legal now: {legal}")
    screen.console = Console(width=80)
    assert screen.refusal(0, game.parse_action("play 9d")).endswith("; see the menu")


def test_help_lists_the_notation(run) -> None:
    result = run("play", "maumau", "--seed", "3", "--pace", "0", "--no-save",
                 input="help\nquit\n")
    assert "write play <card>" in result.output and "quit stops the game" in result.output


def test_quit_saves_the_partial_record_by_default(run, tmp_path: Path) -> None:
    result = run("play", "maumau", "--players", "me,heuristic", "--seed", "8", "--pace", "0",
                 input="1\n1\nquit\n")
    assert result.exit_code == 0
    saved = list((tmp_path / "records").glob("maumau-8-*.json"))
    assert len(saved) == 1 and f"Game saved to {Path('records') / saved[0].name}" in result.output
    record = load_record(saved[0])
    assert record["seed"] == 8 and len(record["actions"]) >= 2
    state = tiergarten.replay(record)
    assert not state.is_over()


def test_end_of_input_also_stops_and_saves(run, tmp_path: Path) -> None:
    result = run("play", "maumau", "--seed", "2", "--pace", "0", "--save", "x/y.json", input="")
    assert result.exit_code == 0 and "Stopped." in result.output
    assert load_record(tmp_path / "x" / "y.json")["agents"] == ["me", "heuristic", "heuristic"]


def test_default_lineup_is_me_against_heuristics(run) -> None:
    result = run("play", "maumau", "--seed", "1", "--pace", "0", "--no-save", input="quit\n")
    assert "Heuristic 2" in result.output and "Heuristic 3" in result.output


def test_hot_seat_shows_whose_turn_and_only_that_seats_view() -> None:
    match, out = play_in_process("me,me,random", 6, careful_move, rounds=1)
    assert match.state.is_over()
    assert "Player 1's view" in out and "Player 2's view" in out
    seats = {seat for seat, _ in match.state.history}
    assert {0, 1} <= seats


def _catch_window_game(answer: str, players: str = "me,random,random",
                       ) -> tuple[object, list[str]]:
    """Find a seed where a person may only catch (a player forgot Mau while another one is
    to play) and answer `answer` there."""
    for seed in range(200):
        seen: list[str] = []

        def read(prompt: str, completions: list[str], seen: list[str] = seen) -> str:
            if completions[0] == "catch" and not seen:
                seen.append(prompt)
                return answer
            return first_move(prompt, completions)

        match, out = play_in_process(players, seed, read, rounds=1)
        if seen:
            return match, out.splitlines()
    raise AssertionError("no seed in 0..199 gave the person a catch-only choice")


def test_waiting_in_a_catch_window_lets_play_go_on() -> None:
    match, lines = _catch_window_game("")
    assert any("Enter" in line and "do nothing" in line for line in lines)
    assert match.state.is_over()  # type: ignore[attr-defined]


def test_catching_from_the_menu() -> None:
    match, _ = _catch_window_game("1")
    history = match.state.history  # type: ignore[attr-defined]
    assert (0, CATCH) in history


def test_hot_seat_a_person_may_catch_while_the_other_person_is_in_turn() -> None:
    # both people always catch when they may only catch, else type the first legal move
    def read(prompt: str, completions: list[str]) -> str:
        return "1" if completions[0] == "catch" else careful_move(prompt, completions)

    for seed in range(100):
        match, _ = play_in_process("me,me,random", seed, read, rounds=1)
        record = match.state.record()
        state = tiergarten.load("maumau", 3, **record["options"]).new_state(record["seed"])
        for seat, text in record["actions"]:
            turn = state.observe(None)["turn"]
            if text == "catch" and seat in (0, 1) and turn == 1 - seat:
                return
            state.apply(seat, text)
    raise AssertionError("no person caught while the other person was in turn")
