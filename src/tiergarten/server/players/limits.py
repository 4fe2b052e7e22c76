"""How often passwords may be tried, and how many may be hashed at once (docs/security.md).

A password check is an argon2id hash: about a second of both cores here and 64 MiB of memory
while it runs. So every request that checks or sets a password (sign in, sign up, a new
password, deleting the account) goes through two gates, in this order, before it hashes:

1. **Attempts are counted before the hash.** `Limiter.take` counts one attempt under each of
   its rules at once, or none if any rule is full (then the request is refused with 429 and
   `Retry-After`); a request that then succeeds gives its attempt back, so only failures
   stay counted. As the count comes first, parallel requests cannot slip past it while
   earlier ones are still hashing. The rules of a sign-in (`SignInLimits`): per (name,
   address), per address, and per name from every address but a device that signed in to
   that account before.
2. **Hashes at once are bounded** (`Limiter.enter`, `SignInLimits.hash_slots`): a request that
   finds every slot taken is refused at once with 429 and `Retry-After: 1` (its attempt given
   back), and never waits holding memory.

Two implementations: `LocalLimiter` counts in this process (one server process), and
`RedisLimiter` in Redis, shared by every worker of a cluster (server/cluster), so the limits
hold per person and per deployment, not per process. A key is the kind of rule and what it
counts, e.g. `pair:alice01|10.0.0.7`; names are counted by their skeleton (players/names.py),
so look-alike spellings share one count.

>>> limiter = LocalLimiter()
>>> two = [Rule("ann", 2, 60.0)]
>>> [limiter.take(two, now=t)[0] for t in (0.0, 1.0, 2.0)]
[0.0, 0.0, 58.0]
>>> wait, ticket = limiter.take([Rule("bob", 2, 60.0)], now=3.0); limiter.give_back(
...     [Rule("bob", 2, 60.0)], ticket); limiter.count("bob", now=3.0)
0
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..storage.store import StoreUnavailable


@dataclass(frozen=True)
class Rule:
    """At most `limit` attempts under `key` within any `window` seconds."""

    key: str
    limit: int
    window: float


@dataclass(frozen=True)
class SignInLimits:
    """The numbers (docs/security.md, "Accounts"; docs/protocol.md, "Accounts")."""

    pair: int = 5  # failed attempts per (name, address) ...
    pair_window: float = 300.0  # ... within 5 minutes (the owner's own device: always theirs)
    address: int = 20  # failed attempts per address, whatever the names ...
    address_window: float = 300.0
    name: int = 20  # failed attempts per name from all addresses (distributed guessing) ...
    name_window: float = 600.0  # ... in 10 minutes; not counted for a device that signed in
    signups: int = 20  # new accounts per address ...
    signup_window: float = 300.0
    hash_slots: int = 2  # password hashes at once (per process, or per cluster with Redis)
    busy_retry: float = 1.0  # Retry-After when every slot is taken
    slot_lease: float = 60.0  # a slot a crashed worker held is free again after this (Redis)

    @classmethod
    def from_settings(cls, attempts: int = 5, window: float = 300.0,
                      hash_slots: int = 2) -> SignInLimits:
        """The defaults, with `Settings.login_attempts` and `login_window` for the per (name,
        address) rule (the address gets four times as many) and `hash_slots`."""
        return cls(pair=attempts, pair_window=window, address=attempts * 4,
                   address_window=window, hash_slots=hash_slots)


class Limiter(Protocol):
    """Counts attempts under rules and hands out slots (see the module doc)."""

    def take(self, rules: Sequence[Rule]) -> tuple[float, str]:
        """Count one attempt under every rule, if each has room: (0.0, a ticket); else count
        none: (seconds until every rule has room, "")."""
        ...

    def give_back(self, rules: Sequence[Rule], ticket: str) -> None:
        """Uncount the attempt of `ticket`."""
        ...

    def forget(self, key: str) -> None:
        """Every attempt counted under `key` is forgotten."""
        ...

    def enter(self, name: str, most: int, lease: float) -> str | None:
        """One of `most` slots called `name`: a ticket, or None if all are taken."""
        ...

    def leave(self, name: str, ticket: str) -> None:
        ...


class LocalLimiter:
    """A `Limiter` in this process's memory: sliding windows of attempt times per key."""

    KEEP = 10_000  # keys before the expired ones are swept out

    def __init__(self) -> None:
        self._attempts: dict[str, deque[tuple[float, str]]] = {}
        self._windows: dict[str, float] = {}
        self._slots: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def take(self, rules: Sequence[Rule], now: float | None = None) -> tuple[float, str]:
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._attempts) > self.KEEP:
                self._sweep(now)
            wait = 0.0
            for rule in rules:
                times = self._fresh(rule.key, rule.window, now)
                if len(times) >= rule.limit:
                    wait = max(wait, times[len(times) - rule.limit][0] + rule.window - now)
            if wait > 0:
                return wait, ""
            ticket = secrets.token_hex(8)
            for rule in rules:
                self._attempts.setdefault(rule.key, deque()).append((now, ticket))
                self._windows[rule.key] = max(rule.window, self._windows.get(rule.key, 0.0))
            return 0.0, ticket

    def _fresh(self, key: str, window: float, now: float) -> deque[tuple[float, str]]:
        times = self._attempts.get(key, deque())
        while times and times[0][0] <= now - window:
            times.popleft()
        return times

    def _sweep(self, now: float) -> None:
        for key in list(self._attempts):
            if not self._fresh(key, self._windows.get(key, 0.0), now):
                del self._attempts[key]
                self._windows.pop(key, None)

    def count(self, key: str, now: float | None = None) -> int:
        """Attempts counted under `key` now (tests)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            return len(self._fresh(key, self._windows.get(key, 0.0), now))

    def give_back(self, rules: Sequence[Rule], ticket: str) -> None:
        with self._lock:
            for rule in rules:
                times = self._attempts.get(rule.key)
                if times is not None:
                    kept = deque(t for t in times if t[1] != ticket)
                    self._attempts[rule.key] = kept

    def forget(self, key: str) -> None:
        with self._lock:
            self._attempts.pop(key, None)
            self._windows.pop(key, None)

    def enter(self, name: str, most: int, lease: float) -> str | None:
        with self._lock:
            held = self._slots.setdefault(name, set())
            if len(held) >= most:
                return None
            ticket = secrets.token_hex(8)
            held.add(ticket)
            return ticket

    def leave(self, name: str, ticket: str) -> None:
        with self._lock:
            self._slots.get(name, set()).discard(ticket)


# KEYS: the rules' keys; ARGV[1]: now (ms), ARGV[2]: the ticket, then each rule's limit and
# window (ms). Returns 0 (counted under every key) or the ms until every key has room.
_TAKE = """
local now = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[1 + 2 * i])
  local window = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n >= limit then
    local oldest = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
    local w = tonumber(oldest[2]) + window - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return math.max(1, math.ceil(wait)) end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, ARGV[2 + 2 * i])
