"""The Lecker Mammut! bots: reaction-time levels, the top card least likely to be stolen, returns,
determinism in virtual time, and faster levels winning more often (a statistical test)."""

from __future__ import annotations

import random
from collections import Counter

import tiergarten
from tiergarten.bots import make, names
from tiergarten.bots.lecker_mammut import BOTS, LEVELS, REFLEXES, LeckerBot
from tiergarten.core.match import play_match
from tiergarten.core.realtime import TimedView, play_virtual

from .positions import position


def ask(bot: LeckerBot, state: tiergarten.State, now: float = 0.0) -> tuple[float, str] | None:
    view = TimedView(state, bot.seat, state.legal_actions(bot.seat), now)
    proposal = bot.propose(view)
    return None if proposal is None else (proposal[0], str(proposal[1]))


def bot(name: str, state: tiergarten.State, seat: int, seed: int = 0) -> LeckerBot:
    made = make(name, state.game, seat, random.Random(seed))
    assert isinstance(made, LeckerBot)
    return made


def test_the_levels_are_offered_by_name() -> None:
    assert {"slow", "normal", "fast", "hard"} <= set(names("lecker_mammut"))
    medians = [REFLEXES[level].median for level in ("slow", "normal", "hard", "fast")]
    assert medians == sorted(medians, reverse=True)


def test_a_bot_hits_an_open_triple_after_its_reaction_time_and_keeps_its_clock() -> None:
    state = position(middle="red-boar blue-boar yellow-boar", piles=["pink-sloth green-deer",
                                                                     "", ""])
    hard = bot("hard", state, 1)
    first = ask(hard, state, now=10.0)
    assert first is not None and first[1] == "hit boar @0"
    later = ask(hard, state, now=10.2)  # asked again (say after a mistake): same plan
    assert later is not None and abs(later[0] - (first[0] - 0.2)) < 1e-9


def test_a_bot_gives_up_a_hit_when_the_triple_goes_before_its_hand_moves() -> None:
    state = position(middle="red-boar blue-boar yellow-boar", piles=["pink-sloth", "", ""])
    slow = bot("slow", state, 2)
    ask(slow, state, now=0.0)
    state.apply(1, "hit boar")  # a faster player, at once
    assert ask(slow, state, now=0.01) is None


def test_a_committed_hit_lands_anyway_and_names_the_version_it_saw() -> None:
    state = position(middle="red-boar blue-boar yellow-boar", piles=["pink-sloth", "", ""],
                     version=4)
    slow = bot("slow", state, 2)
    planned = ask(slow, state, now=0.0)
    assert planned is not None
    state.apply(1, "hit boar")
    late = ask(slow, state, now=planned[0] - 0.05)  # within the last 0.15 s: the hand is moving
    assert late is not None and late[1] == "hit boar @4"
    state.apply(2, late[1])
    assert state.observe(0)["penalties"] == [0, 0, 0]  # void, not a mistake


def test_the_bot_lays_on_top_the_card_least_likely_to_be_stolen() -> None:
    # blue-boar would make blue three with the two blue cards in the middle; pink-boar and
    # red-boar would show their colour twice; yellow-boar's colour shows nowhere.
    state = position(middle="red-boar pink-boar yellow-boar blue-bear blue-deer pink-sloth "
                            "red-rhino",
                     piles=["", "", ""], prizes=[[], ["red-tiger orange-tiger blue-boar"], []])
    state.apply(0, "hit boar")
    choice = ask(bot("normal", state, 0), state)
    assert choice is not None and choice[1] == "top yellow-boar"


def test_the_most_penalised_bot_gives_back_its_smallest_pile() -> None:
    state = position(piles=["", ""], prizes=[["red-bear orange-bear yellow-bear green-bear",
                                              "red-deer orange-deer yellow-deer"], []],
                     penalties=[1, 0], penalty_cards=["pink-sloth", ""])
    state.apply(0, "pass")
    state.apply(1, "pass")
    choice = ask(bot("fast", state, 0), state)
    assert choice is not None and choice[1] == "return 2"


