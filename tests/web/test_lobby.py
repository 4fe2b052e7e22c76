"""The lobby: every game with its real options, a table created from the form, clear errors."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from tests.webparts import catalogue

from .a11y import assert_accessible
from .driver import create_table


def test_lobby_lists_every_game_with_its_options(page: Any, web: Any, shot: Any,
                                                  page_errors: list[str]) -> None:
    response = page.goto(web.url + "/")
    policy = response.headers["content-security-policy"]  # kept to: see no_csp_violations
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    expect(page.locator(".game-choice")).to_have_count(4)
    for game in ("maumau", "mammuz", "lecker_mammut", "mucca_pazza"):
        expect(page.locator(f".game-choice[data-game={game}]")).to_be_visible()
    page.click("details.options summary")
    for option in ("target_score", "rounds", "jack_on_jack", "two_player_nine",
                   "first_card_effects", "mau_penalty"):
        expect(page.locator(f"#opt-{option}")).to_be_attached()
    expect(page.locator(".options")).to_contain_text("A Jack may be played on a Jack")
    shot(page, "lobby")
    page.click(".game-choice[data-game=mammuz]")
    page.click("details.options summary")
    expect(page.locator("#opt-next_starter option")).to_have_count(3)
    page.select_option("#players", "5")
    expect(page.locator("select[data-seat]")).to_have_count(5)
    assert_accessible(page, "the lobby")
    assert page_errors == []


def test_a_bad_option_is_refused_with_the_servers_reason(page: Any, web: Any, shot: Any) -> None:
    page.goto(web.url + "/")
    page.fill("#name", "Ann")
    page.click("details.options summary")
    page.fill("#opt-mau_penalty", "-3")
    page.evaluate("document.querySelector('#opt-mau_penalty').removeAttribute('min')")
    page.click("button[type=submit]")
    # the server's code and the option it names, in the page's words: the option's label
    expect(page.locator("#toast")).to_have_text(
        "The table could not be created: “Mau penalty” cannot take that value.")
    shot(page, "refused")
    assert page.evaluate("location.hash") in ("", "#/")


def test_creating_a_table_seats_you_and_shows_the_invite_link(page: Any, web: Any,
                                                               shot: Any) -> None:
    table = create_table(page, web.url, "maumau", "Ann", ["you", "open"])
    expect(page.locator("#invite")).to_have_value(f"{web.url}/#/t/{table}")
    expect(page.locator(".status")).to_have_text("waiting for players")
    expect(page.locator(".seat.mine")).to_contain_text("Ann")
    info = web.get(f"/api/tables/{table}").json()
    assert info["status"] == "open" and info["seats"][0]["name"] == "Ann"
    assert not info["seats"][1]["taken"]
    page.goto(web.url + "/")
    expect(page.locator(f".open-table[href='#/t/{table}']")).to_be_visible()
    shot(page, "open-tables")


# Whether any two boxes (x, y, width, height) overlap, or one sticks out of `outer`.
CLASHES = """(sel) => {
  const outer = document.querySelector('.create-form fieldset').getBoundingClientRect();
  const boxes = [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
  const out = boxes.filter((b) => b.left < outer.left - 0.5 || b.right > outer.right + 0.5);
  const overlaps = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    const meet = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    if (meet) overlaps.push(i);
  }));
  return {out: out.length, overlaps: overlaps.length, count: boxes.length};
}"""


def test_many_seats_fit_the_panel_at_desktop_and_phone_width(page: Any, web: Any,
                                                              shot: Any) -> None:
    """MammuZ with 4 to 7 players: the seat selects neither overlap nor stick out."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(web.url + "/")
        page.click(".game-choice[data-game=mammuz]")
        for players in ("4", "5", "7"):
            page.select_option("#players", players)
            for seat in range(1, int(players)):
                page.select_option(f"select[data-seat='{seat}']", "bot:heuristic")
            found = page.evaluate(CLASHES, ".seat-setup select")
            assert found == {"out": 0, "overlaps": 0, "count": int(players)}, (width, players)
        shot(page, f"seats-{width}")
        assert_accessible(page, f"the lobby at {width} px")


