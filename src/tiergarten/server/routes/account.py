"""Accounts over REST: sign up, in and out, change the password, delete, and the seats that
follow a signed-in player (docs/protocol.md, "Accounts").

The session is a cookie (HttpOnly, SameSite=Lax, Secure when the request came over TLS);
every state-changing request is checked against cross-site use first (server/edge/csrf.py).
A device that signed in keeps a second cookie, `tg_device`, that spares it the per-name limit
on sign-ins (players/limits.py). Every refusal for too many attempts, or for every password
slot being busy, is a 429 with `Retry-After`.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..edge.settings import Refused, hash_token
from ..players.accounts import DELETED_NAME, PASSWORD_MAX, AccountError, Accounts, User
from .deps import Tables

router = APIRouter()
COOKIE = "tg_session"
DEVICE = "tg_device"  # a device that signed in to the account: spared the per-name limit
DEVICE_DAYS = 365


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(min_length=1, max_length=PASSWORD_MAX)
    new: str = Field(min_length=1, max_length=PASSWORD_MAX)


class Password(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=200)


class Claims(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[Claim] = Field(default_factory=list, max_length=200)


def accounts(request: Request) -> Accounts:
    found: Accounts = request.app.state.accounts
    return found


def signed_in(request: Request) -> User | None:
    """The user of the request's session cookie, or None (a guest)."""
    return accounts(request).user_of(request.cookies.get(COOKIE))


def need_user(request: Request) -> User:
    user = signed_in(request)
    if user is None:
        raise Refused(401, "sign_in_first", "sign in first")
    return user


def _start_session(request: Request, response: Response, user: User) -> dict[str, Any]:
    book = accounts(request)
    cookie = book.open_session(user)
    secure = request.url.scheme == "https"
    response.set_cookie(COOKIE, cookie, max_age=30 * 24 * 3600, path="/", httponly=True,
                        samesite="lax", secure=secure)
    response.set_cookie(DEVICE, book.device_token(user.id), max_age=DEVICE_DAYS * 24 * 3600,
                        path="/api/account", httponly=True, samesite="lax", secure=secure)
    return {"user": {"name": user.name}}


async def _run(call: Any, *args: Any) -> Any:
    """Hashing takes a second: off the event loop; refusals become HTTP answers (a 429 with
    its Retry-After)."""
    try:
        return await asyncio.to_thread(call, *args)
    except AccountError as exc:
        headers = (None if exc.retry_after is None
                   else {"Retry-After": str(max(1, math.ceil(exc.retry_after)))})
        raise Refused(exc.status, exc.code, str(exc), exc.params, headers) from None


@router.get("/api/account")
async def me(request: Request) -> dict[str, Any]:
    """Who is signed in here: `{"user": {"name"}}`, or `{"user": null}` for a guest."""
    user = signed_in(request)
    return {"user": None if user is None else {"name": user.name}}


@router.post("/api/account/signup", status_code=201)
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    user = await _run(accounts(request).sign_up, body.name, body.password, _address(request))
    return _start_session(request, response, user)


@router.post("/api/account/login")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    user = await _run(accounts(request).sign_in, body.name, body.password, _address(request),
                      request.cookies.get(DEVICE))
    return _start_session(request, response, user)


@router.post("/api/account/logout")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    accounts(request).close_session(request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/")
    return {"user": None}


@router.post("/api/account/password")
async def change_password(body: NewPassword, request: Request) -> dict[str, Any]:
    user = need_user(request)
    await _run(accounts(request).change_password, user, body.old, body.new,
               request.cookies.get(COOKIE), _address(request), request.cookies.get(DEVICE))
    return {"user": {"name": user.name}}


@router.post("/api/account/delete")
async def delete_account(body: Password, request: Request, response: Response,
                         tables: Tables) -> dict[str, Any]:
    """The account goes; its games stay, its seats named "deleted player"."""
    user = need_user(request)
    await _run(accounts(request).delete, user, body.password, _address(request),
               request.cookies.get(DEVICE))
    for table in list(tables.tables.values()):
        changed = False
        for row in table.seats.rows:
            if row.user_id == user.id:
                row.name, row.account, changed = DELETED_NAME, None, True
        if changed:
            table.broadcast_info()
    response.delete_cookie(COOKIE, path="/")
    response.delete_cookie(DEVICE, path="/api/account")
    return {"user": None}


@router.get("/api/account/seats")
async def my_seats(request: Request) -> list[dict[str, Any]]:
    """The signed-in player's seats at tables not over, with their tokens (any device)."""
    result: list[dict[str, Any]] = accounts(request).seats(need_user(request))
    return result


@router.post("/api/account/claim")
async def claim(body: Claims, request: Request, tables: Tables) -> list[dict[str, Any]]:
    """The guest seats of this browser (by their tokens) become the signed-in player's."""
    user = need_user(request)
    done: list[dict[str, Any]] = accounts(request).claim(
        user, [(c.table, c.token) for c in body.seats])
    for seat in done:
        table = tables.tables.get(str(seat["table"]))
        if table is not None:  # the live table learns the new token and owner
            row = table.seats.rows[int(seat["seat"])]
            row.user_id, row.account, row.name = user.id, user.name, user.name
            row.token_hash = hash_token(str(seat["token"]))
            table.broadcast_info()
    return done


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"
