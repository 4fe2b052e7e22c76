"""Whether this server can do its work now (`readiness`, served as `GET /readyz`).

Each check answers `{"ok": bool, "detail": str}`; the server is ready when every check is ok.
`database`: the store answers, and takes writes again if one failed (`Store.ping`, in a thread
of its own, within `TIMEOUT` seconds); it also counts the tables waiting for the database.
More checks (e.g. a message broker) are added to `CHECKS`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .manager import TableManager

TIMEOUT = 2.0  # seconds a check may take before it counts as failed

Check = Callable[[TableManager], Awaitable[dict[str, Any]]]


async def database(manager: TableManager) -> dict[str, Any]:
    waiting = sum(1 for t in list(manager.tables.values()) if t.log.waiting)
    try:
        await asyncio.wait_for(asyncio.to_thread(manager.store.ping), TIMEOUT)
    except TimeoutError:
        return {"ok": False, "detail": f"the database did not answer within {TIMEOUT:g} s",
                "waiting": waiting}
    except Exception as exc:
        return {"ok": False, "detail": str(exc), "waiting": waiting}
    return {"ok": True, "detail": "reachable, takes writes", "waiting": waiting}


CHECKS: dict[str, Check] = {"database": database}


async def readiness(manager: TableManager) -> dict[str, Any]:
    """`{"ready": bool, "checks": {name: {"ok", "detail", ...}}}`, every check run at once."""
    results = await asyncio.gather(*(check(manager) for check in CHECKS.values()))
    checks = dict(zip(CHECKS, results, strict=True))
    return {"ready": all(c["ok"] for c in checks.values()), "checks": checks}
