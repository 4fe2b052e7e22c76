"""The server's one configuration: every setting a `tiergarten serve` flag and a `TIERGARTEN_*`
environment variable, with one default each (pydantic-settings).

`ServerConfig.load(flags, env)` reads the environment (`os.environ` unless given), lets the
flags given on the command line win, and checks everything before anything is served: a
`TIERGARTEN_*` variable that is no setting (a typo such as `TIERGARTEN_REDIS`) is refused, and
so is every value out of its range, each error naming its flag or variable and what is
allowed (`ConfigError`; the command line prints it and exits 2). `tiergarten config` prints
the effective values (secrets masked); docs/deploy.md lists every setting (`markdown()`, a
test checks the list is this model's).

The table settings (`Settings`, server/edge/settings.py: pacing and limits) and the cluster's
(`ClusterSettings`) keep their defaults where they are; this model takes them from there, so
each default is written once.

>>> config = ServerConfig.load({"port": "8123"}, env={"TIERGARTEN_LEASE_TTL": "2"})
>>> config.port, config.lease_ttl, config.source("port"), config.source("lease_ttl")
(8123, 2.0, 'flag', 'environment')
>>> def said(env):
...     try:
...         ServerConfig.load(env=env)
...     except ConfigError as exc:
...         return str(exc)
>>> said({"TIERGARTEN_REDIS": "redis://127.0.0.1/0"})
'TIERGARTEN_REDIS is not a setting (did you mean TIERGARTEN_REDIS_URL?); ...'
>>> said({"TIERGARTEN_LEASE_TTL": "abc"})
"TIERGARTEN_LEASE_TTL='abc' is not allowed; allowed: a number of seconds from 0.3 to 120"
"""

from __future__ import annotations

import contextvars
import dataclasses
import difflib
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal
from urllib.parse import urlsplit, urlunsplit

