"""The real-time loop: the earliest proposal wins, every seat is asked again after each change,
virtual time jumps to each due time, and a wall-clock `RealTimeTable` interleaves people's
submissions with bots' proposals in order of time (checked here with a scripted clock, nothing
timed)."""

from __future__ import annotations

import queue
import random
from collections.abc import Callable

import pytest

import tiergarten
from tiergarten.bots import RandomBot, make
from tiergarten.core import Action, IllegalAction
from tiergarten.core.match import NoProposal, Proposal, SeatView
from tiergarten.core.realtime import (
    Move,
    RealTimeTable,
    Submission,
    TimedView,
    WallClock,
    earliest,
    play_virtual,
    run_virtual,
)

Rule = Callable[[SeatView], "tuple[float, str] | None"]


class Scripted:
    """An agent that answers by a rule, remembering every `now` it was asked at."""

    def __init__(self, rule: Rule, interactive: bool = False) -> None:
        self.rule = rule
        self.interactive = interactive
        self.asked: list[float] = []

    def propose(self, view: SeatView) -> Proposal | None:
        assert isinstance(view, TimedView)
        self.asked.append(view.now)
        answer = self.rule(view)
        if answer is None:
            return None
        delay, text = answer
        return (delay, view.game.parse_action(text))


def game(players: int = 2) -> tiergarten.Game:
    return tiergarten.load("lecker_mammut", players=players, rounds=1)


def flipper(pace: float) -> Rule:
    """Flips every `pace` seconds when it may; passes at once at the end."""
    def rule(view: SeatView) -> tuple[float, str] | None:
        legal = [str(a) for a in view.legal]
        if "flip" in legal:
            return (pace, "flip")
        if "pass" in legal:
            return (0.5, "pass")
        if view.observation["choosing"]:
            return (0.1, str(view.legal[0]))
        return None
    return rule


def test_the_earliest_proposal_wins_and_virtual_time_jumps_to_it() -> None:
    g = game(3)
    state = g.new_state(seed=1)
    agents = [Scripted(flipper(2.0)), Scripted(lambda v: (0.3, "hit pink")),
              Scripted(lambda v: (0.7, "hit red"))]
    move = earliest(state, agents, now=10.0)
    assert move == Move(1, g.parse_action("hit pink"), 10.3)


def test_ties_go_to_the_seat_asked_first() -> None:
    state = game(3).new_state(seed=1)
    agents = [Scripted(lambda v: (0.5, "hit bear")), Scripted(lambda v: (0.5, "hit boar")),
              Scripted(lambda v: None)]
    move = earliest(state, agents, now=0.0)
    assert move is not None and move.seat == 0


def test_every_seat_is_asked_again_after_each_change_with_the_clock_moving_on() -> None:
    steps: list[Move] = []
    agents = [Scripted(flipper(1.0)), Scripted(flipper(1.5))]
    state, end = play_virtual(game(2), agents, seed=4, on_step=lambda s, m: steps.append(m))
    assert state.is_over()
    times = [m.time for m in steps]
    assert times == sorted(times) and end == times[-1]
    assert times[:3] == pytest.approx([1.0, 2.0, 3.0])  # seat 0 flips every second
    assert agents[1].asked[:3] == pytest.approx([0.0, 1.0, 2.0])
    assert len(steps) == len(state.history)


def test_nobody_proposing_is_an_error() -> None:
    state = game(2).new_state(seed=1)
    with pytest.raises(NoProposal):
        run_virtual(state, [Scripted(lambda v: None), Scripted(lambda v: None)])


def test_play_virtual_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_virtual(game(2), [Scripted(lambda v: None)])


def test_any_game_can_run_in_virtual_time() -> None:
    g = tiergarten.load("maumau", players=2, rounds=1)
    state, end = play_virtual(g, [RandomBot(g, s, random.Random(s)) for s in range(2)], seed=2)
    assert state.is_over() and end > 0


