"""The designer's measures (docs/lab.md): lead changes, comebacks, kingmaking, downtime and
usage, per game from its public record and over a run, in text, JSON and the studies."""

import json

import pytest

from tiergarten import load, sim
from tiergarten.sim.command import simulate_command
from tiergarten.sim.measures import STANDINGS, lead_figures, measure, usage_keys, waits

ONE_ROUND = {"rounds": 1}


def test_leads_count_a_new_sole_leader_and_ignore_ties():
    turns = [(0, [(1,), (0,)]), (1, [(1,), (1,)]), (0, [(2,), (1,)]), (1, [(2,), (3,)])]
    assert lead_figures(turns, (1,), 2) == (1, True, None)  # a tie leads no one


def test_a_comeback_needs_the_winner_alone_in_last_place():
    tied_last = [(0, [(1,), (0,), (0,)]), (1, [(1,), (2,), (0,)])]
    assert lead_figures(tied_last, (1,), 3)[1] is False  # 1 was last only with 2
    assert lead_figures(tied_last, (2,), 3)[1] is True


def test_kingmaking_is_a_third_seats_turn_handing_the_winner_the_lead_for_good():
    # seat 2 (last) knocks leader 0 down: 1 leads to the end and wins
    made = [(0, [(3,), (2,), (0,)]), (2, [(1,), (2,), (0,)]), (1, [(1,), (3,), (0,)])]
    assert lead_figures(made, (1,), 3)[2] is True
    # the leader's own turn loses the lead: no third party
    own = [(0, [(3,), (2,), (0,)]), (0, [(1,), (2,), (0,)])]
    assert lead_figures(own, (1,), 3)[2] is False
    # handed the lead, then lost it and took it back itself: its own last taking counts
    back = made[:2] + [(0, [(4,), (2,), (0,)]), (1, [(4,), (5,), (0,)])]
    assert lead_figures(back, (1,), 3)[2] is False


def test_downtime_counts_the_others_decisions_between_two_turns():
    turns = [(0, "play 7h"), (1, "draw"), (1, "pass"), (2, "draw"), (2, "pass"), (0, "draw"),
             (1, "draw"), (2, "draw"), (0, "draw")]
    assert waits(turns, 3) == ((6, 2, 4), (3, 1, 3), (2, 1, 2))


def test_a_games_measures_come_from_its_own_record():
    game = load("maumau", 3, rounds=1)
    out = sim.play_game(game, ["heuristic"] * 3, 1, 0, keep_record=True)
    actions = [(seat, text) for seat, text in out.record["actions"]]
    m = measure(game, 1, actions, out.winners)
    assert m == out.measures
    assert sum(n for key, n in m.usage if key in ("play", "draw", "pass", "catch")) == \
        out.decisions


def test_every_game_has_a_public_standing():
    for game_id, k in (("maumau", 3), ("mammuz", 3), ("mucca_pazza", 3),
                       ("lecker_mammut", 3)):
        obs = load(game_id, k).new_state(1).observe(None)  # a spectator's view: public
        assert len(STANDINGS[game_id](obs)) == k


def test_usage_counts_actions_and_cards():
    assert usage_keys("maumau", "catch") == ["catch"]
    assert usage_keys("mammuz", "extinct tiger") == ["extinct", "extinct tiger"]
    assert usage_keys("lecker_mammut", "top red-bear") == ["top"]


def test_a_run_tallies_the_measures_with_intervals():
    r = sim.run("maumau", ["heuristic", "random", "random"], 30, 1, ONE_ROUND, workers=1)
    d = r.designer
    assert d is not None and d.standing == "match points, then fewest cards in hand"
    assert d.lead_changes.count == 30 and d.lead_changes.low <= d.lead_changes.mean
    assert d.comebacks.games == 30 and d.comebacks.low <= d.comebacks.rate <= d.comebacks.high
    assert d.kingmaking.games == 30
    assert len(d.downtime) == 3 and all(w.mean > 0 for w in d.downtime)
    assert d.usage[0].key == "play" and sum(u.uses for u in d.usage
                                            if " " not in u.key and u.key != "mau") == \
        sum(o.decisions for o in r.outcomes)  # every decision has one kind
    again = sim.run("maumau", ["heuristic", "random", "random"], 30, 1, ONE_ROUND, workers=2)
    assert again.designer == d  # the same whatever the workers
    two = sim.run("maumau", ["heuristic", "random"], 4, 1, ONE_ROUND, workers=1)
    assert two.designer.kingmaking is None  # no third seat


def test_simulate_shows_the_measures_in_text_and_json(capsys):
    assert simulate_command("mammuz", ["heuristic", "heuristic", "random"], 6, 1, {}, False,
                            1) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Lead (by fewest cards in hand):" in out and "comebacks" in out
    assert "kingmaking" in out and "Downtime" in out and "Most used" in out
    assert simulate_command("mammuz", ["heuristic", "heuristic", "random"], 6, 1, {}, True,
                            1) == 0
    data = json.loads(capsys.readouterr().out)
    d = data["designer"]
    assert set(d) >= {"lead_changes", "comebacks", "kingmaking", "downtime", "usage"}
    assert d["usage"]["lay"]["uses"] > 0 and d["comebacks"]["games"] == 6


@pytest.mark.parametrize("game", ["maumau", "mammuz", "mucca_pazza", "lecker_mammut"])
def test_every_study_has_the_measures(tmp_path, game):
    from tiergarten.sim.studies import run_study

    page, _ = run_study(game, tmp_path, workers=1, n=3)
    text = page.read_text()
    assert "## What designers ask next" in text and "lead changes a game (95%)" in text
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert figures["designer"]["measures"] and figures["designer"]["usage"]
