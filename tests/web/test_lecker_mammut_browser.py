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
    deadline = time.monotonic() + 150
    while not page.locator(".results").count():
        assert time.monotonic() < deadline, "two rounds did not end in time"
        if page.locator(".lm-summary").count() and not seen_summary:
            seen_summary = True
            expect(page.locator(".lm-summary")).to_contain_text("Round 1 is over")
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
            page.locator(".lm-controls button[data-act=pass]").click()
        page.wait_for_timeout(40)
    shot(page, "results")
    assert seen_summary, "the scores of round 1 were never shown between the rounds"
    record = paced_web.get(f"/api/tables/{table}/record").json()
    mine = [act for seat, act in record["record"]["actions"] if seat == 0]
    assert any(act.startswith("hit ") for act in mine)
    assert any(act.startswith("top ") for act in mine), "Ann never won a race to a triple"
    assert "flip" in mine
    assert page_errors == []
