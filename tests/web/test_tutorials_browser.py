"""Every tutorial in the browser, from the lobby's "Learn to play": the coach explains each
step, only the taught move is lit and pressable, and following the instructions gets to the
coach's "well done"; the Mau Mau tutorial is then played to the end against its gentle bot."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tiergarten.server.tutorial import TUTORIALS

from .driver import TIMEOUT, play_mammuz_turn, play_maumau_turn, play_to_end


def press_taught(page: Any, tutorial: str, rng: random.Random) -> None:
    """Do what the coach asks, as a person would: press a lit control of the taught move."""
    if tutorial == "maumau":
        if page.locator(".board .hand .card.legal:not([disabled]), .board .actions button").count():
            play_maumau_turn(page, rng)
    elif tutorial == "mammuz":
        if page.locator("button.lay, button.give, .card.doubt").count():
            play_mammuz_turn(page, rng)
    elif tutorial == "lecker_mammut":
        flip = page.locator(".lm-flip:not([disabled])")
        if flip.count():
            flip.first.click()
    else:
        live = page.locator(".mucca [data-act^='reveal']:not([disabled]), "
                            ".mucca button.mp-arrow:not([disabled])")
        if live.count():
            live.nth(rng.randrange(live.count())).click()
    page.wait_for_timeout(150)


@pytest.mark.parametrize("tutorial", sorted(TUTORIALS))
def test_follow_the_coach_through_a_tutorial(browser: Any, web: Any, shot: Any,
                                             tutorial: str) -> None:
    page = browser.new_context().new_page()
    page.goto(web.url + "/")
    page.click("#learn")
    page.click(f".tutorial-choice[data-tutorial='{tutorial}']")
    coach = page.locator("#coach")
    expect(coach).to_be_visible(timeout=TIMEOUT)
    expect(coach).to_have_attribute("data-step", "0")
    expect(page.locator("#coach-text")).not_to_be_empty()
    shot(page, "first-step")
    if tutorial == "maumau":  # only playing a card is taught first: no draw button yet
        expect(page.locator(".actions button[data-act=draw]")).to_have_count(0)
    rng = random.Random(1)
    deadline = time.monotonic() + 120
    while coach.get_attribute("data-done") != "true" and not page.locator(".results").count():
        assert time.monotonic() < deadline, f"{tutorial}: the coach's steps did not end"
        press_taught(page, tutorial, rng)
    expect(page.locator("#coach-text")).to_contain_text("Well done")
    shot(page, "done")
    if tutorial == "maumau":
        play_to_end(page, play_maumau_turn, seed=2)
        expect(page.locator(".results")).to_be_visible()


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
