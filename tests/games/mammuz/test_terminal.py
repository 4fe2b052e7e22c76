"""The MammuZ terminal renderer: built from observations, it shows a seat only what it may see."""

from __future__ import annotations

import random

from rich.console import Console

import tiergarten
from tiergarten.bots import make
from tiergarten.core.match import next_move
from tiergarten.terminal.render import renderer_for

NAMES = ["You", "Heuristic 2", "Random 3", "Random 4"]


def text(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_every_screen_of_a_whole_game_renders_and_hides_other_hands() -> None:
    renderer = renderer_for("mammuz", unicode=False)
    assert type(renderer).__name__ == "MammuZRenderer"
    game = tiergarten.load("mammuz", players=4)
    state = game.new_state(8)
    agents = [make("heuristic" if s < 2 else "random", game, s, random.Random(s))
              for s in range(4)]
    while not state.is_over():
        obs = state.observe(0)
        screen = text(renderer.screen(obs, NAMES))
        assert "Your hand:" in screen
        for lay in obs["herd"]:
            assert (lay["cards"] is None) == (lay["seat"] != 0)
        turn = state.observe(None)["turn"]
        legal = state.legal_actions(turn)
        for action in legal[:3] + legal[-6:]:  # lays read as notation; the rest in words
            label = text(renderer.label(str(action), state.observe(turn), NAMES)).strip()
            assert label == str(action) or not str(action).startswith("lay")
        seat, action, _ = next_move(state, agents)
        state.apply(seat, action)
    final = text(renderer.outcome(state.result().to_dict(), NAMES))
    assert " win." in final or " wins." in final
    assert "Your hand:" not in text(renderer.screen(state.observe(None), NAMES))


def test_log_events_and_menu_labels_read_as_words() -> None:
    renderer = renderer_for("mammuz", unicode=False)
    obs = {"herd": [{"seat": 2, "count": 3, "cards": None}]}
    assert text(renderer.label("give 1", obs, NAMES)).strip() == "give the herd to Heuristic 2"
    assert text(renderer.label("doubt 3", obs, NAMES)).strip() == (
        "doubt: turn card 3 of Random 3's 3")
    event = {"seat": 1, "act": "doubt", "of": 0, "position": 2, "card": "tyrannosaurus"}
    assert text(renderer.event(event, NAMES, 0)).strip() == (
        "Heuristic 2 doubted you: card 2 was tyrannosaurus")
    event = {"seat": None, "act": "removed", "cards": ["hare", "hare"],
             "dinosaurs": ["stegosaurus", "plesiosaurus"], "to": 1}
    assert text(renderer.event(event, NAMES, 0)).strip() == (
        "The herd's animals left the game: 2 hare; its dinosaurs went to Heuristic 2: "
        "1 stegosaurus, 1 plesiosaurus")
    event = {"seat": None, "act": "removed", "cards": [], "dinosaurs": ["plesiosaurus"], "to": 0}
    assert text(renderer.event(event, NAMES, 0)).strip() == (
        "The herd held no animal; its dinosaurs went to you: 1 plesiosaurus")
