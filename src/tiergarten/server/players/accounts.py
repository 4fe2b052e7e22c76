"""Accounts: user names and argon2 password hashes, sessions, sign-in limits, seat tokens.

Optional: guests play as before. An account is a name (checked by `user_name`) and an argon2id
hash of its password; a session is a random cookie of which the database keeps only the
sha-256. A signed-in player's seats follow them across devices because their seat tokens are
not random but made from the server's key (`seat_token`), so any device of theirs can be given
them again; a guest's tokens stay random, and a guest who signs up or in can claim the seats
of that browser (the tokens are then re-made, so they follow the account too).

Sign-in refusals never tell whether a name exists ("wrong user name or password", with a hash
checked either way, so the time taken says nothing either); failures are limited per name and
per address (`Limiter`).

>>> user_name("  Ann  Lee ")
'Ann Lee'
>>> user_name("a")
Traceback (most recent call last):
...
tiergarten.server.players.accounts.AccountError: a user name has 3 to 24 characters; this one has 1
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import threading
import time
import unicodedata
from collections import deque
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, delete, func, insert, select, update

from ..edge.settings import hash_token
from ..storage.schema import KEYS, SEATS, SESSIONS, TABLES, USERS

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 200
SESSION_DAYS = 30
DELETED_NAME = "deleted player"  # what a deleted account's seats show
WRONG = "wrong user name or password"  # the one answer to a failed sign-in, whatever failed
_NAME_MARKS = frozenset("-_. ")


class AccountError(ValueError):
    """A request about an account that cannot be met; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class User:
    id: int
    name: str


