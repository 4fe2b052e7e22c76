"""Render modes: `ansi` is the terminal's table as text (a spectator's in the multi-agent envs,
the learner's own in the Gymnasium env); any other mode is refused by every env."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tiergarten
from tiergarten.rl import gym_env, parallel_env, pettingzoo_env
from tiergarten.rl.aec import TiergartenAEC
from tiergarten.rl.render import WIDTH, plain

from .cases import CASES

MAKERS = {"aec": pettingzoo_env, "parallel": parallel_env, "gym": gym_env}


def _options(game: str) -> dict:
    return CASES[game][0]


@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize("game", tiergarten.games())
def test_unsupported_render_modes_are_refused_naming_the_supported_one(game: str,
                                                                       kind: str) -> None:
    for mode in ("human", "rgb_array"):
        with pytest.raises(ValueError, match=f"render_mode '{mode}' is not supported: use "
                                             "'ansi'"):
            MAKERS[kind](game, render_mode=mode, **_options(game))
    env = MAKERS[kind](game, **_options(game))
    env.reset(seed=1)
    assert env.render() is None  # no render mode: nothing drawn


@pytest.mark.parametrize("kind", ["aec", "parallel"])
@pytest.mark.parametrize("game", tiergarten.games())
def test_multi_agent_envs_draw_the_spectators_table(game: str, kind: str) -> None:
    env = MAKERS[kind](game, render_mode="ansi", **_options(game))
    env.reset(seed=1)
    text = env.render()
    assert "\x1b[" in text  # coloured
    lines = plain(text).splitlines()
    assert lines[0].startswith(f"╭─ {env.unwrapped.game.info.title} · seed ")
    assert all(len(line) <= WIDTH for line in lines)
    assert all(agent in plain(text) for agent in env.possible_agents)
    assert "Your hand" not in plain(text)  # a spectator holds no cards


def test_the_learner_sees_its_own_hand_and_nobody_elses() -> None:
    env = gym_env("maumau", opponents="heuristic", seat=1, players=3, rounds=1,
                  render_mode="ansi")
    env.reset(seed=4)
    text = plain(env.render())
    mine = env.state.observe(1)["hand"]
    hand_line = next(line for line in text.splitlines() if "Your hand:" in line)
    shown = hand_line.split("Your hand:")[1].replace("│", "")
    others = {c for s in (0, 2) for c in env.state.observe(s)["hand"]}
    assert all(_shown(card) in shown for card in mine)
    assert not any(_shown(card) in shown for card in others)
    assert "You" in text and "Heuristic 1" in text and "Heuristic 3" in text


def _shown(card: str) -> str:
    """A Mau Mau card as the terminal prints it (`7h` as `7♥`)."""
    return card[:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[-1]]


def test_lecker_mammut_cards_show_as_the_terminal_shows_them() -> None:
    env = parallel_env("lecker_mammut", players=2, rounds=1, render_mode="ansi")
    obs, _ = env.reset(seed=0)
    flip = env.game.parse_action("flip").id
    for _ in range(3):
        obs, *_ = env.step({"player_0": flip, "player_1": env.wait_id})
    text = plain(env.render())
    for name in env.state.observe(None)["middle"]:
        assert " ".join(name.split("-")) in text  # `red-bear` is shown `red bear`
    aec = TiergartenAEC("mammuz", players=3, render_mode="ansi")
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5):
        aec.step(int(rng.choice(np.flatnonzero(aec.observe(aec.agent_selection)[
            "action_mask"]))))
    assert "It is player_" in plain(aec.render())


DRAWING_ONLY = textwrap.dedent("""
    import sys
    import tiergarten
    from tiergarten.rl import gym_env, pettingzoo_env
    for game in tiergarten.games():
        for make in (gym_env, pettingzoo_env):
            env = make(game, render_mode="ansi")
            env.reset(seed=1)
            assert env.render()
    loaded = {m.rpartition(".")[2] for m in sys.modules if m.startswith("tiergarten.terminal.")}
    print(" ".join(sorted(loaded)))
""")


def test_rendering_loads_the_renderers_and_none_of_the_terminals_driver() -> None:
    """The envs draw with the terminal's renderers, never its match, screen or keyboard."""
    out = subprocess.run([sys.executable, "-c", DRAWING_ONLY], check=True, capture_output=True,
                         text=True, timeout=300).stdout.split()
    assert "render" in out and set(out).isdisjoint({"driver", "human", "screen", "replay",
                                                    "lecker_mammut_match"}), out
