"""Issue 28.1, as an attacker plays it: the press of the club is a commitment (Lecker Mammut!,
rules 3; docs/games/lecker_mammut.md and docs/protocol.md, "The moment, then the act").

Scripted clients play over real websockets on loopback. Ann is honest: she flips her pile and,
250 ms after three alike appear, hits the feature she sees. Bob attacks:

- the *cheater* presses the club the instant each new table arrives and calls only if it then
  finds three alike (before, a press withdrawn or left to expire cost nothing: such a client
  won 14 of 14 races with no penalty);
- the *staller* presses on every new table and never calls (before, it held up every good hit
  by 2.77 s at no cost).

Every race is decided by a margin of at least 150 ms, so a loaded machine does not change who
is first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tiergarten.server.edge.protocol import Press
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import Message, Server, run
from .test_fair_hits import SEED, Player, two_people

CALL_WINDOW = 1.0  # this test server's --call-window
HONEST_REACTION = 0.25  # Ann hits this long after three alike appear
RACES = 2  # races played per test: enough to see a pattern, few enough to be quick


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db: Path = tmp_path_factory.mktemp("press") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0", "--allow-seeds", "--rate", "200", "--burst", "80",
                 "--ping-every", "0.3", "--hit-cap", "0.1",
                 "--call-window", str(CALL_WINDOW)).start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


def three_alike(observation: Message) -> str | None:
    """A feature that three visible cards show, as a player reads the table; else None."""
    visible = list(observation["middle"]) + [p["top"] for piles in observation["prize_piles"]
                                             for p in piles]
    for name in {part for c in visible for part in c.split("-")}:
        if sum(name in c.split("-") for c in visible) >= 3:
            return name
    return None


@dataclass
class Tally:
    """What Bob did, as Bob saw it, and what the races came to."""

    presses_on_nothing: int = 0  # presses on a table with no three alike
    presses_on_three: int = 0
    good_hits: dict[int, int] = field(default_factory=lambda: {0: 0, 1: 0})
    hit_delays: list[float] = field(default_factory=list)  # Ann's hit: sent -> applied


def last_state(player: Player) -> Message:
    return [m for m in player.received if m["type"] == "state"][-1]


def answered(player: Player, since: int) -> Callable[[Message], bool]:
    """A check for the answer to a hit sent when `player` had `since` messages: a refusal,
    or a state whose last event is a good hit (anyone's)."""
    def check(m: Message) -> bool:
        return m in player.received[since:] and (
            m["type"] == "error" or (m["type"] == "state" and bool(m["events"])
                                     and m["events"][-1]["act"] == "hit"))
    return check


def after(version: int) -> Callable[[Message], bool]:
    """A check for a state or refusal past server version `version`."""
    return lambda m: m["type"] in ("state", "error") and m.get("version", 0) > version


async def honest(ann: Player, tally: Tally, stop: asyncio.Event, pace: float) -> None:
    """Ann flips (one card per `pace` seconds) while nothing is to be had, hits what she sees
    after her reaction time, and lays the first top card offered after a good hit."""
    acted_on = -1
    while not stop.is_set():
        state = last_state(ann)
        obs, version = state["observation"], state["version"]
        if version == acted_on or obs["phase"] not in ("flipping", "choosing"):
            await asyncio.sleep(0.005)
            continue
        acted_on = version
        tops = [a for a in state["legal"] if a.startswith("top ")]
        feature = three_alike(obs)
        if tops:
            await ann.send({"act": tops[0], "version": version})
        elif feature is not None:
            await asyncio.sleep(HONEST_REACTION)
            sent = time.monotonic()
            await ann.send({"act": f"hit {feature} @{obs['version']}", "version": version})
            reply = await ann.until(answered(ann, len(ann.received)))
            if reply["type"] == "state" and reply["events"][-1]["seat"] == 0:
                tally.hit_delays.append(time.monotonic() - sent)
        elif "flip" in state["legal"]:
            await asyncio.sleep(pace)  # a person's pace: Bob's press lands before the next
            await ann.send({"act": "flip", "version": version})


async def attacker(bob: Player, tally: Tally, stop: asyncio.Event, *, calls: bool,
                   delay: float) -> None:
    """Bob presses `delay` after each new table (by its game version); if `calls`, he then
    calls three alike if he finds them, else he leaves the press to the server."""
    pressed_on = -1
    while not stop.is_set():
        state = last_state(bob)
        obs = state["observation"]
        hits = [a for a in state["legal"] if a.startswith("hit ")]
        tops = [a for a in state["legal"] if a.startswith("top ")]
        if tops:
            await bob.send({"act": tops[0], "version": state["version"]})
            await bob.until(after(state["version"]))
            continue
        if obs["version"] == pressed_on or not hits or obs["phase"] != "flipping":
            if "flip" in state["legal"] and obs["version"] == pressed_on:
                await asyncio.sleep(0.15)  # his own pile, at a person's pace
                await bob.send({"act": "flip", "version": state["version"]})
                await bob.until(after(state["version"]))
                continue
            await asyncio.sleep(0.005)
            continue
        pressed_on = obs["version"]
        await asyncio.sleep(delay)
        feature = three_alike(obs)
        await bob.send({"press": True, "version": state["version"]})
        if feature is None:
            tally.presses_on_nothing += 1
        else:
            tally.presses_on_three += 1
            if calls:
                await bob.send({"act": f"hit {feature} @{pressed_on}",
                                "version": state["version"]})


async def play(server: Server, *, calls: bool, delay: float,
               misses: Callable[[Tally], int]) -> tuple[Tally, Message, Message]:
    """Ann against Bob until RACES good hits (or the flipping ends); then, once Bob's
    penalties have reached `misses(tally)` (his last press may still be open), the tally,
    Ann's last state with the whole log, and Bob's errors."""
    table, t0, t1 = two_people(server)
    ann = await Player.open(server, table, t0, lag=0.0)
    bob = await Player.open(server, table, t1, lag=0.0)
    await ann.at_version(0)
    await bob.at_version(0)
    tally, stop = Tally(), asyncio.Event()
    pace = delay + 0.15  # Bob's press lands before Ann's next flip
    tasks = [asyncio.create_task(honest(ann, tally, stop, pace)),
             asyncio.create_task(attacker(bob, tally, stop, calls=calls, delay=delay))]

    def hits(m: Message) -> bool:
        log = m["observation"]["log"]
        return (sum(e["act"] == "hit" for e in log) >= RACES
                or m["observation"]["phase"] not in ("flipping", "choosing"))
    try:
        await ann.until(lambda m: m["type"] == "state" and hits(m), timeout=60)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    await ann.until(lambda m: m["type"] == "state"
                    and m["observation"]["penalties"][1] >= misses(tally))
    asked = len(ann.received)
    await ann.send({"sync": True})  # the state again, with the whole log
    final = await ann.until(lambda m: m["type"] == "state" and m in ann.received[asked:])
    for event in final["log"]:
        if event["act"] == "hit":
            tally.good_hits[event["seat"]] += 1
    bob_errors = {"errors": bob.errors()}
    for p in (ann, bob):
        await p.close()
    return tally, final, bob_errors


def test_a_cheater_pays_for_every_press_with_nothing_to_call_and_wins_only_by_speed(
        server: Server) -> None:
    """Bob presses the instant each table arrives. Every press with nothing to call is a
    penalty at once, so his penalties grow with his presses; he takes the triples he pressed
    on first and calls rightly: that is speed, which a program has (docs/protocol.md)."""
    tally, final, _ = run(play(server, calls=True, delay=0.0,
                                misses=lambda t: t.presses_on_nothing))
    log = final["log"]
    misses = [e for e in log if e["act"] == "miss"]
    assert tally.presses_on_nothing >= 3
    assert [e["seat"] for e in misses] == [1] * tally.presses_on_nothing
    assert final["observation"]["penalties"] == [0, tally.presses_on_nothing]
    assert not any(e["act"] == "mistake" for e in log)  # his calls were right
    assert tally.good_hits[1] == tally.presses_on_three  # he was first every time


def test_the_honest_hitter_wins_the_races_it_was_first_to(server: Server) -> None:
    """Bob presses 0.45 s after each table arrives, blind: Ann (0.25 s) is first to every
    triple and takes it; Bob's later press on the same table is void and costs him nothing;
    his presses with nothing to call still cost him a card each."""
    tally, final, bob = run(play(server, calls=True, delay=0.45,
                                     misses=lambda t: t.presses_on_nothing))
    assert tally.good_hits == {0: tally.good_hits[0], 1: 0} and tally.good_hits[0] >= 1
    misses = [e for e in final["log"] if e["act"] == "miss"]
    assert len(misses) == tally.presses_on_nothing
    assert final["observation"]["penalties"] == [0, tally.presses_on_nothing]
    voids = [e for e in bob["errors"] if e["code"] == "void"]
    assert len(voids) == tally.presses_on_three  # his calls after Ann's hits: void


def test_a_staller_delays_a_good_hit_by_the_call_window_at_most_and_pays_for_it(
        server: Server) -> None:
    """Bob presses on every table and never calls. A press with nothing to call is charged at
    once and holds up nobody; one on three alike holds the line until the call window ends,
    then is a mistake. Ann's hits, pressed after his, count within the window."""
    tally, final, _ = run(play(server, calls=False, delay=0.0,
                                misses=lambda t: t.presses_on_nothing + t.presses_on_three))
    assert tally.hit_delays and len(tally.hit_delays) == tally.good_hits[0]
    assert tally.good_hits[1] == 0
    assert max(tally.hit_delays) < CALL_WINDOW + 0.3  # before: 2.77 s with a 3 s window
    misses = [e for e in final["log"] if e["act"] == "miss"]
    assert len(misses) == tally.presses_on_nothing + tally.presses_on_three
    assert final["observation"]["penalties"][1] == len(misses)


@pytest.mark.parametrize(("rules", "cost"), [(2, []), (3, [(1, "miss")])])
def test_a_stored_rules_2_table_keeps_the_free_press(tmp_path: Path, rules: int,
                                                    cost: list[tuple[int, str]]) -> None:
    """A table of rules 2 (every table stored before rules 3) plays as it did: a press with
    no call costs nothing there; under rules 3 the same press is a `miss`."""

    async def go() -> list[tuple[int, str]]:
        store = SqlStore(tmp_path / f"rules{rules}.db")
        manager = TableManager(store, Settings(allow_seeds=True, call_window=CALL_WINDOW))
        table = manager.create(TableSpec(game="lecker_mammut", players=2, rules=rules,
                                         options={"rounds": 1}, seed=SEED))
        manager.join(table.id, "Ann")
        manager.join(table.id, "Bob")
        bob = Connection(1)
        table.connect(bob)
        await table.handle(bob, Press(press=True, version=0))
        await table.handle(bob, Press(press=False, version=0))
        await table.settled()
        actions = list(manager.store.load_table(table.id).actions)  # type: ignore[union-attr]
        await manager.stop()
        store.close()
        return actions

    assert run(go()) == cost
