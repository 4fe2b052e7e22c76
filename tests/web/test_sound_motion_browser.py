"""Sound and motion in the browser (docs/web.md, "Sound and motion"): each sound at its moment
through the real Web Audio path and none before the person touched the page; the mute switch,
by keyboard, kept across a reload, tutorials apart and silent at first; every animation at most
300 ms, none at all under reduced motion, and a click during one acted on at once.

js/sound.js records what it was asked to sound (`window.__tiergartenSound.played`: the name,
whether it was heard — an audio context running and its nodes scheduled — or why not); an init
script here records every animation the page ran, on each frame."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect
from tests.webparts import LANGUAGES, shared_catalogue

from .conftest import SHOTS
from .driver import (
    TIMEOUT,
    after_click,
    board_version,
    create_table,
    play_mammuz_turn,
    play_maumau_turn,
    play_to_end,
    wait_turn_or_end,
)
from .test_mucca_pazza_browser import new_table as new_mucca_table

PLAYED = "window.__tiergartenSound.played"
# Every animation the page runs, seen on the frame it runs in (CSS ones and the Web Animations
# API's alike): its name, its duration and iterations, what it moves.
WATCH_ANIMATIONS = """(() => {
  const seen = new WeakSet();
  window.__animations = [];
  window.__ghosts = 0;
  const tick = () => {
    for (const a of document.getAnimations()) {
      if (seen.has(a)) continue;
      seen.add(a);
      const timing = a.effect?.getComputedTiming?.() ?? {};
      const target = a.effect?.target;
      window.__animations.push({ name: a.animationName || a.transitionProperty || a.id || "?",
        duration: timing.duration, iterations: timing.iterations, delay: timing.delay,
        target: target ? String(target.className?.baseVal ?? target.className) : "" });
    }
    window.__ghosts = Math.max(window.__ghosts, document.querySelectorAll(".motion-ghost").length);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""
# The looping highlights that say "this is waiting for you" (the catch button, a whole animal,
# the coach's lit move) and the spinner of a wait: a light, not a motion of the game; off under
# reduced motion too.
HIGHLIGHTS = {"pulse", "mp-glow", "coach-pulse", "spin"}


def played(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(PLAYED))


def names_heard(page: Any) -> set[str]:
    return {p["name"] for p in played(page) if p["heard"]}


def wait_sound(page: Any, name: str, heard: bool = True) -> None:
    page.wait_for_function(
        "([n, h]) => window.__tiergartenSound.played.some((p) => p.name === n && p.heard === h)",
        arg=[name, heard], timeout=TIMEOUT)


def focus_by_tab(page: Any, element_id: str) -> None:
    """Tab from the top of the page until the element has the focus (keyboard only)."""
    page.evaluate("document.activeElement?.blur()")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.id") == element_id:
            return
    raise AssertionError(f"#{element_id} is not reachable by Tab")


def test_no_sound_before_a_touch_then_each_at_its_moment(page: Any, paced_web: Any) -> None:
    """Watching two bots: their plays are asked to sound, but nothing sounds (no audio context
    is even made) until the person presses a key; from then on each play is heard."""
    bots = [{"bot": "random"}, {"bot": "random"}]
    made = paced_web.http.post("/api/tables", json={"game": "maumau", "players": 2,
                                                    "options": {"rounds": 1}, "seats": bots})
    assert made.status_code == 201, made.text
    page.goto(f"{paced_web.url}/#/t/{made.json()['id']}")
    wait_sound(page, "card", heard=False)
    untouched = played(page)
    assert untouched and all(p["why"] == "untouched" for p in untouched), untouched
    assert page.evaluate("window.__tiergartenSound.state()") == "none"  # no AudioContext yet
    page.keyboard.press("Shift")  # the first touch of the page
    wait_sound(page, "card")
    assert page.evaluate("window.__tiergartenSound.state()") == "running"
    heard = [p for p in played(page) if p["heard"]]
    assert heard and all(p["voices"] >= 1 and p["state"] == "running" for p in heard)
    assert all(p["name"] in ("card", "draw") for p in played(page)), "no turn, no win: watching"


def test_mau_mau_sounds_the_play_the_turn_and_the_win_and_the_mute_switch_is_kept(
        page: Any, web: Any, page_errors: list[str]) -> None:
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    expect(page.locator("#sound-switch")).to_have_attribute("aria-pressed", "true")
    play_to_end(page, play_maumau_turn, seed=3)
    heard = names_heard(page)
    assert {"card", "chime"} <= heard, heard
    winners = page.evaluate(
        "[...document.querySelectorAll('.ranking li.winner')].map((li) => li.dataset.seat)")
    assert ("win" in heard) == ("0" in winners), (heard, winners)  # for the winner alone

    focus_by_tab(page, "sound-switch")  # by keyboard: Tab to it, Enter
    page.keyboard.press("Enter")
    expect(page.locator("#sound-switch")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('tiergarten.sound')") == "off"
    page.reload()
    expect(page.locator("#sound-switch")).to_have_attribute("aria-pressed", "false")
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    before = len(played(page))
    for _ in range(3):
        if wait_turn_or_end(page):
            play_maumau_turn(page, random.Random(1))
    after = played(page)[before:]
    assert after and all(not p["heard"] and p["why"] == "muted" for p in after), after
    page.keyboard.press("Tab")  # back on by keyboard too
    focus_by_tab(page, "sound-switch")
    page.keyboard.press("Space")
    expect(page.locator("#sound-switch")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('tiergarten.sound')") == "on"
    assert page_errors == []


def test_the_club_thwacks_at_the_press_and_a_flip_turns_over(browser: Any, paced_web: Any) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH_ANIMATIONS)
    page = context.new_page()
    create_table(page, paced_web.url, "lecker_mammut", "Ann", ["you", "bot:slow"], {"rounds": "1"})
    page.wait_for_selector(".lm-club", timeout=TIMEOUT)
    before = len(played(page))
    page.keyboard.press("h")
    pressed = [p["name"] for p in played(page)[before:]]
    assert pressed[:1] == ["thwack"], "the thwack comes with the press itself"
    page.keyboard.press("Escape")
    if page.locator(".lm-flip").count():  # Ann flips first, else the bot does
        page.keyboard.press("Space")
    page.wait_for_function("() => __animations.some((a) => a.name === 'flip')", timeout=TIMEOUT)
    wait_sound(page, "flip")
    flips = page.evaluate("__animations.filter((a) => a.name === 'flip')")
    assert all(a["duration"] <= 300 for a in flips), flips
    context.close()


def test_a_herd_taken_rumbles_and_flies_to_its_taker(browser: Any, web: Any) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH_ANIMATIONS)
    page = context.new_page()
    create_table(page, web.url, "mammuz", "Ann", ["you", "bot:random", "bot:random"])
    rng = random.Random(4)
    for _ in range(40):
        if {"card", "herd"} <= names_heard(page) or page.locator(".results").count():
            break
        if page.locator(".board .actions button:not([disabled]), .card.doubt").count():
            play_mammuz_turn(page, rng)
        else:
            page.wait_for_function(
                "v => Number(document.querySelector('.board')?.dataset.version) > v",
                arg=board_version(page), timeout=TIMEOUT)
    assert {"card", "herd"} <= names_heard(page), played(page)
    flights = page.evaluate("__animations.filter((a) => a.name === 'flight')")
    assert flights and all(a["duration"] <= 300 for a in flights), flights
    assert any("lay" in a["target"].split() for a in flights), "a taken herd flew to the taker"
    context.close()


def test_tutorials_start_silent_with_a_switch_of_their_own(page: Any, web: Any) -> None:
    page.goto(web.url + "/")
    page.click("#learn")
    page.click(".tutorial-choice[data-tutorial='maumau']")
    expect(page.locator("#coach")).to_be_visible(timeout=TIMEOUT)
    switch = page.locator("#sound-switch")
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(switch).to_have_attribute("title", shared_catalogue("en")["sound.tutorial_hint"])
    assert wait_turn_or_end(page)
    play_maumau_turn(page, random.Random(1))  # the taught move: a card (a Jack names its suit)
    page.wait_for_function(f"() => {PLAYED}.some((p) => p.name === 'card')", timeout=TIMEOUT)
    assert all(p["why"] == "muted" for p in played(page))
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    kept = page.evaluate("['tiergarten.sound.tutorial', 'tiergarten.sound']"
                         ".map((key) => localStorage.getItem(key))")
    assert kept == ["on", None]
    page.goto(web.url + "/#/")  # elsewhere the ordinary switch: on unless muted
    expect(switch).to_have_attribute("aria-pressed", "true")


def test_reduced_motion_moves_nothing(browser: Any, web: Any) -> None:
    context = browser.new_context(reduced_motion="reduce")
    context.add_init_script(WATCH_ANIMATIONS)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    rng = random.Random(5)
    for _ in range(6):
        if wait_turn_or_end(page):
            play_maumau_turn(page, rng)
    new_mucca_table(page, web.url, "standard")
    for _ in range(2):
        version = board_version(page)
        page.locator(".mucca button.mp-arrow:not([disabled])").first.click()
        after_click(page, version)
    track = "getComputedStyle(document.querySelector('.mp-track')).transitionDuration"
    assert page.evaluate(track) == "0s"  # a row's slide is a transition otherwise
    assert page.evaluate("[__animations, __ghosts]") == [[], 0]
    assert page.evaluate("document.getAnimations().length") == 0
    context.close()


def test_motion_is_short_and_a_click_during_it_is_acted_on_at_once(browser: Any, web: Any) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH_ANIMATIONS)
    page = context.new_page()
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    rng = random.Random(7)
    for _ in range(8):
        if wait_turn_or_end(page):
            play_maumau_turn(page, rng)
    seen = page.evaluate("__animations")
    names = {a["name"] for a in seen}
    assert {"flight", "land"} <= names, names  # a card flew to the pile and landed on it
    too_long = [a for a in seen if a["name"] not in HIGHLIGHTS
                and (a["iterations"] != 1 or a["duration"] + a["delay"] > 300)]
    assert too_long == []

    # Slowed down 50 times, a flight lasts 13 s: a click meanwhile is a move at once (the
    # flying copy lets it through to the card or button under it).
    cdp = context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.02})
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.02})
    for _ in range(2):
        assert wait_turn_or_end(page), "the game ended before the slowed moves"
        version = board_version(page)
        slow_move(page)
        after_click(page, version)
        page.wait_for_selector(".motion-ghost", timeout=TIMEOUT)
        if _ == 0:  # the frame halfway through a flight
            page.wait_for_function("() => document.getAnimations()"
                                   ".some((a) => a.id === 'flight' && a.currentTime > 130)",
                                   timeout=TIMEOUT)
            page.screenshot(path=str(SHOTS / "sound-mid-flight-maumau.png"))
    assert page.locator(".motion-ghost").count(), "the moves were made while the cards flew"

    new_mucca_table(page, web.url, "standard")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.02})
    arrow = ".mucca button.mp-arrow:not([disabled])"
    page.wait_for_selector(arrow, timeout=TIMEOUT)
    version = board_version(page)
    page.locator(arrow).first.click()
    after_click(page, version)
    page.wait_for_function(SLIDING)
    page.screenshot(path=str(SHOTS / "sound-mid-slide-mucca.png"))
    version = board_version(page)
    page.locator(arrow).first.click(force=True, timeout=2000)  # the row is still sliding
    after_click(page, version)
    assert page.evaluate(f"({SLIDING})()")
    slides = [a for a in page.evaluate("__animations") if a["name"].startswith("mp-slide")]
    assert slides and all(a["duration"] <= 300 for a in slides), slides
    context.close()


