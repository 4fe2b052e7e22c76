"""`GET /api/health`: the server is up, and which protocol it speaks."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..edge.protocol import PROTOCOL

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "protocol": PROTOCOL}
