"""Readiness: every check by name, a failing or slow check makes the process not ready."""

from __future__ import annotations

import asyncio

from tiergarten.server.edge import readiness as ready

from .harness import run


async def fine() -> None:
    return None


async def broken() -> None:
    raise OSError("connection refused")


async def slow() -> None:
    await asyncio.Event().wait()  # never answers


def test_each_check_is_reported_by_name_and_one_failure_is_enough() -> None:
    assert run(ready.readiness({"database": fine, "redis": broken})) == (
        False, {"database": {"ok": True},
                "redis": {"ok": False, "error": "OSError: connection refused"}})
    assert run(ready.readiness({"database": fine})) == (True, {"database": {"ok": True}})


def test_a_check_that_takes_too_long_fails(monkeypatch) -> None:
    monkeypatch.setattr(ready, "TIMEOUT", 0.05)
    ok, checks = run(ready.readiness({"database": slow}))
    assert not ok and checks["database"]["ok"] is False
