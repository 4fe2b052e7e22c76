"""Operations: `/healthz` (alive), `/readyz` (every check by name), `/metrics` (Prometheus).

A proxy or an orchestrator takes a process out of rotation while `/readyz` answers 503: the
database or Redis does not answer, or a graceful stop is under way (`accepting`).
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
async def readyz(request: Request) -> JSONResponse:
    ready, checks = await readiness(checks_of(request.app))
    return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)


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
