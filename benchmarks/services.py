"""Throwaway Redis and Caddy for the multi-worker tests and benchmarks (loopback, temp dirs).

`Redis()` runs Debian's redis-server in the foreground with no persistence; `Caddy(ports)`
runs Caddy as a reverse proxy on a free port in front of the given worker ports, round robin,
websockets carried as they are (the same proxy settings as deploy/Caddyfile, without TLS).
Both run as the `nobody` user when we are root (neither needs root; least privilege), with
their files in a temp dir, and are stopped (and the dir removed) by `stop()`.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "nobody"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _need(binary: str, package: str) -> str:
    found = shutil.which(binary) or (f"/usr/bin/{binary}" if Path(f"/usr/bin/{binary}").exists()
                                     else None)
    if found is None:
        raise RuntimeError(f"{binary} is missing: install it (apt-get install {package}, or "
                           f"`make services`)")
    return found


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited {proc.returncode}: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within 20 s")


class _Service:
    def __init__(self, prefix: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.log = self.dir / "log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.uid = self.gid = None
        if os.geteuid() == 0:
            user = pwd.getpwnam(USER)
            self.uid, self.gid = user.pw_uid, user.pw_gid
            os.chown(self.dir, user.pw_uid, user.pw_gid)

    def _start(self, cmd: list[str], env: dict[str, str] | None = None) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         cwd=self.dir, user=self.uid, group=self.gid,
                                         start_new_session=True)

    def stop(self) -> None:
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class Redis(_Service):
    """redis-server on 127.0.0.1 and a free port: no disk, no persistence."""

    def __init__(self) -> None:
        super().__init__("tg-redis-")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self._start([_need("redis-server", "redis-server"), "--port", str(self.port),
                     "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                     "--dir", str(self.dir)])
        assert self.proc is not None
        _wait_port(self.port, self.proc, "redis-server", self.log)
        return self

    def version(self) -> str:
        done = subprocess.run([_need("redis-server", "redis-server"), "--version"],
                              capture_output=True, text=True, timeout=10)
        return done.stdout.strip()


CADDYFILE = """{{
\tadmin off
\tauto_https off
}}

http://127.0.0.1:{port} {{
\treverse_proxy {upstreams} {{
\t\tlb_policy round_robin
\t\tlb_try_duration 5s
\t\tlb_try_interval 100ms
\t\tfail_duration 2s
\t\tflush_interval -1
\t}}
}}
"""


class Caddy(_Service):
    """Caddy on 127.0.0.1 and a free port, proxying to the workers at `ports`."""

    def __init__(self, ports: list[int]) -> None:
        super().__init__("tg-caddy-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        upstreams = " ".join(f"127.0.0.1:{p}" for p in ports)
        (self.dir / "Caddyfile").write_text(CADDYFILE.format(port=self.port,
                                                             upstreams=upstreams))

    def start(self) -> Caddy:
        home = str(self.dir)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
        self._start([_need("caddy", "caddy"), "run", "--config", str(self.dir / "Caddyfile"),
                     "--adapter", "caddyfile"], env)
        assert self.proc is not None
        _wait_port(self.port, self.proc, "caddy", self.log)
        return self

    def version(self) -> str:
        done = subprocess.run([_need("caddy", "caddy"), "version"], capture_output=True,
                              text=True, timeout=10)
        return done.stdout.strip()
