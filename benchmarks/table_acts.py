"""The server's cost per act at one table, in-process: what the load benchmark's CPU per act
is made of, without sockets, a database or other tables' noise — quick enough to compare two
commits on a shared machine (run each a few times, alternately; the lowest counts).

A Mau Mau table of four people, each connected, and a spectator, on a `MemoryStore`: every act
is handed to the table as the websocket route would (`LiveTable.handle`), and is committed (in
the store's writer thread) and told to all five connections. Two figures:

- CPU per act: the table's whole path, from the message to the five states queued;
- broadcast: one `state` message to each of the five (observation, legal moves, log, JSON),
  the share of an act that grows with the seats.

    python benchmarks/table_acts.py            # about 20 s
    python benchmarks/table_acts.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from tiergarten.server.edge.protocol import Act
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec


def drain(conn: Connection) -> None:
    while not conn.outbox.empty():
        conn.outbox.get_nowait()
    conn.unsent = 0


async def measure(tables: int, acts: int) -> dict[str, float]:
    store = MemoryStore()
    manager = TableManager(store, Settings(allow_seeds=True, seating_every=0, bot_pace=1000))
    cpu, count, broadcasts = 0.0, 0, []
    for seed in range(tables):
        table = manager.create(TableSpec(game="maumau", players=4, options={"rounds": 3},
                                         seats=[None] * 4, seed=seed))
        for name in ("Ann", "Bob", "Cem", "Dan"):
            manager.join(table.id, name)
        conns = [Connection(seat) for seat in (0, 1, 2, 3, None)]
        for conn in conns:
            table.connect(conn)
        while table.status == "playing" and count < acts:
            for conn in conns:
                drain(conn)
            seat = table.state.to_move()[0]
            act = table.state.legal_actions(seat)[0].text
            started = time.process_time()
            await table.handle(conns[seat], Act(act=act, version=table.version))
            cpu += time.process_time() - started
            count += 1
        for _ in range(200):
            for conn in conns:
                drain(conn)
            started = time.perf_counter()
            table.broadcast(1)
            broadcasts.append(time.perf_counter() - started)
        await table.stop()
    await manager.stop()
    store.close()
    return {"acts": count, "cpu_per_act_us": cpu / max(1, count) * 1e6,
            "broadcast_us": statistics.median(broadcasts) * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one table, a few acts")
    parser.add_argument("--rounds", type=int, default=5, help="runs; the lowest figures count")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    runs = [asyncio.run(measure(1 if args.quick else 6, 50 if args.quick else 3000))
            for _ in range(rounds)]
    print(f"acts {runs[0]['acts']:.0f} per run, {rounds} run(s): "
          f"CPU per act {min(r['cpu_per_act_us'] for r in runs):.0f} us, "
          f"broadcast to 5 connections {min(r['broadcast_us'] for r in runs):.0f} us")


if __name__ == "__main__":
    main()
