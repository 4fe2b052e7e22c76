"""The replay of every game, each in another language: step from the deal to the end and back
(the arrow keys, Home and End), and every move is told in the page's words, never as notation;
MammuZ shows the laid cards face up."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.server.harness import run, until_over

from .a11y import assert_accessible

# game, options, bots, language
GAMES = [
    ("maumau", {"rounds": 1}, ["heuristic", "heuristic"], "en"),
    ("mammuz", {}, ["heuristic", "heuristic", "heuristic"], "de"),
    ("lecker_mammut", {"rounds": 1}, ["normal", "normal"], "pl"),
    ("mucca_pazza", {}, ["heuristic", "heuristic"], "it"),
    ("mucca_pazza", {"variant": "junior"}, ["heuristic", "heuristic"], "de"),
]

# Step with the arrow key through every position, in the page (quicker than one Playwright
# call a step); at each, the move's words and the step counter.
STEP_ALL = """(key) => {
  const seen = [];
  const total = Number(document.querySelector('#replay-range').max);
  for (let i = 0; i < total; i++) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
    seen.push([document.querySelector('#replay-step').textContent,
               document.querySelector('#replay-event').innerText]);
  }
  return seen;
}"""


def raw(act: str, words: str) -> bool:
    """Whether the words of a move are its notation ("doubt 1", "Ann: draw")."""
    return any(line == act or line.endswith(f": {act}") or (" " in act and act in line)
               for line in words.splitlines())


# A table's seed fixes its deal and its bots' choices: MammuZ's turns a Pterosaurus, whose
# taker is being chosen (the turned card's outcome is still None) at one step of the replay.
SEEDS = {"mammuz": 31}


def finished_table(web: Any, game: str, options: dict[str, Any], bots: list[str]) -> str:
    table = web.create(game=game, players=len(bots), options=options,
                       seats=[{"bot": b} for b in bots], seed=SEEDS.get(game, 1))
    run(until_over(web, table["id"], 120))  # its `run` works beside Playwright's loop
    return str(table["id"])


IDS = [f"{g}-{o.get('variant', 'standard')}-{lang}" for g, o, _, lang in GAMES]


@pytest.mark.parametrize(("game", "options", "bots", "lang"), GAMES, ids=IDS)
def test_every_replay_steps_from_the_deal_to_the_end_and_back(
        page: Any, web: Any, shot: Any, page_errors: list[str], game: str,
        options: dict[str, Any], bots: list[str], lang: str) -> None:
    tid = finished_table(web, game, options, bots)
    steps = web.get(f"/api/tables/{tid}/replay").json()["steps"]
    if game == "mammuz":
        assert any(s["view"]["phase"] == "give" for s in steps), "the seed no longer shows it"
    total = len(steps) - 1
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")  # the page has set its language: now switch it
    page.select_option("#language", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)  # switched (and remembered)
    page.goto(f"{web.url}/#/t/{tid}/replay")
    step = page.locator("#replay-step")
    expect(step).to_contain_text(str(total))
    page.keyboard.press("Home")
    expect(page.locator("#replay-range")).to_have_value("0")
    words = page.locator(".replay-controls button").evaluate_all(
        "bs => bs.map(b => b.innerText.replace(/[^\\p{L} ]/gu, '').trim())")
    assert len(words) == 5 and all(words) and len(set(words)) == 5, words  # each its name
    shot(page, "deal")
    forward = page.evaluate(STEP_ALL, "ArrowRight")
    assert len(forward) == total
    expect(page.locator("#replay-range")).to_have_value(str(total))
    shot(page, "end")
    for (counter, words), played in zip(forward, steps[1:], strict=True):
        assert words.strip(), counter
        assert not raw(played["act"], words), f"{counter}: the move is told as notation: {words!r}"
        assert "undefined" not in words and "{" not in words, f"{counter}: {words!r}"
    back = page.evaluate(STEP_ALL, "ArrowLeft")
    assert len(back) == total
    expect(page.locator("#replay-range")).to_have_value("0")
    page.keyboard.press("End")
    expect(page.locator("#replay-range")).to_have_value(str(total))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-range")).to_have_value(str(total - 1))
    if game == "mammuz":  # every hand is revealed, the laid cards too
        laid = next(i for i, s in enumerate(steps) if s["view"]["herd"])
        page.keyboard.press("Home")
        for _ in range(laid):
            page.keyboard.press("ArrowRight")
        expect(page.locator(".herd .lay .card svg.face").first).to_be_visible()
        expect(page.locator(".herd .lay svg.back")).to_have_count(0)
        shot(page, "laid-face-up")
    assert page.evaluate("[...window.__i18nMissing]") == []
    assert_accessible(page)
    assert page_errors == []
