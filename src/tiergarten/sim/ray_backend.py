"""Run a plan's chunks of games as Ray tasks: `--backend ray`.

Each chunk is the same `play_range` a local worker runs, so the outcomes — and every figure
built from them — are identical to a local run of the same plan. With `address` the tasks go
to an existing cluster; without one a local Ray instance is started (and left running for the
rest of the process, as Ray does). Ray is an optional extra: `pip install "tiergarten[ray]"`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .tournament import Outcome, Plan, play_range


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ValueError("--backend ray needs Ray: pip install 'tiergarten[ray]'") from exc
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> Any:
    """Join the cluster at `address`, or start a local one, unless Ray is already running."""
    ray = _ray()
    if not ray.is_initialized():
        if address is not None:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    return ray


def run_chunks(p: Plan, chunks: Sequence[tuple[int, int]], address: str | None = None,
               ) -> Iterator[tuple[int, list[Outcome]]]:
    """Yield (chunk number, outcomes) as the cluster finishes each chunk."""
    ray = connect(address)
    task = ray.remote(play_range)
    pending = {task.remote(p, start, stop): k for k, (start, stop) in enumerate(chunks)}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            yield pending.pop(ref), ray.get(ref)


__all__ = ["connect", "run_chunks"]
