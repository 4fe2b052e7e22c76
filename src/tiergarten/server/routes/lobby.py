"""The lobby: tables to create, find and show; seats to join and leave; rematches."""

from __future__ import annotations

import math
import secrets
from typing import Any

from fastapi import APIRouter, Request

from ..edge.bodies import ChatSwitch, CreateTable, Join, Joined, TokenBody
from ..edge.limits import Gate
from ..edge.settings import Refused, hash_token
from ..edge.writer import wire
from ..table.features.chat import TableChat
from ..table.ports import Account
from ..table.spec import requested
from .account import accounts, signed_in
from .deps import Tables, need, need_unclosed

router = APIRouter()


@router.post("/api/tables", status_code=201,
             responses={429: {"description": "this address made too many tables just now"}})
async def create_table(body: CreateTable, tables: Tables, request: Request) -> dict[str, Any]:
    """The table, and `owner`: the creator's token (shown once; switches chat)."""
    gate: Gate = request.app.state.gate
    wait = await gate.create(request.client.host if request.client else "")
    if wait > 0:
        settings = tables.settings
        seconds = math.ceil(wait)
        raise Refused(429, "too_many_tables",
                      f"at most {settings.tables_burst} tables at once and "
                      f"{settings.tables_per_minute:g} a minute from one address; "
                      f"try again in {seconds} s",
                      {"most": settings.tables_burst, "per_minute": settings.tables_per_minute,
                       "seconds": seconds}, headers={"Retry-After": str(seconds)})
    owner = secrets.token_urlsafe(24)
    table = tables.create(requested(body), owner_hash=hash_token(owner))
    return {**wire(table.info()), "owner": owner}


@router.post("/api/tables/{table_id}/chat")
async def switch_chat(table_id: str, body: ChatSwitch, tables: Tables) -> dict[str, Any]:
    """The creator switches the table's chat on or off (403 for anyone else)."""
    table = need_unclosed(tables, table_id)
    chat = table.feature(TableChat)
    if chat is None:
        raise Refused(409, "no_chat", "this table has no chat")
    chat.switch(body.owner, body.on)
    return wire(table.info())


@router.get("/api/tables")
async def open_tables(tables: Tables) -> list[dict[str, Any]]:
    """Tables waiting for people."""
    return [wire(t) for t in tables.open_tables()]


@router.get("/api/tables/{table_id}")
async def show_table(table_id: str, tables: Tables) -> dict[str, Any]:
    return wire(need(tables, table_id).info())


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: Join, tables: Tables, request: Request) -> Joined:
    """A signed-in player sits under their user name, with their account's token."""
    user = signed_in(request)
    account = None if user is None else Account(user.id, user.name,
                                                accounts(request).seat_token)
    seat, token = tables.join(table_id, body.name, body.seat, account)
    return Joined(table=table_id, seat=seat, token=token)


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, body: TokenBody, tables: Tables) -> dict[str, Any]:
    seat = need_unclosed(tables, table_id).leave(body.token)
    return {"table": table_id, "seat": seat}


@router.post("/api/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, body: TokenBody, tables: Tables,
                  request: Request) -> dict[str, Any]:
    """The new table, and `token`: the asker's token there (an account's is new)."""
    new = tables.rematch(table_id, body.token)
    seat = need(tables, table_id).seat_of(body.token)
    token = body.token
    row = new.seats.rows[seat] if seat is not None else None
    if row is not None and row.user_id is not None:
        token = accounts(request).seat_token(new.id, row.seat, row.user_id)
    return {**wire(new.info()), "token": token}
