"""The levels' ladder fits people (issue 34): reaction times spread from a child's ~3 s down to
a quick person's, no level is quicker than `FLOOR`, every level hits a triple it sees, and a
simulated person whose reaction matches a level's wins about half the triples against it.

All in virtual time (`play_virtual`: the clock is injected, nothing sleeps)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import tiergarten
from tiergarten.bots import make
from tiergarten.bots.lecker_mammut import FLOOR, LEVELS, REFLEXES, LeckerBot, Reflexes
from tiergarten.core.realtime import TimedView, play_virtual

from .positions import position

LADDER = ("easy", "normal", "hard", "expert", "master")


class Person(LeckerBot):
    """A simulated person: sees every triple after about `reaction` seconds (a little jitter),
    never hits wrong, flips at an ordinary pace."""

    name = "person"

    def __init__(self, game: tiergarten.Game, seat: int, rng: random.Random,
                 reaction: float) -> None:
        super().__init__(game, seat, rng, Reflexes(median=reaction, spread=0.10, steal=0.0,
                                                   false_hit=0.0, pace=1.2, choose=1.0))

    def _reaction(self) -> float:
        r = self.reflexes
        return r.median * (1.0 + r.spread * self.rng.uniform(-1.0, 1.0))


def share(reaction: float, level: str, games: int = 6) -> float:
    """The share of the good hits a person reacting in `reaction` s makes against `level`
    (two players, one round a game, seats alternating)."""
    game = tiergarten.load("lecker_mammut", players=2, rounds=1)
    mine = theirs = 0
    for i in range(games):
        person_seat = i % 2
        agents = [Person(game, s, random.Random(i * 7 + s), reaction) if s == person_seat
                  else make(level, game, s, random.Random(i * 7 + s)) for s in range(2)]
        state, _ = play_virtual(game, agents, seed=500 + i)
        for entry in state.log_since(None, 0):
            if entry["act"] == "hit":
                if entry["seat"] == person_seat:
                    mine += 1
                else:
                    theirs += 1
    assert mine + theirs > 10 * games // 2  # enough triples to judge by
    return mine / (mine + theirs)


def test_the_ladder_spreads_from_a_child_to_a_quick_person() -> None:
    medians = [REFLEXES[level].median for level in LADDER]
    assert medians == sorted(medians, reverse=True)
    assert medians[0] >= 2.8 and FLOOR <= medians[-1] <= 0.8
    assert list(LEVELS) == list(LADDER)


def test_no_level_reacts_quicker_than_a_quick_person() -> None:
    game = tiergarten.load("lecker_mammut", players=2)
    for level in LADDER:
        bot = make(level, game, 0, random.Random(3))
        assert isinstance(bot, LeckerBot)
        assert min(bot._reaction() for _ in range(2000)) >= FLOOR, level


def test_every_level_hits_a_triple_it_sees_within_its_reaction_time() -> None:
    for level in LADDER:
        for seed in range(20):
            state = position(middle="red-boar blue-boar yellow-boar", piles=["pink-sloth", ""])
            bot = make(level, state.game, 1, random.Random(seed))
            assert isinstance(bot, LeckerBot)
            proposal = bot.propose(TimedView(state, 1, state.legal_actions(1), 0.0))
            assert proposal is not None and str(proposal[1]).startswith("hit boar"), level
            r = REFLEXES[level]
            assert FLOOR <= proposal[0] <= r.median * 3.5, (level, proposal[0])


def test_a_person_as_quick_as_a_level_wins_a_fair_share_against_it() -> None:
    # a child (3 s) against easy, a parent (1.5 s) against hard, a quick teenager (0.75 s)
    # against master, and the steps between
    for reaction, level in ((3.0, "easy"), (2.2, "normal"), (1.5, "hard"), (1.0, "expert"),
                            (0.75, "master")):
        won = share(reaction, level)
        assert 0.3 <= won <= 0.75, (reaction, level, won)


def test_each_step_up_the_ladder_is_a_step_a_person_feels() -> None:
    # a parent (1.5 s) loses most triples to expert and wins most against normal
    assert share(1.5, "expert") < 0.3
    assert share(1.5, "normal") > 0.8
    assert share(3.0, "normal") < share(3.0, "easy")


def test_a_person_at_the_floor_wins_most_triples_even_against_master() -> None:
    assert share(FLOOR, "master") > 0.55


def test_the_levels_flip_and_choose_slower_down_the_ladder() -> None:
    for field in ("pace", "choose", "false_hit"):
        values = [getattr(REFLEXES[level], field) for level in LADDER]
        assert values == sorted(values, reverse=True), field
    assert REFLEXES["slow"] == REFLEXES["easy"] and REFLEXES["fast"] == REFLEXES["expert"]


def test_the_page_says_each_levels_speed_in_every_language() -> None:
    """The bot menu's line on each level ("reacts in about 2 s") names its median reaction."""
    folder = Path(tiergarten.__file__).parent / "web" / "games" / "lecker_mammut" / "i18n"
    for language in ("en", "de", "pl", "it"):
        words = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
        for level in LADDER:
            line = words[f"game.lecker_mammut.level.{level}"]
            said = re.search(r"(\d+(?:[.,]\d+)?) s\b", line)
            assert said is not None, (language, level, line)
            assert abs(float(said.group(1).replace(",", ".")) - REFLEXES[level].median) <= 0.25
