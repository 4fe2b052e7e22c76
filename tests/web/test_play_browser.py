"""Whole games in the browser against bots, by clicking, and the replay afterwards."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from .a11y import assert_accessible
from .driver import (
    MY_MOVE,
    after_click,
    board_version,
    create_table,
    game_over,
    play_mammuz_turn,
    play_maumau_turn,
    play_to_end,
    wait_turn_or_end,
)


def test_a_whole_maumau_game_against_bots(page: Any, web: Any, shot: Any,
                                          page_errors: list[str]) -> None:
    table = create_table(page, web.url, "maumau", "Ann",
                         ["you", "bot:heuristic", "bot:random"], {"rounds": "2"})
    expect(page.locator(".direction")).to_have_count(1)  # three players: which way round
    shot(page, "start")
    summaries = []

    def turn(page: Any, rng: Any) -> None:
        if page.locator(".round-summary").count() and not summaries:
            summaries.append(page.locator(".round-summary").inner_text())
            shot(page, "between-rounds")
        play_maumau_turn(page, rng)

    moves = play_to_end(page, turn, seed=1)
    assert moves > 0
    assert summaries and "wins round 1" in summaries[0], summaries
    result = game_over(page, web, table, 3)
    shot(page, "results")
    names = ["Ann", "Bot 2 (rules of thumb)", "Bot 3 (random moves)"]
    winners = [names[seat] for seat in result["result"]["winners"]]  # a shared win is possible
    expect(page.locator(".results .ranking li.winner")).to_have_count(len(winners))
    for name in winners:
        expect(page.locator(".results .ranking li.winner", has_text=name)).to_have_count(1)
    # a clear end: who won (you, by name), why, and each rank written once ("1. Ann")
    banner = ("You won!" if winners == ["Ann"] else "You won, together with" if "Ann" in winners
              else " and ".join(winners) + " won")
    expect(page.locator(".results .banner")).to_contain_text(banner)
    expect(page.locator(".results .reason")).to_have_text("All rounds are played.")
    ranks = page.locator(".results .ranking li").all_inner_texts()
    assert all(re.fullmatch(r"\d\. [^#]+ \d+ points?( 🏆)?", r) for r in ranks), ranks
    assert_accessible(page, "the results")
    page.click("text=Replay the game")
    expect(page.locator("#replay-step")).to_contain_text("Move")
    steps = len(result["record"]["actions"])
    expect(page.locator("#replay-step")).to_have_text(f"Move {steps} of {steps}")
    page.click("#replay-prev")
    expect(page.locator("#replay-step")).to_have_text(f"Move {steps - 1} of {steps}")
    expect(page.locator(".revealed-hand")).to_have_count(3)
    shot(page, "replay")
    page.click("#replay-first")
    expect(page.locator(".revealed-hand .card")).to_have_count(15)  # five cards dealt each
    assert page_errors == []


def test_after_a_maumau_draw_that_does_not_fit_pass_is_the_one_highlighted_move(
        page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    """Ann draws whenever she may, until a drawn card does not fit: then the board names the
    card, shows it as drawn, and offers exactly one button, a highlighted Pass."""
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "3"})
    rng = random.Random(4)
    seen = set()
    while wait_turn_or_end(page) and "misfit" not in seen:
        note = page.locator(".drawn-note")
        if note.count():
            drawn = page.locator(".hand .card.drawn")
            expect(drawn).to_have_count(1)
            misfit = "misfit" in (note.get_attribute("class") or "")
            if misfit:
                expect(note).to_contain_text("does not fit")
                expect(page.locator(MY_MOVE)).to_have_count(1)
                expect(page.locator(".actions button.primary[data-act=pass]")).to_have_text("Pass")
                expect(drawn).to_be_disabled()
                shot(page, "misfit")
            else:
                expect(page.locator(".actions button[data-act=pass]")).not_to_have_class(
                    re.compile("primary"))
                expect(drawn).to_be_enabled()
            seen.add("misfit" if misfit else "fits")
            version = board_version(page)
            page.click("button[data-act=pass]")
            after_click(page, version)
        elif page.locator(".actions button[data-act=draw]").count():
            version = board_version(page)
            page.click(".actions button[data-act=draw]")
            after_click(page, version)
        else:
            play_maumau_turn(page, rng)
    assert "misfit" in seen
    assert page_errors == []


def test_a_whole_mammuz_game_against_bots(page: Any, web: Any, shot: Any,
                                          page_errors: list[str]) -> None:
    table = create_table(page, web.url, "mammuz", "Ann", ["you", "bot:heuristic", "bot:random"])
    shot(page, "start")
    play_to_end(page, play_mammuz_turn, seed=2)
    shot(page, "results")
    game_over(page, web, table, 3)
    page.click("text=Replay the game")
    expect(page.locator(".revealed-hand")).to_have_count(3)
    shot(page, "replay")
    assert page_errors == []


def test_rematch_brings_everyone_to_a_new_table(page: Any, web: Any) -> None:
    first = create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    play_to_end(page, play_maumau_turn, seed=3)
    page.click("#rematch")
    page.wait_for_function("t => !location.hash.includes(t)", arg=first)
    second = page.evaluate("location.hash").split("/")[2]
    expect(page.locator(".board")).to_be_visible()
    expect(page.locator(".seat.mine")).to_contain_text("Ann")
    assert web.get(f"/api/tables/{first}").json()["rematch"] == second


def test_a_double_click_on_draw_draws_once_and_says_nothing(page: Any, web: Any,
                                                            page_errors: list[str]) -> None:
    """The second click of a double click is the same move on the same version: the client
    drops it, so no "the table moved on" error appears and only one card is drawn."""
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    rng = random.Random(5)
    while wait_turn_or_end(page):
        if page.locator(".actions button[data-act=draw]").count():
            break
        play_maumau_turn(page, rng)
    else:
        raise AssertionError("Ann never had a draw to make")
    version = board_version(page)
    page.dblclick(".actions button[data-act=draw]")
    after_click(page, version)
    page.wait_for_timeout(600)  # a refusal of a second draw would be here by now
    expect(page.locator("#toast.error:not([hidden])")).to_have_count(0)
    assert page_errors == []
