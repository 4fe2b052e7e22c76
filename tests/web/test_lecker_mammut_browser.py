"""Lecker Mammut in the browser: flips with the space bar, hits with the club key and a call key,
the top card chosen by a tap, and the round's scores and returns shown between rounds."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .driver import create_table

ANIMALS = ["bear", "boar", "tiger", "sloth", "deer", "mammoth", "rhino"]
COLOURS = ["red", "orange", "yellow", "green", "blue", "purple", "pink"]
KEYS = {**{a: f"Digit{i + 1}" for i, a in enumerate(ANIMALS)},
        **{c: f"Key{k}" for c, k in zip(COLOURS, "QWERTYU", strict=True)}}

STILL = 30  # seconds a table may go without a new version while two rounds are played

# The feature three visible cards share (the middle and the prize piles' tops), if any.
TRIPLE = """() => {
  const counts = {};
  const shown = '.lm-middle svg[data-card], .lm-prize svg[data-card]';
  for (const card of document.querySelectorAll(shown)) {
    for (const f of card.dataset.card.split('-')) counts[f] = (counts[f] || 0) + 1;
  }
  return Object.keys(counts).find((f) => counts[f] >= 3) || null;
}"""


def test_two_rounds_against_a_bot_with_keyboard_hits(page: Any, paced_web: Any, shot: Any,
                                                      page_errors: list[str]) -> None:
    table = create_table(page, paced_web.url, "lecker_mammut", "Ann", ["you", "bot:slow"],
                         {"rounds": "2"})
    shot(page, "start")
    seen_summary = called = False
    # Bounded by progress, not by a total: the table must move on within STILL seconds (a
    # loaded machine makes the whole game slower, a stuck table stops its version).
    version, moved = None, time.monotonic()
    deadline = moved + 600  # and a ceiling, so that a game that never ends fails too
    while not page.locator(".results").count():
        now_version = page.locator("#board").get_attribute("data-version", timeout=5000)
        if now_version != version:
            version, moved = now_version, time.monotonic()
        assert time.monotonic() - moved < STILL, f"the table stood still at version {version}"
        assert time.monotonic() < deadline, "two rounds did not end in 10 minutes"
        if page.locator(".lm-summary").count() and not seen_summary:
            seen_summary = True
            expect(page.locator(".lm-summary")).to_contain_text("Round 1 is over")
            # what decided the returns (rules 2): the penalty cards held
            expect(page.locator(".lm-summary th").nth(2)).to_have_text("penalty cards")
            expect(page.locator(".lm-seat .lm-facts span[title='penalty cards']")).to_have_count(2)
            shot(page, "between-rounds")
        pick = page.locator(".lm-pick")
        feature = page.evaluate(TRIPLE)
        if pick.count():
            if not called:
                shot(page, "choose-top")
            called = True
            with contextlib.suppress(PlaywrightTimeout):  # the choice may pass meanwhile
                pick.first.click(timeout=3000)
        elif feature and page.locator(".lm-club").count():
            page.keyboard.press("h")
            if not page.locator(".lm-call").count():
                continue
            page.keyboard.press(KEYS[feature])
        elif page.locator(".lm-flip").count():
            page.keyboard.press("Space")
        elif page.locator(".lm-controls button[data-act=pass]").count():
            with contextlib.suppress(PlaywrightTimeout):  # the bot may take the turn meanwhile
                page.locator(".lm-controls button[data-act=pass]").click(timeout=3000)
        page.wait_for_timeout(40)
    shot(page, "results")
    assert seen_summary, "the scores of round 1 were never shown between the rounds"
    record = paced_web.get(f"/api/tables/{table}/record").json()
    mine = [act for seat, act in record["record"]["actions"] if seat == 0]
    assert any(act.startswith("hit ") for act in mine)
    assert any(act.startswith("top ") for act in mine), "Ann never won a race to a triple"
    assert "flip" in mine
    assert page_errors == []


# -- the club is the moment: two people in two browsers, one of them far away ----------------

# Every message of this page's websockets travels `LAG` ms longer each way, so the server
# measures a round trip of about 2 * LAG and credits the page's acts that much earlier
# (half of it, up to the cap of 0.15 s).
LAG = 150
SLOW_SOCKET = """(() => {
  const lag = LAG;
  const Native = window.WebSocket;
  class Slow extends Native {
    send(data) { setTimeout(() => { if (this.readyState === 1) super.send(data); }, lag); }
    set onmessage(handler) { super.onmessage = (event) => setTimeout(() => handler(event), lag); }
  }
  window.WebSocket = Slow;
})();""".replace("LAG", str(LAG))
# Ali's page hears of everything `HEARS_LATE` ms late (what she sends goes at once): the table
# can change at the server while her page still shows the old one.
HEARS_LATE = 1500
LATE_NEWS = """(() => {
  const Native = window.WebSocket;
  class Late extends Native {
    set onmessage(handler) { super.onmessage = (event) => setTimeout(() => handler(event), LATE); }
  }
  window.WebSocket = Late;
})();""".replace("LATE", str(HEARS_LATE))
SEED = 11  # seat 0 flips red-deer, orange-deer and blue-deer: three deer after three flips


def two_browsers(browser: Any, web: Any, ali_script: str | None = None
                 ) -> tuple[Any, Any, list[Any]]:
    """Ali (seat 0, the flipper, nearby, her page changed by `ali_script` if given) and Ben
    (seat 1, far away), each in a browser of their own at one table; Ali flips three deer."""
    table = web.create(game="lecker_mammut", players=2, options={"rounds": 1}, seed=SEED)["id"]
    pages, contexts = [], []
    for seat, name in enumerate(["Ali", "Ben"]):
        token = web.join(table, name, seat)[1]
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        if seat == 1:
            context.add_init_script(SLOW_SOCKET)
        elif ali_script:
            context.add_init_script(ali_script)
        page = context.new_page()
        page.goto(web.url + "/")
        page.evaluate("([id, seat, token]) => localStorage.setItem('tiergarten.tokens', "
                      "JSON.stringify({[id]: [{seat, token}]}))", [table, seat, token])
        page.goto(f"{web.url}/#/t/{table}")
        pages.append(page)
        contexts.append(context)
    ali, ben = pages
    for version in range(3):
        expect(ali.locator(f".board[data-version='{version}'] .lm-flip")).to_be_visible()
        ali.keyboard.press("Space")
    for page in pages:
        expect(page.locator(".board[data-version='3'] .lm-middle svg")).to_have_count(3)
    ben.wait_for_timeout(3500)  # a ping or two: the server has measured Ben's round trip
    return ali, ben, contexts


def flip_three_deer(page: Any, web: Any, table: str, token: str) -> None:
    """Seat 0 (`token`, at `table` made with SEED) opens its table in `page`, already on the
    server's site, and flips three cards with the space bar: three deer show."""
    page.evaluate("([id, token]) => localStorage.setItem('tiergarten.tokens', "
                  "JSON.stringify({[id]: [{seat: 0, token}]}))", [table, token])
    page.goto(f"{web.url}/#/t/{table}")
    for version in range(3):
        expect(page.locator(f".board[data-version='{version}'] .lm-flip")).to_be_visible()
        page.keyboard.press("Space")
    expect(page.locator(".board[data-version='3'] .lm-middle svg")).to_have_count(3)