def test_dinosaur_powers_are_one_select_each_in_the_pages_language(
        page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")  # the page has set its language: now switch it
    page.select_option("#language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.click(".game-choice[data-game=mammuz]")
    page.click("details.options summary")
    powers = page.locator("#opt-dinosaur_powers select")
    expect(powers).to_have_count(6)
    expect(page.locator("#opt-dinosaur_powers")).to_contain_text("Tyrannosaurus")
    expect(page.locator("#opt-dinosaur_powers-tyrannosaurus option:checked")).to_have_text(
        "sie kommt in den Jackpot")
    expect(page.locator("#opt-dinosaur_powers input")).to_have_count(0)  # no JSON to type
    assert "doubter_takes" not in page.locator("#opt-dinosaur_powers").inner_text()
    page.select_option("#opt-dinosaur_powers-tyrannosaurus", "remove")
    shot(page, "powers")
    assert_accessible(page, "the lobby's MammuZ options")
    page.fill("#name", "Ann")
    page.click("button[type=submit]")
    page.wait_for_selector(".board")
    table = page.evaluate("location.hash").split("/")[2]
    powers_set = web.get(f"/api/tables/{table}").json()["options"]["dinosaur_powers"]
    assert powers_set["tyrannosaurus"] == "remove" and powers_set["plesiosaurus"] == "remove"
    assert page_errors == []


def test_open_tables_show_at_once_after_switching_game(page: Any, web: Any) -> None:
    table = web.create(game="maumau", players=2)["id"]
    page.goto(web.url + "/")
    expect(page.locator(f".open-table[href='#/t/{table}']")).to_be_visible()
    page.click(".game-choice[data-game=mammuz]")
    expect(page.locator(f".open-table[href='#/t/{table}']")).to_be_visible(timeout=1000)
    expect(page.locator("#open-list")).not_to_contain_text("Loading")


LEVELS = ["easy", "normal", "hard", "expert", "master"]


def seat_menu(page: Any, seat: int) -> dict[str, list[tuple[str, str]]]:
    """The bot choices of a seat's menu: each group's label and its (value, text) pairs."""
    groups = page.evaluate("""seat => [...document.querySelectorAll(
        `select[data-seat='${seat}'] optgroup`)].map((g) => [g.label,
        [...g.querySelectorAll("option")].map((o) => [o.value, o.textContent])])""", seat)
    return {label: [(value, text) for value, text in options] for label, options in groups}


def show_menu(page: Any, seat: int) -> None:
    """The seat's menu drawn open, as a list box, for the screenshot (a native drop-down is
    drawn by the system, outside the page)."""
    page.evaluate("""seat => { const s = document.querySelector(`select[data-seat='${seat}']`);
        s.size = s.options.length + s.querySelectorAll("optgroup").length; }""", seat)


def test_the_bot_menu_gives_the_levels_in_order_and_the_engines_apart(
        page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    """The five levels, weakest first, each with a line on how it plays this game; the engines
    and the game's own players in a group of their own, under names a person understands."""
    games = {g["id"]: g for g in web.get("/api/games").json()}
    assert all(g["levels"] == LEVELS for g in games.values())
    page.goto(web.url + "/")
    page.click(".game-choice[data-game=maumau]")
    menu = seat_menu(page, 1)
    assert list(menu) == ["Bots by strength", "Other players, for the curious"]
    levels, others = menu.values()
    assert [v for v, _ in levels] == [f"bot:{b}" for b in LEVELS]
    assert levels[0][1] == "Bot: easy — plays any card it may, at random"
    assert levels[3][1].startswith("Bot: expert — plays to win, always says Mau")
    assert dict(others) == {"bot:heuristic": "Bot: rules of thumb",
                            "bot:ismcts": "Bot: ISMCTS tree search",
                            "bot:learned": "Bot: self-taught network",
                            "bot:random": "Bot: random moves"}
    expect(page.locator("select[data-seat='1']")).to_have_value("bot:normal")
    show_menu(page, 1)
    shot(page, "maumau-en")

    page.select_option("#language", "de")
    expect(page.locator(".lobby h1")).to_have_text(catalogue("de")["lobby.title"])
    page.click(".game-choice[data-game=mucca_pazza]")
    menu = seat_menu(page, 1)
    assert list(menu) == ["Bots nach Stärke", "Andere Spieler, für Neugierige"]
    levels, others = menu.values()
    assert [v for v, _ in levels] == [f"bot:{b}" for b in LEVELS]
    assert levels[4][1] == ("Bot: Meister – bedenkt auch, was sein Zug dem nächsten Spieler "
                            "übrig lässt, und vergisst nichts")
    assert {v for v, _ in others} == {f"bot:{b}" for b in games["mucca_pazza"]["bots"]
                                      if b not in LEVELS}
    assert ("bot:greedy", "Bot: gierig") in others
    assert ("bot:child", "Bot: vergessliches Kind") in others
    show_menu(page, 1)
    shot(page, "mucca-pazza-de")

    page.select_option("#language", "pl")
    expect(page.locator(".lobby h1")).to_have_text(catalogue("pl")["lobby.title"])
    page.click(".game-choice[data-game=lecker_mammut]")
    levels, others = seat_menu(page, 1).values()
    assert levels[0][1] == "Bot: łatwy – reaguje w około 3 s: łagodny przeciwnik dla dziecka"
    assert ("bot:slow", "Bot: wolna ręka") in others
    assert missing_words(page) == [] and page_errors == []


def missing_words(page: Any) -> list[str]:
    return sorted(page.evaluate("[...window.__i18nMissing]"))


def test_a_table_waiting_for_players_shows_who_is_there_and_who_is_missing(
        browser: Any, page: Any, web: Any, shot: Any, page_errors: list[str]) -> None:
    """No cards and no log before the start; the seats, the names and an invite hint; the
    board and the log as soon as the last seat is taken."""
    table = create_table(page, web.url, "mammuz", "Ann", ["you", "bot:random", "open"])
    waiting = page.locator("#waiting")
    expect(waiting).to_be_visible()
    expect(page.locator(".board, #log, .hand .card")).to_have_count(0)
    expect(waiting.locator("li.here")).to_have_count(2)
    expect(waiting.locator("li.here").first).to_contain_text("Ann")
    expect(waiting.locator("li.here").first.locator(".badge")).to_have_text("you")
    expect(waiting.locator("li.missing")).to_have_text("…Seat 3: still free")
    expect(waiting.locator("h2")).to_have_text("Waiting for players: 2 of 3 seats taken")
    expect(waiting.locator(".waiting-hint")).to_contain_text("invite link")
    assert "open the next herd" not in page.inner_text("main")
    shot(page, "waiting-en")
    for lang, title in (("de", "Warten auf Mitspieler: 2 von 3 Plätzen besetzt"),
                        ("pl", "Czekamy na graczy: zajęte miejsca 2 z 3"),
                        ("it", "In attesa di giocatori: 2 posti occupati su 3")):
        page.select_option("#language", lang)
        expect(waiting.locator("h2")).to_have_text(title)
        shot(page, f"waiting-{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "waiting-phone")
    page.select_option("#language", "en")
    page.set_viewport_size({"width": 1100, "height": 900})
    bob = browser.new_context().new_page()
    bob.goto(f"{web.url}/#/t/{table}")
    bob.fill("#join-name", "Bob")
    bob.click("form.join button[type=submit]")
    expect(page.locator(".board")).to_be_visible()  # the game starts: the board, the log
    expect(page.locator("#waiting")).to_have_count(0)
    expect(page.locator("#log li").first).to_be_visible()
    bob.context.close()
    assert page_errors == []


def test_option_checkboxes_line_up_with_the_other_fields(page: Any, web: Any, shot: Any) -> None:
    """A checkbox option sits at the start of its column, where the other options' fields and
    every option's explanation begin (it floated mid-column)."""
    page.goto(web.url + "/")
    boxes = 0
    for game in ("maumau", "mammuz", "lecker_mammut", "mucca_pazza"):
        page.click(f".game-choice[data-game={game}]")
        page.click("details.options summary")
        for label in page.locator(".options label.option:has(input[type=checkbox])").all():
            gap = label.evaluate("""l => l.querySelector('input').getBoundingClientRect().left
                                     - l.querySelector('small').getBoundingClientRect().left""")
            assert abs(gap) <= 1, f"{game}: a checkbox {gap} px off its column's start"
            boxes += 1
        if game == "maumau":
            shot(page, "options")
    assert boxes > 0
