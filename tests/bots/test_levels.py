"""Levels: the same four names for every game, and short fixed-seed checks of their order.

Each ordering check plays a short two-bot run with seats rotating and asks that the stronger
level's win rate per seat lies above the fair share with 95% confidence (Wilson interval).
The longer measurements behind docs/bots.md come from `tiergarten simulate --tournament`.
"""

import random

import pytest

import tiergarten
from tiergarten import bots, sim
from tiergarten.bots.levels import LEVELS, NAMES, make_level


@pytest.mark.parametrize("game_id", sorted(LEVELS))
def test_every_game_has_the_four_levels_by_name(game_id):
    game = tiergarten.load(game_id)
    assert set(NAMES) <= set(bots.names(game_id))
    for seat, level in enumerate(NAMES[:game.players]):
        bot = bots.make(level, game, seat, random.Random(seat))
        assert repr(bot) == f"{level}@{seat}"


def test_an_unknown_level_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="easy, normal, hard, expert"):
        make_level("godlike", tiergarten.load("maumau"), 0, random.Random(0))


def _stronger(game_id, strong, weak, n, seats=2, seed=1, **options):
    line = [strong] + [weak] * (seats - 1)
    result = sim.run(game_id, line, n=n, seed=seed, options=options, workers=1)
    tally = next(t for t in result.bots if t.name == strong)
    return tally, 1 / seats


@pytest.mark.parametrize(("game_id", "n", "seats", "options"), [
    ("maumau", 20, 2, {"rounds": 1}),
    ("mammuz", 30, 3, {}),
    ("mucca_pazza", 10, 2, {}),
    ("lecker_mammut", 12, 2, {"rounds": 1}),
])
def test_normal_beats_easy(game_id, n, seats, options):
    tally, fair = _stronger(game_id, "normal", "easy", n, seats, **options)
    assert tally.low > fair, (tally.win_rate, tally.low)


@pytest.mark.parametrize(("game_id", "strong", "weak", "n", "options"), [
    ("lecker_mammut", "hard", "normal", 16, {"rounds": 1}),
    ("lecker_mammut", "expert", "hard", 16, {"rounds": 1}),
    ("mucca_pazza", "hard", "normal", 60, {}),
    ("mucca_pazza", "expert", "hard", 30, {"variant": "junior"}),
])
def test_cheap_levels_are_ordered(game_id, strong, weak, n, options):
    """The levels that need no search are cheap enough to check here; the search levels'
    figures (hundreds of games) are in docs/bots.md."""
    tally, fair = _stronger(game_id, strong, weak, n, **options)
    assert tally.low > fair, (tally.win_rate, tally.low)