import annotated_types
from pydantic import (
    Field,
    JsonValue,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings.sources.utils import parse_env_vars

from .cluster.settings import LEASE_TTL, RPC_TIMEOUT, ClusterSettings, new_worker_id
from .edge.invite import EXAMPLE, _refusal
from .edge.settings import Settings

PREFIX = "TIERGARTEN_"
# Variables of tiergarten's other parts, read where they are used: not server settings, and
# not refused either.
OTHER_VARIABLES = {
    "TIERGARTEN_PURE": "MammuZ in pure Python instead of its C kernel (docs/games/mammuz.md)",
    "TIERGARTEN_NO_KERNEL": "skip building MammuZ's C kernel when installing (hatch_build.py)",
}
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
TABLE = Settings()  # the table settings' defaults, from the one place they are written
INTERNAL = {"max_message"}  # a Settings field that is part of the protocol, not a setting
SECRET = "***"

_ENV: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("env",
                                                                                 default=None)


class ConfigError(ValueError):
    """What is wrong with the configuration, one line per problem, each naming its flag or
    variable and what is allowed."""


class Refused(ValueError):
    """A value a validator refuses: the message says why (after the name and the value)."""


def _seconds(default: float, doc: str, *, ge: float = 0.0, le: float | None = None,
             gt: float | None = None, group: str = "tables") -> Any:
    extra: dict[str, JsonValue] = {"group": group, "unit": "seconds"}
    if gt is not None:
        return Field(default, gt=gt, le=le, description=doc, json_schema_extra=extra)
    return Field(default, ge=ge, le=le, description=doc, json_schema_extra=extra)


def _count(default: int, doc: str, *, ge: int = 1, group: str = "limits") -> Any:
    return Field(default, ge=ge, description=doc, json_schema_extra={"group": group})


class ServerConfig(BaseSettings):
    """Everything `tiergarten serve` can be told (see the module doc)."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, case_sensitive=False, extra="forbid",
                                      env_ignore_empty=True, frozen=True,
                                      validate_default=True)

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

    _sources: dict[str, str] = PrivateAttr(default_factory=dict)  # name -> flag/environment
    _worker: str = PrivateAttr(default_factory=new_worker_id)  # if worker_id is not set
    GROUPS: ClassVar[dict[str, str]] = {
        "process": "The process", "cluster": "Several workers (Redis)",
        "tables": "Tables: pacing and clocks", "limits": "Limits per client",
        "observability": "Error reporting and tracing"}

    # -- checks ------------------------------------------------------------------------------

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
    def _together(self) -> ServerConfig:
        if self.lan and self.host is not None and _is_loopback_host(self.host):
            raise Refused(f"--lan (TIERGARTEN_LAN) listens on the local network, but --host "
                          f"(TIERGARTEN_HOST) {self.host} is loopback: no other device could "
                          "connect; leave the host out (every address)")
        return self

    # -- reading it ----------------------------------------------------------------------------

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, _Environment(settings_cls)

    @classmethod
    def load(cls, flags: Mapping[str, Any] | None = None,
             env: Mapping[str, str] | None = None) -> ServerConfig:
        """The configuration from `env` (default `os.environ`) with `flags` (field name ->
        value as given) winning; ConfigError says everything that is wrong."""
        env = dict(os.environ if env is None else env)
        flags = {k: v for k, v in (flags or {}).items() if v is not None}
        problems = unknown_variables(env)
        token = _ENV.set(env)
        try:
            config = cls(**flags)
        except ValidationError as exc:
            problems += [_explain(e, flags, env) for e in exc.errors()]
            config = None
        finally:
            _ENV.reset(token)
        if problems:
            raise ConfigError("\n".join(dict.fromkeys(problems)))
        assert config is not None
        given_env = {f for f in cls.model_fields if env_name(f) in _upper_keys(env)}
        sources = {f: "environment" for f in given_env} | {f: "flag" for f in flags}
        config._sources = sources
        return config

    def source(self, name: str) -> str:
        """Where a setting's value came from: "flag", "environment" or "default"."""
        return self._sources.get(name, "default")

    # -- what the parts are given ------------------------------------------------------------

    def table_settings(self) -> Settings:
        """The tables' settings (`Settings`)."""
        names = {f.name for f in dataclasses.fields(Settings)} - INTERNAL
        return Settings(**{n: getattr(self, n) for n in names})

    def cluster_settings(self) -> ClusterSettings | None:
        """The cluster's settings, or None for one process (no Redis)."""
        if self.redis_url is None:
            return None
        return ClusterSettings(self.redis_url, self.worker(), self.lease_ttl, self.rpc_timeout,
                               self.redis_prefix)

    def worker(self) -> str:
        """This process's worker id (made once if none is set)."""
        return self.worker_id or self._worker

    # -- what it says --------------------------------------------------------------------------

    def shown(self, name: str) -> str:
        """A setting's value as `tiergarten config` prints it: secrets masked."""
        value = getattr(self, name)
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if _extra(type(self).model_fields[name]).get("secret"):
            return mask(str(value))
        return f"{value:g}" if isinstance(value, float) else str(value)

    def env_file(self) -> str:
        """Every setting as `TIERGARTEN_NAME=value` lines, grouped, each with its source."""
        lines = ["# the effective settings of `tiergarten serve` (flag > environment > "
                 "default); secrets masked"]
        for group, title in self.GROUPS.items():
            lines.append(f"\n# {title}")
            for name in fields_of(group):
                lines.append(f"{env_name(name)}={self.shown(name)}  # {self.source(name)}")
        return "\n".join(lines)


class _Environment(EnvSettingsSource):
    """The environment `ServerConfig.load` was given (not always `os.environ`)."""

    def _load_env_vars(self) -> Mapping[str, str | None]:
        env = _ENV.get()
        return parse_env_vars(os.environ if env is None else env, self.case_sensitive,
                              self.env_ignore_empty, self.env_parse_none_str)


# -- names, flags and the docs' list ---------------------------------------------------------


def env_name(name: str) -> str:
    return PREFIX + name.upper()


def flags_of(name: str) -> list[str]:
    return list(_extra(ServerConfig.model_fields[name]).get(
        "flags", ["--" + name.replace("_", "-")]))


def fields_of(group: str) -> list[str]:
    return [n for n, f in ServerConfig.model_fields.items() if _extra(f).get("group") == group]


def _upper_keys(env: Mapping[str, str]) -> set[str]:
    return {k.upper() for k, v in env.items() if v != ""}


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """A line for each `TIERGARTEN_*` variable that is no setting (nor another part's)."""
    known = {env_name(n) for n in ServerConfig.model_fields} | set(OTHER_VARIABLES)
    out = []
    for name in sorted(env):
        upper = name.upper()
        if not upper.startswith(PREFIX) or upper in known:
            continue
        close = difflib.get_close_matches(upper, sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        out.append(f"{name} is not a setting{hint}; `tiergarten config` and "
                   "docs/deploy.md list every setting")
    return out


def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def allowed(name: str) -> str:
    """What a setting may be, in words (the errors and the docs say it)."""
    field = ServerConfig.model_fields[name]
    extra = _extra(field)
    if "allowed" in extra:
        return str(extra["allowed"])
    annotation = field.annotation
    choices = getattr(annotation, "__args__", ())
    if getattr(annotation, "__origin__", None) is Literal:
        return "one of " + ", ".join(map(str, choices))
    if annotation is bool:
        return "true or false (also 1/0, yes/no, on/off)"
    low: Any = None
    high: Any = None
    above = False
    for rule in field.metadata:
        if isinstance(rule, annotated_types.Ge):
            low = rule.ge
        elif isinstance(rule, annotated_types.Gt):
            low, above = rule.gt, True
        elif isinstance(rule, annotated_types.Le):
            high = rule.le
    kind = "a whole number" if annotation is int else "a number"
    if extra.get("unit"):
        kind += f" of {extra['unit']}"
    if low is not None and high is not None:
        return f"{kind} from {low:g} to {high:g}" if not above else \
            f"{kind} above {low:g}, at most {high:g}"
    if low is not None:
        return f"{kind} above {low:g}" if above else f"{kind}, at least {low:g}"
    return "text" if annotation in (str, str | None) else kind


def _explain(error: Any, flags: Mapping[str, Any], env: Mapping[str, str]) -> str:
    """One error of pydantic's as a line naming the flag or variable and what is allowed."""
    name = str(error["loc"][0]) if error.get("loc") else ""
    cause = (error.get("ctx") or {}).get("error")
    if name not in ServerConfig.model_fields:  # the model's own check (several settings)
        return str(cause) if isinstance(cause, Refused) else error["msg"]
    value = flags[name] if name in flags else next(
        (v for k, v in env.items() if k.upper() == env_name(name)), error.get("input"))
    where = flags_of(name)[0] if name in flags else env_name(name)
    said = f"{where} {value!r}" if name in flags else f"{where}={value!r}"
    if isinstance(cause, Refused):
        return f"{said} {cause}"
    return f"{said} is not allowed; allowed: {allowed(name)}"


def mask(url: str) -> str:
    """A URL with its password (or a DSN's key) hidden.

    >>> mask("postgresql://tiergarten:s3cret@127.0.0.1/tiergarten")
    'postgresql://tiergarten:***@127.0.0.1/tiergarten'
    >>> mask("https://abc123@o1.ingest.sentry.io/42"), mask("/var/lib/tiergarten/t.db")
    ('https://***@o1.ingest.sentry.io/42', '/var/lib/tiergarten/t.db')
    """
    parts = urlsplit(url)
    if "://" not in url or "@" not in parts.netloc:
        return url
    user, _, host = parts.netloc.rpartition("@")
    name, colon, _password = user.partition(":")
    hidden = f"{name}:{SECRET}" if colon else SECRET
    return urlunsplit(parts._replace(netloc=f"{hidden}@{host}"))


def markdown() -> str:
    """The settings as docs/deploy.md lists them (a test compares the two)."""
    lines = []
    for group, title in ServerConfig.GROUPS.items():
        lines += [f"**{title}**", "", "| variable | flag | default | allowed | what |",
                  "|---|---|---|---|---|"]
        for name in fields_of(group):
            field = ServerConfig.model_fields[name]
            default = field.default
            shown = ("none" if default is None else ("true" if default else "false")
                     if isinstance(default, bool) else f"{default:g}"
                     if isinstance(default, float) else str(default))
            flags = ", ".join(f"`{f}`" for f in flags_of(name))
            lines.append(f"| `{env_name(name)}` | {flags} | `{shown}` | {allowed(name)} | "
                         f"{field.description} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _is_loopback_host(host: str) -> bool:
    from .edge.invite import is_loopback

    try:
        import ipaddress

        bracketed = f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        bracketed = host
    return is_loopback(f"http://{bracketed}/")


def every_field() -> Iterator[tuple[str, FieldInfo]]:
    yield from ServerConfig.model_fields.items()
