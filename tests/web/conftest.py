"""Browser tests: Playwright driving Debian's chromium (never a downloaded browser) against a
real server on loopback. Screenshots of every screen go to test-artifacts/screenshots/."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.harness import Server

from .a11y import assert_accessible

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium "
                    "(apt-get install chromium fonts-noto-color-emoji fonts-dejavu)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """No service worker in the other browser tests: each context's would keep a copy of the
    whole client and Pyodide (14 MB) for offline play, which only test_offline_browser.py
    (a context of its own) needs. And no motion: the page's decorations (a pulsing button, the
    coach's ring) would repaint all the time a test waits; tests of the motion itself open a
    context that asks for it."""
    return {**browser_context_args, "service_workers": "block", "reduced_motion": "reduce"}


def serve(tmp_path_factory: pytest.TempPathFactory, bot_pace: str) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("web") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", bot_pace, "--away-after", "30", "--allow-seeds").start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server for the browser tests: bots without pauses, SQLite in a temp folder."""
    yield from serve(tmp_path_factory, "0")


@pytest.fixture(scope="session")
def paced_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots take a quarter of their human pauses: a person can be first."""
    yield from serve(tmp_path_factory, "0.25")


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Any:
    """shot(page, "name") saves a full-page screenshot named after the test, and checks that
    screen with axe-core's WCAG 2 A and AA rules (tests/web/a11y.py): every screen a test
    looks at must have no violation."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = SHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert_accessible(page, f"the screen {name!r}")
        return path

    return take


@pytest.fixture
def page_errors(page: Any) -> list[str]:
    """JavaScript errors of the page (the test asserts there are none)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and "404" not in m.text else None)
    return errors


CSP_WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`));"""


@pytest.fixture(autouse=True)
def no_csp_violations(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every page a browser test opens keeps to the server's Content-Security-Policy
    (server/edge/headers.py): the test fails if the browser reports a single violation, which
    would otherwise only block something silently."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    reported: list[str] = []
    page.on("console", lambda m: reported.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.add_init_script(CSP_WATCH)
    yield
    with contextlib.suppress(Exception):  # the page may be gone; the console saw it all
        reported.extend(page.evaluate("window.__csp || []"))
    assert reported == [], reported
