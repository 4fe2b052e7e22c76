"""The learned bots: small numpy weights shipped in the package, played with numpy only (no
torch imported), from the seat's view like every bot, deterministic, whole games to the end."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import tiergarten
from tiergarten import bots
from tiergarten.bots import learned
from tiergarten.core.match import play_match
from tiergarten.encoders import encoder

SHIPPED = ["maumau", "mucca_pazza"]


def test_weights_ship_small_for_mau_mau_and_mucca_pazza() -> None:
    assert set(SHIPPED) <= set(learned.shipped())
    for game_id in learned.shipped():
        path = learned.WEIGHTS / f"{game_id}.npz"
        assert path.stat().st_size < 400 * 1024, path
        policy = learned.policy(game_id)
        assert policy.meta["game"] == game_id
        assert "learned" in bots.names(game_id)
        game = tiergarten.load(game_id)
        size = encoder(game).size
        inputs = {"observation": size, "action_mask": game.num_actions + 1}
        assert policy.layers[0][0].shape[1] == sum(inputs[k] for k in policy.inputs)
        assert policy.layers[-1][0].shape[0] == game.num_actions + 1


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_learned_bot_plays_whole_games_the_same_every_time(game_id: str) -> None:
    options = {"rounds": 1} if game_id == "maumau" else {}
    game = tiergarten.load(game_id, players=2, **options)

    def play() -> tiergarten.core.State:
        agents = [bots.make("learned", game, 0, random.Random(1)),
                  bots.make("hard", game, 1, random.Random(2))]
        return play_match(game, agents, seed=5)

    state = play()
    assert state.is_over() and any(seat == 0 for seat, _ in state.history)
    assert play().record() == state.record()


def test_playing_needs_no_torch() -> None:
    code = ("import random, sys, tiergarten\n"
            "from tiergarten import bots\n"
            "from tiergarten.core.match import play_match\n"
            "game = tiergarten.load('maumau', players=2, rounds=1)\n"
            "agents = [bots.make('learned', game, s, random.Random(s)) for s in (0, 1)]\n"
            "assert play_match(game, agents, seed=3).is_over()\n"
            "print('torch' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "False"