def user_name(text: str) -> str:
    """A user name as kept: NFC, spaces collapsed; 3-24 letters, digits, spaces and - _ ."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(f"a user name has {NAME_MIN} to {NAME_MAX} characters; this one "
                           f"has {len(name)}")
    bad = sorted({c for c in name if not (c.isalnum() or c in _NAME_MARKS)})
    if bad:
        raise AccountError(f"a user name has letters, digits, spaces and - _ . only; not "
                           f"{' '.join(repr(c) for c in bad)}")
    if name.casefold() == DELETED_NAME:
        raise AccountError("that name is kept for deleted accounts")
    return name


def name_key(text: str) -> str | None:
    """The key an account is looked up by (its user name casefolded), or None for a text no
    user name can be, which is then never sent to the database (PostgreSQL refuses a NUL).

    >>> name_key(" Ann  Lee "), name_key("Ann" + chr(0))
    ('ann lee', None)
    """
    try:
        return user_name(text).casefold()
    except AccountError:
        return None


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Limiter:
    """At most `limit` failures per key within `window` seconds (a sliding window).

    >>> limiter = Limiter(2, 60.0)
    >>> limiter.fail("ann", now=0.0); limiter.fail("ann", now=1.0)
    >>> limiter.wait("ann", now=2.0), limiter.wait("bob", now=2.0), limiter.wait("ann", now=61.0)
    (58.0, 0.0, 0.0)
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until `key` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._failures.get(key)
            if times is None:
                return 0.0
            while times and times[0] <= now - self.window:
                times.popleft()
            if not times:
                del self._failures[key]
                return 0.0
            return max(0.0, times[0] + self.window - now) if len(times) >= self.limit else 0.0

    def fail(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            self._failures.setdefault(key, deque()).append(now)

    def forget(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


class Accounts:
    """Users, sessions and seat tokens in the server's database (the store's engine)."""

    def __init__(self, engine: Engine, attempts: int = 5, window: float = 300.0) -> None:
        self.engine = engine
        self.hasher = PasswordHasher()  # argon2id, RFC 9106's low-memory profile
        self._dummy = self.hasher.hash(secrets.token_hex(16))  # checked for unknown names
        self.by_name = Limiter(attempts, window)
        self.by_address = Limiter(attempts * 4, window)
        with engine.connect() as conn:
            key = conn.execute(select(KEYS.c.value).where(KEYS.c.name == "seat_tokens")).scalar()
        assert key is not None, "the database lacks its seat-token key (migration 0002)"
        self._key = bytes.fromhex(key)

    # -- signing up, in and out --------------------------------------------------------------

    def sign_up(self, name: str, password: str) -> User:
        name = user_name(name)
        digest = self.hasher.hash(check_password(password))
        with self.engine.begin() as conn:
            taken = conn.execute(select(USERS.c.id).where(
                USERS.c.name_key == name.casefold())).first()
            if taken is not None:
                raise AccountError("that user name is taken; choose another", 409)
            made = conn.execute(insert(USERS).values(
                name=name, name_key=name.casefold(), password_hash=digest, created=_now()))
            key = made.inserted_primary_key
            assert key is not None
        return User(int(key[0]), name)

    def sign_in(self, name: str, password: str, address: str) -> User:
        """The user, if name and password match; else AccountError(WRONG), limited."""
        found = name_key(name)
        key = found if found is not None else " ".join(name.split()).casefold()
        wait = max(self.by_name.wait(key), self.by_address.wait(address))
        if wait > 0:
            raise AccountError(f"too many failed sign-ins; try again in {int(wait) + 1} s", 429)
        row = None
        if found is not None:
            with self.engine.connect() as conn:
                row = conn.execute(select(USERS.c.id, USERS.c.name, USERS.c.password_hash)
                                   .where(USERS.c.name_key == key, USERS.c.deleted.is_(None))
                                   ).first()
        if not self._verify(row.password_hash if row else None, password) or row is None:
            self.by_name.fail(key)
            self.by_address.fail(address)
            raise AccountError(WRONG, 401)
        self.by_name.forget(key)
        return User(int(row.id), str(row.name))

    def _verify(self, digest: str | None, password: str) -> bool:
        try:
            return bool(self.hasher.verify(digest or self._dummy, password)) and bool(digest)
        except (VerificationError, InvalidHashError):
            return False

    def open_session(self, user: User) -> str:
        """A new session for `user`: the cookie's value (the database keeps its hash)."""
        cookie = secrets.token_urlsafe(32)
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(SESSIONS).values(
                id_hash=hash_token(cookie), user_id=user.id, created=now,
                expires=now + dt.timedelta(days=SESSION_DAYS)))
        return cookie

    def user_of(self, cookie: str | None) -> User | None:
        """The signed-in user of a session cookie (None: a guest, or an expired session)."""
        if not cookie:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(USERS.c.id, USERS.c.name, SESSIONS.c.expires)
                .join(USERS, USERS.c.id == SESSIONS.c.user_id)
                .where(SESSIONS.c.id_hash == hash_token(cookie),
                       USERS.c.deleted.is_(None))).first()
        if row is None or _aware(row.expires) < _now():
            return None
        return User(int(row.id), str(row.name))

    def close_session(self, cookie: str | None) -> None:
        if cookie:
            with self.engine.begin() as conn:
                conn.execute(delete(SESSIONS).where(SESSIONS.c.id_hash == hash_token(cookie)))

    # -- changing and deleting ---------------------------------------------------------------

    def change_password(self, user: User, old: str, new: str, keep: str | None) -> None:
        """Needs the old password; every other session of the user ends."""
        self._confirm(user, old)
        digest = self.hasher.hash(check_password(new))
        with self.engine.begin() as conn:
            conn.execute(update(USERS).where(USERS.c.id == user.id).values(password_hash=digest))
            others = delete(SESSIONS).where(SESSIONS.c.user_id == user.id)
            if keep:
                others = others.where(SESSIONS.c.id_hash != hash_token(keep))
            conn.execute(others)

    def delete(self, user: User, password: str) -> None:
        """The account goes (name, password, sessions); its games stay, under DELETED_NAME."""
        self._confirm(user, password)
        with self.engine.begin() as conn:
            conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == user.id))
            conn.execute(update(SEATS).where(SEATS.c.user_id == user.id)
                         .values(name=DELETED_NAME))
            conn.execute(update(USERS).where(USERS.c.id == user.id).values(
                name=None, name_key=None, password_hash=None, deleted=_now()))

    def _confirm(self, user: User, password: str) -> None:
        with self.engine.connect() as conn:
            digest = conn.execute(select(USERS.c.password_hash).where(
                USERS.c.id == user.id)).scalar()
        if not self._verify(digest, password):
            raise AccountError("that is not your password", 403)

    # -- seats -------------------------------------------------------------------------------

    def seat_token(self, table_id: str, seat: int, user_id: int) -> str:
        """The token of an account's seat: the same on every device, unguessable without the
        server's key."""
        message = f"{table_id}:{seat}:{user_id}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:40]

    def seats(self, user: User) -> list[dict[str, object]]:
        """The user's seats at tables not over, with their tokens, oldest table first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(SEATS.c.table_id, SEATS.c.seat, TABLES.c.game, TABLES.c.status)
                .join(TABLES, TABLES.c.id == SEATS.c.table_id)
                .where(SEATS.c.user_id == user.id, TABLES.c.status != "over")
                .order_by(TABLES.c.created, SEATS.c.seat))
            return [{"table": r.table_id, "seat": r.seat, "game": r.game, "status": r.status,
                     "token": self.seat_token(r.table_id, r.seat, user.id)} for r in rows]

    def claim(self, user: User, claims: list[tuple[str, str]]) -> list[dict[str, object]]:
        """A guest's seats become the user's: for each (table, token) of a guest seat, the
        seat is the account's and its token is re-made; the new tokens are returned."""
        done = []
        with self.engine.begin() as conn:
            for table_id, token in claims:
                row = conn.execute(select(SEATS.c.seat).where(
                    SEATS.c.table_id == table_id, SEATS.c.token_hash == hash_token(token),
                    SEATS.c.user_id.is_(None))).first()
                if row is None:
                    continue  # not a guest seat of this token: nothing to claim, say nothing
                fresh = self.seat_token(table_id, row.seat, user.id)
                conn.execute(update(SEATS).where(
                    SEATS.c.table_id == table_id, SEATS.c.seat == row.seat).values(
                    user_id=user.id, name=user.name, token_hash=hash_token(fresh)))
                done.append({"table": table_id, "seat": row.seat, "token": fresh})
        return done

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(USERS)).scalar() or 0)


def _aware(moment: dt.datetime) -> dt.datetime:
    """SQLite gives datetimes back without their zone (they were stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
