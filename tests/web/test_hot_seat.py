"""Several people at one screen: turn-based games hand the device over between turns and hide
each hand behind a hand-off screen; Lecker Mammut gives each person their own club key."""

from __future__ import annotations

import random
import time
from typing import Any

from playwright.sync_api import expect

from .driver import MY_MOVE, play_maumau_turn
from .test_lecker_mammut_browser import KEYS, TRIPLE


def create_hot_seat(page: Any, base: str, game: str, seats: list[str],
                    options: dict[str, str] | None = None) -> str:
    """The lobby form with Ann at seat 1 and "here:<name>" for more people at this screen."""
    page.goto(base + "/")
    page.click(f".game-choice[data-game={game}]")
    page.fill("#name", "Ann")
    page.select_option("#players", str(len(seats)))
    for seat, choice in enumerate(seats):
        if choice.startswith("here:"):
            page.select_option(f"select[data-seat='{seat}']", "here")
            page.fill(f"input[data-here-name='{seat}']", choice[5:])
        else:
            page.select_option(f"select[data-seat='{seat}']", choice)
    for option, value in (options or {}).items():
        page.click("details.options summary")
        page.fill(f"#opt-{option}", value)
    page.click("button[type=submit]")
    page.wait_for_selector(".board, .handoff")
    return str(page.evaluate("location.hash").split("/")[2])


# The hand-off's words and a press of its button in one step of the page, so that the name read
# is the one handed over to (between two Playwright calls the page could show the next one).
HAND_OVER = """() => {
  const words = document.querySelector('.handoff p');
  const button = document.querySelector('.handoff button');
  if (!words || !button) return null;
  const text = words.innerText;
  button.click();
  return text;
}"""


def test_a_hot_seat_maumau_game_hides_each_hand_until_handed_over(page: Any, web: Any,
                                                                   shot: Any) -> None:
    table = create_hot_seat(page, web.url, "maumau", ["you", "here:Bob", "bot:random"],
                            {"rounds": "1"})
    rng = random.Random(8)
    handoffs: dict[str, int] = {"Ann": 0, "Bob": 0}
    deadline = time.monotonic() + 120
    while not page.locator(".results").count():
        assert time.monotonic() < deadline, "the hot-seat game did not end in time"
        if page.locator(".handoff").count():
            expect(page.locator(".hand")).to_have_count(0)  # no hand behind the hand-off
            if not any(handoffs.values()):
                shot(page, "handoff")
            text = page.evaluate(HAND_OVER)  # read and pressed at once: the one pressed
            if text is None:
                continue  # the hand-off went by meanwhile
            name = "Ann" if "Ann" in text else "Bob"
            handoffs[name] += 1
            expect(page.locator(".me .name")).to_contain_text(name)
        elif page.locator(MY_MOVE).count():
            play_maumau_turn(page, rng)
        else:
            expect(page.locator(".hand")).to_have_count(0)  # the bot's turn: no hand shows
            page.wait_for_timeout(30)
    shot(page, "results")
    assert handoffs["Ann"] > 0 and handoffs["Bob"] > 0, handoffs
    seats = web.get(f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"]


def test_lecker_mammut_at_one_screen_gives_each_person_a_key(page: Any, paced_web: Any,
                                                              shot: Any) -> None:
    create_hot_seat(page, paced_web.url, "lecker_mammut", ["you", "here:Bob"], {"rounds": "1"})
    clubs = page.locator(".lm-club")
    expect(clubs).to_have_count(2)
    expect(clubs.nth(0)).to_contain_text("Ann")
    expect(clubs.nth(0).locator("kbd")).to_have_text("A")
    expect(clubs.nth(1)).to_contain_text("Bob")
    expect(clubs.nth(1).locator("kbd")).to_have_text("L")
    shot(page, "two-clubs")
    page.keyboard.press("l")  # Bob's club, with nothing to call: a penalty at once (rules 3)
    expect(page.locator("#toast")).to_contain_text("Nothing to call")
    expect(page.locator(".log li:not(.round)").last).to_contain_text(
        "Bob hits the club and calls nothing", timeout=10_000)
    expect(page.locator(".lm-seat[data-seat='1']")).to_contain_text("⚠ 1")
    expect(page.locator(".lm-call")).to_have_count(0)
    while not page.evaluate(TRIPLE):  # Ann flips until three alike show
        version = page.locator("#board").get_attribute("data-version")
        page.keyboard.press("Space")
        expect(page.locator("#board")).not_to_have_attribute("data-version", version or "")
    feature = page.evaluate(TRIPLE)
    page.keyboard.press("l")  # Bob's club: the shared call step names Bob
    expect(page.locator(".lm-call")).to_contain_text("Bob")
    page.keyboard.press(KEYS[feature])
    expect(page.locator(".log li:not(.round)").last).to_contain_text("Bob", timeout=10_000)
    expect(page.locator(".lm-pick").first).to_be_visible()  # Bob's good hit: he lays a top
