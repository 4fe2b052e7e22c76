"""The lobby: every game with its real options, a table created from the form, clear errors."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .driver import create_table


def test_lobby_lists_every_game_with_its_options(page: Any, web: Any, shot: Any,
                                                  page_errors: list[str]) -> None:
    response = page.goto(web.url + "/")
    policy = response.headers["content-security-policy"]  # kept to: see no_csp_violations
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    expect(page.locator(".game-choice")).to_have_count(4)
    for game in ("maumau", "mammuz", "lecker_mammut", "mucca_pazza"):
        expect(page.locator(f".game-choice[data-game={game}]")).to_be_visible()
    page.click("details.options summary")
    for option in ("target_score", "rounds", "jack_on_jack", "two_player_nine",
                   "first_card_effects", "mau_penalty"):
        expect(page.locator(f"#opt-{option}")).to_be_attached()
    expect(page.locator(".options")).to_contain_text("A Jack may be played on a Jack")
    shot(page, "lobby")
    page.click(".game-choice[data-game=mammuz]")
    page.click("details.options summary")
    expect(page.locator("#opt-next_starter option")).to_have_count(3)
    page.select_option("#players", "5")
    expect(page.locator("select[data-seat]")).to_have_count(5)
    assert page_errors == []


def test_a_bad_option_is_refused_with_the_servers_reason(page: Any, web: Any, shot: Any) -> None:
    page.goto(web.url + "/")
    page.fill("#name", "Ann")
    page.click("details.options summary")
    page.fill("#opt-mau_penalty", "-3")
    page.evaluate("document.querySelector('#opt-mau_penalty').removeAttribute('min')")
    page.click("button[type=submit]")
    expect(page.locator("#toast")).to_contain_text("mau_penalty")
    shot(page, "refused")
    assert page.evaluate("location.hash") in ("", "#/")


def test_creating_a_table_seats_you_and_shows_the_invite_link(page: Any, web: Any,
                                                               shot: Any) -> None:
    table = create_table(page, web.url, "maumau", "Ann", ["you", "open"])
    expect(page.locator("#invite")).to_have_value(f"{web.url}/#/t/{table}")
    expect(page.locator(".status")).to_have_text("waiting for players")
    expect(page.locator(".seat.mine")).to_contain_text("Ann")
    info = web.get(f"/api/tables/{table}").json()
    assert info["status"] == "open" and info["seats"][0]["name"] == "Ann"
    assert not info["seats"][1]["taken"]
    page.goto(web.url + "/")
    expect(page.locator(f".open-table[href='#/t/{table}']")).to_be_visible()
    shot(page, "open-tables")
