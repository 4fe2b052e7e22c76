"""Every language in the browser: switch with the top bar's select, open a table of each game
against bots, and check that no key is missing from the catalogue and no raw key shows."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.webparts import catalogue

from .a11y import assert_accessible
from .driver import create_table

TABLES = [  # game, seats: enough to draw every board
    ("maumau", ["you", "bot:random"]),
    ("mammuz", ["you", "bot:random", "bot:random"]),
    ("lecker_mammut", ["you", "bot:slow"]),
    ("mucca_pazza", ["you", "bot:random"]),
]

# Every text on the page (text nodes and the labels people or screen readers get) that looks
# like a catalogue key, e.g. "table.how_to_play", rather than words.
RAW_KEYS = r"""() => {
  const key = /^[a-z_]+\.[a-z_.]+$/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.nodeValue.trim();
    if (key.test(text)) found.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      const text = (el.getAttribute(name) || "").trim();
      if (key.test(text)) found.push(`${name}=${text}`);
    }
  }
  return found;
}"""


def missing(page: Any) -> list[str]:
    return sorted(page.evaluate("[...window.__i18nMissing]"))


@pytest.mark.parametrize("lang", ["en", "de", "pl", "it"])
def test_each_language_renders_every_screen(page: Any, web: Any, shot: Any,
                                            page_errors: list[str], lang: str) -> None:
    words = catalogue(lang)  # the shared words and every game's
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    page.select_option("#language", lang)
    expect(page.locator(".lobby h1")).to_have_text(words["lobby.title"])
    assert page.evaluate("document.documentElement.lang") == lang
    page.click(".game-choice[data-game=maumau]")
    page.click("details.options summary")
    expect(page.locator("label.option").first).to_contain_text(words["option.maumau.target_score"])
    shot(page, "lobby")
    assert missing(page) == [] and page.evaluate(RAW_KEYS) == []
    assert_accessible(page, "the lobby")

    for game, seats in TABLES:
        create_table(page, web.url, game, "Ann", seats)
        assert page.evaluate("document.documentElement.lang") == lang  # kept on a new page
        expect(page.locator(".table-head h1")).to_have_text(words[f"game.{game}.title"])
        rules = page.locator("details.rules")
        rules.locator("summary").click()
        expect(rules.locator("summary")).to_have_text(words["table.how_to_play"])
        paragraphs = words[f"rules.{game}"].split("\n")
        expect(rules.locator("p")).to_have_count(len(paragraphs))
        expect(rules.locator("p").first).to_have_text(paragraphs[0])
        page.wait_for_timeout(300)  # a bot's move or two, for the move log
        shot(page, game)
        assert missing(page) == [], game
        assert page.evaluate(RAW_KEYS) == [], game
        assert_accessible(page, game)
    assert page_errors == []
