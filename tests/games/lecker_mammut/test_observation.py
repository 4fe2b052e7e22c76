"""The observation: its keys, JSON safety, what stays hidden, and resampling."""

from __future__ import annotations

import json
import random

import tiergarten

from .positions import position

KEYS = {"game", "seat", "players", "round", "rounds", "starter", "phase", "version", "middle",
        "prize_piles", "face_down", "flipper", "choosing", "penalties", "penalty_cards",
        "passed", "returning", "scores", "to_move", "log", "over", "result"}


def test_every_seat_and_a_spectator_see_the_same_table_with_the_listed_keys() -> None:
    state = tiergarten.load("lecker_mammut", players=3).new_state(seed=5)
    state.apply(0, "flip")
    views = [state.observe(s) for s in (0, 1, 2, None)]
    assert all(set(v) == KEYS for v in views)
    assert [v["seat"] for v in views] == [0, 1, 2, None]
    assert all({**v, "seat": 0} == views[0] for v in views)
    assert json.loads(json.dumps(views[0])) == views[0]
    assert views[0]["to_move"] == [0, 1, 2]  # anyone may hit at any moment


def test_face_down_cards_are_never_shown() -> None:
    state = tiergarten.load("lecker_mammut", players=2).new_state(seed=5)
    text = json.dumps(state.observe(0))
    assert not any(name in text for name in ("-bear", "-boar", "-deer"))


def test_resample_redeals_unseen_cards_and_keeps_every_seen_one() -> None:
    state = position(middle="red-boar", piles=["pink-sloth green-deer", "red-bear blue-bear", ""],
                     prizes=[["red-tiger blue-tiger pink-tiger"], [], []],
                     penalty_cards=["", "", "yellow-mammoth"], penalties=[0, 0, 1])
    piles = set()
    for i in range(40):
        sample = state.resample(0, random.Random(i))
        assert sample.observe(0) == state.observe(0)
        assert sample.middle == state.middle and sample.prizes == state.prizes
        assert sorted(sample.piles[0] + sample.piles[1] + sample.penalty_cards[2]) == sorted(
            state.piles[0] + state.piles[1] + state.penalty_cards[2])
        piles.add(tuple(sample.piles[0]))
    assert len(piles) > 5


def test_the_log_keeps_recent_public_events_and_the_result_appears_at_the_end() -> None:
    state = position(piles=["red-bear blue-bear", ""], rounds=1)
    state.apply(0, "flip")
    state.apply(1, "hit bear")
    assert state.observe(1)["log"][-2:] == [
        {"act": "flip", "seat": 0, "card": "red-bear"},
        {"act": "mistake", "seat": 1, "feature": "bear", "showing": 1, "penalty_card": True}]
    state.apply(0, "pass")
    state.apply(1, "pass")
    obs = state.observe(0)
    assert obs["over"] and obs["phase"] == "over" and obs["result"]["reason"] == "rounds"
