"""The lab answers a designer's question: sweeps with intervals, --until-separated, plots in
level order with legends beside them, and cost estimates before slow runs."""

import json

import pytest

from tiergarten import sim
from tiergarten.sim import pool
from tiergarten.sim.command import simulate_command
from tiergarten.sim.display import rate, same_bot_note
from tiergarten.sim.league import league, sweep
from tiergarten.sim.pool import Estimate, chunk_size, execute_many
from tiergarten.sim.separation import (
    Interval,
    Question,
    check_cap,
    of_league,
    of_run,
    of_sweep,
    until_separated,
)

ONE_ROUND = {"rounds": 1}


def _text(capsys):
    out, err = capsys.readouterr()
    return " ".join(out.split()), " ".join(err.split())


# -- sweeps ---------------------------------------------------------------------------------

def test_a_sweep_of_one_bot_shows_seat_0_points_and_length_with_intervals_and_warns(capsys):
    assert simulate_command("maumau", ["heuristic"] * 3, 30, 2, {"rounds": "1"}, False, 1,
                            sweep_option="jack_on_jack=true,false") == 0
    out, _ = _text(capsys)
    runs = sweep("maumau", ["heuristic"] * 3, "jack_on_jack", ["true", "false"], 30, 2,
                 ONE_ROUND, 1)
    for _, r in runs:  # every figure is printed over its interval
        seat, length = r.seats[0], r.decisions
        assert f"{seat.win_rate:.1%}" in out and f"{seat.low:.1%}"[:-1] + "–" in out
        assert f"{seat.points.low:.1f}–{seat.points.high:.1f}" in out
        assert f"{length.low:.1f}–{length.high:.1f}" in out
    assert "every seat holds heuristic, so only effects of the seat and of the game's length" \
        in out
    assert out.count("wins") == 1  # seat 0's: the column that said 33.3% every time is gone


def test_a_sweep_of_different_bots_has_their_columns_and_no_warning(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 4, 1, {"rounds": "1"}, False, 1,
                            sweep_option="jack_on_jack=true,false") == 0
    out, _ = _text(capsys)
    assert out.count("wins") == 3  # heuristic, random and seat 0
    assert "every seat holds" not in out
    assert same_bot_note(["heuristic", "random"]) is None


def test_a_sweep_in_json_carries_intervals_and_the_note(capsys):
    assert simulate_command("maumau", ["normal"] * 2, 6, 1, {"rounds": "1"}, True, 1,
                            sweep_option="two_player_nine=skip,none") == 0
    data = json.loads(capsys.readouterr().out)
    assert any("every seat holds normal" in note for note in data["notes"])
    for run in data["runs"]:
        low, high = run["seats"][0]["interval"]
        assert low <= run["seats"][0]["win_rate"] <= high
        assert run["length"]["decisions"]["low"] <= run["length"]["decisions"]["mean"]
        assert "low" in run["seats"][0]["points"]


# -- until separated ------------------------------------------------------------------------

def test_questions_per_mode():
    two = sim.run("maumau", ["heuristic", "random"], 4, 1, ONE_ROUND, workers=1)
    assert of_run(two).what == "the win rates of heuristic and random"
    one = sim.run("maumau", ["heuristic"] * 2, 4, 1, ONE_ROUND, workers=1)
    assert [i.label for i in of_run(one).intervals] == ["seat 0", "fair share"]
    runs = sweep("maumau", ["heuristic", "random"], "jack_on_jack", ["true", "false"], 4, 1,
                 ONE_ROUND, 1)
    q = of_sweep("jack_on_jack", runs)
    assert q.what.startswith("heuristic's win rate for jack_on_jack=true and jack_on_jack=false")
    assert q.pairs == ((0, 1),)
    t = league("maumau", ["easy", "normal", "random"], 4, 1, ONE_ROUND, 1)
    q = of_league(t)
    assert len(q.pairs) == 2  # three entrants: two neighbouring pairs
    g = league("maumau", ["normal", "easy", "random"], 4, 1, ONE_ROUND, 1, format="gauntlet")
    assert [i.label for i in of_league(g).intervals] == [
        "normal v easy", "easy v normal", "normal v random", "random v normal"]


def test_intervals_separate_only_when_apart():
    a, b, c = Interval("a", 0.5, 0.4, 0.6), Interval("b", 0.7, 0.61, 0.8), Interval(
        "c", 0.55, 0.5, 0.65)
    assert a.apart(b) and not a.apart(c) and not b.apart(c)
    q = Question("q", (a, b, c), ((0, 1), (0, 2)))
    assert not q.separated and q.overlapping == [(a, c)]


