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
import os
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import (
    PrivateAttr,
    ValidationError,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings.sources.utils import parse_env_vars

from .cluster.settings import ClusterSettings, new_worker_id
from .config_fields import Settable
from .config_words import (
    PREFIX,
    env_name,
    explain,
    extra,
    flags,
    mask,
    unknown,
)
from .config_words import allowed as allowed_in
from .config_words import markdown as listed
from .edge.settings import Settings

# Variables of tiergarten's other parts, read where they are used: not server settings, and
# not refused either.
OTHER_VARIABLES = {
    "TIERGARTEN_PURE": "MammuZ in pure Python instead of its C kernel (docs/games/mammuz.md)",
    "TIERGARTEN_NO_KERNEL": "skip building MammuZ's C kernel when installing (hatch_build.py)",
}
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
INTERNAL = {"max_message"}  # a Settings field that is part of the protocol, not a setting

__all__ = ["INTERNAL", "OTHER_VARIABLES", "PREFIX", "ConfigError", "ServerConfig",
           "allowed", "env_name", "every_field", "fields_of", "flags_of", "markdown", "mask",
           "unknown_variables"]

_ENV: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("env",
                                                                                 default=None)


class ConfigError(ValueError):
    """What is wrong with the configuration, one line per problem, each naming its flag or
    variable and what is allowed."""


class ServerConfig(Settable):
    """Everything `tiergarten serve` can be told (see the module doc)."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, case_sensitive=False, extra="forbid",
                                      env_ignore_empty=True, frozen=True,
                                      validate_default=True)

    _sources: dict[str, str] = PrivateAttr(default_factory=dict)  # name -> flag/environment
    _worker: str = PrivateAttr(default_factory=new_worker_id)  # if worker_id is not set

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
            problems += [explain(e, cls.model_fields, flags, env) for e in exc.errors()]
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
        if extra(type(self).model_fields[name]).get("secret"):
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


# -- names, flags and the docs' list (config_words.py says them) -----------------------------


def flags_of(name: str) -> list[str]:
    return flags(name, ServerConfig.model_fields[name])


def fields_of(group: str) -> list[str]:
    return [n for n, f in ServerConfig.model_fields.items() if extra(f).get("group") == group]


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """A line for each `TIERGARTEN_*` variable that is no setting (nor another part's)."""
    return unknown(env, {env_name(n) for n in ServerConfig.model_fields} | set(OTHER_VARIABLES))


def allowed(name: str) -> str:
    """What a setting may be, in words."""
    return allowed_in(ServerConfig.model_fields[name])


def markdown() -> str:
    """The settings as docs/deploy.md lists them (a test compares the two)."""
    return listed(ServerConfig.GROUPS, ServerConfig.model_fields)


def _upper_keys(env: Mapping[str, str]) -> set[str]:
    return {k.upper() for k, v in env.items() if v != ""}


def every_field() -> Iterator[tuple[str, FieldInfo]]:
    yield from ServerConfig.model_fields.items()
