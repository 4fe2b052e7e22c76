"""The installable app plays with no network (docs/web.md, "Offline"): a first visit online
installs it (manifest, icons, service worker: chromium's installability criteria met; the
engine's memory snapshot made and kept), then with the network off the page reloads — the
engine restored from that snapshot — and plays a whole game of every game (Mucca Pazza in both
variants) against bots, and two games at one screen (hot-seat Mau Mau with its hand-off, and
Lecker Mammut! with a club key per person), in English, Polish, Italian and German, through the
same screens, with tiergarten's own engine in a Web Worker — and not one request goes to the
network, nor even asks whether the server is there. The record kept on the device downloads as
the JSON `tiergarten replay` reads, and once online and signed in it joins the player's
history, unrated.

One browser profile and one test: the first visit installs once, and the engine starts once
per page load, so the games are played one after the other in the same page, moving between
screens by their links.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect
from tests.server.harness import SRC, Server

from tiergarten.core import replay

from .a11y import assert_accessible
from .conftest import SHOTS
from .driver import play_maumau_turn
from .test_lecker_mammut_browser import KEYS, TRIPLE

BOOT = 120_000  # ms: Pyodide's first start on a busy 2-core machine (about 4 s when idle)
GAME = 120_000  # ms: one whole game
WEB = SRC / "tiergarten" / "web"

# The engine's snapshot kept by the service worker's cache (js/offline/worker.js): made on
# installing, in a worker of its own, once the page is idle. Polled here, in the page.
SNAPSHOT_KEPT = """async (ms) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if ((await cache.keys()).some((r) => /[.]snapshot-[0-9]+$/.test(r.url))) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}"""
ENGINE = "() => import('./js/offline/mode.js').then((m) => m.ensureEngine())"  # its boot

# Plays every seat of this browser at the table shown, through the table's own connections
# (the same messages a click sends), a random legal move of each on each new version, until the
# results show. Returns the acts made.
PLAY = """async (seed) => {
  let x = seed >>> 0;
  const rnd = (n) => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x % n; };
  const made = new Map();
  let acts = 0;
  const deadline = Date.now() + GAME_MS;
  while (!document.querySelector('.results')) {
    if (Date.now() > deadline) throw new Error('the game did not end in time');
    const states = new Map(window.__tiergarten.states());
    // a seat whose state is older than another's waits for its own (no act on a stale table)
    const newest = Math.max(...[...states.values()].map((s) => s?.version ?? -1));
    for (const [key, socket] of window.__tiergarten.seats()) {
      const state = states.get(key);
      if (!state || !state.legal.length || made.get(key) === state.version) continue;
      if (state.version < newest) continue;
      made.set(key, state.version);
      // short games: Mucca Pazza's turns mostly stop at once, Mau Mau plays rather than draws
      const stop = state.legal.includes('stop') && rnd(10) < 7;
      const plays = state.legal.filter((a) => a.startsWith('play'));
      const pool = plays.length && rnd(10) < 8 ? plays : state.legal;
      socket.act(stop ? 'stop' : pool[rnd(pool.length)], state.version);
      acts += 1;
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return acts;
}""".replace("GAME_MS", str(GAME))


@pytest.fixture(scope="module")
def offline_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("offline") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0").start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


class Network:
    """Every request of the context while `offline` is on, and how each was answered."""

    def __init__(self) -> None:
        self.offline = False
        self.seen: list[str] = []
        self.failed: list[str] = []
        self.from_network: list[str] = []

    def request(self, request: Any) -> None:
        if self.offline:
            self.seen.append(request.url)
            if request.service_worker is not None:  # the service worker asked the network
                self.from_network.append(request.url)

    def finished(self, request: Any) -> None:
        if self.offline:
            response = request.response()
            if response is not None and not response.from_service_worker:
                self.from_network.append(request.url)

    def fail(self, request: Any) -> None:
        if self.offline:
            self.failed.append(request.url)


@pytest.fixture(scope="module")
def app(browser_type: Any, browser_type_launch_args: dict[str, Any], offline_web: Server,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, Network]]:
    # a profile of its own, not an incognito one (chromium installs no app from incognito)
    profile = tmp_path_factory.mktemp("profile")
    context = browser_type.launch_persistent_context(
        str(profile), **browser_type_launch_args, accept_downloads=True, locale="en-GB")
    network = Network()
    context.on("request", network.request)
    context.on("requestfinished", network.finished)
    context.on("requestfailed", network.fail)
    page = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script("localStorage.setItem('tiergarten.botPace', '0')")
    yield context, page, network
    context.close()
    assert errors == []


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"offline-{name}.png"), full_page=True)


def test_the_installed_app_plays_every_game_offline_and_uploads_them_online(
        app: tuple[Any, Any, Network], offline_web: Server, tmp_path: Path) -> None:
    """One test in three steps, in order (under pytest-xdist they must not be split up)."""
    first_visit_installs_the_app(app, offline_web)
    offline_every_game_plays_with_no_request_to_the_network(app, offline_web, tmp_path)
    back_online_and_signed_in_the_games_join_the_history_unrated(app, offline_web)


def first_visit_installs_the_app(app: tuple[Any, Any, Network], offline_web: Server) -> None:
    context, page, _ = app
    page.goto(offline_web.url + "/")
    expect(page.locator("#mode")).to_contain_text("Online")
    # the service worker is active and controls the page, every file it keeps is kept
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
    manifest = offline_web.get("/offline/manifest.json").json()
    assert manifest["ready"], "make offline copies Pyodide into the web folder"
    kept = page.evaluate("""async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('tiergarten-')));
      return (await cache.keys()).map((r) => r.url);
    }""")
    base = offline_web.url + "/"
    assert {urljoin(base, f) for f in manifest["files"]} <= set(kept)
    for part in ("offline/pyodide/pyodide.asm.wasm", manifest["engine"],
                 "games/mammuz/board.js", "i18n/de.json", "games/lecker_mammut/i18n/pl.json",
                 "icons/icon-512.png"):
        assert base + part in kept, part
    # chromium's installability criteria: a manifest with name, icons, start URL and display,
    # a service worker with a fetch handler, a secure origin (loopback)
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    icons = cdp.send("Page.getAppManifest")
    assert icons["errors"] == [], icons["errors"]
    # detached: while a second DevTools session stays attached, chromium's navigator.onLine says
    # true after a reload under Playwright's offline emulation, and the page would rightly ask
    # whether the server is there (a real device without a network says false)
    cdp.detach()
    headers = offline_web.get("/sw.js").headers
    assert headers["content-type"].startswith("text/javascript")
    worker = offline_web.get("/js/offline/worker.js").headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in worker
    assert "wasm" not in offline_web.get("/").headers["content-security-policy"]
    wasm = offline_web.get("/offline/pyodide/pyodide.asm.wasm").headers
    assert wasm["content-type"] == "application/wasm"  # chromium's code cache needs it
    shoot(page, "online-lobby")
    # installed: the engine's snapshot made (by a worker of its own) and kept with the files
    assert page.evaluate(SNAPSHOT_KEPT, BOOT), "the engine's snapshot was not kept"


def create(page: Any, game: str, seats: list[str], options: dict[str, str] | None = None,
           players: int | None = None) -> str:
    """The lobby's form, reached by its link (no reload: the engine stays loaded)."""
    page.evaluate("location.hash = '#/'")
    page.click(f".game-choice[data-game={game}]")
    page.fill("#name", "Ann")
    page.select_option("#players", str(players or len(seats)))
    for seat, choice in enumerate(seats):
        if choice.startswith("here:"):
            page.select_option(f"select[data-seat='{seat}']", "here")
            page.fill(f"input[data-here-name='{seat}']", choice[5:])
        else:
            page.select_option(f"select[data-seat='{seat}']", choice)
    for option, value in (options or {}).items():
        page.click("details.options summary")
        if page.locator(f"select#opt-{option}").count():
            page.select_option(f"#opt-{option}", value)
        else:
            page.fill(f"#opt-{option}", value)
    page.click("button[type=submit]")
    page.wait_for_selector(".board, .handoff", timeout=GAME)
    table = str(page.evaluate("location.hash").split("/")[2])
    assert table.startswith("local-"), table
    return table