def test_until_separated_stops_once_apart_and_equals_the_run_of_that_size():
    seen = []

    def grow(games, previous):
        seen.append((games, previous.n if previous else 0))
        return sim.execute_many([sim.plan("maumau", ["heuristic", "random"], games, 3,
                                          ONE_ROUND, workers=1)],
                                before=[previous] if previous else None)[0]

    result, verdict = until_separated(grow, of_run, batch=2, cap=40)
    assert verdict.separated and verdict.games == result.n < 40
    assert seen == [(2 * k, 2 * (k - 1)) for k in range(1, verdict.batches + 1)]
    alone = sim.run("maumau", ["heuristic", "random"], result.n, 3, ONE_ROUND, workers=2)
    assert result.outcomes == alone.outcomes  # the batches are the games of one run
    assert f"separated after {result.n} games" in verdict.text()


def test_the_command_says_separated_after_n_games(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 2, 3, {"rounds": "1"}, False,
                            1, until_separated=True, cap=40) == 0
    out, _ = _text(capsys)
    assert "Until separated — the win rates of heuristic and random: separated after" in out


def test_the_command_says_not_separated_at_the_cap(capsys):
    # expert is the heuristic under its level name: two equal bots never come apart
    assert simulate_command("maumau", ["heuristic", "expert"], 6, 1, {"rounds": "1"}, True,
                            2, until_separated=True, cap=18) == 0
    data = json.loads(capsys.readouterr().out)
    verdict = data["until_separated"]
    assert verdict["separated"] is False and verdict["games"] == 18 and verdict["batches"] == 3
    assert "not separated at the cap of 18 games" in verdict["text"]
    assert verdict["overlapping"] == [["heuristic", "expert"]]
    assert data["n"] == 18


def test_until_separated_in_a_tournament_does_not_depend_on_workers(capsys):
    args = ("maumau", ["easy", "normal", "random"], 4, 2, {"rounds": "1"}, True)
    kw = {"tournament": "round-robin", "until_separated": True, "cap": 12}
    assert simulate_command(*args, 1, **kw) == 0
    one = json.loads(capsys.readouterr().out)
    assert simulate_command(*args, 2, **kw) == 0
    two = json.loads(capsys.readouterr().out)
    for data in (one, two):
        for p in data["pairings"]:
            del p["timing"]
    assert one == two


def test_bad_caps_are_refused(capsys):
    assert simulate_command("maumau", None, 10, 1, {}, False, 1, until_separated=True,
                            cap=5) == 2
    assert "at least one batch (-n 10), not 5" in capsys.readouterr().err
    assert simulate_command("maumau", None, 10, 1, {}, False, 1, cap=50) == 2
    assert "--cap goes with --until-separated" in capsys.readouterr().err
    with pytest.raises(ValueError):
        check_cap(10, True)


# -- plots ----------------------------------------------------------------------------------

def test_plots_show_levels_in_level_order_and_legends_beside_the_bars(tmp_path):
    from tiergarten.sim import report

    assert report.by_level(["random", "expert", "easy", "hard", "normal"]) == [
        "easy", "normal", "hard", "expert", "random"]
    t = league("maumau", ["random", "normal", "easy"], 2, 1, ONE_ROUND, 1)
    runs = [(f"p{j}", r) for j, r in enumerate(t.pairings)]
    names = report.by_level(n for _, r in runs for n in r.players)
    matrix = report._matrix(names, t.head_to_head)
    assert [x.get_text() for x in matrix.axes[0].get_xticklabels()] == ["easy", "normal",
                                                                         "random"]
    points = report._points(runs)
    assert [x.get_text() for x in points.axes[0].get_xticklabels()] == ["easy", "normal",
                                                                         "random"]
    ratings = report._ratings(t.ratings)
    assert [x.get_text() for x in ratings.axes[0].get_yticklabels()] == ["easy", "normal",
                                                                          "random"]
    assert ratings.axes[0].yaxis_inverted()  # read top down
    for fig in (report._seats(runs), report._lengths(runs)):
        fig.canvas.draw()
        ax = fig.axes[0]
        legend = ax.get_legend().get_window_extent()
        assert legend.x0 >= ax.get_window_extent().x1  # to the right of the axes
    report.write_report(tmp_path, "t", runs, t.ratings, t.head_to_head)
    assert (tmp_path / "seats.png").stat().st_size > 1000


def test_speeds_never_round_to_zero():
    assert rate(0.034) == "0.034" and rate(3.14159) == "3.14" and rate(1234.5) == "1,234"


# -- cost estimates and progress ------------------------------------------------------------

