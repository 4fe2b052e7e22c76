"""The offline client's parts (server/offline.py): the engine zip at a URL naming its hash, and
the list of files the service worker keeps."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from .. import offline

router = APIRouter()


@router.get("/offline/manifest.json")
async def manifest(request: Request) -> JSONResponse:
    web = getattr(request.app.state, "web", None)
    if web is None:
        raise HTTPException(404, "this server serves no browser client")
    data: dict[str, Any] = offline.manifest(web)
    return JSONResponse(data, headers={"Cache-Control": "no-cache"})


@router.get("/offline/{name}")
async def engine(name: str) -> Response:
    data, current = offline.engine()
    if name != current:
        raise HTTPException(404, f"no {name}; the engine now is {current}")
    return Response(data, media_type="application/zip",
                    headers={"Cache-Control": "public, max-age=31536000, immutable"})
