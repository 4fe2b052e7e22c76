"""The server's one configuration (server/config.py): `tiergarten serve` and `python -m
tiergarten.server` take every setting as a flag and a TIERGARTEN_* variable, refuse what is
not allowed before serving (exit 2, naming the flag or variable and what is allowed), and
`tiergarten config` prints what is in effect; deploy/ and docs/deploy.md use the same names.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tiergarten.server.config import (
    INTERNAL,
    OTHER_VARIABLES,
    ConfigError,
    ServerConfig,
    env_name,
    flags_of,
    markdown,
)
from tiergarten.server.edge.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_BEGIN, SETTINGS_END = "<!-- settings: begin", "<!-- settings: end -->"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What `serve` was started with (nothing is served)."""
    import tiergarten.server.main as server_main

    seen: list[Any] = []
    monkeypatch.setattr(server_main, "serve", seen.append)
    for name in list(__import__("os").environ):
        if name.upper().startswith("TIERGARTEN_") and name not in OTHER_VARIABLES:
            monkeypatch.delenv(name)
    return seen


def errors(result: Any) -> list[str]:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert all(line.startswith("error: ") for line in lines), lines
    return lines


@pytest.mark.parametrize(("env", "says"), [
    # a typo'd Redis URL once started a worker on its own against the shared database
    ({"TIERGARTEN_REDIS": "redis://127.0.0.1:6379/0"},
     "TIERGARTEN_REDIS is not a setting (did you mean TIERGARTEN_REDIS_URL?)"),
    ({"TIERGARTEN_LOG_LEVEL": "verbose"}, "TIERGARTEN_LOG_LEVEL='verbose' is not allowed; "
     "allowed: one of critical, error, warning, info, debug, trace"),
    ({"TIERGARTEN_LEASE_TTL": "abc"}, "TIERGARTEN_LEASE_TTL='abc' is not allowed; allowed: "
     "a number of seconds from 0.3 to 120"),
    ({"TIERGARTEN_LOG_FORMAT": "yaml"}, "TIERGARTEN_LOG_FORMAT='yaml' is not allowed; allowed: "
     "one of text, json"),
    ({"TIERGARTEN_TABLES_BURST": "0"}, "TIERGARTEN_TABLES_BURST='0' is not allowed; allowed: "
     "a whole number, at least 1"),
    ({"TIERGARTEN_ALLOW_SEEDS": "maybe"}, "TIERGARTEN_ALLOW_SEEDS='maybe' is not allowed; "
     "allowed: true or false"),
    ({"TIERGARTEN_REDIS_URL": "127.0.0.1:6379"}, "TIERGARTEN_REDIS_URL='127.0.0.1:6379' must "
     "start with redis://"),
    ({"TIERGARTEN_LAN": "1", "TIERGARTEN_HOST": "127.0.0.1"}, "127.0.0.1 is loopback"),
])
def test_a_bad_variable_is_named_with_what_is_allowed_before_serving(
        run, started: list[Any], monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
        says: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    (line,) = errors(run("serve"))
    assert says in line, line
    assert started == []  # refused before anything was served


@pytest.mark.parametrize(("args", "says"), [
    (["--lease-ttl", "abc"], "--lease-ttl 'abc' is not allowed; allowed: a number of seconds "
     "from 0.3 to 120"),
    (["--log-level", "verbose"], "--log-level 'verbose' is not allowed"),
    (["--redis", "localhost"], "--redis-url 'localhost' must start with redis://"),
    (["--call-window", "-1"], "--call-window '-1' is not allowed; allowed: a number of "
     "seconds from 0 to 60"),
])
def test_a_bad_flag_is_named_with_what_is_allowed(run, started: list[Any], args: list[str],
                                                  says: str) -> None:
    (line,) = errors(run("serve", *args))
    assert says in line, line
    assert started == []


def test_every_problem_is_said_at_once_and_the_flag_wins(run, started: list[Any],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERGARTEN_LEASE_TTL", "abc")
    monkeypatch.setenv("TIERGARTEN_PORTT", "8001")
    lines = errors(run("serve", "--rate", "0"))
    assert len(lines) == 3 and "TIERGARTEN_PORTT is not a setting" in lines[0]
    assert started == []
    monkeypatch.delenv("TIERGARTEN_PORTT")
    monkeypatch.setenv("TIERGARTEN_RATE", "5")
    assert run("serve", "--lease-ttl", "2", "--rate", "7").exit_code == 0
    (config,) = started
    assert (config.lease_ttl, config.rate) == (2.0, 7.0)
    assert (config.source("lease_ttl"), config.source("rate"), config.source("port")) == (
        "flag", "flag", "default")


def test_every_setting_reaches_the_part_that_uses_it(run, started: list[Any],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERGARTEN_REDIS_URL", "redis://127.0.0.1:6390/2")
    monkeypatch.setenv("TIERGARTEN_LEASE_TTL", "7.5")
    monkeypatch.setenv("TIERGARTEN_CALL_WINDOW", "2")
    monkeypatch.setenv("TIERGARTEN_TABLES_BURST", "5")
    monkeypatch.setenv("TIERGARTEN_WORKER_ID", "host-8001")
    monkeypatch.setenv("TIERGARTEN_PURE", "1")  # another part's variable: not refused
    assert run("serve", "--address-connections", "9", "--allow-seeds").exit_code == 0
    (config,) = started
    cluster = config.cluster_settings()
    assert (cluster.redis_url, cluster.lease_ttl, cluster.worker_id) == (
        "redis://127.0.0.1:6390/2", 7.5, "host-8001")
    table = config.table_settings()
    assert (table.call_window, table.tables_burst, table.address_connections,
            table.allow_seeds) == (2.0, 5, 9, True)


def test_a_switch_from_the_environment_stays_on_without_its_flag(
        run, started: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERGARTEN_ALLOW_SEEDS", "yes")
    assert run("serve").exit_code == 0
    assert started[0].allow_seeds and started[0].source("allow_seeds") == "environment"
    assert run("serve", "--no-allow-seeds").exit_code == 0
    assert not started[1].allow_seeds and started[1].source("allow_seeds") == "flag"


def test_the_settings_model_holds_every_table_setting_with_its_one_default() -> None:
    fields = ServerConfig.model_fields
    for field in dataclasses.fields(Settings):
        if field.name in INTERNAL:
            continue
        assert field.name in fields, field.name
        if field.name != "public_url":
            assert fields[field.name].default == field.default, field.name
    assert ServerConfig().table_settings() == Settings()


def test_config_prints_the_settings_in_effect_with_secrets_masked(
        run, started: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERGARTEN_DB", "postgresql://tiergarten:s3cret@127.0.0.1/tiergarten")
    monkeypatch.setenv("TIERGARTEN_REDIS_URL", "redis://:hush@127.0.0.1:6379/0")
    monkeypatch.setenv("TIERGARTEN_SENTRY_DSN", "https://key123@o1.ingest.example.org/42")
    result = run("config", "--lease-ttl", "4")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "s3cret" not in out and "hush" not in out and "key123" not in out
    assert "TIERGARTEN_DB=postgresql://tiergarten:***@127.0.0.1/tiergarten  # environment" in out
    assert "TIERGARTEN_LEASE_TTL=4  # flag" in out and "TIERGARTEN_PORT=8000  # default" in out
    named = set(re.findall(r"^(TIERGARTEN_[A-Z_]+)=", out, re.M))
    assert named == {env_name(n) for n in ServerConfig.model_fields}
    monkeypatch.setenv("TIERGARTEN_LOG_LEVEL", "verbose")
    assert "TIERGARTEN_LOG_LEVEL='verbose'" in errors(run("config"))[0]


def test_serve_help_names_every_flag_and_variable(run) -> None:
    out = " ".join(run("serve", "--help").output.split())
    for name in ServerConfig.model_fields:
        assert flags_of(name)[0] in out and env_name(name) in out, name


def test_docs_list_every_setting_as_the_model_has_it() -> None:
    text = (ROOT / "docs" / "deploy.md").read_text()
    begin, end = text.index(SETTINGS_BEGIN), text.index(SETTINGS_END)
    listed = text[text.index("\n", begin) + 1:end]
    assert listed == markdown(), ("docs/deploy.md's settings differ from the model: "
                                  "regenerate them with `tiergarten config --markdown`")


def test_the_deployed_env_file_and_unit_are_the_one_configuration() -> None:
    env = {}
    for line in (ROOT / "deploy" / "tiergarten.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    unit = (ROOT / "deploy" / "systemd" / "tiergarten@.service").read_text()
    env.update(re.findall(r"^Environment=(TIERGARTEN_\w+)=(\S+)$", unit, re.M))
    env["TIERGARTEN_WORKER_ID"] = env["TIERGARTEN_WORKER_ID"].replace("%H", "host").replace(
        "%i", "8001")
    exec_start = re.search(r"^ExecStart=\S+/tiergarten serve (.*)$", unit, re.M)
    assert exec_start is not None
    flags = exec_start.group(1).replace("%i", "8001").split()
    given = {}
    for flag, value in zip(flags[::2], flags[1::2], strict=True):
        name = next(n for n in ServerConfig.model_fields if flag in flags_of(n))
        given[name] = value
    config = ServerConfig.load(given, env)  # every name is a setting, every value allowed
    assert config.cluster_settings() is not None and config.log_format == "json"
    assert (config.lease_ttl, config.tables_burst) == (3.0, 20)
    with pytest.raises(ConfigError):
        ServerConfig.load(given, {**env, "TIERGARTEN_REDIS": env["TIERGARTEN_REDIS_URL"]})


def test_python_m_tiergarten_server_refuses_an_unknown_variable_before_serving(
        tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src"),
           "TIERGARTEN_REDIS": "redis://127.0.0.1:1/0", "TIERGARTEN_DB": str(tmp_path / "t.db")}
    done = subprocess.run([sys.executable, "-m", "tiergarten.server", "--port", "1"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""  # never "serving on"
    assert done.stderr.startswith("error: TIERGARTEN_REDIS is not a setting"), done.stderr
    assert not (tmp_path / "t.db").exists()
