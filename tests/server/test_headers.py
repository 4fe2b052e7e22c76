"""Security headers on every answer, and a browser client that needs nothing the policy refuses
(the browser tests check that no violation is ever reported: tests/web/conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tiergarten.server.app import WEB, create_app
from tiergarten.server.edge.headers import POLICY

EXPECTED = {
    "content-security-policy": POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("h") / "h.db"),
                    base_url="http://127.0.0.1") as client:  # a name the server answers to
        yield client


def test_the_policy_says_what_docs_security_promises() -> None:
    directives = dict(d.split(" ", 1) for d in POLICY.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in POLICY


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/", 200), ("GET", "/index.html", 200), ("GET", "/js/app.js", 200),
    ("GET", "/css/style.css", 200), ("GET", "/i18n/en.json", 200), ("GET", "/no-such.js", 404),
    ("GET", "/api/health", 200), ("GET", "/api/games", 200), ("GET", "/readyz", 200),
    ("GET", "/api/tables/nope", 404), ("POST", "/api/tables", 422), ("GET", "/openapi.json", 200),
    ("GET", "/docs", 404),  # Swagger's page needs a CDN and inline script: not served
])
def test_every_answer_carries_the_security_headers(api: TestClient, method: str, path: str,
                                                   status: int) -> None:
    answer = api.request(method, path, json={"colour": "red"} if method == "POST" else None)
    assert answer.status_code == status
    for name, value in EXPECTED.items():
        assert answer.headers.get(name) == value, (path, name)


def test_the_browser_client_has_no_inline_script_handler_or_style() -> None:
    """What a `script-src 'self'` / `style-src 'self'` policy would refuse: inline <script>,
    inline event handlers, javascript: URLs, eval, style attributes (styles are set through the
    DOM's style object, which the policy allows: js/dom.js)."""
    page = (WEB / "index.html").read_text()
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", page))
    assert not re.search(r"\son[a-z]+\s*=", page) and "style=" not in page
    for source in sorted(Path(WEB).rglob("*.js")):  # the shared scripts and every game's
        code = source.read_text()
        for refused in ("eval(", "new Function", "javascript:", 'setAttribute("style"',
                        "style=\"", "<script"):
            assert refused not in code, (source.name, refused)
