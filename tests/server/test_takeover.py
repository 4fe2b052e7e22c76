"""After Redis goes away and comes back, every lease has run out: the workers take the tables in
play over, each its part (docs/deploy.md, "Outages"), not the first to look all of them (the
operator's trial of issue 29 saw 7/0/0 and 5/4/0 over three workers). Three workers in this
process (`Apps`), one SQLite file, a redis-server of this test's own, stopped and started.
"""

from __future__ import annotations

import collections
from pathlib import Path

import redis
from benchmarks.services import Redis

from tiergarten.server.edge import metrics
from tiergarten.server.edge.settings import Settings

from .cluster import Apps
from .harness import eventually

BOTS = [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]


def test_after_a_redis_outage_each_worker_takes_its_part_of_the_tables(tmp_path: Path) -> None:
    server = Redis().start()
    apps = Apps(server.url, Settings(), count=3, lease_ttl=1.0, db=str(tmp_path / "t.db"))
    try:
        apps.start()
        first = apps.clients[0]
        tables = [first.post("/api/tables", json={  # bots only: they start at once, here
            "game": "maumau", "players": 3, "options": {"rounds": 1000}, "seats": BOTS}
        ).json()["id"] for _ in range(9)]
        live = [client.app.state.manager.tables for client in apps.clients]  # type: ignore[attr-defined]
        assert [len(t) for t in live] == [9, 0, 0]

        def owners() -> collections.Counter[str | None]:
            with redis.Redis.from_url(server.url) as client:
                found = [client.get(f"{apps.prefix}:lease:{t}") for t in tables]
            return collections.Counter(None if f is None else f.decode() for f in found)

        server.halt()
        eventually(lambda: not live[0], 10, "the tables let go (their leases ran out)")
        server.resume()  # empty: no lease, no worker's liveness
        lost = metrics.REGISTRY.get_sample_value("tiergarten_leases_lost_total")
        asked = tables[0]  # a person comes back to this one at once, at the second worker
        eventually(lambda: apps.clients[1].get(f"/api/tables/{asked}").status_code == 200, 10,
                   "the table asked for, adopted")
        spread = eventually(lambda: None not in (o := owners()) and o, 20, "every table owned")
        assert sorted(spread.values()) == [3, 3, 3], spread
        assert spread[apps.ids[1]] == 3 and asked in live[1]  # the one asked for kept, no more
        # the table taken before the first renewal after the outage was not let go with the
        # leases that had run out
        assert metrics.REGISTRY.get_sample_value("tiergarten_leases_lost_total") == lost
        assert [len(t) for t in live] == [3, 3, 3]
    finally:
        apps.stop()
        server.stop()
