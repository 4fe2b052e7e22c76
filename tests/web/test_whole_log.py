"""The move log in the browser keeps every move of the game, numbered by its real position,
with a line where each round starts — also after a reload, which brings the whole log again."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

import tiergarten
from tiergarten.games.maumau.view import LOG_LENGTH

from .driver import create_table, game_over, play_maumau_turn, play_to_end


def log_items(page: Any) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all("#log-list li", """items => items.map((li) => ({
        round: li.classList.contains("round"), n: li.dataset.n === undefined ? null
        : Number(li.dataset.n), value: li.value, text: li.textContent}))"""))


def check_log(page: Any, whole: list[dict[str, Any]], first_act: str) -> None:
    items = log_items(page)
    moves = [i for i in items if not i["round"]]
    assert [i["n"] for i in moves] == list(range(len(whole)))  # every entry, from the first
    assert [i["value"] for i in moves] == [i["n"] + 1 for i in moves]  # numbered from 1
    assert (first_act.split()[0] + "s") in moves[0]["text"]  # "plays …" or "draws …"
    rounds = [k for k, i in enumerate(items) if i["round"]]
    assert [items[k]["text"] for k in rounds] == ["Round 1", "Round 2"]
    ended = next(k for k, e in enumerate(whole) if e["act"] == "round_over")
    assert items[rounds[0] + 1]["n"] == 0 and items[rounds[1] + 1]["n"] == ended + 1
    assert str(len(whole)) in page.locator("#log summary").inner_text()  # "Moves (n)"


def test_the_first_move_stays_in_the_log_numbered_1_with_round_lines(
        page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    table = create_table(page, web.url, "maumau", "Ann", ["you", "bot:heuristic"],
                         {"rounds": "2"})
    play_to_end(page, play_maumau_turn, seed=3)
    record = game_over(page, web, table, 2)["record"]
    whole = tiergarten.replay(record).log_since(0)
    # more than the old log kept (two rounds are never that short: each round's winner plays
    # out a hand of five, and the deal of a random table makes some games only about 20 long)
    assert len(whole) > LOG_LENGTH
    check_log(page, whole, record["actions"][0][1])
    shot(page, "whole-log")
    expect(page.locator(".direction")).to_have_count(0)  # two players: no way round to tell
    page.reload()  # the greeting brings the whole log again
    page.wait_for_selector(".results")
    check_log(page, whole, record["actions"][0][1])
    list_box = page.locator("#log-list")
    assert list_box.evaluate("el => el.scrollHeight > el.clientHeight")  # it scrolls
    assert not page_errors
