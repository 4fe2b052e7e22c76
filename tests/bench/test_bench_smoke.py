"""The benchmarks still run: the load generator against a real server on SQLite, the engine
loop, and the report writer, in their quick modes (no peers' venv, no network, no PostgreSQL)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _module(name: str) -> ModuleType:
    """benchmarks/<name>.py under the name tg_bench_<name> (`bench` is also this folder)."""
    sys.path.insert(0, str(BENCH))  # for the benchmarks' own imports of each other
    spec = importlib.util.spec_from_file_location(f"tg_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _module("bench")
load = _module("load")
report = _module("report")


@pytest.fixture(scope="module")
def load_run() -> dict[str, Any]:
    """Two tables of four people for two seconds, people thinking 0.05-0.15 s."""
    return load.run_steps("sqlite", [2], 2.0, (0.05, 0.15), log=lambda _: None)


def test_load_generator_plays_without_loss(load_run: dict[str, Any]) -> None:
    step = load_run["steps"][0]
    assert step["errors"] == 0, step["error_examples"]
    assert step["tables_made"] == 2 and step["connections"] == 8
    assert step["actions"] >= 10  # about 20 at this pace: the tables were really played
    # every intent reached all four seats (but one that lost a race to a catch: refused)
    assert step["updates"] == 4 * (step["intents"] - step["races"])
    lat = step["latency_s"]
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"] < 5
    assert step["memory_per_table_kb"] > 0 and step["server_rss_end_mb"] > 0


def test_engine_and_report(tmp_path: Path, load_run: dict[str, Any]) -> None:
    results: dict[str, Any] = {"machine": bench.machine(["--quick"]), "quick": True}
    results["engine"] = bench.engine(2, 0.05, ["maumau", "mucca_pazza"], None, lambda _: None)
    results["load"] = {"think_s": [0.05, 0.15], "seconds_per_step": 2.0,
                       "target": {"tables": 2, "connections": 8, "p99_s": 0.05, "errors": 0},
                       "backends": {"sqlite": load_run}}
    rows = {(r["game"], r["players"]): r for r in results["engine"]["rows"]}
    assert set(rows) == {("maumau", 2), ("maumau", 3), ("maumau", 4), ("mucca_pazza", 2),
                         ("mucca_pazza", 3), ("mucca_pazza", 4)}
    assert all(r["decisions_per_s"]["min"] > 0 and len(r["batches"]) == 2
               for r in rows.values())
    targets = results["engine"]["targets"]
    assert [t["target"].split()[0] for t in targets] == ["mucca_pazza"]  # no peers here
    written = report.write(results, tmp_path)
    names = {p.name for p in written}
    assert {"quick.json", "quick.md", "quick-engine.png", "quick-load.png"} <= names
    assert json.loads((tmp_path / "quick.json").read_text())["engine"]["rows"]
    md = (tmp_path / "quick.md").read_text()
    assert "| tiergarten | maumau | 3 |" in md and "### Targets" in md
    assert "peers not measured" in md
