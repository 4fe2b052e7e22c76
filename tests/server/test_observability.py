"""What an operator reads off the server: every error counted once and logged once, request
metrics by route template, request ids, JSON lines, and the optional Sentry and OpenTelemetry
(each with an in-memory transport or exporter), in one process (server/edge/requests.py,
server/edge/logs.py, server/observe.py)."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Route

from tiergarten.server.app import create_app
from tiergarten.server.cluster import Cluster, ClusterSettings
from tiergarten.server.config import ServerConfig
from tiergarten.server.edge import logs, metrics
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.storage.store import StoreUnavailable

from .harness import free_port


def sample(name: str, **labels: str) -> float:
    value = metrics.REGISTRY.get_sample_value(name, labels or None)
    return 0.0 if value is None else value


async def _boom(request: Any) -> Any:
    raise RuntimeError("a bug in a route")


async def _away(request: Any) -> Any:
    raise StoreUnavailable("the database is away")


def app_with_faults(tmp_path: Path) -> FastAPI:
    app = create_app(str(tmp_path / "t.db"), Settings(), web=None)
    app.router.routes[:0] = [Route("/boom/{thing}", _boom), Route("/away", _away)]
    return app


@pytest.fixture
def api(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_with_faults(tmp_path), raise_server_exceptions=False,
                    base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def records() -> Iterator[list[logging.LogRecord]]:
    """Every record that reaches the root logger, as configured by the server."""
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    keep = Keep(logging.DEBUG)
    keep.addFilter(logs.ContextFilter("w-test"))
    root = logging.getLogger()
    root.addHandler(keep)
    try:
        yield seen
    finally:
        root.removeHandler(keep)


def test_an_exception_in_a_request_is_a_500_logged_once_and_counted(
        api: TestClient, records: list[logging.LogRecord]) -> None:
    before = sample("tiergarten_server_errors_total", kind="request_exception")
    requests = sample("tiergarten_http_requests_total", method="GET", route="/boom/{thing}",
                      status="500")
    answer = api.get("/boom/7", headers={"X-Request-ID": "req-42"})
    assert answer.status_code == 500 and answer.headers["x-request-id"] == "req-42"
    assert answer.json()["request_id"] == "req-42" and "content-security-policy" in answer.headers
    assert sample("tiergarten_server_errors_total", kind="request_exception") == before + 1
    assert sample("tiergarten_http_requests_total", method="GET", route="/boom/{thing}",
                  status="500") == requests + 1  # the route's template, not /boom/7
    failed = [r for r in records if r.levelno >= logging.ERROR]
    assert len(failed) == 1, [r.getMessage() for r in failed]
    assert failed[0].request_id == "req-42" and failed[0].exc_info is not None  # type: ignore[attr-defined]
    line = json.loads(logs.JsonFormatter().format(failed[0]))
    assert line["request_id"] == "req-42" and "a bug in a route" in line["exc"]


def test_every_5xx_but_not_ready_counts_and_every_answer_has_a_request_id(api: TestClient) -> None:
    before = sample("tiergarten_server_errors_total", kind="http_5xx")
    answer = api.get("/away")
    assert answer.status_code == 503 and len(answer.headers["x-request-id"]) == 16
    assert sample("tiergarten_server_errors_total", kind="http_5xx") == before + 1
    shown = api.get("/api/tables/NoSuchTable1")
    assert shown.status_code == 404
    assert sample("tiergarten_http_requests_total", method="GET", route="/api/tables/{table_id}",
                  status="404") >= 1
    assert sample("tiergarten_http_request_duration_seconds_count", method="GET",
                  route="/api/tables/{table_id}") >= 1
    assert api.get("/nothing/here").status_code == 404
    assert sample("tiergarten_http_requests_total", method="GET", route="unmatched",
                  status="404") >= 1
    manager = api.app.state.manager  # type: ignore[attr-defined]
    manager.draining, before = True, sample("tiergarten_server_errors_total", kind="http_5xx")
    try:  # readiness saying "not ready" is its answer, not an error of the server
        assert api.get("/readyz").status_code == 503
    finally:
        manager.draining = False
    assert sample("tiergarten_server_errors_total", kind="http_5xx") == before
    assert sample("tiergarten_http_requests_total", method="GET", route="/readyz",
                  status="503") >= 1
    bad = api.get("/api/health", headers={"X-Request-ID": "no spaces allowed"})
    assert bad.headers["x-request-id"] != "no spaces allowed"  # made anew, not echoed


def test_metrics_export_counters_as_counters_and_the_process(api: TestClient) -> None:
    text = api.get("/metrics").text
    assert "# TYPE tiergarten_bus_frames_total counter" in text  # was a gauge that counted
    assert "# TYPE tiergarten_bus_frames gauge" not in text
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes",
                 "process_open_fds", "tiergarten_build_info", "tiergarten_database_up 1.0",
                 'tiergarten_server_errors_total{kind="task_exception"}',
                 'tiergarten_adoptions_total{reason="orphan"}', "tiergarten_leases_lost_total",
                 "tiergarten_limits_local_total", "tiergarten_bus_frames_dropped_total"):
        assert name in text, name


def test_a_task_nobody_awaits_is_logged_once_as_json_and_counted(
        records: list[logging.LogRecord]) -> None:
    before = sample("tiergarten_server_errors_total", kind="task_exception")

    async def fails() -> None:
        raise ConnectionError("Redis went away")

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(logs.asyncio_handler)
        forgotten = asyncio.ensure_future(fails())  # "Task exception was never retrieved"
        await asyncio.wait({forgotten})  # ended (asyncio.wait retrieves nothing) ...
        del forgotten  # ... and forgotten
        gc.collect()
        kept: set[asyncio.Task[Any]] = set()
        logs.spawn(fails(), kept, name="kept")  # kept, and its failure logged when it ends
        await asyncio.wait(set(kept), timeout=5)
        assert not kept

    asyncio.run(main())
    gc.collect()
    failed = [r for r in records if r.levelno >= logging.ERROR]
    assert len(failed) == 2, [r.getMessage() for r in failed]
    assert "never retrieved" in failed[0].getMessage() and "'kept'" in failed[1].getMessage()
    for record in failed:
        line = json.loads(logs.JsonFormatter().format(record))
        assert "Redis went away" in line["exc"] and "\n" not in logs.JsonFormatter().format(
            record)
    assert sample("tiergarten_server_errors_total", kind="task_exception") == before + 2


def test_releasing_a_lease_while_redis_is_away_leaves_no_unretrieved_task(
        records: list[logging.LogRecord]) -> None:
    """Leases.release() raised ConnectionError in a task nobody looked at: 'Task exception was
    never retrieved', a bare traceback on stderr, hundreds of them after an outage."""
    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(logs.asyncio_handler)
        nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens: refused at once
        cluster = Cluster(ClusterSettings(nowhere, "w1"), MemoryStore())
        for table in ("t1", "t2"):
            cluster.leases.held.add(table)
            cluster.release(table)
        await asyncio.wait(set(cluster._tasks), timeout=5)  # each ends once refused
        assert not cluster._tasks
        gc.collect()
        await cluster.client.aclose()
        cluster.sync.close()

    asyncio.run(main())
    gc.collect()
    said = [r.getMessage() for r in records]
    assert not any("never retrieved" in m for m in said), said
    released = [r for r in records if "could not be released" in r.getMessage()]
    assert [r.levelno for r in released] == [logging.WARNING] * 2
    assert {r.table for r in released} == {"t1", "t2"}  # type: ignore[attr-defined]


