"""Renderers: found by module name, a generic fallback that can run a whole game, and no seat
ever shown another seat's hand."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console
from tests.games.maumau.positions import position

import tiergarten
from tiergarten.terminal import Renderer, register, renderer_for
from tiergarten.terminal import render as render_module
from tiergarten.terminal.maumau import MauMauRenderer

from .conftest import careful_move, first_move, play_in_process

NAMES = ["You", "Heuristic 2", "Random 3", "Random 4"]


CONSOLE = Console(width=120, color_system=None)


def text_of(renderable: object) -> str:
    with CONSOLE.capture() as capture:
        CONSOLE.print(renderable)
    return capture.get()


def positions(players: int, seed: int, limit: int = 240, every: int = 4):
    """Every few states along a seeded random game."""
    rng = random.Random(seed)
    state = tiergarten.load("maumau", players, rounds=2).new_state(seed)
    for step in range(limit):
        if state.is_over():
            return
        if step % every == 0:
            yield state
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("renderer", "spell"), [
    (MauMauRenderer(), lambda c: MauMauRenderer().card(c).plain),
    (Renderer(), lambda c: c),
], ids=["maumau", "generic"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seats_screen_never_shows_another_seats_hand(renderer, spell, players) -> None:
    names = NAMES[:players]
    for state in positions(players, seed=players):
        views = [state.observe(s) for s in range(players)]
        for seat, obs in enumerate(views):
            screen = text_of(renderer.screen(obs, names, log=False))  # the log is public
            words = set(re.findall(r"[^\s,;:()\[\]]+", screen))
            for other in range(players):
                shown = {spell(c) for c in views[other]["hand"]} & words
                if other == seat:
                    assert shown == {spell(c) for c in obs["hand"]}
                else:
                    assert not shown, (seat, other, shown)


def test_the_hand_line_is_the_seats_own_hand() -> None:
    r = MauMauRenderer(unicode=False)
    state = tiergarten.load("maumau", 3).new_state(5)
    for seat in range(3):
        obs = state.observe(seat)
        line = next(li for li in text_of(r.screen(obs, NAMES[:3])).splitlines()
                    if "Your hand:" in li)
        assert line.split("Your hand:")[1].split() == obs["hand"]
    spectator = text_of(r.screen(state.observe(None), NAMES[:3]))
    assert "Your hand" not in spectator


def test_cards_are_readable_without_colour() -> None:
    assert MauMauRenderer().card("10h").plain == "10♥"
    assert MauMauRenderer(unicode=False).card("10h").plain == "10h"
    assert MauMauRenderer().card("Jc").style != MauMauRenderer().card("Jh").style


def test_log_events_in_words() -> None:
    r = MauMauRenderer(unicode=False)
    say = [r.event(e, NAMES[:3], 0).plain for e in (
        {"seat": 2, "act": "play 7h mau"},
        {"seat": 1, "act": "draw", "cards": 2},
        {"seat": 1, "act": "catch", "caught": 0, "cards": 2},
        {"seat": 0, "act": "catch", "caught": 2, "cards": 2},
        {"seat": 1, "act": "play Jd s maumau"},
        {"seat": 1, "act": "round_over", "round": 1, "points": 17, "hands": {"0": ["7h", "Kc"]}},
    )]
    assert say == [
        "Random 3 played 7h and said Mau",
        "Heuristic 2 drew 2 cards",
        "You were caught by Heuristic 2: +2",
        "You caught Random 3 without Mau: +2",
        "Heuristic 2 played Jd, wished for spades and said Mau Mau",
        "Round 1 over: Heuristic 2 went out and scored 17; You held 7h Kc",
    ]


def test_renderers_are_found_by_module_name_or_registration(monkeypatch) -> None:
    assert type(renderer_for("maumau")) is MauMauRenderer
    assert type(renderer_for("mammuz_without_renderer")) is Renderer
    assert renderer_for("maumau") is not renderer_for("maumau")  # copies, free to configure

    class Plain(Renderer):
        pass

    monkeypatch.setattr(render_module, "_REGISTERED", {})
    register("maumau", Plain())
    assert type(renderer_for("maumau")) is Plain


def test_the_generic_renderer_plays_a_whole_game(monkeypatch) -> None:
    monkeypatch.setattr(render_module, "_REGISTERED", {})
    register("maumau", Renderer())
    match, out = play_in_process("me,heuristic", 12, first_move, rounds=1)
    assert match.screen.renderer.__class__ is Renderer
    assert match.state.is_over()
    assert "hand sizes" in out and "Result" in out


def test_hot_seat_prompts_show_the_asking_seats_hand_only() -> None:
    from tiergarten.terminal import Match

    from .conftest import quiet_console

    console = quiet_console()
    holder: list[Match] = []
    checked: list[int] = []

    def read(prompt: str, completions: list[str]) -> str:
        seat = int(prompt.split()[1]) - 1  # "Player 2 > " is seat 1
        shown = console.export_text(clear=False)
        line = [li for li in shown.splitlines() if "Your hand:" in li][-1]
        cards = line.split("Your hand:")[1].strip(" │").split()
        own = holder[0].state.observe(seat)["hand"]
        assert cards == [MauMauRenderer().card(c).plain for c in own]
        checked.append(seat)
        return careful_move(prompt, completions)

    match = Match("maumau", ["me", "me", "me"], 3, {"rounds": 1}, pace=0, console=console,
                  read=read, live=False)
    holder.append(match)
    assert match.run() == "over"
    assert set(checked) == {0, 1, 2}


@pytest.mark.parametrize(("stock", "line", "menu"), [
    ("10s", "You drew 10s: it does not fit, so pass (your turn ends)",
     ["pass: 10s does not fit (end your turn)"]),
    ("Kh", "You drew Kh: play it, or keep it and pass",
     ["play Kh", "keep the drawn card (end your turn)"]),
])
def test_after_a_draw_the_screen_says_what_was_drawn_and_whether_it_fits(
        stock: str, line: str, menu: list[str]) -> None:
    r = MauMauRenderer(unicode=False)
    state = position(["8h Kc Ad", "7c 9c"], top="Qh", stock=stock)
    state.apply(0, "draw")
    obs = state.observe(0)
    assert line in text_of(r.screen(obs, NAMES[:2]))
    assert [r.label(str(a), obs, NAMES[:2]).plain for a in state.legal_actions(0)] == menu
    assert stock not in text_of(r.screen(state.observe(1), NAMES[:2]))
    state.apply(0, "pass")
    assert r.event(state.observe(1)["log"][-1], NAMES[:2], 1).plain == "You passed"


def test_the_direction_of_play_is_shown_only_where_it_means_something() -> None:
    # between two players a 9 acts as an 8 (or as an ordinary card): no way round to show
    r = MauMauRenderer(unicode=False)
    two = position(["9h Kh Ad", "9c Qs"], top="Qh")
    two.apply(0, "play 9h")
    assert "play runs" not in text_of(r.screen(two.observe(1), NAMES[:2]))
    three = position(["9h Kh Ad", "9c Qs", "7c 8c"], top="Qh")
    three.apply(0, "play 9h")
    assert "play runs anticlockwise" in text_of(r.screen(three.observe(1), NAMES[:3]))
