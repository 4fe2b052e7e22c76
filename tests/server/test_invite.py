"""Invite links other devices can open: the machine's network address (found without sending a
packet), `--public-url` (checked, with or without a path prefix), where `serve` listens, what it
prints, and the invite and QR routes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tiergarten.server import main
from tiergarten.server.edge import invite
from tiergarten.server.edge.invite import invite_url, is_loopback, lan_address, public_base, qr_svg
from tiergarten.server.edge.settings import Settings
from tiergarten.server.main import addresses, listen_plan

from .harness import Server


class FakeUdp:
    """A UDP socket whose `connect` answers from a made-up routing table and which refuses
    to send anything: finding the address must never send a packet."""

    def __init__(self, routed: str | None) -> None:
        self.routed = routed
        self.connected: list[Any] = []

    def __enter__(self) -> FakeUdp:
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def connect(self, address: Any) -> None:
        self.connected.append(address)
        if self.routed is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        assert self.routed is not None
        return self.routed, 40404

    def send(self, *_: object) -> None:
        raise AssertionError("finding the LAN address sent a packet")

    sendto = sendall = send


def network(monkeypatch: pytest.MonkeyPatch, routed: str | None,
            named: list[str] | None = None) -> FakeUdp:
    """Pretend the default route leaves from `routed` and the hostname names `named`."""
    udp = FakeUdp(routed)
    monkeypatch.setattr(invite.socket, "socket", lambda *_a, **_k: udp)
    monkeypatch.setattr(invite.socket, "gethostname", lambda: "kitchen")

    def getaddrinfo(host: str, *_: object) -> list[Any]:
        assert host == "kitchen"
        if named is None:
            raise OSError("the hostname does not resolve")
        return [(2, 2, 17, "", (address, 0)) for address in named]

    monkeypatch.setattr(invite.socket, "getaddrinfo", getaddrinfo)
    return udp


# -- the machine's address on its network -------------------------------------------------------

def test_the_lan_address_is_the_default_route_interface_address(monkeypatch) -> None:
    udp = network(monkeypatch, "192.168.1.20", named=["10.9.9.9"])
    assert lan_address() == "192.168.1.20"
    assert udp.connected == [invite.PROBE]  # the route asked for; nothing sent (FakeUdp)
    assert not is_loopback(f"http://{invite.PROBE[0]}/")  # a public address: the default route


def test_without_a_route_the_hostname_addresses_are_used_but_never_loopback(monkeypatch) -> None:
    network(monkeypatch, None, named=["127.0.1.1", "169.254.7.7", "10.0.0.7", "10.0.0.8"])
    assert lan_address() == "10.0.0.7"


def test_a_loopback_route_falls_back_to_the_hostname(monkeypatch) -> None:
    network(monkeypatch, "127.0.0.1", named=["192.168.178.31"])
    assert lan_address() == "192.168.178.31"


def test_a_machine_without_a_network_has_no_lan_address(monkeypatch) -> None:
    network(monkeypatch, None, named=["127.0.0.1", "127.0.1.1"])
    assert lan_address() is None
    network(monkeypatch, None, named=None)
    assert lan_address() is None


# -- --public-url ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "base"), [
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
    ("https://games.example.org/tiergarten", "https://games.example.org/tiergarten"),
    ("https://games.example.org/tiergarten/", "https://games.example.org/tiergarten"),
    ("HTTPS://games.example.org/a/b//", "https://games.example.org/a/b"),
    ("  http://tiergarten.local  ", "http://tiergarten.local"),
    ("http://[2001:db8::5]:8000/", "http://[2001:db8::5]:8000"),
])
def test_a_public_url_is_the_base_of_invite_links(given: str, base: str) -> None:
    assert public_base(given) == base
    assert invite_url(public_base(given), "AbC_12") == f"{base}/#/t/AbC_12"


@pytest.mark.parametrize(("given", "why"), [
    ("", "is empty or has spaces"),
    ("http://my host:8000", "is empty or has spaces"),
    ("192.168.1.20:8000", "must start with http:// or https://"),
    ("ftp://games.example.org", "must start with http:// or https://"),
    ("ws://games.example.org", "must start with http:// or https://"),
    ("http://", "names no host"),
    ("http:///tiergarten", "names no host"),
    ("https://ann:secret@games.example.org", "may not hold a user name or password"),
    ("http://192.168.1.20:8000/?table=1", "may not have a query (?) or fragment (#)"),
    ("http://192.168.1.20:8000/#/t/abc", "may not have a query (?) or fragment (#)"),
    ("http://192.168.1.20:8000/#", "may not have a query (?) or fragment (#)"),
    ("http://192.168.1.20:0", "has a port that is not a number from 1 to 65535"),
    ("http://192.168.1.20:99999", "has a port that is not a number from 1 to 65535"),
    ("http://192.168.1.20:eighty", "has a port that is not a number from 1 to 65535"),
])
def test_a_bad_public_url_is_refused_saying_what_is_allowed(given: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        public_base(given)
    message = str(refused.value)
    assert message.startswith(f"--public-url {given!r} {why}")
    assert "; give the address people open, e.g. http://192.168.1.20:8000" in message
    with pytest.raises(ValueError, match="--public-url"):
        Settings(public_url=given)  # the setting itself holds only good bases


def test_the_setting_keeps_the_public_url_as_a_base() -> None:
    assert Settings(public_url="https://games.example.org/tg/").public_url == \
        "https://games.example.org/tg"
    assert Settings().public_url is None


# -- where serve listens and what it prints ------------------------------------------------------

def test_by_default_serve_listens_on_loopback_only() -> None:
    assert listen_plan(None, 8000) == ("127.0.0.1", None)
    assert listen_plan("0.0.0.0", 8000) == ("0.0.0.0", None)


def test_a_public_url_alone_keeps_loopback_for_a_proxy_on_this_machine() -> None:
    assert listen_plan(None, 8000, public_url="https://games.example.org/tg/") == \
        ("127.0.0.1", "https://games.example.org/tg")


def test_lan_mode_listens_everywhere_and_invites_at_the_network_address(monkeypatch) -> None:
    monkeypatch.setattr(main, "lan_address", lambda: "192.168.1.20")
    assert listen_plan(None, 8123, lan=True) == ("0.0.0.0", "http://192.168.1.20:8123")
    assert listen_plan("192.168.1.20", 8123, lan=True) == \
        ("192.168.1.20", "http://192.168.1.20:8123")


def test_lan_mode_with_a_public_url_uses_the_url_given(monkeypatch) -> None:
    def no_lookup() -> str:
        raise AssertionError("the public URL was given: no address to find")

    monkeypatch.setattr(main, "lan_address", no_lookup)
    assert listen_plan(None, 8000, lan=True, public_url="http://tiergarten.local/") == \
        ("0.0.0.0", "http://tiergarten.local")


def test_lan_mode_is_refused_where_no_other_device_could_connect(monkeypatch) -> None:
    monkeypatch.setattr(main, "lan_address", lambda: "192.168.1.20")
    for host in ("127.0.0.1", "localhost", "::1"):
        with pytest.raises(ValueError, match=f"--host {host} is loopback"):
            listen_plan(host, 8000, lan=True)
    monkeypatch.setattr(main, "lan_address", lambda: None)
    with pytest.raises(ValueError, match="this machine has no network address.*--public-url"):
        listen_plan(None, 8000, lan=True)


def test_serve_prints_the_addresses_to_open() -> None:
    assert addresses("0.0.0.0", 8000, "http://192.168.1.20:8000", "(database: x)") == (
        "tiergarten serving on http://127.0.0.1:8000  (database: x)\n"
        "  other devices open http://192.168.1.20:8000/  (invite links and QR codes point there)")
    alone = addresses("127.0.0.1", 8000, None)
    assert alone.splitlines()[0] == "tiergarten serving on http://127.0.0.1:8000"
    assert "only this computer can open it; --lan (make play LAN=1)" in alone
    assert addresses("::", 9000, None).startswith("tiergarten serving on http://[::1]:9000")


def test_serve_refuses_a_bad_public_url_before_starting() -> None:
    """`python -m tiergarten.server` is `tiergarten serve`: the same check, exit 2."""
    done = subprocess.run([sys.executable, "-m", "tiergarten.server", "--public-url",
                           "games.example.org"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert "--public-url 'games.example.org' must start with http://" in done.stderr


# -- the routes -----------------------------------------------------------------------------------

def test_without_a_public_url_the_invite_uses_the_address_the_server_listens_on(
        server: Server) -> None:
    table = server.create(game="maumau", players=2, seats=[{"bot": "random"}])["id"]
    here = server.get(f"/api/tables/{table}/invite").json()
    assert here == {"table": table, "url": f"{server.url}/#/t/{table}",
                    "qr": f"/api/tables/{table}/invite.svg", "loopback": True}
    # a request to another name of this computer still gets the configured link: a header
    # never makes a link (a DNS-rebinding page could choose it); another name is refused
    named = server.http.get(f"/api/tables/{table}/invite", headers={"host": "localhost"})
    assert named.json()["url"] == f"{server.url}/#/t/{table}"
    away = server.http.get(f"/api/tables/{table}/invite", headers={"host": "10.0.0.7:8000"})
    assert away.status_code == 421
    qr = server.get(f"/api/tables/{table}/invite.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert qr.content == qr_svg(f"{server.url}/#/t/{table}")


def test_an_unknown_table_has_no_invite(server: Server) -> None:
    for path in ("/api/tables/nope/invite", "/api/tables/nope/invite.svg"):
        response = server.get(path)
        assert response.status_code == 404
        assert response.json() == {"detail": "there is no table 'nope'", "code": "no_table",
                                   "params": {"table": "nope"}}


def test_with_a_public_url_every_invite_and_qr_code_uses_it(tmp_path: Path) -> None:
    """Behind a proxy under a path prefix: the links name the prefix, whatever the Host."""
    proxied = Server(str(tmp_path / "t.db"), "--public-url",
                     "https://games.example.org/tiergarten/").start()
    try:
        assert "other devices open https://games.example.org/tiergarten/  (" in proxied.output()
        table = proxied.create(game="maumau")["id"]
        link = f"https://games.example.org/tiergarten/#/t/{table}"
        answer = proxied.get(f"/api/tables/{table}/invite").json()
        assert answer["url"] == link and answer["loopback"] is False
        svg = proxied.get(f"/api/tables/{table}/invite.svg").content
        assert svg == qr_svg(link)
        assert svg.startswith(b"<?xml") and b'viewBox="0 0 ' in svg and b"<script" not in svg
    finally:
        assert "Traceback" not in proxied.stop()