def test_every_line_is_json_with_the_worker_uvicorns_asyncios_warnings_and_finalizers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    monkeypatch.setattr("sys.stderr", out)
    # dictConfig closes every handler the process made before (pytest's own among them, and
    # with them this worker's capture of stderr): it sees only the ones this test makes
    monkeypatch.setattr(logging, "_handlerList", [])
    monkeypatch.setattr(logging, "_handlers", weakref.WeakValueDictionary())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "tiergarten",
                 "py.warnings", logs.START):
        logger = logging.getLogger(name)
        for attr in ("handlers", "level", "propagate", "disabled"):
            monkeypatch.setattr(logger, attr, getattr(logger, attr))
    try:
        logs.configure("json", "info", "games-8001")
        logs.banner("tiergarten serving on http://127.0.0.1:8001  (database: x)\n  only this",
                    "json")
        logging.getLogger("uvicorn.error").info("Started server process [1]")
        logging.getLogger("asyncio").error("Task exception was never retrieved",
                                           exc_info=ValueError("x"))
        logging.getLogger("tiergarten.server").warning("table %s: lease lost", "Tab1e")
        import warnings

        warnings.warn("something old", DeprecationWarning, stacklevel=1)

        class Finalized:
            def __del__(self) -> None:
                raise ValueError("in a finalizer")

        before = sample("tiergarten_server_errors_total", kind="task_exception")
        Finalized()  # collected at once: "Exception ignored in ...", which Python cannot raise
        assert sample("tiergarten_server_errors_total", kind="task_exception") == before + 1
    finally:
        logging.captureWarnings(False)
        root.handlers, root.level = saved
        import sys
        import threading

        threading.excepthook = threading.__excepthook__
        sys.excepthook = sys.__excepthook__
        sys.unraisablehook = sys.__unraisablehook__
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 6
    assert all(line["worker"] == "games-8001" for line in lines)
    assert lines[0]["message"].startswith("tiergarten serving on") and lines[0]["level"] == "INFO"
    assert lines[1]["logger"] == "uvicorn.error" and "ValueError" in lines[2]["exc"]
    assert lines[3]["table"] == "Tab1e" and lines[4]["logger"] == "py.warnings"
    assert "Finalized.__del__" in lines[5]["message"] and "in a finalizer" in lines[5]["exc"]


