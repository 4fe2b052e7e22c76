"""Mucca Pazza in the browser: a whole game of each variant against a bot, by clicking the
arrows, the grid cards and Stop (mostly as the hint button advises), and by dragging a row."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.server.harness import Server

from .a11y import assert_accessible
from .driver import TIMEOUT, after_click, board_version, game_over

MY_MOVE = (".mucca button.mp-arrow:not([disabled]), .mucca button.stop, "
           ".mucca .mp-slot.down.legal")


def new_table(page: Any, base: str, variant: str) -> str:
    page.goto(base + "/")
    page.click(".game-choice[data-game=mucca_pazza]")
    page.fill("#name", "Ann")
    page.select_option("#players", "2")
    page.select_option("select[data-seat='0']", "you")
    page.select_option("select[data-seat='1']", "bot:greedy")
    page.click("details.options summary")
    page.select_option("#opt-variant", variant)
    page.click("button[type=submit]")
    page.wait_for_selector(".board .mucca", timeout=TIMEOUT)
    return str(page.evaluate("location.hash").split("/")[2])


def my_turn(page: Any) -> bool:
    """Wait until this seat may act (True) or the game is over (False)."""
    page.wait_for_function(
        "s => document.querySelector('.results') || document.querySelector(s)", arg=MY_MOVE,
        timeout=TIMEOUT)
    return not page.locator(".results").count()


def tiles(page: Any, row: str) -> list[str]:
    return str(page.get_attribute(f".mp-row[data-row={row}]", "data-tiles")).split()


def drag_row(page: Any, row: str, direction: int) -> None:
    """Drag a row by most of a tile with the mouse; check that exactly that slide happened."""
    before, version = tiles(page, row), board_version(page)
    box = page.locator(f".mp-row[data-row={row}] .mp-track-wrap").bounding_box()
    tile = box["width"] / len(before)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + direction * tile * 0.85, y, steps=8)
    page.mouse.up()
    after_click(page, version)
    assert board_version(page) == version + 1
    after = tiles(page, row)
    assert after == (before[-1:] + before[:-1] if direction > 0 else before[1:] + before[:1])


def follow_hint(page: Any, shot: Any = None) -> str:
    """Ask for a hint and click what it advises; return the advice."""
    version = board_version(page)
    page.click(".mp-hint-button")
    hint = page.locator(".mp-hint[data-hint]:not(.error)")
    expect(hint).to_be_visible()
    advice = str(hint.get_attribute("data-hint"))
    words = hint.inner_text()  # a sentence a person reads, not "(cards: 3; slides: 3)"
    assert "(" not in words and ";" not in words.split("—")[-1], words
    target = page.locator(f".mucca [data-act='{advice}']")
    expect(target).to_be_enabled()  # the hint is a legal action: its control is live
    expect(target).to_have_class(re.compile("hinted"))
    if shot is not None:
        shot(page, "hint")
    target.click()
    after_click(page, version)
    return advice


def click_an_arrow(page: Any, rng: random.Random) -> None:
    version = board_version(page)
    arrows = page.locator(".mucca button.mp-arrow:not([disabled])")
    arrows.nth(rng.randrange(arrows.count())).click()
    after_click(page, version)


def play(page: Any, rng: random.Random, shot: Any, dragged: list[bool]) -> int:
    """Play to the end: mostly the hint's advice, now and then an arrow of our own."""
    moves, hinted = 0, False
    while my_turn(page):
        arrows = page.locator(".mucca button.mp-arrow:not([disabled])").count()
        if arrows and not dragged[0]:
            drag_row(page, "heads", +1)
            shot(page, "dragged")
            dragged[0] = True
        elif arrows and rng.random() < 0.2:
            click_an_arrow(page, rng)
        else:
            follow_hint(page, None if hinted else shot)
            hinted = True
        moves += 1
        assert moves < 300, "the game does not end"
    return moves


def finish(page: Any, web: Any, table: str, shot: Any) -> None:
    game_over(page, web, table, 2)
    shot(page, "results")
    page.click("text=Replay the game")
    expect(page.locator(".revealed-hand .mp-hand")).to_have_count(2)
    shot(page, "replay")


