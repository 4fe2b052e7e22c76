"""Run tasks of games as Ray tasks: `--backend ray`.

Each task is the same `pool.timed_range` a local worker runs (handed in as `work`), so the
outcomes — and every figure built from them — are identical to a local run of the same plans.
With `address` the tasks go to an existing cluster; without one a local Ray instance is started
with one CPU per worker (and left running for the rest of the process, as Ray does). Ray's own
start-up lines are kept out of the output. Ray is an optional extra:
`pip install "tiergarten[ray]"`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .tournament import Outcome, Plan

if TYPE_CHECKING:
    from .pool import Task


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ValueError("--backend ray needs Ray: pip install 'tiergarten[ray]'") from exc
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> Any:
    """Join the cluster at `address`, or start a local one of `num_cpus`, unless Ray is
    already running. Ray logs only errors, and its workers' output stays in their logs."""
    ray = _ray()
    if not ray.is_initialized():
        quiet = {"include_dashboard": False, "log_to_driver": False,
                 "logging_level": logging.ERROR}
        if address is not None:
            ray.init(address=address, **quiet)
        else:
            ray.init(num_cpus=num_cpus, **quiet)
    return ray


Work = Callable[[Plan, int, int], tuple[list[Outcome], float]]  # games start..stop-1, timed


def run_tasks(work: Work, plans: Sequence[Plan], tasks: Sequence[Task],
              address: str | None = None, num_cpus: int | None = None,
              ) -> Iterator[tuple[Task, list[Outcome], float]]:
    """Yield (task, outcomes, seconds) as the cluster finishes each task, done by `work`."""
    ray = connect(address, num_cpus)
    remote = ray.remote(work)
    refs = [ray.put(p) for p in plans]
    pending = {remote.remote(refs[t.plan], t.start, t.stop): t for t in tasks}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            outcomes, seconds = ray.get(ref)
            yield pending.pop(ref), outcomes, seconds


__all__ = ["connect", "run_tasks"]
