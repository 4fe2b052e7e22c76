"""Table chat between browsers: a player and a spectator talk, a reaction needs no typing,
one player mutes another, the creator switches chat off; the players' clocks on the seats."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from tests.webparts import catalogue

from .driver import TIMEOUT, create_table, play_maumau_turn, play_to_end


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-form button[type=submit]")


def test_chat_between_two_browsers_with_mute_and_the_switch(browser: Any, web: Any,
                                                            shot: Any) -> None:
    ann = browser.new_context().new_page()
    table = create_table(ann, web.url, "maumau", "Ann", ["you", "open"], {"rounds": "1"})
    bob = browser.new_context().new_page()
    bob.goto(f"{web.url}/#/t/{table}")
    bob.fill("#join-name", "Bob")
    bob.click("form.join button[type=submit]")
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    say(ann, "hello Bob <3")
    line = bob.locator("#chat-lines li", has_text="hello Bob")  # whatever came before or after
    expect(line.locator(".chat-name")).to_have_text("Ann")
    expect(line.locator(".chat-role")).to_have_text("player")
    expect(line.locator(".chat-text")).to_have_text("hello Bob <3")  # plain text, as typed
    bob.click("#chat .reaction[data-react=thumbs]")
    expect(ann.locator("#chat-lines li").last).to_contain_text("Nice!")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{web.url}/#/t/{table}")
    expect(watcher.locator("#chat-lines li")).to_have_count(2)  # the chat so far
    say(watcher, "go go go")
    # Bob watched before he sat down: the watcher is the table's second spectator
    expect(ann.locator("#chat-lines li[data-role=spectator] .chat-name")).to_have_text(
        "Spectator 2")
    bob.click("#chat-lines li[data-seat='0'] .mute")  # Bob mutes Ann
    expect(bob.locator("#chat-lines li[data-seat='0']")).to_have_count(0)
    say(ann, "can you hear me?")
    expect(ann.locator("#chat-lines li")).to_have_count(4)
    expect(watcher.locator("#chat-lines li")).to_have_count(4)
    expect(bob.locator("#chat-lines li")).to_have_count(2)  # Bob's thumbs and the spectator
    shot(bob, "muted")
    bob.click("#chat-muted .unmute")
    expect(bob.locator("#chat-lines li")).to_have_count(4)
    expect(bob.locator("#chat-switch")).to_have_count(0)  # only the creator may switch
    ann.click("#chat-switch")
    expect(bob.locator("#chat-off")).to_be_visible()
    expect(bob.locator("#chat-form")).to_have_count(0)
    shot(ann, "chat-off")


def test_the_clock_shows_on_each_seat_and_runs_for_the_one_to_move(browser: Any, web: Any,
                                                                   shot: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(web.url + "/")
    page.click(".game-choice[data-game=maumau]")
    page.fill("#name", "Cleo")
    page.select_option("#players", "2")
    page.select_option("select[data-seat='1']", "bot:random")
    page.select_option("#timer", "clock:180:5")
    page.click("button[type=submit]")
    expect(page.locator(".seat[data-seat='0'] .clock")).to_be_visible()
    # every seat shows its clock; a bot's says it plays without one
    expect(page.locator(".seat[data-seat='1'] .clock.none")).to_have_text("⏱ –")
    # the time shows once the first state is drawn: 3:00, or a second or two less
    expect(page.locator(".seat[data-seat='0'] .clock")).to_contain_text(
        re.compile(r"3:0\d|2:5\d"))
    expect(page.locator(".seat[data-seat='0'] .clock")).to_have_attribute("data-low", "false")
    assert page.locator(".seat[data-seat='0'] .clock").evaluate(
        "el => getComputedStyle(el).color") != "rgb(192, 38, 45)"  # not red at 3:00
    shot(page, "clock")
    # red only when low: under 30 s, or under a tenth of the time given
    low = page.evaluate("""async () => {
      const clock = await import("/js/clock.js");
      const info = { clock: { bank: 180, increment: 5 },
                     seats: [0, 1, 2].map(() => ({ kind: "human" })) };
      clock.noteClock({ clock: { left: [29, 31, 192], running: [0] } });
      const low = [0, 1, 2].map((s) => clock.clockBadge(info, s).dataset.low);
      clock.noteClock({ clock: { left: [17, 900, 89], running: [0] } });
      info.clock.bank = 1000;
      return [low, [0, 1, 2].map((s) => clock.clockBadge(info, s).dataset.low)];
    }""")
    assert low == [["true", "false", "false"], ["true", "false", "true"]]


def test_the_creator_keeps_the_switch_at_the_rematch(browser: Any, web: Any) -> None:
    page = browser.new_context().new_page()
    table = create_table(page, web.url, "maumau", "Rea", ["you", "bot:random"], {"rounds": "1"})
    expect(page.locator("#chat-switch")).to_be_visible()
    play_to_end(page, play_maumau_turn, seed=5)
    page.click("#rematch")
    expect(page).not_to_have_url(f"{web.url}/#/t/{table}", timeout=TIMEOUT)
    expect(page.locator(".seat.mine")).to_contain_text("Rea")
    page.click("#chat-switch")  # the creator's token came along: chat goes off for everyone
    expect(page.locator("#chat-off")).to_be_visible()


def test_the_chat_speaks_the_new_language_at_once(browser: Any, web: Any, shot: Any) -> None:
    """A switch of language redraws the chat beside the board at once (no reload): its
    heading, input, buttons, the creator's switch and the lines' words; what is being typed
    stays."""
    page = browser.new_context().new_page()
    create_table(page, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    words = {lang: catalogue(lang) for lang in ("en", "de", "it")}
    say(page, "hello")
    page.click("#chat .reaction[data-react=clap]")
    expect(page.locator("#chat-lines li")).to_have_count(2)
    for lang in ("en", "de", "it"):
        if lang != "en":
            page.fill("#chat-input", "half a sent")
            page.select_option("#language", lang)
        w = words[lang]
        expect(page.locator("#chat h2")).to_have_text(w["chat.title"])
        expect(page.locator("#chat-input")).to_have_attribute("placeholder", w["chat.placeholder"])
        expect(page.locator("#chat-input")).to_have_attribute("aria-label", w["chat.placeholder"])
        expect(page.locator("#chat-form button[type=submit]")).to_have_text(w["chat.send"])
        expect(page.locator("#chat-switch")).to_have_text(w["chat.switch_off"])
        expect(page.locator("#chat .reactions")).to_have_attribute("aria-label",
                                                                   w["chat.reactions"])
        expect(page.locator("#chat .reaction[data-react=gg]")).to_have_attribute(
            "title", w["chat.reaction.gg"])
        expect(page.locator("#chat-lines li .chat-role").first).to_have_text(w["chat.role.player"])
        expect(page.locator("#chat-lines li .chat-text").last).to_contain_text(
            w["chat.reaction.clap"])
        if lang != "en":
            expect(page.locator("#chat-input")).to_have_value("half a sent")
        shot(page, f"chat-{lang}")
    page.click("#chat-switch")
    expect(page.locator("#chat-off")).to_have_text(words["it"]["chat.off"])
    expect(page.locator("#chat-switch")).to_have_text(words["it"]["chat.switch_on"])
    assert page.evaluate("[...window.__i18nMissing]") == []


def test_two_spectators_are_told_apart_and_each_is_told_it_watches(browser: Any, web: Any,
                                                                   shot: Any) -> None:
    """Each watcher has a label of its own, numbered by the server in order of arrival and
    worded in each reader's language: shown in the chat, muted one by one; and a spectator
    is told that it watches, under that label."""
    ann = browser.new_context().new_page()
    table = create_table(ann, web.url, "maumau", "Ann", ["you", "bot:random"], {"rounds": "1"})
    expect(ann.locator("#watching")).to_have_count(0)  # a player watches nothing
    first = browser.new_context().new_page()
    first.goto(f"{web.url}/#/t/{table}")
    expect(first.locator("#watching")).to_have_text(
        "👀 You are watching as Spectator 1: you see the table as everyone may, and can chat, "
        "but not play.")
    second = browser.new_context().new_page()
    second.goto(web.url + "/")
    second.wait_for_selector(".game-choice")
    second.select_option("#language", "de")
    de = catalogue("de")
    expect(second.locator(".lobby h1")).to_have_text(de["lobby.title"])
    second.goto(f"{web.url}/#/t/{table}")
    expect(second.locator("#watching")).to_contain_text("Du schaust zu als Zuschauer 2:")
    say(first, "hi from the first")
    expect(second.locator("#chat-lines li")).to_have_count(1)
    say(second, "hallo vom zweiten")
    expect(ann.locator("#chat-lines li")).to_have_count(2)
    names = ann.locator("#chat-lines li .chat-name")
    expect(names).to_have_text(["Spectator 1", "Spectator 2"])
    expect(ann.locator("#chat-lines li .chat-role")).to_have_count(0)  # the label says it
    expect(second.locator("#chat-lines li .chat-name")).to_have_text(["Zuschauer 1", "Zuschauer 2"])
    expect(second.locator("#chat-lines li[data-spectator='2'] .mute")).to_have_count(0)  # its own
    expect(second.locator("#chat-lines li[data-spectator='1'] .mute")).to_have_attribute(
        "aria-label", "Zuschauer 1 stummschalten")
    shot(first, "watching-en")
    shot(second, "watching-de")
    ann.click("#chat-lines li[data-spectator='1'] .mute")  # one watcher muted, not the other
    expect(ann.locator("#chat-lines li")).to_have_count(1)
    expect(ann.locator("#chat-lines li .chat-name")).to_have_text("Spectator 2")
    expect(ann.locator("#chat-muted .unmute")).to_have_text("Unmute Spectator 1")
    say(first, "still there?")
    say(second, "noch da")
    expect(first.locator("#chat-lines li")).to_have_count(4)
    expect(ann.locator("#chat-lines li")).to_have_count(2)
    shot(ann, "one-watcher-muted")
    ann.click("#chat-muted .unmute")
    expect(ann.locator("#chat-lines li")).to_have_count(4)
