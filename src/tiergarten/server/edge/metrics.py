"""Prometheus metrics of one server process, served at `/metrics` (docs/deploy.md lists them).

Counters and histograms are updated where things happen (an act told, a commit, an error
sent, a request answered, a table adopted); the gauges of tables and connections are read when
scraped, those of the database and Redis set by the app's watch (server/app.py). The process
collector adds `process_*` (CPU, memory, file descriptors), and the platform and GC collectors
`python_*`. Every process has its own:
scrape each worker at its own address, not through the proxy.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)

import tiergarten
from tiergarten.core import game_class

from .protocol import PROTOCOL

REGISTRY = CollectorRegistry()
BUILD = Info("tiergarten_build", "The release this process runs, its protocol and each game's "
             "rules version", registry=REGISTRY)
BUILD.info({"version": tiergarten.__version__, "protocol": str(PROTOCOL),
            **{f"rules_{g}": str(game_class(g).info.rules_version) for g in tiergarten.games()}})
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

ACTS = Counter("tiergarten_acts", "Acts committed and told, by game", ["game"],
               registry=REGISTRY)
ACT_TO_UPDATE = Histogram(
    "tiergarten_act_to_update_seconds", "From an act's arrival (real time: its credited time) "
    "to its update handed to every connection", buckets=_FAST, registry=REGISTRY)
COMMIT = Histogram("tiergarten_commit_seconds", "Time the store took to commit one act",
                   buckets=_FAST, registry=REGISTRY)
ERRORS = Counter("tiergarten_client_errors", "Error messages sent to clients, by code",
                 ["code"], registry=REGISTRY)
SERVER_ERRORS = Counter(
    "tiergarten_server_errors", "Errors of the server, each counted once, by kind: "
    "request_exception (an exception escaped a request: it answered 500), task_exception (a "
    "background task, callback or thread failed), http_5xx (another answer of 500 or more), "
    "error_log (any other record logged at ERROR or above)", ["kind"], registry=REGISTRY)
for _kind in ("request_exception", "task_exception", "http_5xx", "error_log"):
    SERVER_ERRORS.labels(kind=_kind)  # every kind shows from the start, at 0
HTTP_REQUESTS = Counter("tiergarten_http_requests", "HTTP requests answered, by method, route "
                        "template and status", ["method", "route", "status"], registry=REGISTRY)
HTTP_SECONDS = Histogram("tiergarten_http_request_duration_seconds", "Time to answer an HTTP "
                         "request, by method and route template", ["method", "route"],
                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
                         registry=REGISTRY)
CONNECTIONS = Gauge("tiergarten_connections", "Open websockets held by this process",
                    registry=REGISTRY)
TABLES = Gauge("tiergarten_tables", "Live tables this process runs, by status", ["status"],
               registry=REGISTRY)
RELAYED = Gauge("tiergarten_relayed_connections", "Websockets held here whose table another "
                "process owns", registry=REGISTRY)
DATABASE_UP = Gauge("tiergarten_database_up", "1 while the database answers this process, 0 "
                    "while it does not (checked every few seconds)", registry=REGISTRY)
REDIS_UP = Gauge("tiergarten_redis_up", "1 while Redis answers this process, 0 while it does "
                 "not (several workers only: absent with one process)", registry=None)
FRAMES = Counter("tiergarten_bus_frames", "Frames this process published to the other "
                 "processes (Redis)", registry=REGISTRY)
FRAMES_DROPPED = Counter("tiergarten_bus_frames_dropped", "Frames this process could not "
                         "publish after three tries (Redis away)", registry=REGISTRY)
ADOPTIONS = Counter("tiergarten_adoptions", "Tables this process took over and rebuilt from "
                    "their logs, by reason: orphan (in play, nobody owned it: a worker died or "
                    "stopped), request (asked for, nobody ran it)", ["reason"],
                    registry=REGISTRY)
LEASES_LOST = Counter("tiergarten_leases_lost", "Tables this process let go because their "
                      "lease was no longer its own (renewals failed, another took over)",
                      registry=REGISTRY)
DEAD_WORKERS = Counter("tiergarten_dead_workers", "Other workers this process found dead "
                       "(their liveness expired) while it relayed to them", registry=REGISTRY)
LIMIT_REFUSALS = Counter("tiergarten_limit_refusals", "Requests refused by a per-address or "
                         "per-table limit, by limit", ["limit"], registry=REGISTRY)
LIMITS_LOCAL = Counter("tiergarten_limits_local", "Times the limits shared in Redis fell back "
                       "to this process's own counts for a while (Redis did not answer)",
                       registry=REGISTRY)
CLOSED_TABLES = Counter("tiergarten_tables_closed", "Tables this process closed before their "
                        "game ended, by reason: expired (open, nobody came within "
                        "open_table_ttl), operator (tiergarten admin close)", ["reason"],
                        registry=REGISTRY)
for _reason in ("orphan", "request"):
    ADOPTIONS.labels(reason=_reason)
for _reason in ("expired", "operator"):
    CLOSED_TABLES.labels(reason=_reason)
for _limit in ("tables", "address_connections", "table_connections"):
    LIMIT_REFUSALS.labels(limit=_limit)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, memory, open fds, start time
PlatformCollector(registry=REGISTRY)  # python_info
GCCollector(registry=REGISTRY)  # python_gc_*


def watch(tables: Callable[[str], int], relayed: Callable[[], int] | None = None) -> None:
    """Read the gauges from the running app when scraped."""
    for status in ("open", "playing", "over"):
        TABLES.labels(status=status).set_function(_counter(tables, status))
    if relayed is not None:
        RELAYED.set_function(relayed)


def watch_redis() -> None:
    """Show `tiergarten_redis_up` from now on (a worker of several)."""
    with contextlib.suppress(ValueError):  # already shown (another app in this process)
        REGISTRY.register(REDIS_UP)


def _counter(tables: Callable[[str], int], status: str) -> Callable[[], int]:
    return lambda: tables(status)


def exported() -> set[str]:
    """Every series name `/metrics` can show (a counter's `_total`, a histogram's `_bucket`,
    `_count` and `_sum`, ...): what the alert rules and the dashboard may name."""
    suffixes = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum",
                                                                  "_created"),
                "summary": ("_count", "_sum", "_created"), "info": ("_info",),
                "gauge": ("",), "unknown": ("",), "stateset": ("",), "gaugehistogram": (
                    "_bucket", "_gcount", "_gsum")}
    names = set()
    for family in [*REGISTRY.collect(), *REDIS_UP.collect()]:
        for suffix in suffixes.get(family.type, ("",)):
            names.add(family.name + suffix)
    return names
