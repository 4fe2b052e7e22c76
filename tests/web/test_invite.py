"""Invites that reach phones: with `--lan` the table shows a link and a QR code that carry this
machine's network address, and a second browser that follows the link sits down. Everything
goes to loopback: the link is opened with its host replaced by 127.0.0.1, never the network
address itself."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect
from starlette.applications import Starlette
from starlette.routing import Mount
from tests.server.harness import Server, free_port, in_a_thread

from tiergarten.server.app import create_app
from tiergarten.server.edge.invite import lan_address
from tiergarten.server.edge.settings import Settings

from .driver import create_table


@pytest.fixture(scope="module")
def lan_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`python -m tiergarten.server --lan`: every address, invites at the network address."""
    db = tmp_path_factory.mktemp("lan") / "tiergarten.db"
    srv = Server(str(db), "--lan", "--bot-pace", "0", "--away-after", "30").start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


def network_address() -> str:
    """This machine's network address, checked to be one: not loopback, and bindable here
    (binding sends nothing)."""
    address = lan_address()
    assert address is not None, "this machine has no network address to invite at"
    assert not ipaddress.ip_address(address).is_loopback
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((address, 0))  # fails unless one of this machine's interfaces has it
    return address


def decode_qr(png: bytes) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_a_lan_invite_and_its_qr_code_carry_the_network_address(browser: Any, lan_web: Server,
                                                                 shot: Any) -> None:
    address = network_address()
    assert f"other devices open http://{address}:{lan_web.port}/  (" in lan_web.output()
    ann = browser.new_context().new_page()
    errors: list[str] = []
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    table = create_table(ann, lan_web.url, "maumau", "Ann", ["you", "open"], {"rounds": "1"})
    link = ann.input_value("#invite")
    assert link == f"http://{address}:{lan_web.port}/#/t/{table}"
    qr = ann.locator("#invite-qr img")
    expect(qr).to_have_attribute("alt", "QR code of the invite link")
    expect(qr).to_have_js_property("complete", True)
    shot(ann, "table")
    assert decode_qr(qr.screenshot()) == [link]  # what a phone's camera reads
    ann.select_option("#language", "de")
    expect(qr).to_have_attribute("alt", "QR-Code des Einladungslinks")
    ann.select_option("#language", "en")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    bob = phone.new_page()
    bob.goto(link.replace(f"//{address}:", "//127.0.0.1:", 1))
    expect(bob.locator("#invite-qr img")).to_have_js_property("complete", True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    shot(bob, "phone")
    bob.fill("#join-name", "Bob")
    bob.click("form.join button[type=submit]")
    for page in (ann, bob):
        expect(page.locator(".status")).to_have_text("playing")
        expect(page.locator("#invite-qr")).to_have_count(0)  # every seat taken: no QR
        assert page.input_value("#invite") == link  # spectators still follow the link
    assert errors == []


def test_a_loopback_invite_says_how_to_let_others_in(page: Any, web: Server, shot: Any) -> None:
    create_table(page, web.url, "maumau", "Ann", ["you", "open"], {"rounds": "1"})
    assert page.input_value("#invite").startswith(f"{web.url}/#/t/")
    expect(page.locator("#invite-note")).to_contain_text("make play LAN=1")
    expect(page.locator("#invite-qr")).to_have_count(0)  # a code no phone could open
    shot(page, "loopback")


@contextlib.contextmanager
def behind_a_prefix(db: Path, prefix: str) -> Iterator[str]:
    """The app under `prefix`, as a proxy that strips it would serve it (uvicorn in a thread,
    on loopback); yields the public URL, which --public-url names."""
    port = free_port()
    public = f"http://127.0.0.1:{port}{prefix}"
    inner = create_app(db, Settings(bot_pace=0, public_url=public + "/"))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with inner.router.lifespan_context(inner):  # a mounted app's own is not run
            yield

    outer = Starlette(routes=[Mount(prefix, app=inner)], lifespan=lifespan)
    with in_a_thread(outer, port):
        yield public


def test_behind_a_proxy_under_a_path_prefix_the_invite_works(browser: Any, tmp_path: Path,
                                                             shot: Any) -> None:
    """--public-url with a path: pages, REST, websockets and the link all live under it."""
    with behind_a_prefix(tmp_path / "p.db", "/tiergarten") as public:
        ann = browser.new_context().new_page()
        table = create_table(ann, public, "maumau", "Ann", ["you", "open"], {"rounds": "1"})
        link = ann.input_value("#invite")
        assert link == f"{public}/#/t/{table}"
        qr = ann.evaluate("fetch(new URL('api/tables/' + location.hash.split('/')[2] + "
                          "'/invite.svg', document.baseURI)).then(r => r.status)")
        assert qr == 200
        bob = browser.new_context().new_page()
        bob.goto(link)
        bob.fill("#join-name", "Bob")
        bob.click("form.join button[type=submit]")
        for page in (ann, bob):
            expect(page.locator(".status")).to_have_text("playing")
            expect(page.locator(".hand .card")).to_have_count(5)
        shot(bob, "prefixed")
