"""The deployment as docs/deploy.md gives it, on loopback: each worker run with the command
line of deploy/systemd/tiergarten@.service and the settings of deploy/tiergarten.env, behind
deploy/Caddyfile (benchmarks/services.py), on a PostgreSQL and a redis-server of its own.

`unit_command(port)` is the unit's `ExecStart` (`%i` the port, `%H` the host name, the
program this virtualenv's `tiergarten`); `unit_environment(port, **given)` is what the unit
gives the process: its `EnvironmentFile` (deploy/tiergarten.env, read as systemd reads it) and
its own `Environment=` lines, with the test's `given` values in place of the file's (the
database, Redis and the public address are the test's own). A `UnitWorker` is one such
process: started, killed (SIGKILL), stopped (SIGTERM: the unit's `KillSignal`) and started
again as `Restart=always` would, every line it writes kept in one file across its lives.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .harness import SRC

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "systemd" / "tiergarten@.service"
ENV_FILE = DEPLOY / "tiergarten.env"
PROGRAM = "/opt/tiergarten/.venv/bin/tiergarten"  # where the walk-through installs it


def unit_lines(key: str) -> list[str]:
    """The values of every `key=` line of the unit's [Service] section."""
    found = re.findall(rf"(?m)^{key}=(.*)$", UNIT.read_text())
    assert found, f"{UNIT.name} has no {key}="
    return [value.strip() for value in found]


def _expand(text: str, port: int) -> str:
    return text.replace("%i", str(port)).replace("%H", socket.gethostname())


def unit_command(port: int) -> list[str]:
    """The unit's ExecStart for worker `port`, with this virtualenv's `tiergarten`."""
    (line,) = unit_lines("ExecStart")
    words = shlex.split(_expand(line, port))
    assert words[0] == PROGRAM, words
    program = Path(sys.executable).with_name("tiergarten")
    assert program.exists(), f"{program} is missing: install the package (pip install -e .)"
    return [str(program), *words[1:]]


def env_file() -> dict[str, str]:
    """deploy/tiergarten.env as systemd's EnvironmentFile reads it (KEY=value lines)."""
    values: dict[str, str] = {}
    for line in ENV_FILE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def unit_environment(port: int, **given: str) -> dict[str, str]:
    """What worker `port` runs with: the env file, the unit's own lines, then `given` (each
    replacing a line of the file: a key the file does not have is an error, not a new
    setting slipped in)."""
    (where,) = unit_lines("EnvironmentFile")
    assert where == "/etc/tiergarten/tiergarten.env", where
    settings = env_file()
    for line in unit_lines("Environment"):
        key, _, value = _expand(line, port).partition("=")
        settings[key] = value
    for key, value in given.items():
        assert key in settings, f"deploy/tiergarten.env sets no {key}"
        settings[key] = value
    return settings


class UnitWorker:
    """One worker process as its unit runs it (see the module doc)."""

    def __init__(self, port: int, settings: dict[str, str], home: Path) -> None:
        self.port, self.settings = port, settings
        self.id = settings["TIERGARTEN_WORKER_ID"]
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.lives = 0
        self.home = home  # its HOME, and where its log is kept (`log`)
        self.log = home / f"worker-{port}.log"
        self.http = httpx.Client(base_url=self.url, timeout=5, trust_env=False)
        self.started: list[float] = []  # seconds from each start to its first 200 of /readyz

    def start(self) -> UnitWorker:
        """Start the process (systemd's environment: only the unit's and the file's
        variables, no others) and wait until /readyz says it is ready."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
               "LANG": "C.UTF-8", "PYTHONPATH": str(SRC), **self.settings}
        begun = time.monotonic()
        with open(self.log, "ab") as out:  # journald: stdout and stderr, one stream
            self.proc = subprocess.Popen(unit_command(self.port), env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        self.lives += 1
        while not self.ready():  # a process starting has no event to wait on
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker {self.port} exited {self.proc.returncode}: "
                                   f"{self.output()[-3000:]}")
            if time.monotonic() - begun > 90:
                raise RuntimeError(f"worker {self.port} not ready within 90 s")
            time.sleep(0.1)
        self.started.append(time.monotonic() - begun)
        return self

    def ready(self) -> bool:
        with contextlib.suppress(httpx.HTTPError):
            return self.http.get("/readyz").status_code == 200
        return False

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9: no clean-up; what was committed is all there is."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self) -> int:
        """The unit's stop (SIGTERM, the graceful drain); its exit status."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)  # TimeoutStopSec

    def metric(self, name: str) -> float:
        """The sum of every sample of `name` on this worker's /metrics (inside: its port)."""
        text = self.http.get("/metrics").text
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith(name) and line[len(name)] in " {")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.http.close()