SLIDING = "() => document.getAnimations().some((a) => a.animationName?.startsWith('mp-slide'))"


def slow_move(page: Any) -> None:
    """Play a card (a plain one, no Jack's chooser) or draw, clicking at once: no waiting for
    anything on the page to stand still."""
    cards = page.locator(".hand .card.legal:not([disabled]):not([data-card^='J'])")
    if cards.count():
        cards.first.click(force=True, timeout=2000)
    else:
        page.locator(".actions button[data-act]").first.click(force=True, timeout=2000)


def test_the_switch_speaks_every_language(page: Any, web: Any, shot: Any) -> None:
    """The switch's word and its hint in each language, on and off, on a wide and a phone-sized
    screen (the axe-core check on each)."""
    page.goto(web.url + "/")
    switch = page.locator("#sound-switch")
    for lang in LANGUAGES:
        words = shared_catalogue(lang)
        page.select_option("#language", lang)
        expect(switch).to_have_text(f"🔊 {words['sound.label']}")
        expect(switch).to_have_attribute("title", words["sound.on_hint"])
        shot(page, f"{lang}-on")
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "false")
        expect(switch).to_have_text(f"🔇 {words['sound.label']}")
        expect(switch).to_have_attribute("title", words["sound.off_hint"])
        page.set_viewport_size({"width": 390, "height": 800})
        shot(page, f"{lang}-off-phone")
        page.set_viewport_size({"width": 1280, "height": 720})
        switch.click()
