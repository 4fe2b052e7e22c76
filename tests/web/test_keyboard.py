"""Every table plays by keyboard alone: Tab to a card, a pile or a button, Enter or Space to
play it; nothing needs a mouse (Lecker Mammut's keys: test_lecker_mammut_browser.py)."""

from __future__ import annotations

from typing import Any

from .a11y import assert_accessible
from .driver import after_click, board_version, create_table, wait_turn_or_end

FOCUSED = "s => !!document.activeElement && document.activeElement.matches(s)"


def tab_to(page: Any, selector: str, limit: int = 120) -> None:
    """Press Tab until the focus is on an element matching `selector`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED, selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_maumau_by_keyboard(page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:heuristic"], {"rounds": "1"})
    for turn in range(4):
        if not wait_turn_or_end(page):
            break
        version = board_version(page)
        if page.locator(".hand .card.legal:not([disabled])").count():
            tab_to(page, ".hand .card.legal:not([disabled])")
            page.keyboard.press("Enter")
            if page.locator(".chooser").count():  # a Jack: the suit chooser takes the focus
                tab_to(page, ".chooser .suit")
                page.keyboard.press("Enter")
        elif page.locator(".actions button[data-act=draw]").count():
            tab_to(page, ".stock.legal, .actions button[data-act=draw]")
            page.keyboard.press("Enter")
        else:
            tab_to(page, ".actions button:not([disabled])")
            page.keyboard.press("Enter")
        after_click(page, version)
        if turn == 0:
            shot(page, "after-a-keyboard-move")
            assert_accessible(page, "a Mau Mau table")
    assert page_errors == []


def test_mammuz_by_keyboard(page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    create_table(page, web.url, "mammuz", "Ann", ["you", "bot:heuristic", "bot:heuristic"])
    for _ in range(3):
        if not wait_turn_or_end(page):
            break
        version = board_version(page)
        if page.locator(".card.doubt").count():
            tab_to(page, ".card.doubt")
            page.keyboard.press("Enter")
        elif page.locator("button.lay").count():
            if page.locator(".species-picker").count():
                tab_to(page, ".species-picker button.species")
                page.keyboard.press("Space")
            tab_to(page, ".hand .card")
            page.keyboard.press("Space")  # pick one card
            tab_to(page, "button.lay:not([disabled])")
            shot(page, "about-to-lay")
            assert_accessible(page, "a MammuZ table")
            page.keyboard.press("Enter")
        else:
            tab_to(page, ".board button:not([disabled])")
            page.keyboard.press("Enter")
        after_click(page, version)
    assert page_errors == []


def test_mucca_pazza_by_keyboard(page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    create_table(page, web.url, "mucca_pazza", "Ann", ["you", "bot:greedy"])
    page.wait_for_selector(".mucca button.mp-arrow:not([disabled])")
    for _ in range(2):
        version = board_version(page)
        tab_to(page, ".mp-row[data-row=bodies] button.mp-arrow.right:not([disabled])")
        page.keyboard.press("Enter")
        after_click(page, version)
        if not page.locator(".mucca button.mp-arrow:not([disabled])").count():
            break  # the slide made an animal whole: the turn is over
    shot(page, "slid-by-keyboard")
    assert_accessible(page, "a Mucca Pazza table")
    assert page_errors == []
