"""The server's refusals in the page's language: a REST answer carries a code and its
parameters beside the English `detail` (docs/protocol.md, "REST error codes"), and the page
words it from its catalogue — on a German, Polish or Italian page no English reaches the
person; the English detail only for a code without words. A message about one page goes when
the next one opens."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.webparts import catalogue

from .driver import create_table

ENGLISH = ("wrong user name or password", "there is no player", "there is no table",
           "a name may not contain")


def in_language(page: Any, web: Any, lang: str) -> dict[str, str]:
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    page.select_option("#language", lang)
    words = catalogue(lang)
    expect(page.locator(".lobby h1")).to_have_text(words["lobby.title"])
    return words


def no_english(page: Any) -> None:
    text = page.locator("body").inner_text()
    assert not [e for e in ENGLISH if e in text], text


@pytest.mark.parametrize("lang", ["de", "pl", "it"])
def test_refusals_read_in_the_pages_language_and_go_with_their_page(
        page: Any, web: Any, shot: Any, page_errors: list[str], lang: str) -> None:
    words = in_language(page, web, lang)
    toast = page.locator("#toast")

    page.goto(web.url + "/#/account")
    page.fill("#in-name", "Niemand")
    page.fill("#in-password", "not the password")
    page.click("#sign-in button[type=submit]")
    expect(toast).to_have_text(words["error.code.wrong_login"])
    no_english(page)
    shot(page, "wrong-password")

    page.goto(web.url + "/#/p/Niemand")  # the toast was about the sign-in: it goes
    expect(toast).to_be_hidden()
    expect(page.locator(".profile-screen .error")).to_have_text(
        words["error.code.no_player"].replace("{name}", "Niemand"))
    no_english(page)
    shot(page, "no-player")

    page.goto(web.url + "/#/t/doesnotexist")
    expect(page.locator(".table-screen h1")).to_have_text(words["table.not_found"])
    expect(page.locator(".table-screen p")).to_have_text(
        words["error.code.no_table"].replace("{table}", "doesnotexist"))
    no_english(page)
    shot(page, "no-table")
    assert page.evaluate("[...window.__i18nMissing]") == []
    # the browser logs every refused request (the 401 of the sign-in); nothing else went wrong
    assert [e for e in page_errors if "the server responded with a status of" not in e] == []


def test_a_refused_name_names_the_character_and_an_old_toast_goes(browser: Any, web: Any,
                                                                  shot: Any) -> None:
    """Parameters fill the words (which character, where); an error toast stays no longer
    than its page."""
    page = browser.new_context().new_page()
    words = in_language(page, web, "de")
    table = create_table(page, web.url, "maumau", "Ann", ["you", "open"])
    guest = browser.new_context().new_page()
    in_language(guest, web, "de")
    guest.goto(f"{web.url}/#/t/{table}")
    guest.fill("#join-name", "Bo\u202eb")  # a right-to-left override: invisible
    guest.click("form.join button[type=submit]")
    why = (words["error.code.name_invisible"].replace("{position}", "3")
           .replace("{character}", "U+202E"))
    toast = guest.locator("#toast")
    expect(toast).to_have_text(words["error.join"].replace("{detail}", why))
    no_english(guest)
    shot(guest, "bad-name-de")
    guest.click("header a.brand")  # to the lobby: the toast was about the table
    expect(guest.locator(".lobby h1")).to_have_text(words["lobby.title"])
    expect(toast).to_be_hidden()


def test_a_code_without_words_shows_the_servers_english(page: Any, web: Any) -> None:
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    texts = page.evaluate("""async () => {
        const { refusalText } = await import(new URL("js/api.js", document.baseURI));
        return [refusalText("the server's own words", { code: "no_such_code" }),
                refusalText("plain", {}),
                refusalText("English", { code: "no_player", params: { name: "Zoe" } })];
    }""")
    assert texts == ["the server's own words", "plain", "There is no player “Zoe”."]
