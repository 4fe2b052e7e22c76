"""Self-play in a league with masked PPO: the recipe behind the shipped `learned` bots.

One policy learns every seat of a game (`tiergarten.rl.league.LeagueEnv`: a random seat each
episode) against a league (`League`): the level bots and frozen copies of itself, a new copy
every `--snapshot` steps (sb3-contrib's `MaskablePPO`, `"MultiInputPolicy"`, masks from the
env's `action_masks()`). Each copy is the actor exported to numpy (`from_maskable_ppo`) and
registered as a bot, so it plays through its seat's `SeatView` like every bot, and the last
one is written as an `.npz` that `tiergarten.bots.policy.NumpyPolicy` loads without torch.

Needs the `train` extra (`pip install -e ".[train]"`: torch, sb3-contrib); playing the result
does not. The shipped bots were made with

    python examples/selfplay_maskable_ppo.py --game maumau --steps 500000 --snapshot 100000 \\
        --out src/tiergarten/bots/weights/maumau.npz
    python examples/selfplay_maskable_ppo.py --game mucca_pazza --steps 300000 --snapshot 50000 \\
        --net 128,128 --shaping 0.1 --bots random,easy,normal --seed 2 \\
        --out src/tiergarten/bots/weights/mucca_pazza.npz

(docs/research.md, "Self-play", has the CPU time and the league; docs/bots.md the strength).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from pathlib import Path
from typing import Any

import gymnasium

from tiergarten import bots
from tiergarten.bots.policy import NumpyPolicy, PolicyBot
from tiergarten.core import load
from tiergarten.core.match import play_match
from tiergarten.rl.league import DEFAULT_BOTS, League, LeagueEnv, from_maskable_ppo

# each game's training table: the options the learner sees (Mau Mau one round per episode;
# a match is many rounds, and the observation holds the scores), players
TABLES: dict[str, dict[str, Any]] = {
    "maumau": {"players": 2, "rounds": 1},
    "mucca_pazza": {"players": 2},
    "mammuz": {"players": 3},
}


class CardShaping(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Adds `weight` x the change of (the learner's cards won - the most any other seat won) at
    every step: Mucca Pazza's result comes only at the end, after dozens of slides, and a
    learner that loses every game to a solver hears nothing else. A difference of potentials,
    so over a whole game it adds `weight` x the final margin in cards and nothing in between
    that a better game would not also earn."""

    def __init__(self, env: gymnasium.Env, weight: float) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.weight = weight
        self._before = 0

    def _margin(self) -> int:
        base: Any = self.env.unwrapped
        cards = base.state.observe(base.seat)["cards"]
        mine = cards[base.seat]
        return int(mine - max(c for s, c in enumerate(cards) if s != base.seat))

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self._before = self._margin()
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        after = self._margin()
        reward += self.weight * (after - self._before)
        self._before = after
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> Any:
        return self.env.action_masks()  # type: ignore[attr-defined]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def win_rate(game_id: str, policy: NumpyPolicy, opponent: str, games: int, seed: int,
             table: dict[str, Any]) -> float:
    """The policy's share of wins (ties shared) against `opponent` at every other seat, seats
    rotating, on `table` (a quick check while training; the measurement is `tiergarten
    simulate`)."""
    options = {k: v for k, v in table.items() if k != "players"}
    game = load(game_id, players=table["players"], **options)
    rng = random.Random(seed)
    won = 0.0
    for g in range(games):
        seat = g % game.players
        agents = [PolicyBot(game, s, random.Random(rng.getrandbits(64)), policy, "learner")
                  if s == seat else bots.make(opponent, game, s, random.Random(rng.getrandbits(64)))
                  for s in range(game.players)]
        state = play_match(game, agents, rng.getrandbits(63))
        winners = state.result().winners
        won += (1.0 / len(winners)) if seat in winners else 0.0
    return won / games


def train(game_id: str, steps: int, snapshot: int, seed: int, envs: int, out: Path | None,
          league_bots: tuple[str, ...], net: tuple[int, ...] = (256, 256),
          shaping: float = 0.0, log: Any = print) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    table = TABLES[game_id]
    league = League(game_id, bots=league_bots, self_play=0.5, keep=5, seed=seed)

    def make_env() -> gymnasium.Env:  # type: ignore[type-arg]
        env = LeagueEnv(league, **table)
        return CardShaping(env, shaping) if shaping else env

    vec = DummyVecEnv([make_env for _ in range(envs)])
    vec.seed(seed)
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=512, batch_size=1024, n_epochs=4,
                        learning_rate=3e-4, gamma=0.995, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs={"net_arch": list(net)}, seed=seed, verbose=0,
                        device="cpu")
    began, cpu0 = time.perf_counter(), cpu_seconds()
    history = []
    done = 0
    while done < steps:
        chunk = min(snapshot, steps - done)
        model.learn(chunk, reset_num_timesteps=False)
        done += chunk
        policy = from_maskable_ppo(model, game=game_id, steps=done, seed=seed)
        name = league.add(policy)
        rates = {b: win_rate(game_id, policy, b, 100, seed + done, table)
                 for b in ("random", "hard")}
        history.append({"steps": done, "copy": name, "cpu_s": round(cpu_seconds() - cpu0, 1),
                        **{f"vs_{b}": round(r, 3) for b, r in rates.items()}})
        log(json.dumps(history[-1]))
    policy = from_maskable_ppo(model, game=game_id, steps=done, seed=seed,
                               league=",".join(league_bots) + ",self-play",
                               table=json.dumps(table, sort_keys=True), shaping=shaping,
                               net=",".join(map(str, net)))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        policy.save(out)
        log(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB, {policy.size} parameters)")
    league.close()
    summary = {"game": game_id, "steps": done, "cpu_s": round(cpu_seconds() - cpu0, 1),
               "wall_s": round(time.perf_counter() - began, 1), "history": history}
    log(json.dumps({k: v for k, v in summary.items() if k != "history"}))
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="maumau", choices=sorted(TABLES))
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--snapshot", type=int, default=50_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument("--net", default="256,256", help="hidden layer widths")
    parser.add_argument("--shaping", type=float, default=0.0,
                        help="weight of the cards-won margin's change a step (Mucca Pazza)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    train(args.game, args.steps, args.snapshot, args.seed, args.envs, args.out,
          tuple(args.bots.split(",")), tuple(int(w) for w in args.net.split(",")),
          args.shaping)


if __name__ == "__main__":
    main()
