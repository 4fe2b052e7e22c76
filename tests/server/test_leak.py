"""No seat ever receives another seat's hidden card.

Whole Mau Mau games with two people, a bot and a spectator. Afterwards the stored log is
replayed on the test side, version by version, to know every hand and the stock at each
moment, and which cards had ever been face up (laid on the pile, or shown at a round's end).
Every message each connection received is then scanned for a card that, at that message's
version, lay hidden in another seat's hand or the stock and had never been face up. Each state
message must also equal, exactly, its seat's observation and legal actions at its version.
Nor does a draw tell whether the drawn card fits: after every plain draw each other
connection got exactly what it would have got had the card fitted, and had it not.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from tests.games.maumau.positions import twins

import tiergarten
from tiergarten.games.maumau.cards import NAMES

from .harness import Client, Message, Server, is_state, play_until_over, run

CARD_NAMES = {n.lower() for n in NAMES}


class Timeline:
    """What a replay of the stored log says about every version of the game."""

    def __init__(self, record: dict[str, Any], seats: list[int | None]) -> None:
        state = tiergarten.load(record["game"], record["players"],
                                **record["options"]).new_state(record["seed"])
        self.hidden: list[dict[int | None, set[str]]] = []
        self.states: list[Any] = []  # the state at each version
        self.views: list[dict[int | None, tuple[dict[str, Any], list[str]]]] = []
        public: set[str] = set()
        self._note(state, seats, public)
        for seat, action in record["actions"]:
            state.apply(seat, action)
            self._note(state, seats, public)

    def _note(self, state: Any, seats: list[int | None], public: set[str]) -> None:
        self.states.append(state.clone())
        public.update(NAMES[c].lower() for c in state.discard)
        for event in state.events:
            if isinstance(event[1], str) and event[1].startswith("play "):
                public.add(event[1].split()[1].lower())  # laid face up, maybe gone since
            if event[1] == "round":
                public.update(n.lower() for hand in event[4].values() for n in hand)
        hands = [{NAMES[c].lower() for c in hand} for hand in state.hands]
        stock = {NAMES[c].lower() for c in state.stock}
        self.hidden.append({
            seat: (set().union(*(h for o, h in enumerate(hands) if o != seat)) | stock) - public
            for seat in seats})
        self.views.append({seat: (state.observe(seat), [
            a.text for a in state.legal_actions(seat)] if seat is not None else [])
            for seat in seats})


def words(message: Any) -> set[str]:
    """Every word of every string (keys too) anywhere in a message, lower case."""
    found: set[str] = set()
    if isinstance(message, dict):
        for key, value in message.items():
            found |= words(key) | words(value)
    elif isinstance(message, list):
        for item in message:
            found |= words(item)
    elif isinstance(message, str):
        found.update(w for w in re.split(r"[^0-9a-z]+", message.lower()) if w)
    return found


def paths(message: Any, word: str, at: str = "") -> list[str]:
    """Where in a message `word` occurs (for a readable failure)."""
    if isinstance(message, dict):
        return [p for k, v in message.items() for p in paths(v, word, f"{at}.{k}")]
    if isinstance(message, list):
        return [p for i, v in enumerate(message) for p in paths(v, word, f"{at}[{i}]")]
    return [f"{at}={message!r}"] if word in words(message) else []


def leaks(messages: list[Message], seat: int | None, timeline: Timeline) -> list[str]:
    found, version = [], 0
    for message in messages:
        version = message.get("version") if message.get("version") is not None else version
        seen = words(message) & timeline.hidden[version][seat]
        if seen:
            found.append(f"seat {seat} v{version} {message['type']}: {sorted(seen)} at "
                         f"{[p for w in seen for p in paths(message, w)]}")
    return found


def draws_look_alike(record: dict[str, Any], timeline: Timeline,
                     clients: dict[int | None, Client]) -> int:
    """After each plain draw, every other connection's state message equals the views of both
    twin games (the drawn card fits in one, not in the other); returns the draws checked."""
    checked = 0
    for version, (seat, action) in enumerate(record["actions"]):
        before = timeline.states[version]
        pair = twins(before) if action == "draw" and not before.pending else None
        if pair is None:
            continue
        for twin in pair:
            twin.apply(seat, "draw")
        for other, client in clients.items():
            if other == seat:
                continue
            views = [(twin.observe(other), [a.text for a in twin.legal_actions(other)]
                      if other is not None else []) for twin in pair]
            for message in client.received:
                if is_state(message) and message["version"] == version + 1:
                    assert views == [(message["observation"], message["legal"])] * 2
        checked += 1
    return checked


async def play(server: Server, tid: str, t0: str, t2: str, rng: random.Random,
               ) -> dict[int | None, Client]:
    """Ann (seat 0) and Bob (seat 2) play at random against a bot; a spectator watches."""
    eye = await Client.open(server, tid)
    ann, bob = await Client.open(server, tid, t0), await Client.open(server, tid, t2)
    await asyncio.gather(play_until_over(ann, lambda m: rng.choice(m["legal"])),
                         play_until_over(bob, lambda m: rng.choice(m["legal"])))
    await eye.until(lambda m: m["type"] == "table" and m["status"] == "over")
    for client in (ann, bob, eye):
        await client.close()
    return {0: ann, 2: bob, None: eye}


@pytest.mark.parametrize("seed", [5, 17])
def test_no_seat_ever_sees_another_seats_hidden_card(server: Server, seed: int) -> None:
    table = server.create(game="maumau", players=3, options={"rounds": 3},
                          seats=[None, {"bot": "heuristic"}, None], seed=seed)
    tid = table["id"]
    (_, t0), (_, t2) = server.join(tid, "Ann"), server.join(tid, "Bob")

    clients = run(play(server, tid, t0, t2, random.Random(seed)))
    record = server.get(f"/api/tables/{tid}/record").json()["record"]
    timeline = Timeline(record, [0, 2, None])
    assert len(timeline.views) == len(record["actions"]) + 1

    for seat, client in clients.items():
        states = [m for m in client.received if is_state(m)]
        assert len(states) > 20
        assert not leaks(client.received, seat, timeline)
        for message in states:
            observation, legal = timeline.views[message["version"]][seat]
            assert message["observation"] == observation
            assert message["legal"] == legal
            assert set(message) == {"type", "version", "seat", "observation", "legal",
                                    "events", "log", "log_from"}
            state = timeline.states[message["version"]]
            assert message["log"] == state.log_since(seat, message["log_from"])
            assert message["events"] == observation["log"][len(observation["log"])
                                                            - len(message["events"]):]

    assert draws_look_alike(record, timeline, clients) > 5

    # the scan has teeth: another seat's view at the same moments would have been caught
    ann = clients[0].received
    as_if_bob = [{"version": m["version"],
                  "observation": timeline.views[m["version"]][2][0], "type": "state"}
                 for m in ann if is_state(m)]
    assert leaks(as_if_bob, 0, timeline)
    assert leaks([{"version": m["version"], "observation": timeline.views[m["version"]][0][0],
                   "type": "state"} for m in ann if is_state(m)], None, timeline)