def kept(page: Any, table: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("""async (id) => {
      const store = await import('./js/offline/store.js');
      return (await store.keptTables()).find((t) => t.id === id);
    }""", table)
    return found


GAMES = [  # game, seats, options, language
    ("mammuz", ["you", "bot:easy", "bot:easy"], {}, "pl"),
    ("lecker_mammut", ["you", "bot:easy"], {"rounds": "1"}, "it"),
    ("mucca_pazza", ["you", "bot:greedy"], {"variant": "standard"}, "de"),  # greedy: short games
    ("mucca_pazza", ["you", "bot:greedy"], {"variant": "junior"}, "it"),
]


def words(lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text())
    return found


def speak(page: Any, lang: str) -> None:
    if page.locator("#language").input_value() != lang:
        page.select_option("#language", lang)
    expect(page.locator("#mode")).to_have_text(words(lang)["mode.offline"])


def offline_every_game_plays_with_no_request_to_the_network(
        app: tuple[Any, Any, Network], offline_web: Server, tmp_path: Path) -> None:
    context, page, network = app
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")  # the page knows before it reloads
    network.offline = True
    page.reload()
    expect(page.locator("#mode")).to_have_text("Offline: this device plays", timeout=BOOT)
    page.wait_for_selector(".game-choice", timeout=BOOT)
    assert page.evaluate(ENGINE)["snapshot"] == "restored"  # the one kept on installing
    # the service worker's copy of the WebAssembly keeps the type chromium's code cache needs
    served = page.evaluate("""async () => {
      const r = await fetch('offline/pyodide/pyodide.asm.wasm');
      await r.arrayBuffer();  // read to its end (a cancelled body counts as a failed request)
      return [r.status, r.headers.get('content-type')];
    }""")
    assert served == [200, "application/wasm"], served
    shoot(page, "offline-lobby")
    assert_accessible(page, "the offline lobby")

    # Mau Mau by clicks on its board, like a person
    table = create(page, "maumau", ["you", "bot:easy"], {"rounds": "1"})
    expect(page.locator(".table-head input")).to_have_count(0)  # no invite on this device
    shoot(page, "maumau-board")
    rng = random.Random(3)
    for _ in range(300):
        if page.locator(".results").count():
            break
        if page.locator(".board .actions button:not([disabled]), .hand .card.legal").count():
            play_maumau_turn(page, rng)
        else:
            page.wait_for_function(
                "() => document.querySelector('.results') || document.querySelector("
                "'.board .actions button:not([disabled]), .hand .card.legal')", timeout=GAME)
    expect(page.locator(".results")).to_be_visible()
    shoot(page, "maumau-results")
    assert_accessible(page, "the results offline")
    tables = [table]

    for game, seats, options, lang in GAMES:
        speak(page, lang)
        table = create(page, game, seats, options)
        shoot(page, f"{game}-{options.get('variant', 'board')}-{lang}")
        acts = page.evaluate(PLAY, len(tables))
        assert acts > 0
        expect(page.locator(".results .ranking li")).to_have_count(len(seats))
        tables.append(table)
    shoot(page, "mucca-junior-results-it")

    # one game at one screen: Ann and Bob pass the device
    speak(page, "de")
    table = create(page, "maumau", ["you", "here:Bob"], {"rounds": "1"})
    if page.locator(".handoff").count():
        shoot(page, "hot-seat-handoff-de")
    assert page.evaluate(PLAY, 99) > 0
    expect(page.locator(".results .ranking li")).to_have_count(2)
    tables.append(table)

    # Lecker Mammut! at one screen: a club key each (Ann A, Bob L), the call named for the one
    # who pressed; "mammoth" (6) with no triple in sight is Bob's mistake, then the game ends
    speak(page, "pl")
    tables.append(hot_seat_lecker_mammut(page))

    # the replay, from the device's own record
    page.evaluate(f"location.hash = '#/t/{tables[0]}/replay'")
    page.wait_for_selector("#replay-step", timeout=GAME)
    shoot(page, "replay-pl")

    # every game is kept on the device as an ordinary record; the lobby lists them and one
    # downloads as the JSON `tiergarten replay` reads, replaying to the same result
    page.evaluate("location.hash = '#/'")
    expect(page.locator("#device-games li")).to_have_count(len(tables), timeout=GAME)
    shoot(page, "device-games-pl")
    for table in tables:
        entry = kept(page, table)
        assert entry["status"] == "over"
        assert replay(entry["record"]).result().to_dict() == entry["result"]
    with page.expect_download() as download:
        page.locator(f"#device-games li[data-table='{tables[2]}'] button.download").click()
    path = tmp_path / "record.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record == kept(page, tables[2])["record"] and record["game"] == "lecker_mammut"
    shown = subprocess.run([sys.executable, "-c", "from tiergarten.cli import main; main()",
                            "replay", str(path)],
                           capture_output=True, text=True, timeout=120,
                           env={"PYTHONPATH": str(SRC), "COLUMNS": "100", "PATH": "/usr/bin"})
    assert shown.returncode == 0, shown.stderr
    assert replay(record).result().to_dict() == kept(page, tables[2])["result"]

    # not one request reached the network while offline: the service worker answered all, and
    # none was even tried: with navigator.onLine false the page does not ask whether the
    # server is there (api/health), and the engine's files and snapshot are all kept
    network.offline = False
    assert network.failed == [], network.failed
    assert network.from_network == [], network.from_network
    assert not [url for url in network.seen if "/api/" in url or "/ws/" in url], network.seen
    assert network.seen, "the page asked the service worker for its files"


def hot_seat_lecker_mammut(page: Any) -> str:
    table = create(page, "lecker_mammut", ["you", "here:Bob"], {"rounds": "1"})
    clubs = page.locator(".lm-club")
    expect(clubs).to_have_count(2, timeout=GAME)
    expect(clubs.nth(0)).to_contain_text("Ann")
    expect(clubs.nth(0).locator("kbd")).to_have_text("A")
    expect(clubs.nth(1)).to_contain_text("Bob")
    expect(clubs.nth(1).locator("kbd")).to_have_text("L")
    shoot(page, "hot-seat-lecker-mammut-pl")
    assert_accessible(page, "Lecker Mammut! at one screen, offline")
    page.keyboard.press("l")  # Bob's club with nothing to call: his penalty at once (rules 3)
    expect(page.locator(".lm-seat[data-seat='1']")).to_contain_text("⚠ 1", timeout=GAME)
    expect(page.locator(".lm-seat[data-seat='0']")).to_contain_text("⚠ 0")
    expect(page.locator(".lm-call")).to_have_count(0)
    expect(page.locator("#toast")).to_be_visible()
    shoot(page, "hot-seat-lecker-mammut-miss-pl")
    while not page.evaluate(TRIPLE):  # Ann flips until three alike show
        version = page.locator("#board").get_attribute("data-version")
        page.keyboard.press("Space")
        expect(page.locator("#board")).not_to_have_attribute("data-version", version or "")
    feature = page.evaluate(TRIPLE)
    page.keyboard.press("l")  # Bob's club: the call dialog names Bob
    expect(page.locator(".lm-call")).to_contain_text("Bob")
    shoot(page, "hot-seat-lecker-mammut-call-pl")
    page.keyboard.press(KEYS[feature])
    expect(page.locator(".lm-call")).to_have_count(0)
    expect(page.locator(".lm-pick").first).to_be_visible(timeout=GAME)  # Bob's good hit
    assert page.evaluate(PLAY, 7) > 0
    expect(page.locator(".results .ranking li")).to_have_count(2)
    shoot(page, "hot-seat-lecker-mammut-results-pl")
    return table


def back_online_and_signed_in_the_games_join_the_history_unrated(
        app: tuple[Any, Any, Network], offline_web: Server) -> None:
    context, page, _ = app
    context.set_offline(False)
    page.evaluate("""async () => {
      const r = await fetch('api/account/signup', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Annika', password: 'correct horse'})});
      if (!r.ok) throw new Error(await r.text());
    }""")
    page.reload()
    expect(page.locator("#mode")).to_contain_text("Online", timeout=BOOT)
    expect(page.locator("#device-games .uploaded")).to_have_count(7, timeout=GAME)
    profile = offline_web.get("/api/players/Annika").json()
    assert profile["played"] == 7
    assert {g["game"] for g in profile["recent"]} == {"maumau", "mammuz", "lecker_mammut",
                                                       "mucca_pazza"}
    assert not any(g["rated"] for g in profile["recent"])
    assert profile["ratings"] == []
    shoot(page, "uploaded")
