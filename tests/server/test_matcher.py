"""The quick-match pairing as a pure function (server/players/matcher.py): the rating window
widens with the wait, accounts meet accounts and guests guests (by the level they picked),
bots fill after the wait a person chose and never for "never", one person in two tabs is
one entry; and the queue's service over the memory queue with an injected clock."""

from __future__ import annotations

import asyncio

from tiergarten.server.players.bot_levels import bot_mu
from tiergarten.server.players.matcher import Entry, Match, Rules, canonical, pair
from tiergarten.server.players.queue import MemoryQueue
from tiergarten.server.players.quickmatch import QuickMatch, Seated

RULES = Rules(base=1.0, widen=0.5, widest=20.0, patience=40.0)


def person(key: str, rating: float, since: float = 0.0, counts: tuple[int, ...] = (3,),
           **kw: object) -> Entry:
    kw.setdefault("mu", 25.0 + rating)
    return Entry(key, kw.pop("game", "maumau"), counts, kw.pop("options", None),  # type: ignore[arg-type]
                 rating, since=since, default=3, **kw)  # type: ignore[arg-type]


def people(matches: list[Match]) -> list[tuple[str, ...]]:
    return [m.people for m in matches]


def test_the_window_widens_with_the_anchors_wait() -> None:
    queue = [person("u:1", 0.0, 0.0), person("u:2", 4.0, 0.0), person("u:3", 2.0, 0.0)]
    assert pair(queue, 0.0, RULES) == []  # window 1: nobody is near enough
    assert pair(queue, 3.0, RULES) == []  # window 2.5: u:1 and u:3 fit, but three are needed
    (match,) = pair(queue, 6.0, RULES)  # window 4: all three
    assert match.people == ("u:1", "u:3", "u:2") and match.bots == () and match.gap == 4.0
    assert match.players == 3 and match.waited == (6.0, 6.0, 6.0)


def test_nearest_rating_first_and_nobody_twice() -> None:
    queue = [person("u:1", 0.0, 0.0, counts=(2,)), person("u:2", 0.9, 1.0, counts=(2,)),
             person("u:3", 0.2, 2.0, counts=(2,)), person("u:4", 0.7, 3.0, counts=(2,))]
    assert people(pair(queue, 3.0, RULES)) == [("u:1", "u:3"), ("u:2", "u:4")]


def test_accounts_and_guests_never_meet_and_guests_meet_by_level() -> None:
    easy, hard = bot_mu("maumau", "easy"), bot_mu("maumau", "hard")
    queue = [person("u:1", easy, 0.0, counts=(2,)),
             person("g:a", easy, 0.0, counts=(2,), guest=True, level="easy"),
             person("g:b", hard, 0.0, counts=(2,), guest=True, level="hard"),
             person("g:c", easy, 1.0, counts=(2,), guest=True, level="easy")]
    assert people(pair(queue, 1.0, RULES)) == [("g:a", "g:c")]


def test_games_counts_and_options_must_fit() -> None:
    queue = [person("u:1", 0.0, counts=(2,)), person("u:2", 0.0, counts=(3,)),
             person("u:3", 0.0, counts=(2,), game="mammuz"),
             person("u:4", 0.0, counts=(2, 3, 4), options=canonical({"rounds": 2})),
             person("u:5", 0.0, counts=(2,), options=canonical({"rounds": 3}))]
    (match,) = pair(queue, 0.0, RULES)
    assert match.people == ("u:1", "u:4") and match.options == {"rounds": 2}


def test_any_count_waits_for_the_largest_then_plays_smaller_after_patience() -> None:
    queue = [person("u:1", 0.0, counts=(2, 3, 4)), person("u:2", 0.0, counts=(2, 3, 4))]
    assert pair(queue, 39.0, RULES) == []
    (match,) = pair(queue, 40.0, RULES)
    assert match.players == 2 and match.bots == ()


