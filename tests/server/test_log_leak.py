"""No log entry sent to a seat carries another seat's hidden card (docs/protocol.md, `log`).

Whole games over the websocket, people and bots and a spectator; afterwards the stored record
is replayed version by version. Every `log` a connection received must be exactly the game's
`log_since(seat, log_from)` at that version, the entries a client keeps must add up to the
whole log, and no entry may name a card that was hidden from that seat at that moment: in Mau
Mau a card in another hand or the stock that had never been face up (tests/server/test_leak.py
keeps that account), in MammuZ any card the spectator's observation does not show (turned
cards, removed herds, what is known of a hand or the jackpot).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

import tiergarten
from tiergarten.games.maumau.view import LOG_LENGTH

from .harness import Client, Message, Server, is_state, play_until_over, run
from .test_leak import Timeline, words


async def play(server: Server, tid: str, tokens: dict[int, str], seed: int,
               ) -> dict[int | None, Client]:
    """The people play at random against the bots while a spectator watches, to the end."""
    rng = random.Random(seed)
    eye = await Client.open(server, tid)
    people = {seat: await Client.open(server, tid, t) for seat, t in tokens.items()}
    await asyncio.gather(*(play_until_over(c, lambda m: rng.choice(m["legal"]), timeout=60)
                           for c in people.values()))
    await eye.until(lambda m: m["type"] == "table" and m["status"] == "over")
    for client in (*people.values(), eye):
        await client.close()
    return {**people, None: eye}


def states_by_version(record: dict[str, Any]) -> list[Any]:
    state = tiergarten.load(record["game"], record["players"],
                            **record["options"]).new_state(record["seed"])
    states = [state.clone()]
    for seat, action in record["actions"]:
        state.apply(seat, action)
        states.append(state.clone())
    return states


def check_logs(received: list[Message], seat: int | None, states: list[Any]) -> list[Message]:
    """Each `log` is the game's own from `log_from`, with no gap; returns every entry sent
    (with its version), after checking they add up to the whole log at the end."""
    known: list[Message] = []
    sent: list[Message] = []
    for message in (m for m in received if is_state(m)):
        state, start = states[message["version"]], message["log_from"]
        assert message["log"] == state.log_since(seat, start)
        assert start <= len(known)
        known = known[:start] + message["log"]
        sent += [{"version": message["version"], "entry": e} for e in message["log"]]
    assert known == states[-1].log_since(seat)
    assert len(known) > LOG_LENGTH  # past the capped log: the first entries came too
    return sent


@pytest.mark.parametrize("seed", [3, 12])
def test_no_maumau_log_entry_names_a_card_hidden_from_its_seat(server: Server, seed: int) -> None:
    table = server.create(game="maumau", players=3, options={"rounds": 2},
                          seats=[None, {"bot": "heuristic"}, None], seed=seed)
    tid = table["id"]
    tokens = {0: server.join(tid, "Ann")[1], 2: server.join(tid, "Bob")[1]}
    clients = run(play(server, tid, tokens, seed))
    record = server.get(f"/api/tables/{tid}/record").json()["record"]
    states, timeline = states_by_version(record), Timeline(record, [0, 2, None])
    for seat, client in clients.items():
        sent = check_logs(client.received, seat, states)
        leaked = [s for s in sent if words(s["entry"]) & timeline.hidden[s["version"]][seat]]
        assert not leaked, f"seat {seat}: {leaked[:3]}"
    # the scan has teeth: Bob's hand, written into a log entry Ann got, would be caught
    version = 1  # Bob's dealt hand, before anything was shown
    bob = {c.lower() for c in states[version].observe(2)["hand"]}
    secret = sorted(bob & timeline.hidden[version][0])
    assert secret and words({"act": "draw", "card": secret[0]}) & timeline.hidden[version][0]


def mammuz_cards(entry: Message) -> set[str]:
    """The cards a MammuZ log entry names (a turned card, a removed herd's cards)."""
    named = {entry["card"]} if "card" in entry else set()
    for key in ("cards", "dinosaurs"):
        if isinstance(entry.get(key), list):
            named.update(entry[key])
    return named


def mammuz_public(state: Any) -> set[str]:
    """Every card the spectator's observation shows somewhere."""
    seen = state.observe(None)
    shown = {r["card"] for r in seen["revealed"]} | set(seen["removed"])
    shown |= set(seen["jackpot_known"])
    return shown.union(*(set(h) for h in seen["known"].values()))


def test_no_mammuz_log_entry_names_a_card_the_table_has_not_shown(server: Server) -> None:
    table = server.create(game="mammuz", players=4,
                          seats=[None, {"bot": "heuristic"}, None, {"bot": "random"}], seed=5)
    tid = table["id"]
    tokens = {0: server.join(tid, "Ann")[1], 2: server.join(tid, "Bob")[1]}
    clients = run(play(server, tid, tokens, 5))
    record = server.get(f"/api/tables/{tid}/record").json()["record"]
    states = states_by_version(record)
    named = 0
    for seat, client in clients.items():
        for s in check_logs(client.received, seat, states):
            cards = mammuz_cards(s["entry"])
            assert cards <= mammuz_public(states[s["version"]]), (seat, s)
            named += bool(cards)
    assert named  # turned cards were told
    # the check has teeth: a hand's cards are not all shown
    hands = [set(states[1].observe(s)["hand"]) for s in range(4)]
    assert any(not h <= mammuz_public(states[1]) for h in hands)
