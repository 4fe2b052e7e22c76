"""Levels: the same five names for every game, in level order, and seeded small versions of
the margins between neighbouring levels (docs/bots.md has the full runs behind them).

Each ordering check plays a short seeded run with seats rotating (`sim.run`, as `tiergarten
simulate` does) and asks for a margin over the fair share. The runs are deterministic (search
levels count iterations), so a check that passes keeps passing until a bot changes: they are
regression checks on the order, smaller than the measurements and not timed.
"""

import random

import pytest

import tiergarten
from tiergarten import bots, sim
from tiergarten.bots.levels import LEVELS, NAMES, make_level


@pytest.mark.parametrize("game_id", sorted(LEVELS))
def test_every_game_has_the_five_levels_by_name_in_order(game_id):
    assert tuple(LEVELS[game_id]) == NAMES == ("easy", "normal", "hard", "expert", "master")
    game = tiergarten.load(game_id)
    assert set(NAMES) <= set(bots.names(game_id))
    for level in NAMES:
        seat = NAMES.index(level) % game.players
        bot = bots.make(level, game, seat, random.Random(seat))
        assert repr(bot) == f"{level}@{seat}"


def test_every_game_module_exports_its_bots_and_levels():
    import importlib

    for game_id in tiergarten.games():
        module = importlib.import_module(f"tiergarten.bots.{game_id}")
        assert tuple(module.LEVELS) == NAMES
        assert set(module.BOTS) <= set(bots.names(game_id))


def test_an_unknown_level_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="easy, normal, hard, expert, master"):
        make_level("godlike", tiergarten.load("maumau"), 0, random.Random(0))


def _share(game_id, strong, weak, n, seats=2, **options):
    """The stronger level's win rate per seat over `n` seeded games, and the fair share."""
    line = [strong] + [weak] * (seats - 1)
    result = sim.run(game_id, line, n=n, seed=1, options=options, workers=1)
    tally = next(t for t in result.bots if t.name == strong)
    return tally, 1 / seats


# (game, stronger, weaker, games, seats, options, least margin over the fair share)
CHEAP = [
    ("maumau", "normal", "easy", 20, 2, {}, 0.3),
    ("maumau", "hard", "normal", 60, 2, {}, 0.1),
    ("maumau", "expert", "hard", 80, 2, {}, 0.05),
    ("mammuz", "normal", "easy", 60, 4, {}, 0.12),
    ("mammuz", "hard", "normal", 100, 4, {}, 0.08),
    ("mammuz", "expert", "hard", 100, 4, {}, 0.08),
    ("mammuz", "expert", "hard", 100, 3, {}, 0.08),
    ("mucca_pazza", "normal", "easy", 20, 2, {}, 0.3),
    ("mucca_pazza", "hard", "normal", 40, 2, {}, 0.2),
    ("mucca_pazza", "expert", "hard", 60, 2, {}, 0.1),
    ("mucca_pazza", "normal", "easy", 20, 2, {"variant": "junior"}, 0.3),
    ("mucca_pazza", "hard", "normal", 100, 2, {"variant": "junior"}, 0.05),
    ("mucca_pazza", "expert", "hard", 40, 2, {"variant": "junior"}, 0.2),
    ("mucca_pazza", "master", "expert", 40, 2, {"variant": "junior"}, 0.2),
    ("lecker_mammut", "normal", "easy", 16, 2, {"rounds": 1}, 0.2),
    ("lecker_mammut", "hard", "normal", 16, 2, {"rounds": 1}, 0.2),
    ("lecker_mammut", "expert", "hard", 16, 2, {"rounds": 1}, 0.2),
    ("lecker_mammut", "master", "expert", 100, 2, {}, 0.1),
    ("lecker_mammut", "master", "expert", 60, 4, {}, 0.05),
]


@pytest.mark.parametrize(("game_id", "strong", "weak", "n", "seats", "options", "margin"),
                         CHEAP, ids=lambda v: str(v) if isinstance(v, str) else None)
def test_each_level_beats_the_one_below(game_id, strong, weak, n, seats, options, margin):
    tally, fair = _share(game_id, strong, weak, n, seats, **options)
    assert tally.win_rate >= fair + margin, (tally.win_rate, tally.low)


@pytest.mark.parametrize(("game_id", "n", "seats", "options", "margin"), [
    ("maumau", 12, 2, {"rounds": 1, "target_score": 150}, 0.05),
    ("mammuz", 60, 4, {}, 0.08),
    ("mammuz", 30, 3, {}, 0.1),
    ("mucca_pazza", 30, 2, {}, 0.05),
])
def test_the_slower_masters_beat_their_experts(game_id, n, seats, options, margin):
    """Short seeded runs of the slower masters (one-round Mau Mau games: a match to 150
    points takes seconds with a master at the table)."""
    tally, fair = _share(game_id, "master", "expert", n, seats, **options)
    assert tally.win_rate >= fair + margin, (tally.win_rate, tally.low)
