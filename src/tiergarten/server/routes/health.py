"""`GET /api/health`: the server is up, and which protocol it speaks. `GET /readyz`: whether it
can do its work now (server/health.py: the database answers and takes writes), 200 or 503."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..health import readiness
from ..protocol import PROTOCOL
from .deps import Tables

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "protocol": PROTOCOL}


@router.get("/readyz", responses={503: {"description": "a check failed (the body says which)"}})
async def ready(tables: Tables) -> JSONResponse:
    """`{"ready": bool, "checks": {"database": {"ok", "detail", "waiting"}}}`."""
    body = await readiness(tables)
    return JSONResponse(body, status_code=200 if body["ready"] else 503)
