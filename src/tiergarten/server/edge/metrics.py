"""Prometheus metrics of one server process, served at `/metrics` (docs/deploy.md lists them).

Counters and histograms are updated where things happen (an act told, a commit, an error
sent); the gauges of tables and connections are read when scraped. Every process has its own:
scrape each worker at its own address, not through the proxy.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info

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
SERVER_ERRORS = Counter("tiergarten_server_errors", "Errors the server logged (tracebacks)",
                        registry=REGISTRY)
CONNECTIONS = Gauge("tiergarten_connections", "Open websockets held by this process",
                    registry=REGISTRY)
TABLES = Gauge("tiergarten_tables", "Live tables this process runs, by status", ["status"],
               registry=REGISTRY)
RELAYED = Gauge("tiergarten_relayed_connections", "Websockets held here whose table another "
                "process owns", registry=REGISTRY)
FRAMES = Gauge("tiergarten_bus_frames", "Frames this process published to the other "
               "processes (Redis)", registry=REGISTRY)


def watch(tables: Callable[[str], int], relayed: Callable[[], int] | None = None,
          frames: Callable[[], int] | None = None) -> None:
    """Read the gauges from the running app when scraped."""
    for status in ("open", "playing", "over"):
        TABLES.labels(status=status).set_function(_counter(tables, status))
    if relayed is not None:
        RELAYED.set_function(relayed)
    if frames is not None:
        FRAMES.set_function(frames)


def _counter(tables: Callable[[str], int], status: str) -> Callable[[], int]:
    return lambda: tables(status)
