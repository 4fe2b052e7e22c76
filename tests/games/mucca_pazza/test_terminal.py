"""The terminal renderer draws every observation of a game without error and shows the table."""

from __future__ import annotations

import io
import random

from rich.cells import cell_len
from rich.console import Console

import tiergarten
from tiergarten.terminal import renderer_for
from tiergarten.terminal.mucca_pazza import MuccaPazzaRenderer

from .positions import J_BODIES, J_HEADS, J_LEGS, junior, standard


def text(obs: dict[str, object], unicode: bool = True, names: tuple[str, ...] = ("You", "Bot"),
         ) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    renderer = renderer_for("mucca_pazza", unicode)
    console.print(renderer.screen(obs, list(names)))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_the_renderer_is_found_by_game_id() -> None:
    assert type(renderer_for("mucca_pazza")) is MuccaPazzaRenderer


def test_a_junior_screen_shows_the_board_the_grid_the_target_and_a_hint() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    state.apply(0, "reveal 4")
    screen = text(state.observe(0))
    assert "🐸 frog" in screen and "heads" in screen and "legs" in screen
    assert "complete the frog" in screen and "Hint: frog can be completed in 1 more slide" in screen
    assert " 4 🐸 frog" in screen and "16 ▒▒" in screen
    assert "Hint" not in text(state.observe(1))  # only the seat whose turn it is
    state.apply(0, "slide bodies left")
    screen = text(state.observe(1), unicode=False)
    assert "ok" in screen and "won the frog" in screen and "🐸" not in screen


def test_screens_from_whole_games_render_within_80_columns() -> None:
    for variant, players in (("standard", 4), ("junior", 3)):
        game = tiergarten.load("mucca_pazza", players=players, variant=variant)
        state = game.new_state(seed=11)
        rng = random.Random(11)
        names = tuple(f"Seat {s}" for s in range(players))
        steps = 0
        while not state.is_over():
            seat = state.to_move()[0]
            if steps % 20 == 0:
                for line in text(state.observe(seat), names=names).splitlines():
                    assert cell_len(line) <= 80
            steps += 1
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert "game is over" in text(state.observe(None), names=names)


def test_the_hint_command_names_slides_that_do_complete_the_target() -> None:
    state = junior(J_HEADS, J_BODIES, J_LEGS, "frog " * 15 + "ghost")
    state.apply(0, "reveal 4")
    renderer = renderer_for("mucca_pazza")
    assert "hint" in renderer.commands()
    answer = str(renderer.command("hint", state.observe(0)))
    slides = answer.removeprefix("Hint: ").split(" — ")[0].split("; ")
    for slide in slides:
        state.apply(0, slide)
    assert "frog" in state.observe(0)["complete"]
    assert "nothing to slide" in str(renderer.command("hint", state.observe(1)))


def test_the_standard_hint_command_names_the_slides_to_the_first_completion() -> None:
    # heads right completes the frog, bodies left the pig; both together the dog and the cat
    state = standard("frog dog cat horse pig", "pig frog horse dog cat", "horse frog dog cat pig",
                     "frog dog dog dog", pile="cat", stars=(0, 0))
    renderer = renderer_for("mucca_pazza")
    assert str(renderer.command("hint", state.observe(0))) == (
        "Hint: slide heads right — wins 1 card.")
    state.apply(0, "slide heads right")  # the frog: seat 1's turn, no stars either
    state.apply(1, "slide heads left")  # nothing can be won within the two slides left
    assert str(renderer.command("hint", state.observe(1))) == (
        "Hint: nothing can be won this turn — stop.")


def test_the_last_round_is_counted_in_turns_and_not_shown_once_the_game_is_over() -> None:
    state = standard("dog cat pig frog", "frog cat pig dog", "frog pig dog cat", "frog pig pig",
                     pile="dog", stars=(0, 0))
    state.apply(0, "slide heads right")  # the frog won, the last pile card laid out
    said = []
    while not state.is_over():
        said.append(next(line.strip() for line in text(state.observe(0)).splitlines()
                         if "pile 0" in line))
        state.apply(state.turn, "slide heads left")
    assert said[0].endswith("last round: 2 turns left") and said[-1].endswith("1 turn left")
    assert state.observe(0)["final_round"] == 0 and "last round" not in text(state.observe(0))
