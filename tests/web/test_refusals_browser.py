"""A refusal on a German page reads in German: the server sends the game's reason code and
parameters, the page words them from its catalogue (seats as names, animals in words) and
shows none of the engine's English."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.webparts import catalogue

from .driver import create_table, wait_turn_or_end

DE = catalogue("de")  # the shared words and every game's


def refuse(page: Any, act: str) -> str:
    """Send `act` on this page's seat, as a tampered client could, and read the refusal."""
    assert wait_turn_or_end(page), "the game ended before this seat had a move"
    page.evaluate("act => window.__tiergarten.sockets()[0].act(act)", act)
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    return str(toast.inner_text())


def german(page: Any, web: Any) -> None:
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    page.select_option("#language", "de")
    expect(page.locator(".lobby h1")).to_have_text(DE["lobby.title"])


@pytest.mark.parametrize(("game", "seats", "act", "expected", "english"), [
    ("maumau", ["you", "bot:random"], "pass", DE["refusal.maumau.pass_after_draw"],
     "pass is only for ending your turn"),
    ("mammuz", ["you", "bot:random", "bot:random"], "extinct mouse",
     DE["refusal.mammuz.extinct_not_in_play"].replace("{species}", DE["animal.mouse"])
     .replace("{players}", "3"), "mouse is not in play"),
])
def test_a_german_page_words_a_refusal_in_german(page: Any, web: Any, shot: Any,
                                                 page_errors: list[str], game: str,
                                                 seats: list[str], act: str, expected: str,
                                                 english: str) -> None:
    german(page, web)
    create_table(page, web.url, game, "Anna", seats)
    text = refuse(page, act)
    shot(page, f"{game}-refused")
    assert text == expected
    assert english not in text and "legal now" not in text and DE["error.code.illegal"] not in text