def test_the_same_seeds_give_the_same_game_and_the_same_times() -> None:
    def once() -> tuple[list[list[object]], list[float]]:
        g = game(3)
        agents = [make(name, g, s, random.Random(s)) for s, name in
                  enumerate(("slow", "fast", "hard"))]
        times: list[float] = []
        state, _ = play_virtual(g, agents, seed=9, on_step=lambda s, m: times.append(m.time))
        return state.record()["actions"], times
    assert once() == once()


# -- wall clock, scripted ----------------------------------------------------------------------

class ScriptClock:
    """Time that moves only as the table waits; people's actions arrive at scripted times."""

    def __init__(self, arrivals: list[tuple[float, int, str]]) -> None:
        self.t = 0.0
        self.arrivals = sorted(arrivals)

    def now(self) -> float:
        return self.t

    def wait(self, inbox: queue.Queue[Submission], seconds: float) -> Submission | None:
        if self.arrivals and self.arrivals[0][0] <= self.t + seconds:
            at, seat, text = self.arrivals.pop(0)
            self.t = max(self.t, at)
            inbox.put((seat, text))
        else:
            self.t += seconds
        try:
            return inbox.get_nowait()
        except queue.Empty:
            return None


def never(view: SeatView) -> tuple[float, str] | None:
    raise AssertionError("a person is never asked for a proposal")


def test_a_table_interleaves_a_persons_actions_with_a_bots_by_time() -> None:
    g = game(2)
    state = g.new_state(seed=3)
    steps: list[Move] = []
    refused: list[tuple[int, str]] = []
    clock = ScriptClock([(0.5, 1, "flip"), (1.2, 1, "hit pink"), (2.5, 0, "pass"),
                         (3.05, 0, "hit bear")])  # anyone may submit, even for a bot's seat
    table = RealTimeTable(state, [Scripted(flipper(1.0)), Scripted(never, interactive=True)],
                          clock, on_refused=lambda seat, a, exc: refused.append((seat, str(a))))
    table.stop.set()
    table.run()
    assert state.history == []  # stopped before anything happened
    table.stop.clear()

    def stop_after_four(s: tiergarten.State, m: Move) -> None:
        steps.append(m)
        if len(steps) == 4:
            table.stop.set()
    table.on_step = stop_after_four
    table.run()
    # the bot flips a second after each change; the person's hit at 1.2 delays its next flip
    assert [(m.seat, str(m.action), m.time) for m in steps] == [
        (0, "flip", 1.0), (1, "hit pink", 1.2), (0, "flip", 2.2), (0, "hit bear", 3.05)]
    assert refused == [(1, "flip"), (0, "pass")]


def test_a_refused_submission_changes_nothing() -> None:
    g = game(2)
    state = g.new_state(seed=3)
    table = RealTimeTable(state, [Scripted(lambda v: None, interactive=True)] * 2, ScriptClock([]))
    errors: list[IllegalAction] = []
    table.on_refused = lambda seat, a, exc: errors.append(exc)
    assert table._apply(1, "flip", 0.0) is False
    assert state.history == [] and "being flipped" in str(errors[0])


def test_a_wall_clock_table_plays_bots_to_the_end() -> None:
    g = game(2)
    agents = [make("hard", g, s, random.Random(s)) for s in range(2)]
    table = RealTimeTable(g.new_state(seed=5), agents, WallClock(speed=5000.0))
    assert table.run().is_over()


def test_submit_is_the_way_in_for_people() -> None:
    table = RealTimeTable(game(2).new_state(seed=1), [Scripted(never, interactive=True)] * 2,
                          ScriptClock([]))
    table.submit(0, "flip")
    assert table.inbox.get_nowait() == (0, "flip")


def test_actions_applied_are_what_the_step_callback_sees() -> None:
    seen: list[Action] = []
    g = game(2)
    state = g.new_state(seed=2)
    table = RealTimeTable(state, [Scripted(flipper(1.0)), Scripted(never, interactive=True)],
                          ScriptClock([(0.2, 1, "hit boar @0")]),
                          on_step=lambda s, m: (seen.append(m.action), table.stop.set()))
    table.run()
    assert [str(a) for a in seen] == ["hit boar @0"]
