"""Readiness: can this process serve now? Each check has a name, and `/readyz` lists them all.

A check is a coroutine that returns nothing when all is well and raises when not. The app
registers `database` (the store answers) always, `redis` (Redis answers) in a deployment of
several processes, and `accepting` (no graceful stop under way). A check that takes longer
than `TIMEOUT` fails.

For example, `await readiness({"database": fine, "redis": broken})`, where `broken` raises
OSError("connection refused"), gives `(False, {"database": {"ok": True}, "redis": {"ok": False,
"error": "OSError: connection refused"}})` (tests/server/test_readiness.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

Check = Callable[[], Awaitable[None]]
TIMEOUT = 2.0  # seconds a check may take


async def readiness(checks: dict[str, Check]) -> tuple[bool, dict[str, dict[str, Any]]]:
    """Run every check at once; whether all passed, and each one's outcome by name."""
    names = list(checks)
    outcomes = await asyncio.gather(*(_run(checks[n]) for n in names))
    report = dict(zip(names, outcomes, strict=True))
    return all(o["ok"] for o in outcomes), report


async def _run(check: Check) -> dict[str, Any]:
    try:
        await asyncio.wait_for(check(), TIMEOUT)
    except TimeoutError:
        return {"ok": False, "error": f"no answer within {TIMEOUT:g} s"}
    except Exception as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"ok": True}
