"""Accounts in the browser: sign up, sign in on a second browser (context) and find the open
table there, a guest's seat claimed by signing up, sign out."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tiergarten.server.players import bot_levels

from .driver import TIMEOUT, create_table, play_maumau_turn, play_to_end

PASSWORD = "correct horse battery"


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/#/account")
    page.fill("#up-name", name)
    page.fill("#up-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    expect(page.locator("#me")).to_have_text(name, timeout=TIMEOUT)


def sign_in(page: Any, base: str, name: str) -> None:
    page.goto(base + "/#/account")
    page.fill("#in-name", name)
    page.fill("#in-password", PASSWORD)
    page.click("#sign-in button[type=submit]")
    expect(page.locator("#me")).to_have_text(name, timeout=TIMEOUT)


def test_sign_up_then_find_the_table_on_a_second_device(browser: Any, web: Any, shot: Any,
                                                        page_errors: list[str]) -> None:
    phone = browser.new_context().new_page()
    sign_up(phone, web.url, "Ann Arbor")
    table = create_table(phone, web.url, "maumau", "Ann Arbor", ["you", "open"],
                         {"rounds": "1"})
    expect(phone.locator(".seat.mine")).to_contain_text("Ann Arbor")
    laptop = browser.new_context().new_page()
    laptop.goto(web.url + "/")
    expect(laptop.locator("#sign-in-link")).to_be_visible()
    expect(laptop.locator("#my-tables")).to_be_hidden()
    sign_in(laptop, web.url, "Ann Arbor")
    link = laptop.locator(f"#my-tables a[data-table='{table}']")
    expect(link).to_be_visible()
    shot(laptop, "my-tables")
    link.click()
    expect(laptop.locator(".seat.mine")).to_contain_text("Ann Arbor")  # the same seat here
    expect(laptop.locator(".seat[data-seat='1']")).to_have_attribute("data-taken", "false")
    laptop.click("#sign-out")
    expect(laptop.locator("#sign-in-link")).to_be_visible()
    assert not [e for e in page_errors]


def test_a_guest_signs_up_and_keeps_the_seat_of_this_browser(browser: Any, web: Any) -> None:
    page = browser.new_context().new_page()
    table = create_table(page, web.url, "mammuz", "Guesty", ["you", "open", "bot:random"])
    sign_up(page, web.url, "Guesty McGuest")
    info = web.get(f"/api/tables/{table}").json()
    assert info["seats"][0]["account"] == "Guesty McGuest"
    other = browser.new_context().new_page()
    sign_in(other, web.url, "Guesty McGuest")
    expect(other.locator(f"#my-tables a[data-table='{table}']")).to_be_visible()
    page.goto(f"{web.url}/#/t/{table}")
    expect(page.locator(".seat.mine")).to_contain_text("Guesty McGuest")  # the new token works


def test_a_rated_game_changes_the_rating_and_the_profile(browser: Any, web: Any,
                                                         shot: Any) -> None:
    page = browser.new_context().new_page()
    sign_up(page, web.url, "Pat Rated")
    page.click("#me")
    expect(page.locator("#played")).to_contain_text("0 games played")
    expect(page.locator("#profile-ratings .rating")).to_have_count(0)
    expect(page.locator("#profile-recent, #profile-opponents")).to_have_count(0)  # no empty box
    create_table(page, web.url, "maumau", "Pat Rated", ["you", "bot:random"], {"rounds": "1"})
    expect(page.locator(".seat.mine a")).to_have_text("Pat Rated")  # the profile link
    play_to_end(page, play_maumau_turn, seed=3)
    expect(page.locator(".results")).to_be_visible()
    won = page.locator(".results li.winner", has_text="Pat Rated").count() > 0
    page.wait_for_timeout(500)  # the result is stored just after the last act
    page.click("#me")
    expect(page.locator("#played")).to_have_text(f"1 game played, {int(won)} won")
    rating = page.locator("#profile-ratings .rating[data-game=maumau]")
    expect(rating).to_be_visible()
    assert rating.locator(".rating-value").inner_text() != "1000"
    expect(rating.locator("svg.rating-chart circle")).to_have_count(2)  # the start, this game
    expect(rating.locator(".muted")).to_contain_text("1 rated game ·")
    expect(page.locator("#profile-recent li")).to_have_count(1)
    shot(page, "profile")
    page.click("#profile-recent a.replay-link")
    expect(page.locator(".replay-screen")).to_be_visible()
    page.goto(web.url + "/#/leaderboard/maumau")
    expect(page.locator("#leaderboard li:not(.bot-level)")).to_contain_text(["Pat Rated"])
    # the measured levels stand among the players, where their ratings fall
    levels = page.locator("#leaderboard li.bot-level")
    expect(levels).to_have_count(len(bot_levels.levels("maumau")))
    shown = [int(v) for v in page.locator("#leaderboard li strong").all_inner_texts()]
    assert shown == sorted(shown, reverse=True)
    shot(page, "leaderboard")
