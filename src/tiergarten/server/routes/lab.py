"""The lab in the browser over REST (docs/protocol.md, "The lab"; docs/lab.md):

- `GET /api/lab`: the lab's bounds (games a run may play, runs per user, the queue);
- `POST /api/lab/runs`: ask for a run (a game, its options, the bots, games and seed, or a
  sweep of one option); 201 with the run, 400 saying what is wrong and what is allowed, 429
  past the runs one user may have, 503 when the queue is full;
- `GET /api/lab/runs/{id}`: its status, progress and, once done, its figures — those of
  `tiergarten simulate --json` with the same request;
- `POST /api/lab/runs/{id}/cancel`: its owner cancels it, queued or running;
- `GET /api/lab/runs/{id}/report` and `.../files/{name}`: the HTML report of `--report`, as
  a fragment to show in a page, and its plots and report.json.

The runs are the process's (`server/lab`); in a cluster a request about a run another worker
plays is run by that worker (cluster/forward.py), so these routes see only their own. A run's
owner is its signed-in account, else the address it came from.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tiergarten.sim.report import fragment

from ..edge.settings import Refused, refusal
from ..lab import Lab, LabError, Run
from .account import signed_in

router = APIRouter()

Value = str | int | float | bool | dict[str, str] | None  # a mapping: MammuZ's powers


class RunRequest(BaseModel):
    """A run as `tiergarten simulate GAME --players ... -n GAMES --seed SEED -o k=v
    [--sweep option=a,b]` takes it."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=40)
    players: list[str] | None = Field(None, max_length=8, description="a bot per seat")
    games: int = Field(ge=1, description="games per line-up (per value of a sweep)")
    seed: int = Field(1, ge=0, le=2**63 - 1)
    options: dict[str, Value] = Field(default_factory=dict, max_length=40)
    sweep: str | None = Field(None, max_length=400, description="option=a,b,c")


def lab(request: Request) -> Lab:
    found: Lab = request.app.state.lab
    return found


def owner(request: Request) -> str:
    """Whose a run is: the signed-in account, else the address the request came from."""
    user = signed_in(request)
    if user is not None:
        return f"account:{user.name}"
    return f"address:{request.client.host if request.client else 'unknown'}"


def refused(exc: LabError) -> Refused:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return Refused(exc.status, exc.code, str(exc), exc.params, headers)


def need_run(request: Request, run_id: str) -> Run:
    run = lab(request).get(run_id)
    if run is None:
        raise Refused(404, "no_run", f"there is no lab run {run_id!r} (runs last until the "
                                     "server restarts, the newest 100 finished ones)",
                      {"run": run_id})
    return run


def shown(request: Request, run: Run) -> dict[str, Any]:
    return {**run.to_dict(lab(request).position(run)), "mine": run.owner == owner(request)}


@router.get("/api/lab")
async def bounds(request: Request) -> dict[str, Any]:
    s = lab(request).settings
    return {"games": s.lab_games, "per_user": s.lab_per_user, "queue": s.lab_queue,
            "running": s.lab_running, "workers": s.lab_workers, "seconds": s.lab_seconds}


@router.post("/api/lab/runs", status_code=201,
             responses={400: {"description": "the run is not one the lab can play"},
                        429: {"description": "this user has as many runs as they may"},
                        503: {"description": "the lab's queue is full"}})
async def ask(body: RunRequest, request: Request) -> dict[str, Any]:
    try:
        run = await lab(request).submit(owner(request), body.game, body.players, body.games,
                                  body.seed, dict(body.options), body.sweep)
    except LabError as exc:
        raise refused(exc) from exc
    return shown(request, run)


@router.get("/api/lab/runs/{run_id}")
async def show(run_id: str, request: Request) -> dict[str, Any]:
    return shown(request, need_run(request, run_id))


@router.post("/api/lab/runs/{run_id}/cancel")
async def cancel(run_id: str, request: Request) -> dict[str, Any]:
    run = need_run(request, run_id)
    try:
        lab(request).cancel(run, owner(request))
    except LabError as exc:
        raise refused(exc) from exc
    return shown(request, run)


@router.get("/api/lab/runs/{run_id}/report", response_class=HTMLResponse)
async def report(run_id: str, request: Request) -> Any:
    run = need_run(request, run_id)
    if run.folder is None:
        return JSONResponse(refusal(f"this run is {run.status}: a report is written when a "
                                    "run is done", "lab_not_done", {"status": run.status}),
                            status_code=409)
    page = (run.folder / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(fragment(page, f"api/lab/runs/{run.id}/files/"))


@router.get("/api/lab/runs/{run_id}/files/{name}")
async def report_file(run_id: str, name: str, request: Request) -> FileResponse:
    run = need_run(request, run_id)
    files = sorted(p.name for p in run.folder.iterdir()) if run.folder else []
    if name not in files:
        raise Refused(404, "no_file", f"this run has no file {name!r}; it has: "
                                      f"{', '.join(files) or 'none yet'}", {"name": name})
    assert run.folder is not None
    return FileResponse(run.folder / name)
