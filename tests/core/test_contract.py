"""The public contract of docs/architecture.md, checked through `tiergarten` itself."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tiergarten
from tiergarten.core import Result
from tiergarten.core.match import NoProposal, SeatView, next_move, play_match
from tiergarten.core.options import Option, parse_assignments, resolve


def test_games_lists_every_registered_id_sorted() -> None:
    ids = tiergarten.games()
    assert "maumau" in ids
    assert list(ids) == sorted(ids)


def test_the_games_package_is_not_shadowed_by_the_games_list() -> None:
    import tiergarten.games.mammuz.state as mammuz_state

    assert mammuz_state.__name__ == "tiergarten.games.mammuz.state"
    assert tiergarten.games() == tiergarten.core.games()


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(tiergarten.OptionError) as caught:
        tiergarten.load("skat")
    assert "unknown game 'skat'" in str(caught.value) and "maumau" in str(caught.value)


def test_errors_are_value_errors() -> None:
    assert issubclass(tiergarten.IllegalAction, ValueError)
    assert issubclass(tiergarten.OptionError, ValueError)
    assert issubclass(tiergarten.NotationError, tiergarten.IllegalAction)


def test_option_values_are_read_from_text_and_checked() -> None:
    spec = (Option("n", 3, "a count", kind=int, minimum=1, maximum=5),
            Option("flag", True, "a switch"),
            Option("mode", "a", "a choice", kind=str, choices=("a", "none")),
            Option("limit", None, "optional", kind=int, minimum=1, nullable=True))
    assert resolve(spec, {"n": "4", "flag": "no", "mode": "none", "limit": "none"}) == {
        "n": 4, "flag": False, "mode": "none", "limit": None}
    for bad in ({"n": 0}, {"n": "x"}, {"n": True}, {"flag": "maybe"}, {"mode": "b"},
                {"limit": 0}):
        with pytest.raises(tiergarten.OptionError, match="cannot be"):
            resolve(spec, bad)


def test_option_assignments_must_have_an_equals_sign() -> None:
    with pytest.raises(tiergarten.OptionError, match="name=value"):
        parse_assignments(["jack_on_jack"])


def test_ranks_share_ties_and_can_prefer_low_scores() -> None:
    assert Result.from_scores((5, 5, 1), "x").ranks == (1, 1, 3)
    low = Result.from_scores((3, 1, 2), "x", higher_is_better=False)
    assert low.ranks == (3, 1, 2) and low.winners == (1,)


def test_action_ids_and_notation_round_trip_for_every_action() -> None:
    for gid in tiergarten.games():
        game = tiergarten.load(gid)
        for i in range(game.num_actions):
            action = game.action_from_id(i)
            assert game.action_id(action) == i
            assert game.parse_action(str(action)) is action
            assert game.parse_action("  " + str(action).upper() + " ") is action
        with pytest.raises(tiergarten.IllegalAction, match="ids run from 0"):
            game.action_from_id(game.num_actions)


def test_unreadable_notation_says_how_to_write_moves() -> None:
    game = tiergarten.load("maumau")
    with pytest.raises(tiergarten.NotationError, match="cannot read 'play 11h'.*play <card>"):
        game.parse_action("play 11h")


def test_apply_refuses_foreign_values_and_bad_seats() -> None:
    state = tiergarten.load("maumau", players=2).new_state(1)
    with pytest.raises(tiergarten.IllegalAction, match="no seat 5"):
        state.apply(5, "draw")
    with pytest.raises(tiergarten.IllegalAction, match="not an action of maumau"):
        state.apply(state.to_move()[0], 42)  # type: ignore[arg-type]


def test_replay_refuses_a_broken_record() -> None:
    state = tiergarten.load("maumau", players=2).new_state(1)
    record = state.record()
    with pytest.raises(ValueError, match="record lacks seed"):
        tiergarten.replay({k: v for k, v in record.items() if k != "seed"})
    record["actions"] = [[1 - state.to_move()[0], "draw"]]
    with pytest.raises(tiergarten.IllegalAction, match="record action 0"):
        tiergarten.replay(record)


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": "7"}, "seed must be an integer, not '7'"),
    ({"seed": 7.5}, "seed must be an integer, not 7.5"),
    ({"seed": True}, "seed must be an integer, not True"),
    ({"format": 3}, "record format 3 is not known; this version reads formats 1 and 2"),
    ({"rules": "3"}, "names its rules version as a whole number, not '3'"),
    ({"rules": 9}, "maumau has rules versions 1 to 3, not 9 \\(a newer tiergarten"),
    ({"rules": 0}, "maumau has rules versions 1 to 3, not 0; allowed: 1, 2, 3"),
    ({"format": "1"}, "record format '1' is not known"),
    ({"options": []}, "options must be a mapping"),
    ({"actions": "draw"}, "actions must be a list"),
])
def test_replay_refuses_a_record_it_cannot_trust(change: dict[str, object], message: str,
                                                 ) -> None:
    record = {**tiergarten.load("maumau", players=2).new_state(1).record(), **change}
    with pytest.raises(ValueError, match=message):
        tiergarten.replay(record)
    with pytest.raises(ValueError, match="a record is a mapping"):
        tiergarten.replay([record])  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), max_size=120),
       players=st.integers(2, 4))
def test_same_seed_and_actions_give_the_same_game(seed: int, picks: list[int],
                                                  players: int) -> None:
    game = tiergarten.load("maumau", players=players, rounds=1)
    state = game.new_state(seed)
    for pick in picks:
        if state.is_over():
            break
        movers = state.to_move()
        seat = movers[pick % len(movers)]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[pick % len(legal)])
    again = tiergarten.replay(json.loads(json.dumps(state.record())))
    assert [again.observe(s) for s in range(players)] == [state.observe(s) for s in range(players)]


class _Fixed:
    """An agent that always proposes one action with one delay, or declines."""

    def __init__(self, delay: float | None, interactive: bool = False) -> None:
        self.delay, self.interactive, self.reaction, self.asked = delay, interactive, 0.5, 0

    def propose(self, view: SeatView) -> tuple[float, tiergarten.Action] | None:
        self.asked += 1
        return None if self.delay is None else (self.delay, view.legal[-1])


def _catch_window() -> tiergarten.State:
    """Someone forgot Mau: the next player is to move, and both opponents may catch."""
    game = tiergarten.load("maumau", players=3)
    for seed in range(500):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over() and len(state.to_move()) == 1:
            seat = state.to_move()[0]
            legal = [a for a in state.legal_actions(seat) if not str(a).endswith("mau")]
            state.apply(seat, rng.choice(legal))
        if not state.is_over() and len(state.to_move()) == 2:
            return state
    raise AssertionError("no catch window found")


def test_the_earliest_proposal_wins_and_people_are_asked_last() -> None:
    state = _catch_window()
    turn, other = state.to_move()
    agents: list[_Fixed] = [_Fixed(None), _Fixed(None), _Fixed(None)]
    agents[turn], agents[other] = _Fixed(1.0), _Fixed(0.2)
    assert next_move(state, agents)[0] == other
    person = _Fixed(0.0, interactive=True)
    agents[turn] = person
    assert next_move(state, agents)[0] == other and person.asked == 0  # the bot was sooner
    agents[other] = _Fixed(None)
    assert next_move(state, agents)[0] == turn and person.asked == 1


def test_a_table_where_everyone_declines_stops_with_a_clear_error() -> None:
    state = tiergarten.load("maumau", players=2).new_state(0)
    with pytest.raises(NoProposal):
        next_move(state, [_Fixed(None), _Fixed(None)])


def test_play_match_needs_one_agent_per_seat() -> None:
    game = tiergarten.load("maumau", players=3)
    with pytest.raises(ValueError, match="needs 3 agents"):
        play_match(game, [_Fixed(0.0)], seed=1)


@pytest.mark.parametrize("gid", tiergarten.games())
@pytest.mark.parametrize("how", ["apply", "apply_unchecked"])
def test_every_way_of_applying_records_counts_and_ends_at_the_bound(gid: str, how: str) -> None:
    state = tiergarten.load(gid).new_state(seed=5)
    limit = state.game.info.max_decisions
    state.decisions = limit - 2
    for expected_over in (False, True):
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        getattr(state, how)(seat, action)
        assert state.history[-1] == (seat, action)
        assert state.is_over() is expected_over
    assert state.decisions == limit and state.result().reason == "decision_limit"
    assert not state.to_move()
    assert all(not state.legal_actions(s) for s in range(state.game.players))
