"""The contract, checked on every registered game and option set by seeded random playouts.

Per step: who may act has legal actions and nobody else does; action ids and notation
round-trip; cards are conserved; at every 4th step, the first seat of `to_move()` is the one the
game waits on (docs/architecture.md). At sampled steps: illegal actions raise and change nothing,
observations and the whole log (`log_since`) are JSON-safe, clones are independent (every
attribute copied, no container shared by accident), and `resample(seat)` is indistinguishable
for that seat. At the end: the game ended within its declared bound, and replaying its record
(through JSON) reproduces every seat's observation, whole log and the result. And a game in
which only that first seat ever acts still comes to its end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.conformance.cases import GAMES, Case

import tiergarten
from tiergarten.core import IllegalAction, State

PLAYOUTS = 200
ALONE = 20  # playouts in which only the seat the game waits on acts
WAITED_EVERY = 4  # to_move()[0] is checked at every 4th step (a spectator's view is not free)
CHECK_EVERY = 25  # expensive checks at about one step in this many

CASES = [(gid, case) for gid, entry in GAMES.items() for case in entry.cases]


def test_every_registered_game_has_cases() -> None:
    assert set(tiergarten.games()) <= set(GAMES), "add the game to tests/conformance/cases.py"


def test_player_counts_outside_the_range_are_refused() -> None:
    for gid in tiergarten.games():
        info = tiergarten.core.game_class(gid).info
        for bad in (info.min_players - 1, info.max_players + 1):
            with pytest.raises(tiergarten.OptionError, match="players"):
                tiergarten.load(gid, players=bad)
        with pytest.raises(tiergarten.OptionError, match="unknown option 'no_such_option'"):
            tiergarten.load(gid, no_such_option=1)


@pytest.mark.parametrize(("gid", "case"), CASES, ids=[f"{g}-{c}" for g, c in CASES])
def test_random_playouts(gid: str, case: Case) -> None:
    game = tiergarten.load(gid, players=case.players, **case.options)
    conserved = GAMES[gid].conserved
    waited_on = GAMES[gid].waited_on
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = game.new_state(seed)
        steps = 0
        while not state.is_over():
            seat, action = _step_checks(game, state, rng)
            if steps % WAITED_EVERY == 0:
                assert state.to_move()[0] == waited_on(state.observe(None)), "to_move()[0]"
            if rng.randrange(CHECK_EVERY) == 0:
                assert conserved(state.observe(None)), "cards appeared or vanished"
                _deep_checks(game, state, seat, rng)
            state.apply(seat, action)
            steps += 1
            assert steps <= game.info.max_decisions, "the game outran its declared bound"
        assert conserved(state.observe(None))
        _end_checks(game, state)


@pytest.mark.parametrize(("gid", "case"), CASES, ids=[f"{g}-{c}" for g, c in CASES])
def test_the_seat_the_game_waits_on_can_finish_the_game_alone(gid: str, case: Case) -> None:
    """Nobody else is ever needed: the other seats in `to_move()` act by choice."""
    game = tiergarten.load(gid, players=case.players, **case.options)
    for seed in range(ALONE):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.result().reason != "decision_limit", "the game stalled without the others"


def _step_checks(game: tiergarten.Game, state: State, rng: random.Random) -> tuple[int, Any]:
    movers = state.to_move()
    assert movers, "a game that is not over must have someone to move"
    for seat in range(game.players):
        legal = state.legal_actions(seat)
        assert bool(legal) == (seat in movers), f"seat {seat}: legal actions iff it may move"
    seat = rng.choice(movers)
    legal = state.legal_actions(seat)
    assert len(set(legal)) == len(legal), "legal actions are listed once each"
    action = rng.choice(legal)
    assert game.action_from_id(game.action_id(action)) is action
    assert game.parse_action(str(action)) is action
    return seat, action


def _snapshot(game: tiergarten.Game, state: State) -> Any:
    return ([state.observe(s) for s in range(game.players)], state.observe(None),
            state.to_move(), [state.legal_actions(s) for s in range(game.players)],
            len(state.history), state.history[-1:])


def _deep_checks(game: tiergarten.Game, state: State, seat: int, rng: random.Random) -> None:
    before = _snapshot(game, state)
    # illegal actions raise and change nothing
    legal = set(state.legal_actions(seat))
    illegal = [a for a in game.actions if a not in legal]
    if illegal:
        with pytest.raises(IllegalAction):
            state.apply(seat, rng.choice(illegal))
    idle = [s for s in range(game.players) if s not in state.to_move()]
    if idle:
        with pytest.raises(IllegalAction):
            state.apply(rng.choice(idle), rng.choice(game.actions))
    with pytest.raises(IllegalAction):
        state.apply(game.players, rng.choice(game.actions))
    assert _snapshot(game, state) == before
    # observations are JSON-safe
    viewers = [*range(game.players), None]
    for s in viewers:
        obs = state.observe(s)
        assert json.loads(json.dumps(obs)) == obs
    # the whole log of one viewer here (it grows with the game: every viewer's, and as JSON,
    # cost more than the rest of these checks together); every viewer's at the end
    viewer = rng.choice(viewers)
    _check_whole_log(state, viewer, state.observe(viewer), rng)
    # clones are independent
    twin = state.clone()
    assert _snapshot(game, twin) == before
    _check_every_slot_copied(state, twin)
    twin.apply(seat, rng.choice(twin.legal_actions(seat)))
    assert _snapshot(game, state) == before
    # a resampled state looks the same to the seat, and plays on
    for s in range(game.players):
        sample = state.resample(s, random.Random(rng.getrandbits(32)))
        assert sample.observe(s) == state.observe(s), f"resample changed what seat {s} sees"
        assert sample.legal_actions(s) == state.legal_actions(s)
        mover = rng.choice(sample.to_move())
        sample.apply(mover, rng.choice(sample.legal_actions(mover)))
    assert _snapshot(game, state) == before


def _check_whole_log(state: State, seat: int | None, obs: dict[str, Any],
                     rng: random.Random, whole_json: bool = False) -> None:
    """`log_since`: one entry per happening (positions number it alike for every seat), its
    tail from any position the whole log's, and the observation's `log` its tail; JSON safe
    (checked at the end, when the log holds every entry of the game)."""
    whole = state.log_since(seat)
    assert len(whole) == len(state.events)
    if whole_json:
        assert json.loads(json.dumps(whole)) == whole
    start = rng.randint(0, len(whole))
    assert state.log_since(seat, start) == whole[start:]
    capped = obs.get("log", [])
    assert whole[len(whole) - len(capped):] == capped


def _check_every_slot_copied(state: State, twin: State) -> None:
    """Every attribute of the state is in its clone, and no container is shared unless the
    class keeps it on purpose (`_CLONE_KEEP`: replaced, never changed in place)."""
    kept = {"game", "rng", *type(state)._CLONE_KEEP}
    for cls in type(state).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            assert hasattr(twin, name), f"clone() leaves out {name}"
            value = getattr(state, name)
            if isinstance(value, list | dict | set) and name not in kept:
                assert getattr(twin, name) is not value, f"clone() shares {name}"


def _end_checks(game: tiergarten.Game, state: State) -> None:
    assert not state.to_move()
    assert all(not state.legal_actions(s) for s in range(game.players))
    result = state.result()
    assert len(result.scores) == len(result.ranks) == game.players
    assert result.winners and all(result.ranks[w] == 1 for w in result.winners)
    assert len(state.history) <= game.info.max_decisions
    record = json.loads(json.dumps(state.record()))
    again = tiergarten.replay(record)
    assert again.is_over()
    assert again.result() == result
    for s in [*range(game.players), None]:
        assert again.observe(s) == state.observe(s)
        assert again.log_since(s) == state.log_since(s)
        _check_whole_log(state, s, state.observe(s), random.Random(s), whole_json=True)
