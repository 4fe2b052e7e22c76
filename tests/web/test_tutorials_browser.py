"""Every tutorial in the browser, from the lobby's "Learn to play": the coach explains each
step, only the taught move is lit and pressable, and following the instructions gets to the
coach's "well done"; every tutorial is then played to the end against its gentle bots, as a
person would (each within `PLAY_OUT` seconds)."""

from __future__ import annotations

import contextlib
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from tests.webparts import catalogue

from tiergarten.server.table.tutorial import TUTORIALS

from .driver import TIMEOUT, play_mammuz_turn, play_maumau_turn, play_to_end
from .test_lecker_mammut_browser import TRIPLE
from .test_mucca_pazza_browser import follow_hint, my_turn

PLAY_OUT = 180  # seconds the rest of a tutorial's game may take in the browser
# Every step the coach shows, as the page shows it (a step can pass between two looks of
# the test's, when one move does what it asks and the bot's answer the next one's).
WATCH_STEPS = """() => {
  window.__steps = [];
  const note = () => {
    const step = document.querySelector('#coach')?.dataset.step;
    if (step !== undefined && window.__steps.at(-1) !== step) window.__steps.push(step);
  };
  note();
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
    attributes: true, attributeFilter: ['data-step']});
}"""


def press_taught(page: Any, tutorial: str, rng: random.Random) -> None:
    """Do what the coach asks, as a person would: press a lit control of the taught move."""
    if tutorial == "maumau":
        if page.locator(".board .hand .card.legal:not([disabled]), .board .actions button").count():
            play_maumau_turn(page, rng)
    elif tutorial == "mammuz":
        if page.locator("button.lay, button.give, .card.doubt").count():
            play_mammuz_turn(page, rng)
    elif tutorial == "lecker_mammut":  # flip; on three alike the club, then the call; a top
        feature = page.evaluate(TRIPLE)
        pick = page.locator(".lm-pick")
        if pick.count():
            with contextlib.suppress(PlaywrightTimeout):
                pick.first.click(timeout=3000)
        elif feature and page.locator(".lm-club").count():
            with contextlib.suppress(PlaywrightTimeout):  # the table may move on meanwhile
                page.locator(".lm-club").first.click(timeout=3000)
                page.locator(f".lm-call .lm-feature[data-feature='{feature}']").click(timeout=3000)
        elif page.locator(".lm-flip:not([disabled])").count():
            page.locator(".lm-flip").first.click()
        elif page.locator(".lm-controls button[data-act=pass]").count():
            page.locator(".lm-controls button[data-act=pass]").click()
    else:
        live = page.locator(".mucca [data-act^='reveal']:not([disabled]), "
                            ".mucca button.mp-arrow:not([disabled])")
        if live.count():
            live.nth(rng.randrange(live.count())).click()
    page.wait_for_timeout(150)


def play_out(page: Any, tutorial: str) -> None:
    """The rest of the game after the coach's "well done", to its results."""
    deadline = time.monotonic() + PLAY_OUT
    if tutorial == "maumau":
        play_to_end(page, play_maumau_turn, seed=2)
    elif tutorial == "mammuz":
        play_to_end(page, play_mammuz_turn, seed=2)
    elif tutorial == "lecker_mammut":
        while not page.locator(".results").count():  # flip on; take a top card when won
            assert time.monotonic() < deadline, "the Lecker Mammut! tutorial did not end"
            pick = page.locator(".lm-pick")
            if pick.count():
                with contextlib.suppress(PlaywrightTimeout):  # the choice may pass meanwhile
                    pick.first.click(timeout=3000)
            elif page.locator(".lm-flip:not([disabled])").count():
                page.keyboard.press("Space")
            elif page.locator(".lm-controls button[data-act=pass]").count():
                page.locator(".lm-controls button[data-act=pass]").click()
            page.wait_for_timeout(40)
    else:
        while my_turn(page):  # Mucca Pazza: what the hint advises
            assert time.monotonic() < deadline, f"the {tutorial} tutorial did not end"
            follow_hint(page)
    assert time.monotonic() < deadline, f"the {tutorial} tutorial took too long to finish"
    expect(page.locator(".results")).to_be_visible()


# The key moves each tutorial makes the learner make (by the page's own controls), as
# patterns of the learner's moves in the finished game's record.
KEY_MOVES = {
    "lecker_mammut": [r"^flip$", r"^hit ", r"^top ", r"^pass$"],
    "maumau": [r"^play [^J]", r"^draw$", r"^play J\S+ [cdhs]", r" mau$"],
    "mammuz": [r"^lay ", r"^doubt "],
}
# Besides English, each changed tutorial once in another language (the coach's steps, to its
# "well done"; the English runs also play the game out).
RUNS = [(tutorial, "en") for tutorial in sorted(TUTORIALS)] + [
    ("lecker_mammut", "pl"), ("maumau", "de"), ("mammuz", "it")]


@pytest.mark.parametrize(("tutorial", "lang"), RUNS)
def test_follow_the_coach_through_a_tutorial(browser: Any, web: Any, shot: Any,
                                             tutorial: str, lang: str) -> None:
    words = catalogue(lang)
    page = browser.new_context().new_page()
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    page.select_option("#language", lang)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    page.click("#learn")
    page.click(f".tutorial-choice[data-tutorial='{tutorial}']")
    coach = page.locator("#coach")
    expect(coach).to_be_visible(timeout=TIMEOUT)
    expect(coach).to_have_attribute("data-step", "0")
    expect(page.locator("#coach-text")).not_to_be_empty()
    page.evaluate(WATCH_STEPS)
    shot(page, "first-step")
    if tutorial == "maumau":  # only playing a card is taught first: no draw button yet
        expect(page.locator(".actions button[data-act=draw]")).to_have_count(0)
    rng = random.Random(1)
    deadline = time.monotonic() + 120
    steps = len(TUTORIALS[tutorial]["steps"])
    seen: set[str] = set()
    while coach.get_attribute("data-done") != "true" and not page.locator(".results").count():
        assert time.monotonic() < deadline, f"{tutorial}: the coach's steps did not end"
        step = coach.get_attribute("data-step") or ""
        if step not in seen:
            seen.add(step)
            shot(page, f"step-{step}")
        press_taught(page, tutorial, rng)
    seen |= set(page.evaluate("window.__steps"))
    assert seen == {str(i) for i in range(steps)}, f"{tutorial}: steps shown {sorted(seen)}"
    expect(page.locator("#coach-text")).to_have_text(words["tutorial.done"])
    shot(page, "done")
    if lang != "en":
        return
    table = page.evaluate("location.hash").split("/")[2]
    play_out(page, tutorial)
    shot(page, "results")
    moves = [act for seat, act in web.get(f"/api/tables/{table}/record").json()["record"]
             ["actions"] if seat == 0]
    for pattern in KEY_MOVES.get(tutorial, []):
        assert any(re.search(pattern, act) for act in moves), (tutorial, pattern, moves)


def test_a_tables_help_leads_to_its_tutorials(browser: Any, web: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(web.url + "/")
    page.click(".game-choice[data-game=mucca_pazza]")
    page.fill("#name", "Mia")
    page.select_option("#players", "2")
    page.click("button[type=submit]")
    page.wait_for_selector(".board", timeout=TIMEOUT)
    page.click("#rules summary")
    page.click("#rules a.learn-link")
    expect(page.locator(".tutorial-choice")).to_have_count(2)  # one per variant
