"""The automated accessibility check of every screen: axe-core's WCAG 2 A and AA rules, run in
the page (axe-playwright-python ships axe-core; nothing is fetched at run time)."""

from __future__ import annotations

import json
from typing import Any

from axe_playwright_python.sync_playwright import Axe

AXE_SCRIPT = Axe().axe_script
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
         "resultTypes": ["violations"]}
# Only the violations come back: the rules that passed (hundreds of nodes) stay in the page.
RUN = f"axe.run(document, {json.dumps(RULES)}).then(r => r.violations)"


def violations(page: Any) -> list[str]:
    """One line per violated rule: its id, what it asks, and the first few elements. axe-core
    (570 kB) is injected once per document, not at every check: the client is one page whose
    screens change by its hash."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate(RUN)
    return [f"{v['id']} ({len(v['nodes'])}): {v['help']} — "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4]) for v in found]


def assert_accessible(page: Any, screen: str = "") -> None:
    found = violations(page)
    assert not found, f"axe-core finds on {screen or page.url}:\n" + "\n".join(found)
