"""Every bot plays every rules version of its game to the end: a table of an older version
resumes after an upgrade with its bots and stand-ins (tests/server/test_upgrade.py), so a bot
must not assume the newest rules (e.g. Mucca Pazza rules 1, where a turn slides on past a
completion: the heuristic then stops to collect)."""

from __future__ import annotations

import random

import pytest

import tiergarten
from tiergarten.bots import make, names
from tiergarten.core.match import play_match
from tiergarten.core.realtime import play_virtual

SHORT = {"maumau": {"rounds": 1}, "lecker_mammut": {"rounds": 1}}
CASES = [(gid, v.number, variant)
         for gid in tiergarten.games()
         for v in tiergarten.load(gid).info.rules
         for variant in (("standard", "junior") if gid == "mucca_pazza" else (None,))]


@pytest.mark.parametrize(("gid", "rules", "variant"), CASES,
                         ids=[f"{g}-{r}{'-' + v if v else ''}" for g, r, v in CASES])
def test_every_bot_plays_a_whole_game_under_every_rules_version(gid: str, rules: int,
                                                               variant: str | None) -> None:
    options = dict(SHORT.get(gid, {}), **({"variant": variant} if variant else {}))
    game = tiergarten.load(gid, 3 if gid in ("mammuz", "lecker_mammut") else 2, rules=rules,
                           **options)
    for n, bot in enumerate(b for b in names(game) if b != "ismcts"):  # ismcts: bots/test_ismcts
        lineup = [bot, *["random"] * (game.players - 1)]
        agents = [make(b, game, s, random.Random(n * 10 + s)) for s, b in enumerate(lineup)]
        if game.info.real_time:
            state, _ = play_virtual(game, agents, seed=n)
        else:
            state = play_match(game, agents, seed=n)
        assert state.is_over() and state.game.rules == rules, bot
