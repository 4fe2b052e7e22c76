"""`GET /api/tables/{id}/invite` and `.../invite.svg`: the table's invite link and its QR code.

The link is built from the server's configuration only, never from a request's headers: its
public URL (`--public-url`, or the network address with `--lan`), else the address and port the
server listens on (the socket this request came to: loopback unless configured otherwise).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ..edge.invite import invite_url, is_loopback, qr_svg
from .deps import Tables, need

router = APIRouter()


@router.get("/api/tables/{table_id}/invite")
async def invite(table_id: str, request: Request, tables: Tables) -> dict[str, Any]:
    """The link, where its QR code is, and whether only this computer can open it."""
    url = _link(table_id, request, tables)
    return {"table": table_id, "url": url, "qr": f"/api/tables/{table_id}/invite.svg",
            "loopback": is_loopback(url)}


@router.get("/api/tables/{table_id}/invite.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def invite_qr(table_id: str, request: Request, tables: Tables) -> Response:
    """The invite link as a QR code (SVG) for a phone's camera."""
    return Response(qr_svg(_link(table_id, request, tables)), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-cache"})


def _link(table_id: str, request: Request, tables: Tables) -> str:
    need(tables, table_id)
    server = request.scope.get("server") or ("127.0.0.1", 8000)
    host = f"[{server[0]}]" if ":" in str(server[0]) else server[0]
    return invite_url(tables.settings.public_url or f"http://{host}:{server[1]}/", table_id)
