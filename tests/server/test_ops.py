"""Operations: liveness, readiness by named checks, Prometheus metrics, a graceful SIGTERM."""

from __future__ import annotations

import signal
from pathlib import Path

from websockets.exceptions import ConnectionClosed

import tiergarten
from tiergarten.server.storage.sql_store import SqlStore

from .harness import Client, Server, is_state, run


def test_healthz_and_readyz_name_every_check(server: Server) -> None:
    assert server.get("/healthz").json() == {"ok": True, "version": tiergarten.__version__}
    ready = server.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "checks": {"database": {"ok": True},
                                                      "accepting": {"ok": True}}}


def test_metrics_count_acts_latency_commits_and_errors(server: Server) -> None:
    table = server.create(game="maumau", players=2, seats=[None, {"bot": "random"}], seed=8)
    _, token = server.join(table["id"], "Ann")

    async def act() -> None:
        ann = await Client.open(server, table["id"], token)
        state = await ann.until(lambda m: is_state(m) and bool(m["legal"]))
        await ann.act(state["legal"][0])
        await ann.until(lambda m: is_state(m) and m["version"] > state["version"])
        await ann.send({"act": "fly away", "version": 0})
        await ann.until(lambda m: m["type"] == "error")
        await ann.close()

    run(act())
    text = server.get("/metrics").text
    for name in ("tiergarten_acts_total{game=\"maumau\"}", "tiergarten_act_to_update_seconds",
                 "tiergarten_commit_seconds_count", "tiergarten_client_errors_total",
                 "tiergarten_connections", "tiergarten_tables{status=\"playing\"}"):
        assert name in text, name
    acts = next(line for line in text.splitlines()
                if line.startswith('tiergarten_acts_total{game="maumau"}'))
    assert float(acts.split()[-1]) >= 1
    build = next(line for line in text.splitlines() if line.startswith("tiergarten_build_info"))
    assert f'version="{tiergarten.__version__}"' in build and 'rules_maumau="3"' in build


def test_sigterm_finishes_commits_and_asks_clients_to_reconnect(tmp_path: Path) -> None:
    db = str(tmp_path / "tiergarten.db")
    server = Server(db, "--bot-pace", "0.02", "--allow-seeds").start()
    try:
        table = server.create(game="maumau", players=3, seed=4, options={"rounds": 3},
                              seats=[{"bot": "heuristic"}, {"bot": "random"},
                                     {"bot": "heuristic"}])["id"]

        async def watch() -> tuple[int, int | None, str]:
            eye = await Client.open(server, table)
            await eye.until(lambda m: is_state(m) and m["version"] >= 10)
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            try:
                while True:
                    await eye.recv(10)
            except ConnectionClosed as closed:
                assert eye.state is not None
                rcvd = closed.rcvd
                return (eye.state["version"], None if rcvd is None else rcvd.code,
                        "" if rcvd is None else rcvd.reason)

        told, code, reason = run(watch())
        assert server.proc is not None
        server.proc.wait(15)
    finally:
        printed = server.stop()
    assert (code, reason) == (1012, "the server is restarting; reconnect")
    assert "Traceback" not in printed, printed
    store = SqlStore(db)
    try:
        row = store.load_table(table)
        assert row is not None and len(row.actions) >= told  # all it told is stored
    finally:
        store.close()
