"""Train a Mau Mau agent with REINFORCE and show that it beats a random player.

The learner sits at seat 0 of `tiergarten.rl.gym_env("maumau", players=2, rounds=1)` against a
random bot. Its policy is a masked softmax over the 108 action ids with linear logits,
`W @ observation + b`; it is trained with REINFORCE (Williams 1992: the textbook policy
gradient, whole-episode return, a running-mean baseline). Plain numpy, so it runs wherever the
`[rl]` extra is installed; any masked learner (e.g. MaskablePPO from sb3-contrib, which reads
`env.action_masks()`) plugs into the same env.

    python examples/train_maumau_reinforce.py                   # the full run (see below)
    python examples/train_maumau_reinforce.py --episodes 30 --eval 20   # a smoke run

The full run (3000 episodes, then 1000 evaluation games on fresh seeds) is reported in
docs/research.md with its result.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tiergarten.rl import gym_env


class LinearPolicy:
    """A masked softmax over action ids with logits `W @ obs + b`."""

    def __init__(self, obs_size: int, actions: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.W = np.zeros((actions, obs_size))
        self.b = np.zeros(actions)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ obs + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, np.ndarray]:
        p = self.probs(obs["observation"], obs["action_mask"])
        a = int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))
        return a, p


def make_env(seed_opponents: str = "random"):
    return gym_env("maumau", opponents=seed_opponents, players=2, rounds=1)


def train(episodes: int, seed: int = 0, lr: float = 0.05) -> tuple[LinearPolicy, list[float]]:
    """REINFORCE for `episodes` games; returns the policy and each episode's return."""
    env = make_env()
    policy = LinearPolicy(env.observation_space["observation"].shape[0],
                          int(env.action_space.n), seed)
    baseline, returns = 0.0, []
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[np.ndarray, int, np.ndarray]] = []
        done, reward = False, 0.0
        while not done:
            a, p = policy.act(obs)
            steps.append((obs["observation"], a, p))
            obs, reward, done, _, _ = env.step(a)
        advantage = float(reward) - baseline
        baseline += 0.01 * (float(reward) - baseline)
        for x, a, p in steps:
            grad = -p  # d log softmax / d logits, masked entries have p = 0
            grad[a] += 1.0
            step = lr * advantage / max(1, len(steps)) ** 0.5
            policy.W += step * np.outer(grad, x)
            policy.b += step * grad
        returns.append(float(reward))
    return policy, returns


def win_rate(policy: LinearPolicy | None, games: int, seed: int = 10_000) -> float:
    """Share of games seat 0 wins against a random bot (ties count half); `None` plays
    uniformly at random, the baseline."""
    env = make_env()
    rng = np.random.default_rng(seed)
    score = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, info = False, {}
        while not done:
            if policy is None:
                a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                a, _ = policy.act(obs, greedy=True)
            obs, _, done, _, info = env.step(a)
        winners = info["result"]["winners"]
        score += (1.0 / len(winners)) if 0 in winners else 0.0
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser(description="REINFORCE on Mau Mau against a random bot")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--eval", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    policy, returns = train(args.episodes, args.seed)
    took = time.perf_counter() - start
    print(f"trained {args.episodes} episodes in {took:.1f} s; mean return of the last 500: "
          f"{np.mean(returns[-500:]):+.3f}")
    untrained, _ = train(0, args.seed)  # all weights 0: greedy picks the lowest legal id
    rates = {"trained": win_rate(policy, args.eval),
             "untrained greedy": win_rate(untrained, args.eval),
             "uniform random": win_rate(None, args.eval)}
    print(f"win rate of seat 0 against a random bot over {args.eval} games: "
          + ", ".join(f"{k} {v:.3f}" for k, v in rates.items()))


if __name__ == "__main__":
    main()