def hits_and_penalties(web: Any, page: Any) -> tuple[list[list[Any]], list[int]]:
    """The hits and mistakes in the table's public log, and everyone's penalties."""
    table = page.evaluate("location.hash").split("/")[2]
    observation = web.get(f"/api/tables/{table}/record").json()["observation"]
    hits = [[e["act"], e.get("seat")] for e in observation["log"] if e["act"] in ("hit", "mistake")]
    return hits, observation["penalties"]


def test_the_first_to_press_the_club_wins_though_the_other_calls_first(
        browser: Any, web: Any, shot: Any) -> None:
    """The race of the issue: Ben (far away) presses the club first and names the animal
    last; Ali presses after him and names it at once. Ben wins the deer, Ali is told someone
    hit first, and nobody gets a penalty card."""
    ali, ben, contexts = two_browsers(browser, web)
    ben.keyboard.press("h")
    ali.wait_for_timeout(100)
    ali.keyboard.press("h")
    expect(ali.locator(".lm-call")).to_be_visible()
    ali.keyboard.press("Digit5")  # deer
    ben.wait_for_timeout(300)
    expect(ben.locator(".lm-call")).to_be_visible()
    ben.keyboard.press("Digit5")  # within the call window, however loaded the machine
    expect(ben.locator(".lm-pick").first).to_be_visible()  # Ben won: he picks the top card
    shot(ben, "ben-called-last-and-won")
    expect(ali.locator("#toast")).to_contain_text("Someone hit first")
    shot(ali, "ali-was-second")
    assert hits_and_penalties(web, ali) == ([["hit", 1]], [0, 0])
    for context in contexts:
        context.close()


