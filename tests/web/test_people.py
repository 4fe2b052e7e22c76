"""People at one table: two browsers, a spectator, a closed tab, a lost network, a phone."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect

from .driver import board_version, create_table, play_maumau_turn, play_to_end, wait_turn_or_end


def test_two_people_in_two_browsers_and_a_spectator(browser: Any, web: Any, shot: Any) -> None:
    ann = browser.new_context().new_page()
    table = create_table(ann, web.url, "maumau", "Ann", ["you", "open"], {"rounds": "1"})
    bob = browser.new_context().new_page()
    bob.goto(f"{web.url}/#/t/{table}")
    expect(bob.locator("form.join")).to_be_visible()
    shot(bob, "invited")
    bob.fill("#join-name", "Bob")
    bob.click("form.join button[type=submit]")
    for page in (ann, bob):
        expect(page.locator(".status")).to_have_text("playing")
        expect(page.locator("#log")).to_have_count(0)  # nothing played yet: no "Moves (0)"
        expect(page.locator(".hand .card")).to_have_count(5)
    watcher = browser.new_context().new_page()
    watcher.goto(f"{web.url}/#/t/{table}")
    expect(watcher.locator(".board .opponent")).to_have_count(2)
    expect(watcher.locator(".board .hand")).to_have_count(0)  # a spectator sees no hand
    ann_hand = set(ann.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    bob_hand = set(bob.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    assert not ann_hand & bob_hand
    bob_page = bob.content()
    assert not any(f'data-card="{card}"' in bob_page for card in ann_hand)
    rng = random.Random(4)
    for _ in range(6):  # three moves each, whoever is due, seen alike by all three
        mover = next(p for p in (ann, bob) if p.locator(".turn-line").inner_text()
                     == "Your turn.")
        if not wait_turn_or_end(mover):
            break
        play_maumau_turn(mover, rng)
        version = board_version(mover)
        for page in (ann, bob, watcher):
            expect(page.locator(".board")).to_have_attribute("data-version", str(version))
    expect(ann.locator("#log")).to_have_attribute("open", "")  # not the closed rules
    shot(ann, "ann")
    shot(bob, "bob")
    shot(watcher, "spectator")
    entries = ann.locator(".log li").all_inner_texts()
    assert entries == watcher.locator(".log li").all_inner_texts() and entries


def test_closing_the_tab_resumes_the_seat(browser: Any, web: Any, shot: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    table = create_table(page, web.url, "mammuz", "Ann", ["you", "bot:random", "bot:random"])
    hand = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.close()
    again = context.new_page()
    again.goto(f"{web.url}/#/t/{table}")
    expect(again.locator(".seat.mine")).to_contain_text("Ann")
    expect(again.locator("form.join")).to_have_count(0)
    # the seat shows from the table's info; the hand comes with the state just after it
    expect(again.locator(".hand .card").first).to_be_visible()
    now = again.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(now) == sorted(hand) or again.locator(".log li").count() > 1
    shot(again, "resumed")


def test_losing_the_network_reconnects_and_play_goes_on(browser: Any, web: Any,
                                                         shot: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    context.set_offline(True)
    page.evaluate("window.__tiergarten.sockets().forEach(s => s.ws.close())")
    expect(page.locator(".conn")).to_be_visible()
    shot(page, "offline")
    context.set_offline(False)
    expect(page.locator(".conn")).to_be_hidden(timeout=15_000)
    play_to_end(page, play_maumau_turn, seed=5)
    expect(page.locator(".results")).to_be_visible()


def test_a_phone_sized_screen(browser: Any, web: Any, shot: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(web.url + "/")
    shot(page, "lobby")
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:heuristic", "bot:random"],
                 {"rounds": "1"})
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the table is {wide}px wide on a 390px screen"
    shot(page, "table")
    play_to_end(page, play_maumau_turn, seed=6)
    shot(page, "results")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_turn_timer_counts_down_on_the_table(page: Any, web: Any, shot: Any) -> None:
    page.goto(web.url + "/")
    page.fill("#name", "Ann")
    page.select_option("#players", "2")
    page.select_option("select[data-seat='1']", "bot:random")
    page.select_option("#timer", "60")
    page.click("button[type=submit]")
    page.wait_for_selector(".board")
    table = page.evaluate("location.hash").split("/")[2]
    assert web.get(f"/api/tables/{table}").json()["timer"] == 60
    first = int(page.locator("#turn-timer").inner_text().split()[0])
    page.wait_for_timeout(2200)
    later = int(page.locator("#turn-timer").inner_text().split()[0])
    assert 0 < later < first <= 60
    shot(page, "timer")
