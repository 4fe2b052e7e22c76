"""Chat cannot lock a table (issue 28.2), replayed over real websockets: a spectator without a
token who sends hundreds of long emoji lines, reconnecting between them, gets only its
allowance per table and address (a reconnect resets nothing), the greeting carries the last
lines only (older ones on request), chat has its own share of a reader's outbox, and the
seated players keep playing, chatting and rejoining; the lines go out as UTF-8, not escapes."""

from __future__ import annotations

import json
import time

from tiergarten.server.table.connection import Connection
from tiergarten.server.table.features.chat import BURST, EVERY, GREETING

from .harness import Client, Server, run
from .test_chat_clock import chat_line, two_person_table

EMOJI = "\U0001f9a3"  # a mammoth: four bytes in UTF-8, twelve as a JSON escape pair
LONG = EMOJI * 200  # the longest line


def test_a_spectator_flooding_the_chat_locks_nobody_out(server: Server) -> None:
    table, _owner, (ann_token, bob_token) = two_person_table(server)

    async def main() -> None:
        ann = await Client.open(server, table, ann_token, address="10.0.28.1")
        bob = await Client.open(server, table, bob_token, address="10.0.28.2")
        await ann.until(lambda m: m["type"] == "state")
        started = time.monotonic()
        sent = refused = 0
        while sent < 480:  # the attack: long lines, a new connection every few lines
            spam = await Client.open(server, table, address="10.0.28.66")
            await spam.until(lambda m: m["type"] == "chat_log")
            for _ in range(6):
                await spam.send({"chat": LONG, "name": "spam"})
                sent += 1
            await spam.send({"sync": True})
            while True:  # its answers, up to the state the sync asked for
                message = await spam.recv()
                refused += message["type"] == "error" and message["code"] == "chat_rate"
                if message["type"] == "state":
                    break
            await spam.close()
        elapsed = time.monotonic() - started
        allowed = BURST + int(elapsed / EVERY) + 1
        assert refused >= sent - allowed  # the allowance is the address's, not a connection's
        # the seated players chat and play on, and rejoin
        await ann.send({"chat": f"still here {EMOJI}"})
        line = await chat_line(bob, None)
        while line["name"] != "Ann":
            line = await chat_line(bob, None)
        assert line["text"] == f"still here {EMOJI}"
        assert bob.state is not None and ann.state is not None
        legal = ann.state["legal"] or bob.state["legal"]
        mover = ann if ann.state["legal"] else bob
        await mover.act(legal[0])
        version = mover.state["version"] if mover.state else 0
        await (bob if mover is ann else ann).until(
            lambda m: m["type"] == "state" and m["version"] > version)
        await ann.close()
        again = await Client.open(server, table, ann_token, address="10.0.28.1")
        raw = await again.ws.recv()  # the greeting's first message, as sent
        messages = [json.loads(raw)]
        while not any(m["type"] == "chat_log" for m in messages):
            messages.append(await again.recv())
        log = next(m for m in messages if m["type"] == "chat_log")
        assert len(log["lines"]) <= GREETING and log["before"] is None
        assert log["lines"][-1]["text"] == f"still here {EMOJI}"
        spam_lines = [li for li in log["lines"] if li["name"] == "spam"]
        assert len(spam_lines) <= allowed
        if not any(m["type"] == "state" for m in messages):  # greeted whole, not too slow
            await again.until(lambda m: m["type"] == "state")
        assert not any(m["type"] == "error" for m in messages)
        await again.send({"chat_before": log["lines"][0]["n"] + 1})
        older = await again.until(lambda m: m["type"] == "chat_log")
        assert older["before"] == log["lines"][0]["n"] + 1
        assert [li["n"] for li in older["lines"]] == [log["lines"][0]["n"]]
        for client in (again, bob):
            await client.close()

    run(main())


def test_chat_lines_go_out_as_utf8(server: Server) -> None:
    table, _owner, (ann_token, _bob) = two_person_table(server)

    async def main() -> None:
        ann = await Client.open(server, table, ann_token, address="10.0.28.3")
        await ann.until(lambda m: m["type"] == "chat_log")
        await ann.send({"chat": LONG})
        while True:
            raw = await ann.ws.recv()
            if '"type":"chat"' in raw:
                break
        assert EMOJI in raw and "\\u" not in raw
        assert len(raw.encode()) < len(LONG.encode()) + 300  # four bytes an emoji, not twelve
        await ann.close()

    run(main())


def test_chat_never_makes_a_reader_too_slow_and_game_messages_get_through() -> None:
    conn = Connection(0, queue_limit=10, queue_bytes=40_000)
    line = '{"type":"chat","n":0,"text":"' + "x" * 900 + '"}'
    for _ in range(200):  # far more chat than its share: the rest is dropped for this reader
        conn.send(line)
    assert not conn.closed and conn.chat_unsent <= conn.chat_bytes
    state = '{"type":"state","version":1}'
    for _ in range(9):
        conn.send(state)
    assert not conn.closed and conn.unsent == 9 * len(state)
    conn.send(state)
    conn.send(state)  # the eleventh game message over the limit of 10: too slow, for the game
    assert conn.closed and conn.close_code == 1013