end
return 0
"""
# KEYS[1]: the slots; ARGV: now (ms), most, lease (ms), ticket. 1 if a slot was taken.
_ENTER = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
"""


class RedisLimiter:
    """A `Limiter` in Redis, shared by every process that names the same Redis and prefix:
    each key a sorted set of attempt tickets scored by their time (ms since the epoch; the
    workers' clocks are taken to agree within a second), expiring with its window; each slot
    set's tickets expire after their lease, should a worker die holding one."""

    def __init__(self, url: str, prefix: str = "tg", client: Any = None) -> None:
        import redis

        self._errors = (redis.RedisError, OSError)
        self.client = client or redis.Redis.from_url(url, socket_timeout=2.0,
                                                     socket_connect_timeout=2.0)
        self.prefix = prefix
        self._take = self.client.register_script(_TAKE)
        self._enter = self.client.register_script(_ENTER)

    def _key(self, key: str) -> str:
        return f"{self.prefix}:limit:{key}"

    def _call(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except self._errors as exc:
            raise StoreUnavailable(f"the shared limits (Redis) are unavailable ({exc})") from exc

    def take(self, rules: Sequence[Rule]) -> tuple[float, str]:
        ticket = secrets.token_hex(8)
        args: list[Any] = [int(time.time() * 1000), ticket]
        for rule in rules:
            args += [rule.limit, math.ceil(rule.window * 1000)]
        wait = int(self._call(self._take, keys=[self._key(r.key) for r in rules], args=args))
        return (wait / 1000, "") if wait else (0.0, ticket)

    def give_back(self, rules: Sequence[Rule], ticket: str) -> None:
        pipe = self.client.pipeline()
        for rule in rules:
            pipe.zrem(self._key(rule.key), ticket)
        self._call(pipe.execute)

    def forget(self, key: str) -> None:
        self._call(self.client.delete, self._key(key))

    def enter(self, name: str, most: int, lease: float) -> str | None:
        ticket = secrets.token_hex(8)
        got = self._call(self._enter, keys=[f"{self.prefix}:slots:{name}"],
                         args=[int(time.time() * 1000), most, math.ceil(lease * 1000), ticket])
        return ticket if int(got) == 1 else None

    def leave(self, name: str, ticket: str) -> None:
        self._call(self.client.zrem, f"{self.prefix}:slots:{name}", ticket)

    def close(self) -> None:
        self.client.close()


class Counted:
    """One attempt counted under some rules, until it is given back."""

    def __init__(self, limiter: Limiter, rules: Sequence[Rule], ticket: str) -> None:
        self.limiter, self.rules, self.ticket = limiter, rules, ticket

    def give_back(self) -> None:
        if self.ticket:
            self.limiter.give_back(self.rules, self.ticket)
            self.ticket = ""
