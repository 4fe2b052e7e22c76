"""Golden traces, shared by every game: whole bot games from fixed seeds, stored as JSON.

A trace holds the game's record, every seat's final observation (a spectator's last) and the
result; a real-time game's trace also holds the virtual time of every action. Each game's
`tests/games/<id>/golden.py` names its line-ups and runs `Traces.main`: without `--regen` it
plays the bots again and says which traces differ, with `--regen` it rewrites them (review the
diff). tests/test_golden_traces.py replays every stored trace with the `check_*` functions below.

The traces in `golden/` are of the newest rules version (regenerated when the rules change, on
purpose). Those of an older version, `golden/rules-<N>/`, are frozen: made when N was the newest,
never regenerated, they keep each older version replaying exactly as it did (`check_frozen`).
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tiergarten
from tiergarten.bots import make
from tiergarten.core.match import play_match
from tiergarten.core.realtime import Move, play_virtual

Lineup = tuple[tuple[str, ...], dict[str, Any], int]  # bots by seat, options, seed


def final_view(state: tiergarten.State) -> dict[str, Any]:
    """Every seat's final observation (a spectator's last), and the result."""
    seats = range(state.game.players)
    return {"observations": [state.observe(seat) for seat in (*seats, None)],
            "result": state.result().to_dict()}


def dumps(trace: dict[str, Any]) -> str:
    """JSON with one action and one observation per line, so a diff shows what changed."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    record = dict(trace["record"])
    actions = record.pop("actions")
    head = ", ".join(f"{one(k)}: {one(v)}" for k, v in record.items())
    lines = ["{", f' "name": {one(trace["name"])},', f' "bots": {one(trace["bots"])},',
             f' "record": {{{head}, "actions": [']
    lines += [f"  {one(a)}," for a in actions[:-1]] + [f"  {one(actions[-1])}]}},"]
    if "times" in trace:
        times = trace["times"]
        lines += [' "times": [']
        lines += [f"  {', '.join(one(t) for t in times[i:i + 10])},"
                  for i in range(0, len(times), 10)]
        lines[-1] = lines[-1].rstrip(",") + "],"
    lines += [' "observations": [']
    lines += [f"  {one(o)}," for o in trace["observations"][:-1]]
    lines += [f"  {one(trace['observations'][-1])}],", f' "result": {one(trace["result"])}', "}"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Traces:
    """The golden games of one game id, stored in `folder` as `<name>.json`."""

    game: str
    folder: Path
    lineups: dict[str, Lineup]

    def play(self, name: str) -> dict[str, Any]:
        """Play the golden game `name` with its bots and return its trace."""
        bots, options, seed = self.lineups[name]
        game = tiergarten.load(self.game, players=len(bots), **options)
        agents = [make(bot, game, seat, random.Random(seed * 100 + seat))
                  for seat, bot in enumerate(bots)]
        trace: dict[str, Any] = {"name": name, "bots": list(bots)}
        if game.info.real_time:
            times: list[float] = []

            def clock(state: tiergarten.State, move: Move) -> None:
                times.append(round(move.time, 6))

            state, _ = play_virtual(game, agents, seed=seed, on_step=clock)
            trace.update(record=state.record(), times=times)
        else:
            state = play_match(game, agents, seed=seed)
            trace.update(record=state.record())
        trace.update(final_view(state))
        return json.loads(json.dumps(trace))  # exactly what the file holds

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    def load(self, name: str) -> dict[str, Any]:
        stored: dict[str, Any] = json.loads(self.path(name).read_text(encoding="utf-8"))
        return stored

    def main(self, argv: list[str]) -> int:
        parser = argparse.ArgumentParser(description=f"Golden traces of {self.game}.")
        parser.add_argument("--regen", action="store_true", help="rewrite the stored traces")
        args = parser.parse_args(argv)
        differ = 0
        for name in self.lineups:
            trace = self.play(name)
            if args.regen:
                self.folder.mkdir(exist_ok=True)
                self.path(name).write_text(dumps(trace), encoding="utf-8")
                print(f"wrote {self.path(name)} ({len(trace['record']['actions'])} actions)")
            elif not self.path(name).exists() or self.load(name) != trace:
                differ += 1
                print(f"{name}: the bots now play a different game than the stored trace")
            else:
                print(f"{name}: unchanged")
        return 1 if differ else 0


    def frozen(self) -> list[Path]:
        """The traces of older rules versions (`rules-<N>/<name>.json`), never regenerated."""
        return sorted(self.folder.glob("rules-*/*.json"))


def check_replay(traces: Traces, name: str) -> None:
    """The stored record replays to exactly the stored observations and result, under the
    newest rules."""
    stored = traces.load(name)
    bots, _, seed = traces.lineups[name]
    assert (stored["name"], stored["bots"]) == (name, list(bots))
    assert (stored["record"]["seed"], stored["record"]["players"]) == (seed, len(bots))
    assert stored["record"]["rules"] == tiergarten.load(traces.game).info.rules_version
    check_stored(stored)


def check_frozen(path: Path) -> None:
    """A trace of an older rules version replays as it did when that version was the newest."""
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert path.parent.name == f"rules-{stored['record']['rules']}"
    check_stored(stored)


def check_stored(stored: dict[str, Any]) -> None:
    """`stored`'s record replays to its observations and result."""
    state = tiergarten.replay(stored["record"])
    assert state.is_over()
    assert json.loads(json.dumps(state.record())) == stored["record"]
    replayed = json.loads(json.dumps(final_view(state)))
    for seat, (now, then) in enumerate(zip(replayed["observations"], stored["observations"],
                                           strict=True)):
        for key in then:
            assert now[key] == then[key], f"seat {seat}: {key} differs"
        assert set(now) == set(then), f"seat {seat}: the observation's keys changed"
    assert replayed["result"] == stored["result"]


def check_moves(traces: Traces, name: str) -> None:
    """Every stored move was legal when it was made (versioned hits count as their plain form),
    and a real-time game's moves are in time order."""
    stored = traces.load(name)
    record = stored["record"]
    if "times" in stored:
        assert stored["times"] == sorted(stored["times"])
        assert len(stored["times"]) == len(record["actions"])
    game = tiergarten.load(traces.game, players=record["players"], rules=record["rules"],
                           **record["options"])
    state = game.new_state(record["seed"])
    for seat, text in record["actions"]:
        assert not state.is_over()
        plain = game.action_from_id(game.action_id(game.parse_action(text)))
        assert plain in state.legal_actions(seat)
        state.apply(seat, text)
    assert state.is_over()


def check_format(traces: Traces) -> None:
    """The stored files are written exactly as `dumps` writes them."""
    for name in traces.lineups:
        stored = traces.load(name)
        assert json.loads(dumps(stored)) == stored
