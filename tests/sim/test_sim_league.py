"""Tournaments, ratings, sweeps, reports, saved records, and the command's new options."""

import json

import pytest

import tiergarten
from tiergarten import sim
from tiergarten.sim.command import simulate_command
from tiergarten.sim.league import league, lineups, pairs, parse_sweep, sweep
from tiergarten.sim.report import save_records, write_report

ONE_ROUND = {"rounds": 1}


def test_round_robin_pairs_everyone_and_gauntlet_only_the_first():
    assert pairs(["a", "b", "c"], "round-robin") == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairs(["a", "b", "c", "d"], "gauntlet") == [("a", "b"), ("a", "c"), ("a", "d")]
    with pytest.raises(ValueError, match="round-robin, gauntlet"):
        pairs(["a", "b"], "swiss")
    with pytest.raises(ValueError, match="two different"):
        pairs(["a", "a"], "round-robin")
    assert lineups("a", "b", 4) == [("a", "b", "b", "b"), ("b", "a", "a", "a")]


def test_a_league_rates_the_heuristic_above_random_with_intervals():
    t = league("maumau", ["random", "heuristic"], n=24, seed=3, options=ONE_ROUND, workers=1)
    best, worst = t.ratings["heuristic"], t.ratings["random"]
    assert best.low > worst.mu and best.mu > worst.high
    assert best.sigma < 25 / 3  # narrower than a new rating's
    cell = t.cell("heuristic", "random")
    assert cell is not None and cell.games == 24 and cell.low > cell.fair
    back = t.cell("random", "heuristic")
    assert back is not None and back.wins + cell.wins == pytest.approx(24)
    assert json.loads(json.dumps(t.to_dict()))["format"] == "round-robin"


def test_a_three_seat_pairing_plays_both_line_ups_from_the_same_deals():
    t = league("mammuz", ["random", "heuristic"], n=3, seed=1, workers=1)
    assert [p.players for p in t.pairings] == [("random", "heuristic", "heuristic"),
                                               ("heuristic", "random", "random")]
    assert t.seats == 3
    assert t.cell("random", "heuristic").games == 3 + 6  # one seat, then two seats a game


def test_ratings_depend_on_the_seed_alone():
    a = league("maumau", ["random", "heuristic", "easy"], n=4, seed=2, options=ONE_ROUND,
               workers=1, format="gauntlet")
    b = league("maumau", ["random", "heuristic", "easy"], n=4, seed=2, options=ONE_ROUND,
               workers=2, format="gauntlet")
    assert a.ratings == b.ratings and a.head_to_head == b.head_to_head


def test_a_sweep_runs_once_per_value_with_the_value_set():
    runs = sweep("maumau", ["heuristic", "random"], "jack_on_jack", ["true", "false"], n=4,
                 seed=1, options=ONE_ROUND, workers=1)
    assert [v for v, _ in runs] == ["true", "false"]
    assert [r.options["jack_on_jack"] for _, r in runs] == [True, False]
    assert parse_sweep(" mau_penalty = 0,2 ") == ("mau_penalty", ["0", "2"])
    with pytest.raises(ValueError, match="option=a,b,c"):
        parse_sweep("mau_penalty")


def test_the_report_page_has_every_plot(tmp_path):
    t = league("maumau", ["random", "heuristic"], n=4, seed=1, options=ONE_ROUND, workers=1)
    runs = [("pairing", r) for r in t.pairings]
    page = write_report(tmp_path, "test", runs, t.ratings, t.head_to_head)
    text = page.read_text()
    for plot in ("ratings.png", "head_to_head.png", "seats.png", "length.png", "points.png"):
        assert (tmp_path / plot).stat().st_size > 1000
        assert plot in text
    data = json.loads((tmp_path / "report.json").read_text())
    assert set(data["ratings"]) == {"random", "heuristic"}


def test_saved_records_replay_to_the_same_results(tmp_path):
    result = sim.run("maumau", ["heuristic", "random"], 3, seed=4, options=ONE_ROUND,
                     workers=1, records=True)
    paths = save_records(tmp_path, [("run", result)])
    assert [p.name for p in paths] == ["run-00000.json", "run-00001.json", "run-00002.json"]
    for path, outcome in zip(paths, result.outcomes, strict=True):
        state = tiergarten.replay(json.loads(path.read_text()))
        assert list(state.result().scores) == list(outcome.scores)
        assert state.record()["seed"] == 4 + outcome.index


def test_the_command_runs_a_tournament_with_report_and_records(tmp_path, capsys):
    status = simulate_command("maumau", ["random,heuristic"], 2, 1, {"rounds": "1"}, False, 1,
                              tournament="round-robin", report=tmp_path / "r",
                              save=tmp_path / "s")
    out, err = capsys.readouterr()
    assert status == 0
    assert "Ratings (openskill)" in out and "Head to head" in out
    assert (tmp_path / "r" / "index.html").exists()
    assert len(list((tmp_path / "s").glob("*.json"))) == 2
    assert "2/2" in err


def test_the_command_sweeps_and_refuses_a_bad_value(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 2, 1, {"rounds": "1"}, True, 1,
                            sweep_option="jack_on_jack=true,false") == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["value"] for r in data["runs"]] == ["true", "false"]
    assert simulate_command("maumau", None, 2, 1, {}, False, 1,
                            sweep_option="jack_on_jack=true,maybe") == 2
    assert "true, false" in capsys.readouterr().err
    assert simulate_command("maumau", ["random"], 2, 1, {}, False, 1,
                            tournament="round-robin") == 2
    assert simulate_command("maumau", None, 2, 1, {}, False, 1, backend="spark") == 2
