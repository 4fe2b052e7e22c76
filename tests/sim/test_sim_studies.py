"""Balance studies (`tiergarten study GAME`), each run here at a small fraction of its size:
one command writes a page with figures and plots, the same bytes every time; the committed
studies are checked against their quick form."""

import json
import re
from pathlib import Path

import pytest

from tiergarten.sim.command import study_command
from tiergarten.sim.studies import games_for, plan_study, run_study, runner, studies

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "lab"

SMALL = 0.004  # of each study's games: a few dozen per line-up


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("game", studies())
def test_a_study_writes_its_page_plots_and_figures(tmp_path, game):
    page, _ = run_study(game, tmp_path, workers=1, scale=SMALL)
    text = page.read_text()
    assert text.startswith("# ") and f"`tiergarten study {game}` (seed 1; rules version" in text
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
    assert {p.players[0] for p in quick} >= {"median 0.80 s", "median 2.20 s"}


def test_an_unknown_study_is_refused(capsys, tmp_path):
    assert study_command("chess", tmp_path, 1) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no study of 'chess'; allowed: lecker_mammut, mammuz")


@pytest.mark.parametrize("game", studies())
def test_the_committed_study_is_that_of_todays_engine(tmp_path, game):
    """The quick form plays the first games of every line-up of the full study: its figures
    must be exactly those the committed study worked out from the same games. When this
    fails, a rule, a bot or the lab changed since: run `tiergarten study GAME` and commit."""
    committed = json.loads((COMMITTED / game / "figures.json").read_text())
    assert "partial" not in committed, "the committed study is a partial one"
    run_study(game, tmp_path, workers=2, quick=True)
    quick = json.loads((tmp_path / "figures.json").read_text())
    assert "quick" not in quick  # the quick form checks nothing itself
    del quick["plots"]
    assert quick["made_with"] == committed["quick"]["made_with"]  # the same bots and rules
    assert quick == committed["quick"], f"docs/lab/{game} is stale: run `tiergarten study {game}`"


def test_a_study_names_its_exact_bots_and_rules(tmp_path):
    page, _ = run_study("mucca_pazza", tmp_path, workers=1, scale=SMALL)
    text = page.read_text()
    assert "## The bots and rules" in text and "Played under rules version 2" in text
    assert "`tiergarten.bots.mucca_pazza_heuristic.MuccaSaver(recall=1.0, sight=1)`" in text
    made = json.loads((tmp_path / "figures.json").read_text())["made_with"]
    assert made["rules"] == [2] and made["seeds"] == [1]
    assert made["bots"]["mucca_pazza:greedy"].startswith(
        "tiergarten.bots.mucca_pazza_heuristic.MuccaBot(")
    assert all(n == made["games"]["first-2"] for key, n in made["games"].items()
               if key.endswith("-2") or key == "duel-greedy,saver")


def test_a_study_writes_partial_files_as_line_ups_finish(tmp_path, monkeypatch):
    seen = []
    original = runner._partial

    def spy(folder, *args):
        original(folder, *args)
        seen.append(((folder / "README.md").read_text(),
                     json.loads((folder / "figures.json").read_text())))
    monkeypatch.setattr(runner, "_partial", spy)
    _, lines = plan_study("mammuz", workers=1, n=3)
    run_study("mammuz", tmp_path, workers=1, n=3)
    assert len(seen) == len(lines)
    first_text, first_data = seen[0]
    assert "(being run)" in first_text and f"Partial: 1 of {len(lines)} line-ups" in first_text
    assert first_data["partial"] is True and len(first_data["results"]) == 1
    final = json.loads((tmp_path / "figures.json").read_text())
    assert "partial" not in final and "(being run)" not in (tmp_path / "README.md").read_text()


def test_study_takes_n_or_quick_and_not_both(tmp_path, capsys):
    assert study_command("mammuz", tmp_path / "n", 1, n=3) == 0
    made = json.loads((tmp_path / "n" / "figures.json").read_text())["made_with"]
    assert set(made["games"].values()) == {3, 4, 5, 6, 7}  # 3 rounded to whole rotations
    err = capsys.readouterr().err
    assert "writing into" in err and "written:" in err
    assert study_command("mammuz", tmp_path / "q", 1, n=3, quick=True) == 2
    assert "choose either -n or --quick" in capsys.readouterr().err


def test_a_smaller_study_never_writes_over_the_committed_one():
    from tiergarten.sim.studies import study_folder

    assert study_folder("maumau", None, None, False) == Path("docs/lab/maumau")
    assert study_folder("maumau", None, 50, False) == Path("study/maumau-n50")
    assert study_folder("maumau", None, None, True) == Path("study/maumau-quick")
