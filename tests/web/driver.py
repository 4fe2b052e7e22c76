"""Playing through the browser like a person: wait for the board to show your turn, click."""

from __future__ import annotations

import random
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

TIMEOUT = 20_000  # ms
MY_MOVE = (".board .actions button:not([disabled]), .board .hand .card.legal:not([disabled]), "
           ".board .card.doubt")


def create_table(page: Any, base: str, game: str, name: str, seats: list[str],
                 options: dict[str, str] | None = None) -> str:
    """Fill the lobby form (seats: "you", "open" or "bot:<name>") and return the table id."""
    page.goto(base + "/")
    page.click(f".game-choice[data-game={game}]")
    page.fill("#name", name)
    page.select_option("#players", str(len(seats)))
    for seat, choice in enumerate(seats):
        page.select_option(f"select[data-seat='{seat}']", choice)
    if options:
        page.click("details.options summary")
        for option, value in options.items():
            page.fill(f"#opt-{option}", value)
    page.click("button[type=submit]")
    page.wait_for_selector(".board, #waiting", timeout=TIMEOUT)  # #waiting: seats still open
    return str(page.evaluate("location.hash").split("/")[2])


def board_version(page: Any) -> int:
    return int(page.get_attribute(".board", "data-version") or -1)


def wait_turn_or_end(page: Any, timeout: float = 60.0) -> bool:
    """Wait until this seat has something to do (True) or the game is over (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(".results").count():
            return False
        if page.locator(MY_MOVE).count():
            return True
        page.wait_for_timeout(30)
    raise AssertionError("the game neither gave this seat a move nor ended in time")


def after_click(page: Any, version: int) -> None:
    """Wait until the board shows a newer version than `version` (or the game ended, or the
    device is to be handed to the next person at this screen)."""
    page.wait_for_function(
        "v => document.querySelector('.results') || document.querySelector('.handoff') || "
        "Number(document.querySelector('.board')?.dataset.version) > v", arg=version,
        timeout=TIMEOUT)


def play_maumau_turn(page: Any, rng: random.Random) -> None:
    """One decision in Mau Mau: say Mau when offered, catch when possible, else play a legal
    card (picking a suit for a Jack), else draw or pass."""
    version = board_version(page)
    if page.locator("button.catch").count():
        page.click("button.catch")
        after_click(page, version)
        return
    cards = page.locator(".hand .card.legal:not([disabled])")
    if cards.count():
        if page.locator("button.say:not(.on)").count():
            page.click("button.say")
        cards.nth(rng.randrange(cards.count())).click()
        if page.locator(".chooser").count():
            suits = page.locator(".chooser .suit")
            suits.nth(rng.randrange(suits.count())).click()
    elif page.locator("button[data-act=pass]").count():
        page.click("button[data-act=pass]")
    else:
        page.click(".actions button[data-act=draw]")
    after_click(page, version)


def play_mammuz_turn(page: Any, rng: random.Random) -> None:
    """One decision in MammuZ: make a species extinct when offered (that may come at any time,
    not only on your turn), else give the herd, doubt a card, or lay one or two cards."""
    version = board_version(page)
    extinct = page.locator("button.extinct")
    if extinct.count():
        try:
            extinct.first.click(timeout=3000)
        except PlaywrightTimeout:
            return  # the bots moved on and the chance went by: look at the table again
        after_click(page, version)
        return
    give = page.locator("button.give")
    doubt = page.locator(".card.doubt")
    lay = page.locator("button.lay")
    if give.count():
        give.nth(rng.randrange(give.count())).click()
    elif doubt.count() and (not lay.count() or rng.random() < 0.4):
        doubt.nth(rng.randrange(doubt.count())).click()
    elif not lay.count():
        return  # only an extinction was on offer, and it went by: look at the table again
    else:
        species = page.locator(".species-picker button.species")
        if species.count():
            species.nth(rng.randrange(species.count())).click()
        hand = page.locator(".hand .card")
        for index in rng.sample(range(hand.count()), k=min(hand.count(), rng.choice([1, 1, 2]))):
            page.locator(f".hand .card[data-index='{index}']").click()
        if page.locator("button.lay[disabled]").count():  # that lay is not allowed: one card
            for selected in page.locator(".hand .card.selected").all()[1:]:
                selected.click()
        page.click("button.lay")
    after_click(page, version)


def play_to_end(page: Any, turn: Any, seed: int = 0, max_turns: int = 400) -> int:
    """Play this seat's moves with `turn` until the results show; return the moves made."""
    rng = random.Random(seed)
    for moves in range(max_turns):
        if not wait_turn_or_end(page):
            return moves
        turn(page, rng)
    raise AssertionError(f"the game did not end within {max_turns} moves of this seat")


def game_over(page: Any, web: Any, table: str, players: int) -> dict[str, Any]:
    """Check the results panel ranks every player and the server's record is whole; return
    that record (`GET /api/tables/{id}/record`)."""
    expect(page.locator(".results")).to_be_visible()
    record: dict[str, Any] = web.get(f"/api/tables/{table}/record").json()
    assert record["status"] == "over"
    expect(page.locator(".results .ranking li")).to_have_count(players)
    return record
