"""`simulate_command`, the function behind `tiergarten simulate`: output and error paths."""

import json

import pytest

from tiergarten.sim.command import simulate_command


@pytest.mark.parametrize(("game", "players", "options", "n", "workers", "words"), [
    ("mau", None, {}, 5, 1, "unknown game 'mau'; allowed: "),
    ("maumau", ["heuristic", "bogus"], {}, 5, 1, "no bot 'bogus' for maumau; allowed: easy,"),
    ("maumau", ["random"], {}, 5, 1, "2 to 4 players"),
    ("maumau", None, {"jack_on_jak": "false"}, 5, 1, "allowed: target_score"),
    ("maumau", None, {"jack_on_jack": "maybe"}, 5, 1, "true, false"),
    ("maumau", None, {}, 0, 1, "at least 1"),
    ("maumau", None, {}, 5, -2, "workers"),
    ("maumau", None, {"players": "3"}, 5, 1, "not an option: it is the number of bots named"),
])
def test_errors_are_one_line_on_stderr_and_exit_2(capsys, game, players, options, n, workers,
                                                  words):
    status = simulate_command(game, players, n, 1, options, False, workers)
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert words in err
    if game == "mau":
        assert "maumau" in err  # the known games are listed


def test_json_goes_to_stdout_alone(capsys):
    status = simulate_command("maumau", ["heuristic,random"], 4, 1,
                              {"rounds": "1", "jack_on_jack": "false"}, True, 1)
    out, _ = capsys.readouterr()
    assert status == 0
    report = json.loads(out)
    assert report["players"] == ["heuristic", "random"] and report["n"] == 4
    assert report["options"]["jack_on_jack"] is False


def test_table_names_bots_seats_and_the_first_seat_figure(capsys):
    status = simulate_command("maumau", ["heuristic", "random"], 4, 1, {"rounds": "1"}, False,
                              1)
    out, err = capsys.readouterr()
    assert status == 0
    for words in ("By bot", "By seat", "heuristic", "random", "First-seat advantage",
                  "Game length", "rounds=1", "Win rate by bot and seat"):
        assert words in out
    assert "4/4" in err  # the progress bar, finished, on stderr


def test_an_unbalanced_rotation_is_pointed_out(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 3, 1, {"rounds": "1"}, False,
                            1) == 0
    assert "not a multiple of 2 players" in " ".join(capsys.readouterr().out.split())
