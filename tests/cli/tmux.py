"""A real terminal for tests: `tiergarten` run in a detached tmux session of a fixed size, keys
sent to it and its screen read back (`capture-pane`).

Each terminal has its own tmux server (a socket of its own, no user configuration), so tests
running side by side, or a person's own tmux, are never touched; `close` ends that server.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import tiergarten

CONFIG = "set -g status off\nset -g remain-on-exit on\nset -g history-limit 20000\n"


def tmux_binary() -> str:
    """The tmux program; a missing one fails the test (`make services` installs it)."""
    found = shutil.which("tmux")
    if found is None:
        raise AssertionError("tmux is not installed: `make services` installs it (Debian's tmux)")
    return found


class Terminal:
    """One `tiergarten` command in a width x height terminal."""

    def __init__(self, folder: Path, width: int = 80, height: int = 24) -> None:
        self.tmux = tmux_binary()
        self.folder = folder
        self.width, self.height = width, height
        self.socket = f"tiergarten-test-{uuid.uuid4().hex[:12]}"
        self.config = folder / "tmux.conf"
        self.config.write_text(CONFIG, encoding="utf-8")
        self.status = folder / "exit-status"  # written by the shell once the command ends

    def _tmux(self, *args: str) -> str:
        done = subprocess.run([self.tmux, "-L", self.socket, "-f", str(self.config), *args],
                              capture_output=True, text=True, timeout=20, check=True)
        return done.stdout

    def start(self, *args: str) -> None:
        """Run `tiergarten <args>` with this checkout's sources, in the test's folder."""
        source = Path(tiergarten.__file__).resolve().parents[1]
        env = {"PYTHONPATH": str(source), "TERM": "xterm-256color",
               "TIERGARTEN_PURE": os.environ.get("TIERGARTEN_PURE", "")}
        command = ["env", "-u", "COLUMNS", "-u", "LINES",  # the terminal's own size counts
                   *(f"{k}={v}" for k, v in env.items()), sys.executable, "-c",
                   "from tiergarten.cli import main; main()", *args]
        self.status.unlink(missing_ok=True)
        line = f"{shlex.join(command)}; echo $? > {shlex.quote(str(self.status))}"
        self._tmux("new-session", "-d", "-s", "main", "-x", str(self.width),
                   "-y", str(self.height), "-c", str(self.folder), line)

    def send(self, *keys: str) -> None:
        """Keys as tmux names them: text, "Enter", "Tab", "C-c"."""
        self._tmux("send-keys", "-t", "main", *keys)

    def type(self, line: str) -> None:
        """A line typed and Enter pressed."""
        self.send("-l", line)
        self.send("Enter")

    def screen(self) -> list[str]:
        """What the terminal shows now, one string per row (trailing blanks dropped)."""
        return self._tmux("capture-pane", "-p", "-t", "main").rstrip("\n").split("\n")

    def everything(self) -> list[str]:
        """Every line printed so far, the scrolled-away ones too."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-t", "main").rstrip("\n").split("\n")

    def exit_status(self) -> int | None:
        """The command's exit status once it has ended, else None."""
        written = self.status.read_text() if self.status.exists() else ""
        return int(written) if written.endswith("\n") else None

    def wait(self, ready: Callable[[list[str]], bool], seconds: float = 30.0) -> list[str]:
        """The screen once `ready(screen)` holds; fails after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            shown = self.screen()
            if ready(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError("the terminal did not get there in time; it shows:\n"
                                     + "\n".join(shown))
            time.sleep(0.05)

    def ended(self, seconds: float = 30.0) -> int:
        """Wait for the command to end; its exit status."""
        deadline = time.monotonic() + seconds
        while (status := self.exit_status()) is None:
            if time.monotonic() > deadline:
                raise AssertionError("the command did not end in time; it shows:\n"
                                     + "\n".join(self.screen()))
            time.sleep(0.05)
        return status

    def close(self) -> None:
        """End this terminal's tmux server and remove its socket (tmux leaves it behind)."""
        subprocess.run([self.tmux, "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=20, check=False)
        folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)
