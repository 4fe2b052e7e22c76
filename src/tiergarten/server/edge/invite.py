"""Invite links other devices can open, and their QR codes.

A link is the server's public base URL and `/#/t/<table id>`. The base is `--public-url` when
given (behind a proxy: the address people type), the machine's network address in LAN mode
(`lan_address`), or else the address the browser used to reach this page. A link whose host is
a loopback address opens on this computer only: the client then says how to invite others
instead of showing a QR code nobody else can use.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import urlsplit

import segno

# Any public address: `connect` on a UDP socket only asks the kernel which route (and so which
# interface address) it would take; no packet is sent.
PROBE = ("8.8.8.8", 53)
EXAMPLE = "http://192.168.1.20:8000"


def lan_address() -> str | None:
    """This machine's IPv4 address on its network: the one of the default route's interface,
    else a non-loopback address of its hostname, else None (no network)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
            found = str(probe.getsockname()[0])
        except OSError:  # no route at all: offline, or the network is not up yet
            found = ""
    if _reachable(found):
        return found
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(a[4][0]) for a in named if _reachable(str(a[4][0]))), None)


def _reachable(address: str) -> bool:
    """An address another device could use: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def public_base(text: str) -> str:
    """`text` as the base of invite links: http(s)://host[:port][/prefix] without a trailing
    slash. Refuses (ValueError, saying what is allowed) anything else."""
    given = text.strip()
    why = _refusal(given)
    if why:
        raise ValueError(f"--public-url {text!r} {why}; give the address people open, "
                         f"e.g. {EXAMPLE} or https://games.example.org/tiergarten")
    parts = urlsplit(given)
    return f"{parts.scheme.lower()}://{parts.netloc}{parts.path.rstrip('/')}"


def _refusal(text: str) -> str | None:
    """What makes `text` unusable as a public base URL, or None."""
    if not text or any(c.isspace() for c in text):
        return "is empty or has spaces"
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https"):
        return "must start with http:// or https://"
    if not parts.hostname:
        return "names no host"
    if parts.username is not None or parts.password is not None:
        return "may not hold a user name or password"
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        return "may not have a query (?) or fragment (#): the link adds #/t/<table> itself"
    try:
        port = parts.port  # raises on a port that is not a number from 0 to 65535
    except ValueError:
        port = 0
    if port == 0:
        return "has a port that is not a number from 1 to 65535"
    return None


def invite_url(base: str, table_id: str) -> str:
    """The link to the table `table_id` under the public base `base`."""
    return f"{base.rstrip('/')}/#/t/{table_id}"


def is_loopback(url: str) -> bool:
    """True if only this computer can open `url` (localhost or a loopback address)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(text: str) -> bytes:
    """`text` as a QR code in SVG: black on white (cameras need the contrast, whatever the page
    behind), the standard quiet zone, sized by its viewBox so the page chooses how big."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", border=4, dark="#000", light="#fff",
                                     omitsize=True, svgclass="qr", lineclass=None)
    return out.getvalue()
