"""Every sentence the terminal shows agrees with "You": "You open", "You flip first", "You win",
"doubted you", "your last card" — checked over whole games of all four games, with the person
at every seat, and on the rare templates one by one."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from rich.console import Console

from tiergarten.terminal import renderer_for, seat_names
from tiergarten.terminal.render import says, winners_line

from .conftest import GAMES, random_game

BAD = [
    (re.compile(r"\bYou (is|has|was|does|goes|[a-z]*[^s\W]s)\b"), "a third-person verb"),
    (re.compile(r"\bYou's\b"), "You's"),
    (re.compile(r"(?<=[a-z] )You\b"), "You as an object"),
    (re.compile(r"\b[Yy]ou\b[^.;:]*\b(their|them)\b"), "their/them for you"),
]
CONSOLE = Console(width=200, color_system=None)


def disagreements(lines: Iterable[str]) -> list[tuple[str, str]]:
    return [(why, line) for line in lines for pattern, why in BAD if pattern.search(line)]


def plain(renderable: object) -> list[str]:
    with CONSOLE.capture() as capture:
        CONSOLE.print(renderable)
    return capture.get().splitlines()


def names_with_you_at(seat: int, players: int) -> list[str]:
    kinds = ["random"] * players
    kinds[seat] = "me"
    return seat_names(kinds)


def test_the_checks_catch_what_the_issue_saw() -> None:
    wrong = ["You opens the first herd", "You flips first", "You wins.",
             "Random 3 doubted You: card 1 was hare", "You laid their last card",
             "stealing You's pile", "You's turn"]
    assert {line for _, line in disagreements(wrong)} == set(wrong)
    assert not disagreements(["You open the first herd", "You flip first", "You win.",
                              "Random 3 doubted you: card 1 was hare", "You passed",
                              "You laid your last card", "Round 1 over: You went out"])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_line_of_whole_games_agrees_with_you(game_id: str) -> None:
    players = GAMES[game_id]
    renderer = renderer_for(game_id, unicode=False)
    renderer.log_lines = 12
    renderer.show_hints = False  # type: ignore[attr-defined]  # Mucca Pazza's: no names, slow
    options = {"rounds": 2} if game_id == "maumau" else {}
    seen: list[str] = []
    for you in (0, players - 1):
        names = names_with_you_at(you, players)
        for step, (state, seat, _) in enumerate(random_game(game_id, players, you + 1,
                                                               **options)):
            if step % 8:
                continue
            for viewer in (you, None):
                obs = state.observe(viewer)
                seen += plain(renderer.screen(obs, names))
            seen += [renderer.label(str(a), state.observe(seat), names).plain
                     for a in state.legal_actions(seat)]
        final = state.observe(None)
        seen += plain(renderer.outcome(state.result().to_dict(), names, final))
        seen += plain(renderer.screen(final, names))
    assert not disagreements(seen)
    assert sum("You" in line for line in seen) > 20  # the person did appear


@pytest.mark.parametrize(("game_id", "event", "says_"), [
    ("mammuz", {"seat": 0, "act": "start"}, "You open the first herd"),
    ("mammuz", {"seat": 0, "act": "win", "reason": "doubt"}, "You win: your last lay was true"),
    ("mammuz", {"seat": 0, "act": "win", "reason": "dinosaur"},
     "You win: a dinosaur left you without cards"),
    ("mammuz", {"seat": 1, "act": "win", "reason": "extinction"},
     "Random 2 wins: an extinction emptied their hand"),
    ("mammuz", {"seat": 1, "act": "doubt", "of": 0, "position": 1, "card": "hare"},
     "Random 2 doubted you: card 1 was hare"),
    ("mammuz", {"seat": 1, "act": "give", "to": 0}, "Random 2 gave the herd to you"),
    ("lecker_mammut", {"act": "deal", "round": 2, "starter": 0}, "Round 2 dealt; You flip first"),
    ("lecker_mammut", {"act": "hit", "seat": 1, "feature": "green", "cards": ["a", "b"],
                       "robbed": [{"seat": 0, "size": 3}]},
     "Random 2 hit green: 2 cards, stealing your pile of 3"),
    ("lecker_mammut", {"act": "hit", "seat": 0, "feature": "green", "cards": ["a"],
                       "robbed": [{"seat": 0, "size": 2}, {"seat": 2, "size": 1}]},
     "You hit green: 1 card, with your own pile of 2, stealing Random 3's pile of 1"),
    ("maumau", {"seat": 1, "act": "catch", "caught": 0, "cards": 2},
     "Random 2 caught you without Mau: +2"),
])
def test_rare_templates(game_id: str, event: dict[str, object], says_: str) -> None:
    names = ["You", "Random 2", "Random 3"]
    assert renderer_for(game_id, unicode=False).event(event, names, None).plain == says_


def test_situations_labels_and_results() -> None:
    names = ["You", "Random 2", "Random 3"]
    mammuz = renderer_for("mammuz", unicode=False)
    last = {"seat": 0, "turn": 1, "must_doubt": True, "phase": "respond", "revealed": []}
    assert [t.plain for t in mammuz._situation(last, names)][0] == (
        "You laid your last card: Random 2 must doubt.")
    last = {"seat": 1, "turn": 1, "must_doubt": True, "phase": "respond", "revealed": []}
    assert [t.plain for t in mammuz._situation(last, names)][0] == (
        "You laid your last card: you must doubt.")
    herd = {"herd": [{"seat": 0, "count": 2, "cards": None}]}
    assert mammuz.label("doubt 1", herd, names).plain == "doubt: turn card 1 of your 2"
    assert mammuz.label("give 0", herd, names).plain == "give the herd to you"
    lecker = renderer_for("lecker_mammut", unicode=False)
    choosing = {"choosing": [{"seat": 0, "feature": "red", "tops": ["red-bear"]}],
                "returning": [], "phase": "flipping"}
    assert lecker._situation(choosing, names)[0].plain.startswith(
        "You choose the top card (red): 1:")
    assert winners_line([0], names) == "You win."
    assert winners_line([1, 0], names) == "Random 2 and you win."
    assert winners_line([2], names) == "Random 3 wins."
    assert says("You", "chooses") == "You choose" and says("You", "pushes") == "You push"