# -- optional: Sentry and OpenTelemetry ---------------------------------------------------------


def test_sentry_reports_an_unhandled_exception_when_configured(tmp_path: Path) -> None:
    sentry_sdk = pytest.importorskip("sentry_sdk")
    from sentry_sdk.transport import Transport

    from tiergarten.server import observe

    envelopes: list[Any] = []

    class Captured(Transport):
        def capture_envelope(self, envelope: Any) -> None:
            envelopes.append(envelope)

    assert not observe.start_reporting(ServerConfig.load(env={}))  # off unless configured
    config = ServerConfig.load({"sentry_dsn": "https://key@sentry.example.org/1",
                                "worker_id": "games-8001"}, env={})
    try:
        assert observe.start_reporting(config, transport=Captured)
        with TestClient(app_with_faults(tmp_path), raise_server_exceptions=False,
                        base_url="http://127.0.0.1") as api:
            assert api.get("/boom/1").status_code == 500
        sentry_sdk.flush()
    finally:
        sentry_sdk.init(dsn=None)  # off again for the other tests
    events = [item.payload.json for envelope in envelopes for item in envelope.items
              if item.type == "event"]
    assert events, envelopes
    event = events[0]
    values = event["exception"]["values"]
    assert values[-1]["type"] == "RuntimeError" and values[-1]["value"] == "a bug in a route"
    assert event["release"].startswith("tiergarten@") and event["tags"]["worker"] == "games-8001"


def test_opentelemetry_traces_requests_by_route_when_configured(tmp_path: Path) -> None:
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from tiergarten.server import observe

    app = app_with_faults(tmp_path)
    assert observe.start_tracing(app, ServerConfig.load(env={})) is None  # off by default
    exporter = InMemorySpanExporter()
    config = ServerConfig.load({"worker_id": "games-8002"}, env={})
    provider = observe.start_tracing(app, config, exporter=exporter)
    with TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1") as api:
        assert api.get("/api/tables/NoSuchTable1").status_code == 404
        assert api.get("/healthz").status_code == 200  # not traced
    provider.force_flush()
    servers = [s for s in exporter.get_finished_spans() if s.kind.name == "SERVER"]
    assert [s.attributes.get("http.route") for s in servers] == ["/api/tables/{table_id}"]
    assert provider.resource.attributes["service.instance.id"] == "games-8002"
