"""The simulator: determinism across worker counts, seat rotation, tallies and the report."""

import json
from collections import Counter
from typing import Any

import pytest

import tiergarten
from tiergarten import bots, sim
from tiergarten.sim.tournament import Outcome, lineup, play_game, summarise

ONE_ROUND = {"rounds": 1}


def _figures(result):
    report = result.to_dict(games=True)
    del report["timing"]
    return report


def test_same_seed_same_result_for_one_or_two_workers():
    args = ("maumau", ["heuristic", "random", "random"], 13, 42, ONE_ROUND)
    one = sim.run(*args, workers=1)
    two = sim.run(*args, workers=2)
    assert one.outcomes == two.outcomes
    assert _figures(one) == _figures(two)
    assert two.workers == 2


def test_another_seed_gives_other_games():
    a = sim.run("maumau", None, 6, seed=1, options=ONE_ROUND, workers=1)
    b = sim.run("maumau", None, 6, seed=2, options=ONE_ROUND, workers=1)
    assert [o.decisions for o in a.outcomes] != [o.decisions for o in b.outcomes]


def test_each_game_is_the_one_play_game_gives():
    result = sim.run("maumau", ["heuristic", "random"], 3, seed=9, options=ONE_ROUND, workers=1)
    game = tiergarten.load("maumau", 2, **ONE_ROUND)
    assert result.outcomes == tuple(play_game(game, ["heuristic", "random"], 9, i)
                                    for i in range(3))


def test_line_up_rotates_so_every_bot_sits_in_every_seat():
    players = ["heuristic", "random", "random"]
    result = sim.run("maumau", players, 9, seed=5, options=ONE_ROUND, workers=1)
    assert [o.index for o in result.outcomes] == list(range(9))
    for o in result.outcomes:
        assert o.seats == lineup(players, o.index)
    heuristic_seats = Counter(o.seats.index("heuristic") for o in result.outcomes)
    assert heuristic_seats == {0: 3, 1: 3, 2: 3}
    assert {t.name: t.games for t in result.bots} == {"heuristic": 9, "random": 18}
    assert [t.games for t in result.seats] == [9, 9, 9]
    heuristic, rnd = result.bots
    assert [(t.name, t.games) for t in heuristic.by_seat] == [("0", 3), ("1", 3), ("2", 3)]
    assert [t.games for t in rnd.by_seat] == [6, 6, 6]
    assert sum(t.wins for t in heuristic.by_seat) == heuristic.wins


def test_wins_add_up_and_ties_are_shared():
    result = sim.run("maumau", None, 8, seed=3, options=ONE_ROUND, workers=1)
    assert sum(t.wins for t in result.seats) == pytest.approx(8)
    assert sum(t.wins for t in result.bots) == pytest.approx(8)
    p = sim.plan("maumau", ["heuristic", "random"], 2, 0, ONE_ROUND, workers=1)
    tie = Outcome(0, ("heuristic", "random"), (30, 30), (0, 1), 10, None, "rounds")
    solo = Outcome(1, ("random", "heuristic"), (0, 40), (1,), 12, None, "rounds")
    report = summarise(p, [tie, solo], elapsed=1.0)
    assert [t.wins for t in report.seats] == [0.5, 1.5]
    assert {t.name: t.wins for t in report.bots} == {"heuristic": 1.5, "random": 0.5}
    assert report.bots[0].points.mean == 35
    assert report.decisions.mean == 11
    assert report.rounds is None and "rounds" not in report.to_dict()["length"]
    assert report.first_seat.win_rate == 0.25 and report.first_seat.advantage == -0.25


def test_report_is_json_with_the_promised_shape():
    result = sim.run("maumau", ["heuristic", "random"], 4, seed=1,
                     options={"rounds": 1, "jack_on_jack": "false"}, workers=1)
    report = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert report["game"] == "maumau" and report["n"] == 4 and report["seed"] == 1
    assert report["options"]["jack_on_jack"] is False and report["options"]["rounds"] == 1
    assert [s["seat"] for s in report["seats"]] == [0, 1]
    assert [b["bot"] for b in report["bots"]] == ["heuristic", "random"]
    for row in report["seats"] + report["bots"]:
        low, high = row["interval"]
        assert low <= row["win_rate"] <= high
        assert set(row["points"]) >= {"mean", "sd", "low", "high"}
    assert report["length"]["rounds"]["mean"] == 1
    assert report["length"]["decisions"]["mean"] > 0
    assert set(report["first_seat"]) == {"win_rate", "fair", "advantage", "interval",
                                         "significant"}
    assert report["reasons"] == {"rounds": 4}
    assert set(report["timing"]) == {"workers", "elapsed_s", "games_per_s", "decisions_per_s"}
    assert "outcomes" not in report and len(result.to_dict(games=True)["outcomes"]) == 4
    assert report["rotation_balanced"] is True
    assert [s["seat"] for s in report["bots"][0]["by_seat"]] == [0, 1]
    assert [s["games"] for s in report["bots"][1]["by_seat"]] == [2, 2]
    assert "by_seat" not in report["seats"][0]


def test_a_failing_game_names_its_index_and_seed(monkeypatch):
    class Broken(bots.Bot):
        def propose(self, view):
            raise KeyError("boom")

    monkeypatch.setitem(bots._BY_GAME["maumau"], "broken", Broken)
    with pytest.raises(RuntimeError, match=r"game 0 of the run \(seed 7, seats broken, random"):
        sim.run("maumau", ["broken", "random"], 2, seed=7, workers=1)


def test_default_table_is_random_bots_at_the_usual_size():
    result = sim.run("maumau", None, 3, seed=0, options=ONE_ROUND, workers=1)
    default = tiergarten.load("maumau").players
    assert result.players == ("random",) * default


def test_progress_reports_every_game_once():
    seen = []
    sim.run("maumau", None, 7, seed=0, options=ONE_ROUND, workers=1,
            progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"game_id": "nope"}, "maumau"),
    ({"players": ["heuristic", "genius"]}, "heuristic, ismcts, learned, master, normal, random"),
    ({"players": ["random"] * 5}, "2 to 4"),
    ({"options": {"colour": "red"}}, "jack_on_jack"),
    ({"n": 0}, "at least 1"),
    ({"workers": 0}, "at least 1"),
    ({"seed": "7"}, "seed must be a whole number"),
])
def test_bad_requests_raise_before_any_game(kwargs, words):
    args = {"game_id": "maumau", "n": 2, "workers": 1, **kwargs}
    with pytest.raises(ValueError, match=words):
        sim.run(**args)


def test_heuristic_beats_random():
    # One round, two players, seats rotated: equal bots would win about half. The heuristic
    # wins about 95% of single rounds; the assertion leaves a wide margin.
    result = sim.run("maumau", ["heuristic", "random"], 120, seed=11, options=ONE_ROUND,
                     workers=1)
    heuristic, random_bot = result.bots
    assert heuristic.low > 0.75
    assert heuristic.win_rate > random_bot.win_rate
    assert heuristic.points.mean > random_bot.points.mean


def test_real_time_games_are_simulated_in_virtual_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from tiergarten.sim import tournament

    calls: list[int] = []
    real = tournament.play_virtual

    def spy(game: Any, agents: Any, seed: Any = None) -> Any:
        calls.append(seed)
        return real(game, agents, seed)

    monkeypatch.setattr(tournament, "play_virtual", spy)
    game = tiergarten.load("lecker_mammut", players=2, rounds=1)
    outcome = tournament.play_game(game, ["hard", "slow"], seed=5, index=1)
    assert calls == [6] and outcome.decisions > 0
