"""The automated accessibility check of every screen: axe-core's WCAG 2 A and AA rules, run in
the page (axe-playwright-python ships axe-core; nothing is fetched at run time)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
         "resultTypes": ["violations"]}


def violations(page: Any) -> list[str]:
    """One line per violated rule: its id, what it asks, and the first few elements."""
    found = AXE.run(page, options=RULES).response["violations"]
    return [f"{v['id']} ({len(v['nodes'])}): {v['help']} — "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4]) for v in found]


def assert_accessible(page: Any, screen: str = "") -> None:
    found = violations(page)
    assert not found, f"axe-core finds on {screen or page.url}:\n" + "\n".join(found)