def test_a_whole_standard_game(page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    table = new_table(page, web.url, "standard")
    expect(page.locator(".mp-row")).to_have_count(3)
    expect(page.locator(".mp-row[data-row=heads] .mp-tile")).to_have_count(10)
    expect(page.locator(".mp-landing .mp-card")).to_have_count(10)
    expect(page.locator(".mp-player .mp-stars").first).to_contain_text("★★★")
    shot(page, "start")
    page.set_viewport_size({"width": 390, "height": 844})  # ten columns on a phone
    expect(page.locator(".mp-row[data-row=legs] .mp-tile")).to_have_count(10)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the tiles get the row's whole width (the arrows beside the caption), in full colour
    widths = page.locator(".mp-row .mp-tile").evaluate_all(
        "ts => ts.map(t => t.getBoundingClientRect().width)")
    assert min(widths) >= 35, min(widths)
    name = page.locator(".mp-row .mp-tile .mp-name").first
    assert name.evaluate("n => parseFloat(getComputedStyle(n).fontSize)") >= 9
    shot(page, "phone")
    page.set_viewport_size({"width": 1280, "height": 720})
    # The hint switch: off hides the button (remembered for this table), on brings it back.
    page.uncheck(".mp-hint-switch input")
    expect(page.locator(".mp-hint-button")).to_have_count(0)
    page.check(".mp-hint-switch input")
    expect(page.locator(".mp-hint-button")).to_have_count(1)
    dragged = [False]
    moves = play(page, random.Random(1), shot, dragged)
    assert dragged[0] and moves > 3
    finish(page, web, table, shot)
    assert page_errors == []


def test_a_whole_junior_game_on_a_phone(page: Any, web: Any, shot: Any,
                                        page_errors: list[str]) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    table = new_table(page, web.url, "junior")
    expect(page.locator(".mp-row[data-row=legs] .mp-tile")).to_have_count(5)
    expect(page.locator(".mp-grid .mp-slot")).to_have_count(16)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    shot(page, "start")
    rng = random.Random(2)
    my_turn(page)
    version = board_version(page)
    cards = page.locator(".mp-slot.down.legal")
    cards.nth(rng.randrange(cards.count())).click()  # turn up a card by clicking it
    after_click(page, version)
    if page.locator(".mucca button.mp-arrow:not([disabled])").count():  # not turned back
        expect(page.locator(".mp-target .mp-card")).to_have_count(1)
    shot(page, "revealed")
    dragged = [False]
    moves = play(page, rng, shot, dragged)
    assert dragged[0] and moves > 3
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finish(page, web, table, shot)
    assert page_errors == []


def test_a_row_slides_by_touch_on_a_phone(browser: Any, web: Any, shot: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        new_table(page, web.url, "standard")
        assert my_turn(page)
        before, version = tiles(page, "bodies"), board_version(page)
        box = page.locator(".mp-row[data-row=bodies] .mp-track-wrap").bounding_box()
        tile = box["width"] / len(before)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = context.new_cdp_session(page)
        for kind, dx in [("touchStart", 0.0), *[("touchMove", -tile * i / 8) for i in
                                                 range(1, 9)], ("touchEnd", 0.0)]:
            points = [] if kind == "touchEnd" else [{"x": x + dx, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        after_click(page, version)
        assert tiles(page, "bodies") == before[1:] + before[:1]  # one place to the left
        shot(page, "touched")
        assert errors == []
    finally:
        context.close()


def test_a_table_created_without_hints_shows_no_hint_button(page: Any, web: Any,
                                                            shot: Any) -> None:
    page.goto(web.url + "/")
    page.click(".game-choice[data-game=mucca_pazza]")
    page.fill("#name", "Ann")
    page.select_option("select[data-seat='1']", "bot:random")
    page.uncheck("#hints")
    page.click("button[type=submit]")
    page.wait_for_selector(".mp-row")
    table = page.evaluate("location.hash").split("/")[2]
    assert web.get(f"/api/tables/{table}").json()["hints"] is False
    expect(page.locator(".mp-hint-button")).to_have_count(0)
    expect(page.locator(".mp-hint-switch")).to_have_count(0)
    shot(page, "no-hints")
    page.goto(web.url + "/")
    page.click(".game-choice[data-game=maumau]")
    expect(page.locator("#hints")).to_have_count(0)  # only games with an adviser offer hints


@pytest.fixture(scope="module")
def seeded_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own that lets a table's creator choose the seed."""
    db = tmp_path_factory.mktemp("web-seeded") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0", "--away-after", "30", "--allow-seeds").start()
    yield srv
    assert "Traceback" not in srv.stop()


def test_after_a_completion_the_next_turn_starts_with_glowing_cards_won_there_and_back(
        page: Any, seeded_web: Server, shot: Any, page_errors: list[str]) -> None:
    web = seeded_web
    # Seed 173 (docs/games/mucca_pazza.md): the greedy bot's four slides end its turn on the pig
    # and the turtle, and the refill lays out a pig and a turtle while both stand whole.
    table = web.create(game="mucca_pazza", players=2, seed=173, seats=[{"bot": "greedy"}, None])
    page.goto(f"{web.url}/#/t/{table['id']}")
    page.fill("#join-name", "Ann")
    page.click("form.join button[type=submit]")
    assert my_turn(page)
    glowing = page.locator(".mp-landing .mp-card.complete")
    expect(glowing).to_have_count(2)
    assert sorted(glowing.evaluate_all("cs => cs.map(c => c.dataset.animal)")) == ["pig", "turtle"]
    expect(glowing.first).to_have_attribute("title", re.compile("there and back"))
    expect(page.locator(".mp-tile.complete")).to_have_count(6)  # two animals, three rows
    shot(page, "glowing")
    for row, direction in (("heads", "left"), ("heads", "right")):
        version = board_version(page)
        page.click(f".mucca button[data-act='slide {row} {direction}']")
        after_click(page, version)
    expect(page.locator(".mp-player[data-seat='1'] .mp-won .mp-chip")).to_have_count(2)
    assert page_errors == []


# Names on tiles and cards that do not show whole (cut off, or ended with an ellipsis).
CUT_NAMES = """() => [...document.querySelectorAll(
    '.mp-tile:not(.mp-ghost) .mp-name, .mp-card-name')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1
    || getComputedStyle(e).textOverflow === 'ellipsis')
  .map((e) => e.textContent)"""

# At the start of a slide's animation (held there): where the wrapped tile's copy and the tile
# itself are, in tiles (the pitch from one to the next) from the row's left edge.
AT_START = """(row) => {
  for (const a of document.getAnimations()) { a.pause(); a.currentTime = 0; }
  const wrap = document.querySelector(`.mp-row[data-row=${row}] .mp-track-wrap`)
    .getBoundingClientRect();
  const real = [...document.querySelectorAll(`.mp-row[data-row=${row}] .mp-tile:not(.mp-ghost)`)];
  const ghost = document.querySelector(`.mp-row[data-row=${row}] .mp-ghost`);
  // a tile's pitch (its width and the margins between two), not its width alone
  const width = real[1].getBoundingClientRect().left - real[0].getBoundingClientRect().left;
  const at = (e) => (e.getBoundingClientRect().left - wrap.left) / width;
  return {ghost: ghost && [ghost.dataset.animal, Math.round(at(ghost))],
          last: [real[real.length - 1].dataset.animal, Math.round(at(real[real.length - 1]))],
          n: real.length};
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_on_a_phone_names_show_whole_parts_read_at_a_glance_and_a_wrap_goes_round(
        page: Any, web: Any, shot: Any, page_errors: list[str], lang: str) -> None:
    page.emulate_media(reduced_motion="no-preference")  # this test holds a slide's motion
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")  # the page has set its language: now switch it
    page.select_option("#language", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)  # switched (and remembered)
    new_table(page, web.url, "standard")
    assert my_turn(page)
    assert page.evaluate(CUT_NAMES) == []
    captions = {"en": ["Heads", "Bodies", "Legs"], "de": ["Köpfe", "Körper", "Beine"]}[lang]
    expect(page.locator(".mp-row-caption")).to_have_text(captions)
    for row in ("heads", "bodies", "legs"):  # each tile's bright band is its row's part
        expect(page.locator(f".mp-row[data-row={row}] .mp-pic.{row}")).to_have_count(10)
    shot(page, "phone")
    assert_accessible(page, "Mucca Pazza on a phone")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.02})  # a slide takes 17 s
    before, version = tiles(page, "heads"), board_version(page)
    page.click(".mp-row[data-row=heads] button.mp-arrow.left")
    after_click(page, version)
    assert tiles(page, "heads") == before[1:] + before[:1]
    held = page.evaluate(AT_START, "heads")
    # the first tile went off the left end: its copy starts where it was and leaves to the
    # left, while the tile itself starts just beyond the right end and comes in from there
    assert held == {"ghost": [before[0], 0], "last": [before[0], 10], "n": 10}
    shot(page, "wrap-at-start")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    assert page_errors == []
