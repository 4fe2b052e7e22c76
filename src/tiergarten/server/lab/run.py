"""One lab run as the lab keeps it (`Run`: its request, progress and result, what the REST
answers show of it) and the lab's errors (`LabError`: a run that cannot be had, with its HTTP
status); the runner is runner.py."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiergarten.sim.request import Mode

ACTIVE = ("queued", "running")


class LabError(ValueError):
    """A run that cannot be had; `status` is the HTTP status to answer, `code` and `params`
    what a client words in its own language (docs/protocol.md, "REST error codes")."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None,
                 code: str = "lab_refused", params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.code = code
        self.params = dict(params or {})


class Cancelled(Exception):
    """Raised from a run's progress to stop its games."""


class TooLong(Exception):
    """Raised from a run's estimate: the rest would take longer than the lab allows."""


@dataclass
class Run:
    """One run: its request as asked, its checked `mode`, its progress and its result."""

    id: str
    owner: str
    request: dict[str, Any]
    mode: Mode
    total: int  # games in all (line-ups × games)
    status: str = "queued"
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    estimate: str | None = None  # what the rest costs, from the first games
    folder: Path | None = None
    asked: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    cancelling: bool = False
    playing: threading.Event = field(default_factory=threading.Event)  # its first games are in
    finished: threading.Event = field(default_factory=threading.Event)

    def to_dict(self, position: int | None = None) -> dict[str, Any]:
        end = self.ended or time.time()
        return {"id": self.id, "status": self.status, "request": self.request,
                "done": self.done, "total": self.total, "position": position,
                "elapsed_s": None if self.started is None else round(end - self.started, 3),
                "estimate": self.estimate, "error": self.error, "result": self.result,
                "report": f"api/lab/runs/{self.id}/report" if self.folder else None}