def test_every_plan_is_timed_on_its_first_games_before_the_rest():
    plans = [sim.plan("maumau", line, 5, 1, ONE_ROUND, workers=2)
             for line in (["heuristic", "random"], ["random", "random"])]
    events = []
    results = execute_many(plans, lambda done, total: events.append((done, total)),
                           estimate=events.append)
    estimates = [e for e in events if isinstance(e, Estimate)]
    assert len(estimates) == 1
    e = estimates[0]
    assert e.remaining == (5 - pool.PILOT,) * 2 and e.workers == 2
    assert all(c > 0 for c in e.per_game)
    assert events[events.index(e) - 1] == (2 * pool.PILOT, 10)  # every pilot came in first
    assert events[-1] == (10, 10)
    assert [r.outcomes for r in results] == [sim.run("maumau", p.players, 5, 1, ONE_ROUND,
                                                     workers=1).outcomes for p in plans]


def test_an_estimate_names_the_cost_and_warns_of_long_runs():
    quick = Estimate((0.002,), (1000,), 2)
    assert quick.text() == ("about 2 ms a game (from the first games); the other 1,000 games take "
                            "about 1.0 s on 2 workers")
    assert quick.warning() is None and not quick.worth_saying
    slow = Estimate((2.5,), (199,), 2)
    assert slow.seconds == pytest.approx(248.75) and slow.worth_saying
    assert slow.warning().startswith("warning: this run will take about 4 min")
    assert "--workers" in slow.warning()


def test_slow_games_go_out_one_or_two_at_a_time():
    p = sim.plan("maumau", None, 1000, 1, ONE_ROUND, workers=2)
    assert chunk_size(p, 2, 0.0) == 20  # quick: about 25 tasks a worker
    assert chunk_size(p, 2, 1.5) == 1 and chunk_size(p, 2, 0.9) == 2


def test_a_searching_level_gets_a_cost_line_up_front(capsys):
    assert simulate_command("maumau", ["master", "expert"], 4, 1, {"rounds": "1"}, False,
                            1) == 0
    _, err = _text(capsys)
    assert "cost: about" in err and "a game (from the first games); the other game takes" in err
    assert "warning" not in err


def test_a_long_run_is_warned_of(capsys, monkeypatch):
    monkeypatch.setattr(pool, "LONG_RUN", 0.0)
    assert simulate_command("maumau", ["heuristic", "random"], 6, 1, {"rounds": "1"}, False,
                            1) == 0
    _, err = _text(capsys)
    assert "warning: this run will take about" in err
    assert err.index("warning") < err.index("6/6")  # before the run ends


def test_quick_runs_say_nothing_of_their_cost(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 3, 1, {"rounds": "1"}, False,
                            1) == 0
    assert "cost:" not in capsys.readouterr().err


# -- looking again and again ----------------------------------------------------------------

def test_each_look_is_bonferroni_over_the_planned_looks():
    from tiergarten.sim.separation import confidence, level, looks

    assert looks(20, 200) == 10 and looks(6, 18) == 3 and looks(100, 150) == 2
    assert level(1) == pytest.approx(1.959964, abs=1e-6)
    assert confidence(level(10)) == pytest.approx(1 - 0.05 / 10)
    seen = []

    def grow(games, previous):
        seen.append(games)
        return sim.execute_many([sim.plan("maumau", ["heuristic", "expert"], games, 1,
                                          ONE_ROUND, workers=1)],
                                before=[previous] if previous else None)[0]

    result, verdict = until_separated(grow, of_run, batch=6, cap=18)
    assert verdict.looks == 3 and verdict.question.z == pytest.approx(level(3))
    wide = of_run(result, level(3))
    plain = of_run(result)
    assert all(w.low <= p.low and w.high >= p.high
               for w, p in zip(wide.intervals, plain.intervals, strict=True))
    assert "98.333% intervals at each look, Bonferroni over 3 planned looks" in verdict.text()
    assert verdict.to_dict()["confidence"] == pytest.approx(1 - 0.05 / 3)


def _coin_runs(runs, batch, cap, corrected):
    """Runs of two equal players (a fair coin decides each game), judged by the stopping rule
    with the same interval arithmetic as a two-bot line-up: false separations."""
    import random

    from tiergarten.sim.stats import Z95, wilson

    false = 0
    for run in range(runs):
        rng = random.Random(run)
        flips = [rng.random() < 0.5 for _ in range(cap)]

        def ask(games, z, flips=flips):
            z = z if corrected else Z95
            wins = sum(flips[:games])
            a, b = wilson(wins, games, z), wilson(games - wins, games, z)
            return Question("q", (Interval("a", wins / games, *a),
                                  Interval("b", 1 - wins / games, *b)), ((0, 1),), z)
        _, verdict = until_separated(lambda games, _prev: games, ask, batch, cap)
        false += verdict.separated
    return false / runs


def test_equal_players_separate_falsely_at_most_5_percent_of_the_time():
    corrected = _coin_runs(2000, 20, 200, corrected=True)
    uncorrected = _coin_runs(2000, 20, 200, corrected=False)
    assert corrected <= 0.05
    assert uncorrected > 0.10  # what looking ten times at 95% intervals did
