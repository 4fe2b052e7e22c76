"""Accounts: user names and argon2 password hashes, sessions, sign-in limits, seat tokens.

Optional: guests play as before. An account is a name (checked by `user_name`) and an argon2id
hash of its password; a session is a random cookie of which the database keeps only the
sha-256. A signed-in player's seats follow them across devices because their seat tokens are
not random but made from the server's key (`seat_token`), so any device of theirs can be given
them again; a guest's tokens stay random, and a guest who signs up or in can claim the seats
of that browser (the tokens are then re-made, so they follow the account too).

Everything is stored through the players port (`storage/player_store.PlayerStore`): SQL or
memory alike. A name is taken once whatever its case (`name_key`) and whatever look-alike
letters it is spelt with (its skeleton, players/names.py).

Sign-in refusals never tell whether a name exists ("wrong user name or password", with a hash
checked either way, so the time taken says nothing either). Every password check is counted
before it is hashed and hashes at once are bounded (players/limits.py, docs/security.md).

>>> user_name("  Ann  Lee ")
'Ann Lee'
>>> user_name("a")
Traceback (most recent call last):
...
tiergarten.server.players.accounts.AccountError: a user name has 3 to 24 characters; this one has 1
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import math
import secrets
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..edge.settings import hash_token
from ..storage.player_store import PlayerStore, UserRow
from .limits import Counted, Limiter, LocalLimiter, Rule, SignInLimits
from .names import skeleton

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 200
SESSION_DAYS = 30
DELETED_NAME = "deleted player"  # what a deleted account's seats show
WRONG = "wrong user name or password"  # the one answer to a failed sign-in, whatever failed
NOT_YOURS = "that is not your password"  # a wrong password to change or delete an account
_NAME_MARKS = frozenset("-_. ")


class AccountError(ValueError):
    """A request about an account that cannot be met; `status` is the HTTP status to answer,
    `retry_after` the seconds to wait (a 429), `code` and `params` what a client words in its
    own language (docs/protocol.md, "REST error codes")."""

    def __init__(self, message: str, status: int = 400, retry_after: float | None = None,
                 code: str = "account", params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True)
class User:
    id: int
    name: str


def user_name(text: str) -> str:
    """A user name as kept: NFC, spaces collapsed; 3-24 letters, digits, spaces and - _ ."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(f"a user name has {NAME_MIN} to {NAME_MAX} characters; this one "
                           f"has {len(name)}", code="name_length",
                           params={"least": NAME_MIN, "most": NAME_MAX, "length": len(name)})
    bad = sorted({c for c in name if not (c.isalnum() or c in _NAME_MARKS)})
    if bad:
        raise AccountError(f"a user name has letters, digits, spaces and - _ . only; not "
                           f"{' '.join(repr(c) for c in bad)}", code="name_characters",
                           params={"characters": " ".join(bad)})
    if name.casefold() == DELETED_NAME or skeleton(name) == skeleton(DELETED_NAME):
        raise AccountError("that name is kept for deleted accounts", code="name_reserved")
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
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
                           code="password_length",
                           params={"least": PASSWORD_MIN, "most": PASSWORD_MAX})
    return password


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Accounts:
    """Users, sessions and seat tokens, stored through the players port."""

    def __init__(self, players: PlayerStore, limits: SignInLimits | None = None,
                 limiter: Limiter | None = None, hasher: PasswordHasher | None = None
                 ) -> None:
        self.players = players
        self.limits = limits or SignInLimits()
        self.limiter: Limiter = limiter or LocalLimiter()
        self.hasher = hasher or PasswordHasher()  # argon2id, RFC 9106's low-memory profile
        self._dummy = self.hasher.hash(secrets.token_hex(16))  # checked for unknown names
        key = players.server_key("seat_tokens")
        assert key is not None, "the database lacks its seat-token key (migration 0002)"
        self._key = bytes.fromhex(key)

    # -- the limits ----------------------------------------------------------------------------

    def _rules(self, who: str, address: str, trusted: bool) -> list[Rule]:
        """What one password check under the name of skeleton `who` from `address` counts
        against (SignInLimits); a `trusted` device (it signed in to the account before) is
        not counted against the name from every address."""
        limits = self.limits
        rules = [Rule(f"pair:{who}|{address}", limits.pair, limits.pair_window),
                 Rule(f"addr:{address}", limits.address, limits.address_window)]
        if not trusted:
            rules.append(Rule(f"name:{who}", limits.name, limits.name_window))
        return rules

    def _count(self, rules: Sequence[Rule], refusal: str, code: str) -> Counted:
        wait, ticket = self.limiter.take(rules)
        if wait > 0:
            seconds = math.ceil(wait)
            raise AccountError(f"{refusal}; try again in {seconds} s", 429, seconds, code,
                               {"seconds": seconds})
        return Counted(self.limiter, rules, ticket)

    @contextlib.contextmanager
    def _hashing(self, counted: Counted) -> Iterator[None]:
        """One of the hash slots for the hashing inside, or 429 at once (the attempt given
        back: nothing was tried)."""
        ticket = self.limiter.enter("hash", self.limits.hash_slots, self.limits.slot_lease)
        if ticket is None:
            counted.give_back()
            wait = math.ceil(self.limits.busy_retry)
            raise AccountError(f"the server is busy checking other passwords; try again in "
                               f"{wait} s", 429, wait, "busy", {"seconds": wait})
        try:
            yield
        finally:
            self.limiter.leave("hash", ticket)

    def device_token(self, user_id: int) -> str:
        """What the `tg_device` cookie of a device that signed in to the account holds: it
        spares that device the per-name limit (docs/security.md)."""
        message = f"device:{user_id}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:40]

    def _trusted(self, row: UserRow | None, device: str | None) -> bool:
        return (row is not None and device is not None
                and hmac.compare_digest(device.encode(), self.device_token(row.id).encode()))

    # -- signing up, in and out --------------------------------------------------------------

    def sign_up(self, name: str, password: str, address: str = "") -> User:
        name = user_name(name)
        check_password(password)
        key, shape = name.casefold(), skeleton(name)
        if self.players.user(key) is not None:
            raise AccountError("that user name is taken; choose another", 409, code="name_taken")
        if self.players.look_alike(shape):
            raise AccountError("that user name looks like another player's; choose another",
                               409, code="name_look_alike")
        limits = self.limits
        counted = self._count([Rule(f"signup:{address}", limits.signups, limits.signup_window)],
                              "too many new accounts from this address", "too_many_signups")
        with self._hashing(counted):
            digest = self.hasher.hash(password)
        user_id = self.players.add_user(name, key, shape, digest, _now())
        if user_id is None:  # another sign-up took it meanwhile
            counted.give_back()
            raise AccountError("that user name is taken; choose another", 409, code="name_taken")
        return User(user_id, name)

    def sign_in(self, name: str, password: str, address: str, device: str | None = None
                ) -> User:
        """The user, if name and password match; else AccountError(WRONG), limited."""
        found = name_key(name)
        who = skeleton(found if found is not None else " ".join(name.split()))
        row = None if found is None else self.players.user(found)
        rules = self._rules(who, address, self._trusted(row, device))
        counted = self._count(rules, "too many failed sign-ins", "too_many_sign_ins")
        with self._hashing(counted):
            right = self._verify(row.password_hash if row else None, password)
        if not right or row is None:
            raise AccountError(WRONG, 401, code="wrong_login")
        counted.give_back()
        self.limiter.forget(rules[0].key)  # this (name, address)'s failures are forgiven
        return User(row.id, row.name)

    def _verify(self, digest: str | None, password: str) -> bool:
        try:
            return bool(self.hasher.verify(digest or self._dummy, password)) and bool(digest)
        except (VerificationError, InvalidHashError):
            return False

    def open_session(self, user: User) -> str:
        """A new session for `user`: the cookie's value (the database keeps its hash)."""
        cookie = secrets.token_urlsafe(32)
        now = _now()
        self.players.add_session(hash_token(cookie), user.id, now,
                                 now + dt.timedelta(days=SESSION_DAYS))
        return cookie

    def user_of(self, cookie: str | None) -> User | None:
        """The signed-in user of a session cookie (None: a guest, or an expired session)."""
        if not cookie:
            return None
        found = self.players.session(hash_token(cookie))
        if found is None or found[1] < _now():
            return None
        return User(found[0].id, found[0].name)

    def close_session(self, cookie: str | None) -> None:
        if cookie:
            self.players.drop_session(hash_token(cookie))

    # -- changing and deleting ---------------------------------------------------------------

    def change_password(self, user: User, old: str, new: str, keep: str | None,
                        address: str = "", device: str | None = None) -> None:
        """Needs the old password (limited as a sign-in is); every other session ends."""
        check_password(new)
        with self._confirmed(user, old, address, device):
            digest = self.hasher.hash(new)
        self.players.set_password(user.id, digest, None if keep is None else hash_token(keep))

    def delete(self, user: User, password: str, address: str = "",
               device: str | None = None) -> None:
        """The account goes (name, password, sessions); its games stay, under DELETED_NAME."""
        with self._confirmed(user, password, address, device):
            pass
        self.players.delete_user(user.id, DELETED_NAME, _now())

    @contextlib.contextmanager
    def _confirmed(self, user: User, password: str, address: str, device: str | None
                   ) -> Iterator[None]:
        """The user's password checked, counted as a sign-in is; the hashing inside keeps
        the slot. 403 for a wrong one."""
        row = self.players.user_by_id(user.id)
        rules = self._rules(skeleton(user.name), address, self._trusted(row, device))
        counted = self._count(rules, "too many wrong passwords", "too_many_wrong_passwords")
        with self._hashing(counted):
            if not self._verify(row.password_hash if row else None, password):
                raise AccountError(NOT_YOURS, 403, code="wrong_password")
            counted.give_back()
            yield

    # -- seats -------------------------------------------------------------------------------

    def seat_token(self, table_id: str, seat: int, user_id: int) -> str:
        """The token of an account's seat: the same on every device, unguessable without the
        server's key."""
        message = f"{table_id}:{seat}:{user_id}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:40]

    def seats(self, user: User) -> list[dict[str, object]]:
        """The user's seats at tables not over, with their tokens, oldest table first."""
        return [{"table": s.table_id, "seat": s.seat, "game": s.game, "status": s.status,
                 "token": self.seat_token(s.table_id, s.seat, user.id)}
                for s in self.players.account_seats(user.id)]

    def claim(self, user: User, claims: list[tuple[str, str]]) -> list[dict[str, object]]:
        """A guest's seats become the user's: for each (table, token) of a guest seat, the
        seat is the account's and its token is re-made; the new tokens are returned."""
        done = self.players.claim_seats(
            user.id, user.name, [(table_id, hash_token(token)) for table_id, token in claims],
            lambda table_id, seat: hash_token(self.seat_token(table_id, seat, user.id)))
        return [{"table": table_id, "seat": seat,
                 "token": self.seat_token(table_id, seat, user.id)} for table_id, seat in done]

    def count(self) -> int:
        return self.players.count_users()