def test_bots_fill_after_the_chosen_wait_at_the_matching_level() -> None:
    alone = [person("u:1", 0.0, 10.0, bot_wait=30.0, mu=25.0)]
    assert pair(alone, 39.9, RULES) == []
    (match,) = pair(alone, 40.0, RULES, level_for=lambda game, mu: f"{game}@{mu:g}")
    assert match.people == ("u:1",) and match.bots == ("maumau@25",) * 2


def test_never_means_no_bots_and_a_due_wait_fills_the_group() -> None:
    queue = [person("u:1", 0.0, 0.0), person("u:2", 0.1, 1.0, bot_wait=120.0),
             person("u:3", 0.2, 2.0, bot_wait=0.0)]
    assert people(pair(queue, 2.0, RULES)) == [("u:1", "u:2", "u:3")]  # three people: a table
    two = queue[:1] + queue[2:]
    (match,) = pair(two, 2.0, RULES)  # u:1 never takes bots: u:3 plays with two
    assert match.people == ("u:3",) and len(match.bots) == 2
    both = queue[1:]
    (match,) = pair(both, 2.0, RULES)  # u:3's wait is due: u:2 comes along, one bot
    assert match.people == ("u:2", "u:3") and len(match.bots) == 1
    assert pair([queue[0]], 10_000.0, RULES) == []  # never, however long


def test_a_guest_gets_bots_of_the_level_they_picked() -> None:
    guest = person("g:a", bot_mu("maumau", "hard"), 0.0, guest=True, level="hard",
                   bot_wait=0.0)
    (match,) = pair([guest], 0.0, RULES)
    assert match.bots == ("hard", "hard")


def test_two_tabs_are_one_entry() -> None:
    queue = [person("u:1", 0.0, 0.0, counts=(2,)), person("u:1", 0.0, 5.0, counts=(2,))]
    assert pair(queue, 100.0, RULES) == []  # nobody to meet but oneself
    (match,) = pair(queue + [person("u:2", 0.0, 6.0, counts=(2,))], 6.0, RULES)
    assert match.people == ("u:1", "u:2")


def test_the_service_pairs_on_its_clock_and_a_changed_entry_abandons_the_table() -> None:
    async def go() -> None:
        now = [0.0]
        made: list[str] = []
        abandoned: list[str] = []

        def place(match: Match, entries: list[Entry]) -> dict[str, Seated]:
            made.append(f"t{len(made)}")
            return {e.key: Seated(made[-1], n, "tok") for n, e in enumerate(entries)}

        async def abandon(table: str) -> None:
            abandoned.append(table)

        queue = MemoryQueue(clock=lambda: now[0])
        quick = QuickMatch(queue, place, abandon, clock=lambda: now[0], rules=RULES)
        await quick.join(person("u:1", 0.0, 0.0, bot_wait=60.0))
        assert (await quick.status("u:1"))["waiting"] == {"maumau": 1}
        now[0] = 59.0
        assert await quick.tick() == []
        assert (await quick.status("u:1"))["waited"] == 59.0
        now[0] = 60.0
        (match,) = await quick.tick()
        status = await quick.status("u:1")
        assert status["status"] == "matched" and status["match"]["table"] == "t0"
        assert status["match"]["bots"] == 2 and status["waiting"] == {}
        # a join again forgets the old match; a cancel leaves the queue
        await quick.join(person("u:1", 0.0, 60.0))
        assert (await quick.cancel("u:1"))["status"] == "idle"
        # the entry changes between the pairing and the take: the table is let go
        await quick.join(person("u:2", 0.0, 60.0, bot_wait=0.0))
        real_take = queue.take

        async def late_take(taken: list[Entry], results: dict[str, str]) -> bool:
            await queue.put(person("u:2", 0.0, 61.0, counts=(2,)))  # another tab, other choices
            return await real_take(taken, results)

        queue.take = late_take  # type: ignore[method-assign]
        assert await quick.tick() == [] and abandoned == ["t1"]
        assert (await quick.status("u:2"))["counts"] == [2]  # still queued, as now chosen

    asyncio.run(go())
