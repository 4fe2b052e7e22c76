"""Play now in the browser: two accounts, each in a browser of their own, queue for a
three-player Mau Mau; the queue pairs them, a bot takes the third seat, and both land on the
same table, each in their own seat. The waiting view shows the wait and the counts per game."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .driver import TIMEOUT
from .test_accounts_browser import sign_up


def queue(page: Any, base: str, bots: str) -> None:
    page.goto(base + "/")
    page.select_option("#quick-game", "maumau")
    page.select_option("#quick-players", "3")
    page.select_option("#quick-bots", bots)
    page.click("#quick-start")


def test_two_accounts_press_play_now_and_meet_at_one_table_with_a_bot(
        browser: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    ann = browser.new_context().new_page()
    sign_up(ann, web.url, "Quick Ann")
    ann.goto(web.url + "/")
    expect(ann.locator("#quick-form")).to_be_visible(timeout=TIMEOUT)
    shot(ann, "play-now")
    queue(ann, web.url, "120")  # Ann would wait two minutes for bots
    waiting = ann.locator("#quick-waiting")
    expect(waiting).to_contain_text("Mau Mau", timeout=TIMEOUT)
    expect(waiting).to_contain_text("3 players")
    expect(ann.locator("#quick-counts [data-game='maumau']")).to_contain_text("1")
    shot(ann, "waiting")
    ben = browser.new_context().new_page()
    sign_up(ben, web.url, "Quick Ben")
    ben.goto(web.url + "/")
    expect(ben.locator("#quick-counts [data-game='maumau']")).to_contain_text("1",
                                                                            timeout=TIMEOUT)
    queue(ben, web.url, "now")  # Ben takes bots at once: the two of them and one bot
    for page in (ann, ben):
        expect(page).to_have_url(re.compile(r"#/t/[\w-]+$"), timeout=TIMEOUT)
    assert ann.url.split("#/t/")[1] == ben.url.split("#/t/")[1]
    for page, name in ((ann, "Quick Ann"), (ben, "Quick Ben")):
        expect(page.locator(".seat.mine")).to_contain_text(name, timeout=TIMEOUT)
    table = ann.url.split("#/t/")[1]
    seats = ann.request.get(f"{web.url}/api/tables/{table}").json()["seats"]
    assert sorted(s["account"] or s["kind"] for s in seats) == ["Quick Ann", "Quick Ben", "bot"]
    assert not page_errors
