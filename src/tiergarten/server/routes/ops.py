"""Operations: `/healthz` (alive), `/readyz` (every check by name), `/metrics` (Prometheus).

An orchestrator takes a process out of rotation while `/readyz` answers 503: the database or
Redis does not answer, or a graceful stop is under way (`accepting`). A proxy in front of
several workers asks only `/readyz?only=accepting`: a blip of the database or Redis fails every
worker at once, and taking them all out would turn it into an outage of the whole site, static
page and lobby included, which keep answering meanwhile (docs/deploy.md, "Outages").
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

import tiergarten

from ..edge.metrics import REGISTRY
from ..edge.readiness import Check, readiness

router = APIRouter()


@router.get("/healthz")
async def healthz() -> dict[str, Any]:
    """The process is alive and its event loop answers; which release it runs."""
    return {"ok": True, "version": tiergarten.__version__}


@router.get("/readyz")
async def readyz(request: Request, only: str | None = None) -> JSONResponse:
    """Every check, or only those named (`?only=accepting,database`)."""
    checks = checks_of(request.app)
    if only is not None:
        names = [n for n in only.split(",") if n]
        unknown = [n for n in names if n not in checks]
        if unknown or not names:
            return JSONResponse({"detail": f"no readiness check {', '.join(unknown) or only!r};"
                                 f" the checks are {', '.join(checks)}"}, status_code=400)
        checks = {n: checks[n] for n in names}
    ready, outcomes = await readiness(checks)
    return JSONResponse({"ready": ready, "checks": outcomes},
                        status_code=200 if ready else 503)


@router.get("/metrics")
async def metrics() -> Response:
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


def checks_of(app: Any) -> dict[str, Check]:
    """The readiness checks of the running app, by name."""
    manager = app.state.manager
    cluster = getattr(app.state, "cluster", None)

    async def database() -> None:
        await asyncio.to_thread(manager.store.ping)

    async def redis() -> None:
        if cluster is None or not await cluster.ping():
            raise RuntimeError("Redis did not answer PING")

    async def accepting() -> None:
        if manager.draining:
            raise RuntimeError("a graceful stop is under way")

    checks: dict[str, Check] = {"database": database}
    if cluster is not None:
        checks["redis"] = redis
    checks["accepting"] = accepting
    return checks
