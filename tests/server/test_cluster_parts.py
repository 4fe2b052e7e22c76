"""The multi-worker pieces in-process, without Redis: who gets which seat's message."""

from __future__ import annotations

from typing import Any

from tiergarten.server.cluster.relay import RelayHub
from tiergarten.server.cluster.transport import ClusterTransport, RemotePeer
from tiergarten.server.storage.store import SeatRow, TableRow
from tiergarten.server.table.connection import Connection

from .harness import run


class FakeBus:
    """Records the frames a worker would publish."""

    worker_id = "here"

    def __init__(self) -> None:
        self.frames: list[tuple[str, bytes, dict[str, Any], bytes]] = []

    def send(self, worker: str, kind: bytes, header: dict[str, Any], body: bytes = b"") -> None:
        self.frames.append((worker, kind, header, body))


def test_a_seats_message_goes_only_to_the_connections_of_that_seat() -> None:
    bus = FakeBus()
    transport = ClusterTransport(bus)  # type: ignore[arg-type]
    mine = Connection(0)
    transport.attach("t", mine)
    for worker, conn, seat in (("b", 1, 0), ("b", 2, 1), ("c", 3, 1), ("c", 4, None)):
        transport.attach("t", RemotePeer(bus, worker, conn, "t", seat))  # type: ignore[arg-type]
    assert transport.audience("t") == {0, 1, None}

    transport.deliver("t", 1, '{"seat": 1}')
    assert sorted((w, h["c"]) for w, _, h, _ in bus.frames) == [("b", [2]), ("c", [3])]
    assert mine.outbox.empty()  # seat 0's own connection heard nothing of seat 1
    bus.frames.clear()
    transport.deliver("t", 0, '{"seat": 0}')
    assert [(w, h["c"]) for w, _, h, _ in bus.frames] == [("b", [1])]
    assert mine.outbox.get_nowait() == '{"seat": 0}'
    bus.frames.clear()
    transport.deliver_all("t", '{"type": "table"}')
    assert sorted((w, sorted(h["c"])) for w, _, h, _ in bus.frames) == [("b", [1, 2]),
                                                                         ("c", [3, 4])]


def test_a_relay_passes_text_to_exactly_the_connections_named() -> None:
    async def go() -> None:
        bus = FakeBus()
        hub = RelayHub(bus, greet_within=60)  # type: ignore[arg-type]
        row = TableRow("t", "maumau", 2, {}, 1, None, "playing",  # type: ignore[arg-type]
                       seats=[SeatRow(0, "human"), SeatRow(1, "human")])
        relay = hub.relay(row, "owner")
        ann, bob = Connection(0), Connection(1)
        relay.connect(ann)
        relay.connect(bob)
        attach = [h for _, kind, h, _ in bus.frames if kind == b"A"]
        assert [(h["t"], h["s"]) for h in attach] == [("t", 0), ("t", 1)]
        hub.deliver({"c": [attach[1]["c"]]}, b'{"type":"state","version":7,"seat":1}')
        assert ann.outbox.empty()
        assert bob.outbox.get_nowait() == '{"type":"state","version":7,"seat":1}'
        assert relay.version == 7
        hub.owner_changed("t", "someone else")  # the table moved: both reconnect
        assert ann.closed and ann.close_code == 1012 and bob.closed

    run(go())
