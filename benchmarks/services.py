"""Throwaway Redis and Caddy for the multi-worker tests and benchmarks (loopback, temp dirs).

`Redis()` runs Debian's redis-server in the foreground with no persistence; `Caddy(ports)`
runs Caddy as a reverse proxy on a free port in front of the given worker ports with
deploy/Caddyfile itself, only served over plain HTTP on loopback (`caddyfile`): what is tested
and measured is what is deployed (a table's requests by its id to one worker, the rest round
robin, websockets carried as they are).
Both run as the `nobody` user when we are root (neither needs root; least privilege), with
their files in a temp dir, and are stopped (and the dir removed) by `stop()`.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "nobody"
DEPLOYED_CADDYFILE = Path(__file__).resolve().parents[1] / "deploy" / "Caddyfile"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _need(binary: str, package: str) -> str:
    found = shutil.which(binary) or next((f"{d}/{binary}" for d in ("/usr/bin", "/usr/sbin")
                                          if Path(f"{d}/{binary}").exists()), None)
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
            self.log.touch()  # theirs too: nginx writes its errors there itself
            os.chown(self.log, user.pw_uid, user.pw_gid)

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

    def halt(self) -> None:
        """Stop the server, keeping its port and folder: Redis goes away, and with it every
        key (no persistence), as a restarted Redis loses them (the outage tests)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)

    def resume(self) -> None:
        """Start it again on the same port, empty."""
        self.start()

    def version(self) -> str:
        done = subprocess.run([_need("redis-server", "redis-server"), "--version"],
                              capture_output=True, text=True, timeout=10)
        return done.stdout.strip()


def caddyfile(port: int, ports: list[int]) -> str:
    """deploy/Caddyfile for loopback: plain HTTP at 127.0.0.1:`port`, the workers at `ports`.

    >>> text = caddyfile(8000, [8001, 8002])
    >>> "http://127.0.0.1:8000 {" in text, "to 127.0.0.1:8001 127.0.0.1:8002" in text
    (True, True)
    """
    upstreams = " ".join(f"127.0.0.1:{p}" for p in ports)
    return _edited(DEPLOYED_CADDYFILE, (
        (r"(?m)^\tadmin localhost:2019$", "\tadmin off\n\tauto_https off"),  # many at once
        (r"(?m)^play\.example\.org \{$", f"http://127.0.0.1:{port} {{"),
        (r"(?m)^(\s+)to 127\.0\.0\.1:8001 .*$", rf"\1to {upstreams}")))


def _edited(path: Path, edits: tuple[tuple[str, str], ...]) -> str:
    """A deploy/ file with each (pattern, replacement) applied; a pattern that no longer
    matches (the file changed) is an error, not a silently different proxy."""
    text = path.read_text()
    for pattern, replacement in edits:
        text, found = re.subn(pattern, replacement, text)
        if not found:
            raise RuntimeError(f"deploy/{path.name} has no part matching {pattern!r}")
    return text


class _Proxy(_Service):
    """A proxy on 127.0.0.1 and a free port, in front of the workers at `ports`."""

    name = ""

    def __init__(self, ports: list[int]) -> None:
        super().__init__(f"tg-{self.name}-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.configure(ports)

    def configure(self, ports: list[int]) -> None:
        raise NotImplementedError

    def _serve(self, cmd: list[str], env: dict[str, str] | None = None) -> None:
        self._start(cmd, env)
        assert self.proc is not None
        _wait_port(self.port, self.proc, self.name, self.log)


class Caddy(_Proxy):
    """Caddy proxying to the workers with deploy/Caddyfile (`caddyfile`)."""

    name = "caddy"

    def configure(self, ports: list[int]) -> None:
        (self.dir / "Caddyfile").write_text(caddyfile(self.port, ports))

    def start(self) -> Caddy:
        home = str(self.dir)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
        self._serve([_need("caddy", "caddy"), "run", "--config", str(self.dir / "Caddyfile"),
                     "--adapter", "caddyfile"], env)
        return self

    def version(self) -> str:
        done = subprocess.run([_need("caddy", "caddy"), "version"], capture_output=True,
                              text=True, timeout=10)
        return done.stdout.strip()


DEPLOYED_NGINX = DEPLOYED_CADDYFILE.with_name("nginx.conf")
NGINX_MAIN = """pid {dir}/nginx.pid;
worker_processes 1;
events {{}}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/site.conf;
}}
"""


def nginx_site(port: int, ports: list[int], access_log: str = "off") -> str:
    """deploy/nginx.conf for loopback: plain HTTP at 127.0.0.1:`port` (no redirect, no TLS),
    every upstream listing the workers at `ports`, its access log at `access_log`.

    >>> site = nginx_site(8000, [8001, 8002])
    >>> "listen 127.0.0.1:8000;" in site, "ssl" in site, site.count("server 127.0.0.1:8002")
    (True, False, 2)
    """
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in ports)
    return _edited(DEPLOYED_NGINX, (
        (r"(?ms)^server \{\n    listen 80;.*?^\}\n\n", ""),  # the redirect to https
        (r"(?m)^    listen 443 .*\n    listen \[::\]:443 .*$", f"    listen 127.0.0.1:{port};"),
        (r"(?m)^    ssl_certificate.*\n", ""),
        (r"(?m)^    access_log /var/log/nginx/tiergarten\.access\.log tiergarten;$",
         f"    access_log {access_log}{'' if access_log == 'off' else ' tiergarten'};"),
        (r"(?m)(?:^    server 127\.0\.0\.1:800\d .*\n)+", servers)))


class Nginx(_Proxy):
    """nginx proxying to the workers with deploy/nginx.conf's site (`nginx_site`), one
    worker process, its files in the temp dir."""

    name = "nginx"

    def configure(self, ports: list[int]) -> None:
        self.access_log = self.dir / "access.log"
        (self.dir / "site.conf").write_text(nginx_site(self.port, ports, str(self.access_log)))
        (self.dir / "nginx.conf").write_text(NGINX_MAIN.format(dir=self.dir))

    def start(self) -> Nginx:
        self._serve([_need("nginx", "nginx-light"), "-p", str(self.dir), "-c",
                     str(self.dir / "nginx.conf"), "-e", str(self.log), "-g", "daemon off;"])
        return self


class CpuCap:
    """A process held to `cores` of CPU time (a cgroup's CFS quota, root only), so that a
    small machine can show how the workers scale when each has its own share: the quota is
    per 10 ms (a process over it waits at most the rest of those 10 ms, not of the kernel's
    default 100 ms). cgroup v1's cpu controller or v2's cpu.max, whichever is mounted."""

    PERIOD_US = 10_000

    def __init__(self, pid: int, cores: float) -> None:
        quota = max(1000, round(cores * self.PERIOD_US))
        name = f"tg-bench-{os.getpid()}-{pid}"
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        try:
            if (v1 / "cpu.cfs_quota_us").exists():
                self.dir = v1 / name
                self.dir.mkdir()
                (self.dir / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (self.dir / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                self.dir = v2 / name
                self.dir.mkdir()
                (self.dir / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
            (self.dir / "cgroup.procs").write_text(str(pid))
        except OSError as exc:
            raise RuntimeError(f"cannot cap a process's CPU here ({exc}): it needs root and "
                               "a cgroup cpu controller") from None

    def remove(self) -> None:
        """After the process ended (a cgroup with processes in it cannot go)."""
        with contextlib.suppress(OSError):
            self.dir.rmdir()
