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


RING = """() => { const s = getComputedStyle(document.activeElement);
  return [parseFloat(s.outlineWidth), s.outlineColor, s.boxShadow]; }"""
IN_DIALOG = "() => !!document.activeElement?.closest('[role=dialog]')"


def sit_by_link(page: Any, web: Any, table: str, name: str, seat: int) -> None:
    """Sit `name` at `seat` through the API and open the table with that seat's token."""
    token = web.join(table, name, seat)[1]
    page.goto(web.url + "/")
    page.evaluate("([id, seat, token]) => localStorage.setItem('tiergarten.tokens', "
                  "JSON.stringify({[id]: [{seat, token}]}))", [table, seat, token])
    page.goto(f"{web.url}/#/t/{table}")


def test_a_jack_and_its_suit_by_keyboard_alone(page: Any, web: Any, shot: Any,
                                               page_errors: list[str]) -> None:
    """Seed 45: Ann moves first and holds the Jack of spades. Enter on it opens the suit
    chooser with the focus inside; Tab stays there; Escape closes it and gives the focus back
    to the Jack; Enter again, Tab to hearts, Enter plays it; the focus ring is thick and white."""
    table = web.create(game="maumau", players=2, options={"rounds": 1}, seed=45,
                       seats=[None, {"bot": "heuristic"}])["id"]
    sit_by_link(page, web, table, "Ann", 0)
    page.wait_for_selector(".hand .card.legal[data-card=Js]")
    assert page.locator("#log").count() == 0  # nothing played yet: no empty "Moves (0)" box
    tab_to(page, ".hand .card[data-card=Js]")
    width, colour, shadow = page.evaluate(RING)
    assert width >= 4 and colour == "rgb(255, 255, 255)" and "rgb(11, 31, 58)" in shadow
    page.keyboard.press("Enter")
    page.wait_for_selector(".chooser")
    assert page.evaluate(IN_DIALOG), "the suit chooser did not take the focus"
    for _ in range(7):  # four suits and Cancel: Tab goes round inside the dialog
        page.keyboard.press("Tab")
        assert page.evaluate(IN_DIALOG), "Tab left the suit chooser"
    shot(page, "suit-chooser-focused")
    page.keyboard.press("Escape")
    page.wait_for_selector(".chooser", state="detached")
    assert page.evaluate(FOCUSED, ".hand .card[data-card=Js]"), "the focus did not go back"
    page.keyboard.press("Enter")
    page.wait_for_selector(".chooser")
    version = board_version(page)
    tab_to(page, ".chooser .suit[data-suit=h]", limit=6)
    page.keyboard.press("Enter")
    after_click(page, version)
    log = web.get(f"/api/tables/{table}/record").json()["observation"]["log"]
    assert log[0]["act"] == "play Js h", log[:2]
    page.wait_for_selector("#log li")
    assert not page.evaluate("document.activeElement === document.body"), "the focus fell out"
    assert page.evaluate("!!document.activeElement.closest('#board')")
    assert page_errors == []


def test_the_call_dialog_takes_the_focus_and_gives_it_back(page: Any, web: Any,
                                                           page_errors: list[str]) -> None:
    """Lecker Mammut!, seed 11: Ali flips three deer; the club by keyboard opens the call with
    the focus in it; Escape closes it and the focus is on the club again."""
    table = web.create(game="lecker_mammut", players=2, options={"rounds": 1}, seed=11)["id"]
    web.join(table, "Ben", 1)  # Ben sits and never comes: the call is Ali's alone
    sit_by_link(page, web, table, "Ali", 0)
    for version in range(3):
        page.wait_for_selector(f".board[data-version='{version}'] .lm-flip")
        page.keyboard.press("Space")
    page.wait_for_selector(".lm-club")
    tab_to(page, ".lm-club")
    page.keyboard.press("Enter")
    page.wait_for_selector(".lm-call")
    assert page.evaluate(IN_DIALOG), "the call did not take the focus"
    version = board_version(page)
    page.keyboard.press("Escape")
    page.wait_for_selector(".lm-call", state="detached")
    after_click(page, version)  # rules 3: a press withdrawn is a mistake, and the board shows it
    assert page.evaluate(FOCUSED, ".lm-club"), "the focus did not go back to the club"
    assert page_errors == []