def test_the_call_dialog_closes_when_someone_else_took_the_cards(
        browser: Any, web: Any, shot: Any) -> None:
    """Ben presses and calls; Ali presses after him, while her page still shows the deer
    (it hears of Ben's hit late): the table changes under her open call, so her dialog closes
    by itself, she is told someone hit first, and pays nothing."""
    ali, ben, contexts = two_browsers(browser, web, LATE_NEWS)
    ben.keyboard.press("h")
    ben.keyboard.press("Digit5")
    ali.wait_for_timeout(400)  # her press counts after his, whatever her round trip credits
    ali.keyboard.press("h")
    expect(ali.locator(".lm-call")).to_be_visible()  # the old table, still: the call is open
    expect(ben.locator(".lm-pick").first).to_be_visible()
    expect(ali.locator(".lm-call")).to_have_count(0)
    expect(ali.locator("#toast")).to_contain_text("Someone hit first")
    shot(ali, "closed")
    assert hits_and_penalties(web, ali) == ([["hit", 1]], [0, 0])
    for context in contexts:
        context.close()


# -- the press is a commitment (rules 3) --------------------------------------------------------

# Every message the page sends, with the page's clock (ms), in window.__sent.
SENT = """(() => {
  const Native = window.WebSocket;
  window.__sent = [];
  class Logged extends Native {
    send(data) { window.__sent.push([performance.now(), JSON.parse(data)]); super.send(data); }
  }
  window.WebSocket = Logged;
})();"""
PAGE_CALL_BUDGET = 0.3  # seconds of the call window the page itself may take (measured ~0.03)


def test_the_call_window_is_the_persons_and_a_press_with_nothing_to_call_costs_a_card(
        browser: Any, web: Any, shot: Any) -> None:
    """Ali alone at her screen (Ben is seated but away). With three deer showing she presses
    the club key and the deer key back to back: the page sends the press and the call within
    PAGE_CALL_BUDGET of each other — what the page's own dialog and keys take of the call
    window; the rest is the person's. Then, with nothing to call, her press is a mistake at
    once: the dialog closes by itself, she is told, and a card goes to her face down."""
    table = web.create(game="lecker_mammut", players=2, options={"rounds": 1}, seed=SEED)["id"]
    token = web.join(table, "Ali", 0)[1]
    web.join(table, "Ben", 1)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script(SENT)
    page = context.new_page()
    page.goto(web.url + "/")
    flip_three_deer(page, web, table, token)
    page.keyboard.press("h")
    expect(page.locator(".lm-call")).to_be_visible()
    page.keyboard.press("Digit5")  # deer
    expect(page.locator(".lm-pick").first).to_be_visible()
    shot(page, "choose-top")
    sent = page.evaluate("window.__sent")
    press = next(t for t, m in sent if m.get("press") is True)
    call = next(t for t, m in sent if str(m.get("act", "")).startswith("hit "))
    page_took = (call - press) / 1000
    print(f"the page's own share of the call window: {page_took * 1000:.0f} ms")
    assert 0 <= page_took < PAGE_CALL_BUDGET
    page.locator(".lm-pick").first.click()
    expect(page.locator(".board[data-version='5'] .lm-club")).to_be_visible()
    page.keyboard.press("h")  # one deer on top of her pile, nothing else: nothing to call
    expect(page.locator("#toast")).to_contain_text("Nothing to call")
    expect(page.locator(".lm-call")).to_have_count(0)
    shot(page, "missed")
    observation = web.get(f"/api/tables/{table}/record").json()["observation"]
    assert observation["log"][-1] == {"act": "miss", "seat": 0, "penalty_card": True}
    assert observation["penalties"] == [1, 0]
    expect(page.locator("#log-list")).to_contain_text("calls nothing")
    context.close()
