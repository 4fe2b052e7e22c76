"""Balance studies (`tiergarten study GAME`), each run here at a small fraction of its size:
one command writes a page with figures and plots, the same bytes every time."""

import json
import re

import pytest

from tiergarten.sim.command import study_command
from tiergarten.sim.studies import games_for, plan_study, run_study, studies

SMALL = 0.004  # of each study's games: a few dozen per line-up


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("game", studies())
def test_a_study_writes_its_page_plots_and_figures(tmp_path, game):
    page, _ = run_study(game, tmp_path, workers=1, scale=SMALL)
    text = page.read_text()
    assert text.startswith("# ") and f"`tiergarten study {game}` (seed 1;" in text
    assert "95% interval" in text
    pictures = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text)
    assert pictures and all((tmp_path / p).stat().st_size > 1000 for p in pictures)
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert figures["results"] and all("timing" not in r for r in figures["results"].values())


def test_a_study_rewrites_the_same_bytes_whatever_the_workers(tmp_path):
    run_study("maumau", tmp_path / "one", workers=1, scale=SMALL)
    run_study("maumau", tmp_path / "two", workers=2, scale=SMALL)
    first = _files(tmp_path / "one")
    (tmp_path / "one" / "first_seat.png").write_bytes(b"stale")
    run_study("maumau", tmp_path / "one", workers=2, scale=SMALL)  # overwrites
    assert _files(tmp_path / "one") == first == _files(tmp_path / "two")


def test_full_size_studies_say_their_games():
    for game in studies():
        _, lines = plan_study(game, workers=1)
        for p in lines.values():
            assert p.n % len(p.players) == 0  # whole rotations of the table
            assert p.seed == 1


def test_games_are_rounded_to_whole_rotations():
    games = games_for(0.01)
    assert games(1000, 3) == 9 and games(100, 4) == 4 and games_for(1.0)(4200, 7) == 4200


def test_the_reaction_bots_reach_fresh_workers_through_the_plans_imports():
    _, lines = plan_study("lecker_mammut", workers=1)
    quick = [p for key, p in lines.items() if key.startswith("median")]
    assert quick and all(p.imports == ("tiergarten.sim.studies.lecker_mammut",)
                         for p in quick)
    assert {p.players[0] for p in quick} >= {"median 0.60 s", "median 1.20 s"}


def test_an_unknown_study_is_refused(capsys, tmp_path):
    assert study_command("chess", tmp_path, 1) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no study of 'chess'; allowed: lecker_mammut, mammuz")
