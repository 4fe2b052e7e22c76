"""Lecker Mammut! for a family (issue 34), in the browser: the bot menu says how quickly each
level reacts and offers a person's seat a head start, in every language; a wrong hit is said
where the player looks, in their language, and the penalty card flies face down to their seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.webparts import catalogue

from tiergarten.bots.lecker_mammut import REFLEXES

from .test_lecker_mammut_browser import flip_three_deer

LEVELS = ("easy", "normal", "hard", "expert", "master")


def test_the_bot_menu_says_each_levels_speed_and_a_person_may_get_a_head_start(
        page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    page.goto(web.url + "/")
    for lang in ("en", "de", "pl", "it"):
        words = catalogue(lang)
        page.wait_for_selector(".game-choice")
        page.select_option("#language", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        page.click(".game-choice[data-game=lecker_mammut]")
        page.select_option("#players", "3")
        options = page.locator("select[data-seat='1'] option")
        for level in LEVELS:
            line = words[f"game.lecker_mammut.level.{level}"]
            option = page.locator(f"select[data-seat='1'] option[value='bot:{level}']")
            expect(option).to_contain_text(line)
            assert f"{REFLEXES[level].median:g}"[:1] in line  # the line names its seconds
        assert options.count() >= len(LEVELS)
        # a person's seat has a head start field; a bot's has none
        expect(page.locator("[data-head-start='0']")).to_be_visible()
        expect(page.locator("[data-head-start='1']")).to_be_hidden()
        page.select_option("select[data-seat='2']", "open")
        expect(page.locator("[data-head-start='2']")).to_be_visible()
        page.locator("select[data-seat='1']").focus()
        shot(page, f"levels-{lang}")
        page.goto(web.url + "/")
    # a table made by the form keeps the head start asked for
    page.wait_for_selector(".game-choice")
    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.click(".game-choice[data-game=lecker_mammut]")
    page.fill("#name", "Ann")
    page.fill("[data-head-start='0']", "1.5")
    page.click("button[type=submit]")
    page.wait_for_selector(".board", timeout=20_000)
    table = page.evaluate("location.hash").split("/")[2]
    starts = web.get(f"/api/tables/{table}").json()["head_starts"]
    assert starts[0] == 1.5 and not any(starts[1:])
    assert page_errors == []


@pytest.mark.parametrize("lang", ["pl", "de", "it", "en"])
def test_a_wrong_hit_is_said_by_the_club_and_the_penalty_card_flies_to_the_player(
        page: Any, web: Any, shot: Any, page_errors: list[str], lang: str) -> None:
    page.emulate_media(reduced_motion="no-preference")  # the card's flight is looked at
    words = catalogue(lang)
    # seed 11: Ann (seat 0) flips red-deer, orange-deer, blue-deer; Bob is seated, not here
    table = web.create(game="lecker_mammut", players=2, options={"rounds": 1}, seed=11)["id"]
    token = web.join(table, "Ann", 0)[1]
    web.join(table, "Bob", 1)
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    page.select_option("#language", lang)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    flip_three_deer(page, web, table, token)
    page.keyboard.press("h")  # the club ...
    expect(page.locator(".lm-call")).to_be_visible()
    page.keyboard.press("KeyW")  # ... and "orange": only one orange card shows
    oops = page.locator(".lm-oops[role=alert]")
    expect(oops).to_be_visible()
    orange = words["lm.colour.orange"]
    expect(oops).to_contain_text(orange)
    first = words["lm.oops.mistake"].split("{")[0].strip()
    expect(oops).to_contain_text(first)
    # between the middle and the club, where the player looks
    boxes = [page.locator(sel).bounding_box() for sel in (".lm-middle", ".lm-oops",
                                                          ".lm-controls")]
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]  # type: ignore[index]
    card = page.locator(".lm-seat[data-seat='0'] .lm-penalty-fly")
    expect(card).to_have_attribute("aria-label", words["lm.penalty_card_new"])
    expect(page.locator(".lm-seat[data-seat='0'] .lm-fresh")).to_have_text("⚠ 1")
    animation = card.evaluate("(el) => getComputedStyle(el).animationName")
    assert animation == "lm-fly"
    card.evaluate("(el) => Promise.all(el.getAnimations().map((a) => a.finished))")  # landed
    shot(page, f"oops-{lang}")
    assert page_errors == []
    if lang != "pl":
        return
    # the message goes by itself after a few seconds; the count stays
    expect(oops).to_have_count(0, timeout=10_000)
    expect(page.locator(".lm-seat[data-seat='0'] span[title]").nth(1)).to_have_text("⚠ 1")
    assert page_errors == []


def test_with_reduced_motion_the_penalty_card_does_not_fly(browser: Any, web: Any) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    table = web.create(game="lecker_mammut", players=2, options={"rounds": 1}, seed=11)["id"]
    token = web.join(table, "Ann", 0)[1]
    web.join(table, "Bob", 1)
    page.goto(web.url + "/")
    page.evaluate("([id, token]) => localStorage.setItem('tiergarten.tokens', "
                  "JSON.stringify({[id]: [{seat: 0, token}]}))", [table, token])
    page.goto(f"{web.url}/#/t/{table}")
    expect(page.locator(".board[data-version='0'] .lm-flip")).to_be_visible()
    page.keyboard.press("Space")  # one card: nothing to call, so a press is a miss at once
    expect(page.locator(".board[data-version='1']")).to_be_visible()
    page.keyboard.press("h")
    expect(page.locator(".lm-oops[data-act=miss]")).to_be_visible()
    card = page.locator(".lm-penalty-fly")
    assert card.evaluate("(el) => getComputedStyle(el).animationName") == "none"
    context.close()