def test_the_flipper_flips_at_its_pace_and_everyone_passes_at_the_end() -> None:
    state = position(piles=["pink-sloth", "", ""])
    flip = ask(bot("normal", state, 0), state, now=5.0)
    assert flip is not None and flip[1] == "flip" and 0.5 < flip[0] < 2.0
    state.apply(0, "flip")
    assert ask(bot("normal", state, 1), state) is not None
    assert ask(bot("normal", state, 1), state)[1] == "pass"  # type: ignore[index]


def test_no_level_passes_while_a_triple_shows_it_hits_it() -> None:
    """The round ends only when nobody wants to hit any more (rules 2): the timer waits while a
    triple shows, and the bots are the ones who hit it, so a round with a bot always ends."""
    for level in sorted({*BOTS, *LEVELS}):
        state = position(middle="red-boar blue-boar yellow-boar", piles=["", ""],
                         prizes=[[], ["red-deer blue-deer pink-deer"]])
        player = bot(level, state, 0)
        for now in (0.0, 5.0, 30.0):  # however long it has waited
            choice = ask(player, state, now=now)
            assert choice is not None and choice[1].startswith("hit boar"), (level, choice)


def test_simulation_in_virtual_time_is_deterministic_with_a_seed() -> None:
    def once() -> dict[str, object]:
        game = tiergarten.load("lecker_mammut", players=3)
        agents = [make(n, game, s, random.Random(100 + s)) for s, n in
                  enumerate(("normal", "hard", "slow"))]
        state, end = play_virtual(game, agents, seed=21)
        return {"record": state.record(), "end": end, "result": state.result()}
    first = once()
    assert first == once()
    texts = [a for _, a in first["record"]["actions"]]  # type: ignore[index]
    assert any("@" in t for t in texts) and "flip" in texts and "pass" in texts


def test_bots_make_false_hits_and_late_void_hits_over_many_games() -> None:
    kinds: Counter[str] = Counter()
    game = tiergarten.load("lecker_mammut", players=4, rounds=1)
    for seed in range(6):
        agents = [make(n, game, s, random.Random(seed * 10 + s)) for s, n in
                  enumerate(("slow", "normal", "fast", "hard"))]
        voids = 0
        state, _ = play_virtual(game, agents, seed=seed, on_step=lambda s, m: None)
        replay = game.new_state(seed)
        for seat, action in state.history:
            if action.text.startswith("hit") and replay.verdict(seat, action) == "void":
                voids += 1
            kinds[action.text.split()[0]] += 1
            replay.apply(seat, action)
        kinds["void"] += voids
        kinds["mistake"] += sum(1 for e in replay.events if e[0] == "mistake")
    assert kinds["void"] > 0 and kinds["mistake"] > 0 and kinds["top"] > 0


def test_bots_still_finish_a_game_under_the_turn_based_match_loop() -> None:
    game = tiergarten.load("lecker_mammut", players=2, rounds=1)
    agents = [make("normal", game, s, random.Random(s)) for s in range(2)]
    assert play_match(game, agents, seed=3).is_over()


def wins(fast: str, slow: str, games: int) -> float:
    """Games won by `fast` over `slow` at a two-player table, seats alternating; ties halve."""
    game = tiergarten.load("lecker_mammut", players=2)
    won = 0.0
    for i in range(games):
        order = (fast, slow) if i % 2 == 0 else (slow, fast)
        agents = [make(n, game, s, random.Random(i * 7 + s)) for s, n in enumerate(order)]
        state, _ = play_virtual(game, agents, seed=1000 + i)
        winners = state.result().winners
        won += sum(1 for w in winners if order[w] == fast) / len(winners)
    return won


def test_faster_levels_win_more_often() -> None:
    # In larger runs the faster level of each pair wins over 90 % (see the docs page); with
    # 16 games a pair, 11 wins would be chance at p < 0.04 for an even match.
    for fast, slow in (("normal", "easy"), ("hard", "normal"), ("expert", "hard"),
                       ("master", "expert")):
        assert wins(fast, slow, 16) >= 11, f"{fast} should beat {slow}"
