"""What `tiergarten serve` can be told: every setting with its one default, what it allows and
its checks (config.py reads them from the flags and the environment).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal, Self
from urllib.parse import urlsplit

from pydantic import Field, JsonValue, field_validator, model_validator
from pydantic_settings import BaseSettings

from .cluster.settings import LEASE_TTL, RPC_TIMEOUT
from .config_words import Refused, duration
from .edge.invite import EXAMPLE, _refusal
from .edge.settings import Settings

TABLE = Settings()  # the table settings' defaults, from the one place they are written


def _seconds(default: float, doc: str, *, ge: float = 0.0, le: float | None = None,
             gt: float | None = None, group: str = "tables") -> Any:
    extra: dict[str, JsonValue] = {"group": group, "unit": "seconds"}
    if gt is not None:
        return Field(default, gt=gt, le=le, description=doc, json_schema_extra=extra)
    return Field(default, ge=ge, le=le, description=doc, json_schema_extra=extra)


def _count(default: int, doc: str, *, ge: int = 1, group: str = "limits") -> Any:
    return Field(default, ge=ge, description=doc, json_schema_extra={"group": group})


class Settable(BaseSettings):
    """Every setting, grouped; `ServerConfig` (config.py) is how they are read."""

    # -- where and how the process listens -------------------------------------------------
    host: str | None = Field(None, description="address to listen on (default 127.0.0.1, "
                             "this computer only; with lan every address, 0.0.0.0)",
                             json_schema_extra={"group": "process", "allowed": "an address"})
    port: int = Field(8000, ge=1, le=65535, description="port to listen on",
                      json_schema_extra={"group": "process"})
    db: str | None = Field(None, description="the database: a SQLite file path or a "
                           "postgresql:// URL (default: SQLite in the user's data folder; "
                           "several workers need PostgreSQL)",
                           json_schema_extra={"group": "process", "secret": True,
                                              "allowed": "a path or a postgresql:// URL"})
    lan: bool = Field(False, description="listen on the local network: invite links and QR "
                      "codes use this machine's network address",
                      json_schema_extra={"group": "process"})
    public_url: str | None = Field(None, description="the address people open, e.g. "
                                   "https://example.org/games: invite links use it, and behind "
                                   "a proxy it is needed, for the server answers only to "
                                   "loopback and this URL's host (any other Host: 421)",
                                   json_schema_extra={
                                       "group": "process",
                                       "allowed": "http(s)://host[:port][/path]"})
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = Field(
        "warning", description="the server's and uvicorn's log level",
        json_schema_extra={"group": "process"})
    log_format: Literal["text", "json"] = Field(
        "text", description="text: plain lines; json: one JSON object per line (time, level, "
        "logger, message, worker, table, request_id, exc)",
        json_schema_extra={"group": "process"})

    # -- several workers (Redis) -----------------------------------------------------------
    redis_url: str | None = Field(None, description="Redis, e.g. redis://127.0.0.1:6379/0: "
                                  "run as one worker of several behind a proxy "
                                  "(docs/deploy.md); unset: one process runs every table",
                                  json_schema_extra={"group": "cluster", "secret": True,
                                                     "flags": ["--redis-url", "--redis"],
                                                     "allowed": "a redis:// or rediss:// URL"})
    worker_id: str | None = Field(None, description="this worker's name in Redis and in the "
                                  "logs (default: host name, process id and a random tag)",
                                  json_schema_extra={"group": "cluster",
                                                     "allowed": "letters, digits, . _ : @ -"})
    lease_ttl: float = Field(LEASE_TTL, ge=0.3, le=120, description="seconds a table's lease "
                             "(and a worker's liveness) lasts unrenewed: about the failover "
                             "time", json_schema_extra={"group": "cluster", "unit": "seconds"})
    rpc_timeout: float = _seconds(RPC_TIMEOUT, "seconds a request forwarded to a table's owner "
                                  "waits before answering 503", gt=0, le=600, group="cluster")
    redis_prefix: str = Field("tg", min_length=1, max_length=40,
                              pattern=r"^[A-Za-z0-9_.-]+$",
                              description="the prefix of every Redis key and channel "
                              "(several deployments on one Redis)",
                              json_schema_extra={"group": "cluster",
                                                 "allowed": "1 to 40 letters, digits, . _ -"})

    # -- tables: pacing and clocks (Settings) ----------------------------------------------
    bot_pace: float = Field(TABLE.bot_pace, ge=0, description="multiplies bots' pauses (0: "
                            "instant)", json_schema_extra={"group": "tables"})
    away_after: float = _seconds(TABLE.away_after, "seconds a disconnected person keeps the "
                                 "seat before a bot plays for them")
    allow_seeds: bool = Field(TABLE.allow_seeds, description="let a table's creator choose "
                              "the seed (tests, reproductions)",
                              json_schema_extra={"group": "tables"})
    ping_every: float = _seconds(TABLE.ping_every, "seconds between latency pings at "
                                 "real-time tables (0: none)")
    hit_cap: float = _seconds(TABLE.hit_cap, "the most seconds an act at a real-time table is "
                              "credited before its arrival (half the measured round trip, "
                              "capped)", le=5)
    call_window: float = _seconds(TABLE.call_window, "seconds a real-time act's reserved "
                                  "moment waits for the act, holding the line", le=60)
    seating_every: float = _seconds(TABLE.seating_every, "seconds over which seating changes "
                                    "make one table message", le=10)
    db_retry: float = _seconds(TABLE.db_retry, "seconds between attempts to reach a database "
                               "that went away", gt=0, le=600)
    close_timeout: float = _seconds(TABLE.close_timeout, "seconds to deliver a closing "
                                    "connection's last messages; a client that reads none of "
                                    "it is cut after twice as long", gt=0, le=600)
    open_table_ttl: float = Field(
        TABLE.open_table_ttl, ge=0, le=604800, description="seconds after which an open table "
        "(waiting for people, never started) that nobody is connected to and nothing happened "
        "at is closed and leaves the lobby (0: never; docs/protocol.md)",
        json_schema_extra={"group": "tables", "unit": "seconds",
                           "allowed": "0 (never), or seconds from 60 to 604800 (a week), or a "
                                      "duration such as 30m, 2h or 1d"})
    unlisted_after: float = _seconds(TABLE.unlisted_after, "seconds an open table that nobody "
                                     "is connected to stays in the lobby's list (time to come "
                                     "back after closing the tab); its invite link works until "
                                     "it expires (0: listed until then)", le=86400)

    # -- limits per client (Settings; counted across the workers with Redis) ---------------
    rate: float = Field(TABLE.rate, gt=0, description="client messages per second per "
                        "connection, sustained", json_schema_extra={"group": "limits"})
    burst: int = _count(TABLE.burst, "client messages at once per connection")
    queue_limit: int = _count(TABLE.queue_limit, "unsent messages before a connection that "
                              "reads too slowly is closed")
    queue_bytes: int = _count(TABLE.queue_bytes, "unsent bytes before a connection that reads "
                              "too slowly is closed", ge=1024)
    address_connections: int = _count(TABLE.address_connections, "websockets open at once "
                                      "from one address")
    table_connections: int = _count(TABLE.table_connections, "websockets open at once to one "
                                    "table")
    tables_burst: int = _count(TABLE.tables_burst, "tables one address may create at once")
    tables_per_minute: float = Field(TABLE.tables_per_minute, gt=0, description="tables one "
                                     "address may create per minute after the burst",
                                     json_schema_extra={"group": "limits"})
    login_attempts: int = _count(TABLE.login_attempts, "failed sign-ins per user name (four "
                                 "times as many per address) within login_window")
    login_window: float = _seconds(TABLE.login_window, "seconds over which failed sign-ins "
                                   "are counted", gt=0, group="limits")
    hash_slots: int = Field(TABLE.hash_slots, ge=1, le=64, description="password hashes "
                            "(argon2id, 64 MiB and about a second each) at once, per process "
                            "or per cluster with Redis; beyond them a sign-in is answered 429 "
                            "with Retry-After", json_schema_extra={"group": "limits"})

    # -- error reporting and tracing (off unless set) --------------------------------------
    sentry_dsn: str | None = Field(None, description="report unhandled errors to Sentry at "
                                   "this DSN (needs sentry-sdk: tiergarten[ops])",
                                   json_schema_extra={"group": "observability",
                                                      "secret": True, "allowed": "a DSN URL"})
    sentry_environment: str = Field("production", min_length=1, description="the environment "
                                    "named in Sentry's reports",
                                    json_schema_extra={"group": "observability"})
    otlp_endpoint: str | None = Field(None, description="send traces (OpenTelemetry, OTLP over "
                                      "HTTP) to this endpoint, e.g. "
                                      "http://127.0.0.1:4318/v1/traces (needs the "
                                      "OpenTelemetry packages: tiergarten[ops])",
                                      json_schema_extra={"group": "observability",
                                                         "allowed": "an http(s):// URL"})
    otel_service_name: str = Field("tiergarten", min_length=1, description="the service name "
                                   "traces carry", json_schema_extra={"group": "observability"})

    # -- the lab in the browser (Settings; server/lab, docs/lab.md) ------------------------
    lab_workers: int = _count(TABLE.lab_workers, "processes that play one lab run's games (1: "
                              "a thread of the server's process)", group="lab")
    lab_running: int = _count(TABLE.lab_running, "lab runs played at once, per process or "
                              "per cluster with Redis; the others wait in the queue",
                              group="lab")
    lab_queue: int = _count(TABLE.lab_queue, "lab runs that may wait at once, per process or "
                            "per cluster with Redis; beyond, a run is refused (503)", ge=0,
                            group="lab")
    lab_per_user: int = _count(TABLE.lab_per_user, "lab runs one user (an account, else an "
                               "address) may have queued or running at once, per process or "
                               "per cluster with Redis (429 beyond)", group="lab")
    lab_games: int = _count(TABLE.lab_games, "games one lab run may play in all (line-ups "
                            "times games)", group="lab")
    lab_seconds: float = _seconds(TABLE.lab_seconds, "the longest a lab run may take, by the "
                                  "time of its first games; a longer one stops after them",
                                  gt=0, group="lab")

    GROUPS: ClassVar[dict[str, str]] = {
        "process": "The process", "cluster": "Several workers (Redis)",
        "tables": "Tables: pacing and clocks", "limits": "Limits per client",
        "lab": "The lab in the browser", "observability": "Error reporting and tracing"}

    # -- checks ------------------------------------------------------------------------------

    @field_validator("open_table_ttl", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> Any:
        return duration(value)

    @field_validator("open_table_ttl")
    @classmethod
    def _long_enough(cls, value: float) -> float:
        if 0 < value < 60:
            raise Refused("is too short: 0 (never), or at least 60 seconds (a minute)")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        why = _refusal(value.strip())
        if why:
            raise Refused(f"{why}; give the address people open, e.g. {EXAMPLE} or "
                          "https://games.example.org/tiergarten")
        parts = urlsplit(value.strip())
        return f"{parts.scheme.lower()}://{parts.netloc}{parts.path.rstrip('/')}"

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("redis", "rediss", "unix"):
            raise Refused("must start with redis://, rediss:// or unix://")
        return value

    @field_validator("otlp_endpoint", "sentry_dsn")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and (urlsplit(value).scheme not in ("http", "https")
                                  or not urlsplit(value).hostname):
            raise Refused("must be an http:// or https:// URL with a host")
        return value

    @field_validator("worker_id")
    @classmethod
    def _worker_id(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_.:@-]{1,80}", value):
            raise Refused("may hold only letters, digits and . _ : @ - (at most 80)")
        return value

    @field_validator("db")
    @classmethod
    def _db(cls, value: str | None) -> str | None:
        if value is not None and "://" in value and not value.startswith(
                ("postgresql://", "postgresql+psycopg://", "postgres://", "sqlite://")):
            raise Refused("is neither a SQLite path nor a postgresql:// URL")
        return value

    @model_validator(mode="after")
    def _together(self) -> Self:
        if self.lan and self.host is not None and _is_loopback_host(self.host):
            raise Refused(f"--lan (TIERGARTEN_LAN) listens on the local network, but --host "
                          f"(TIERGARTEN_HOST) {self.host} is loopback: no other device could "
                          "connect; leave the host out (every address)")
        return self


def _is_loopback_host(host: str) -> bool:
    from .edge.invite import is_loopback

    try:
        import ipaddress

        bracketed = f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        bracketed = host
    return is_loopback(f"http://{bracketed}/")
