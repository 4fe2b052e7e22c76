"""The quick-match benchmark still runs (a small crowd, the memory queue) and its section of
the report renders."""

from __future__ import annotations

from .test_bench_smoke import _module, report

quickmatch = _module("quickmatch")


def test_a_small_crowd_is_matched_and_reported() -> None:
    figures = quickmatch.measure(people=60, minute=10.0, seed=3)
    run = figures["memory"]
    assert run["matched"] + run["left_waiting"] == 60
    assert run["left_waiting"] == run["left_never"]  # only "never" may be left waiting
    assert 0 <= run["wait_s"]["p50"] <= run["wait_s"]["p99"] <= run["wait_s"]["max"]
    assert run["with_bots"] > 0 and run["people_only"] > 0 and run["cpu_per_match_ms"] > 0
    text = "\n".join(report._quickmatch_md(figures))
    assert "| memory | " in text and f"{run['matches']}" in text
