"""`rules`, `games`, `simulate` and the one-line errors of bad requests."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

import tiergarten
from tiergarten import cli
from tiergarten.core import game_class


def test_rules_lists_every_option_with_its_default(run) -> None:
    result = run("rules", "maumau")
    assert result.exit_code == 0
    for option in game_class("maumau").info.options:
        assert option.name in result.output
    assert "150" in result.output and "Players: 2 to 4" in result.output


def test_rules_without_a_docs_page_falls_back_to_the_summary(run, monkeypatch) -> None:
    monkeypatch.setattr(cli, "docs_page", lambda game_id: None)
    result = run("rules", "maumau")
    assert result.exit_code == 0
    assert game_class("maumau").info.summary[:30] in result.output
    assert "Moves: write play <card>" in result.output
    assert "jack_on_jack" in result.output


def test_rules_reads_the_docs_page_when_there_is_one(run) -> None:
    page = cli.docs_page("maumau")
    if page is None:
        pytest.fail("docs/games/maumau.md is not found from the source checkout")
    first_heading = next(line for line in page.read_text().splitlines() if line.startswith("#"))
    assert first_heading.lstrip("# ").replace("`", "").strip() in run("rules", "maumau").output


def test_games_lists_every_game_with_player_range(run) -> None:
    result = run("games")
    assert result.exit_code == 0 and "maumau" in result.output and "2–4" in result.output


@pytest.mark.parametrize(("args", "says"), [
    (["play", "chess"], "unknown game 'chess'; allowed: "),
    (["play", "maumau", "--players", "me,deep_blue"], "no player 'deep_blue' for maumau; "
                                                      "allowed: me, easy, expert, hard, "
                                                      "heuristic, ismcts, master, normal, "
                                                      "random"),
    (["play", "maumau", "--players", "me,,random"], "has an empty name"),
    (["play", "maumau", "--players", "me"], "maumau is for 2 to 4 players, not 1"),
    (["play", "maumau", "--players", "me,random,random,random,random"], "not 5"),
    (["play", "maumau", "--option", "target_score=lots"], "option 'target_score' cannot be"),
    (["play", "maumau", "--option", "colour=blue"], "unknown option 'colour'"),
    (["play", "maumau", "--option", "rounds"], "is not of the form name=value"),
    (["rules", "chess"], "unknown game 'chess'"),
    (["play", "maumau", "--save", "."], "is a folder"),
    (["simulate", "maumau", "--option", "oops"], "is not of the form name=value"),
])
def test_bad_requests_give_one_line_and_exit_2(run, args: list[str], says: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines


def test_simulate_passes_its_arguments_on(run, monkeypatch) -> None:
    import tiergarten.sim.command as command

    calls: list[tuple[Any, ...]] = []

    def fake(*args: Any) -> int:
        calls.append(args)
        return 3

    monkeypatch.setattr(command, "simulate_command", fake)
    result = run("simulate", "maumau", "--players", "heuristic,random", "-n", "20", "--seed",
                 "9", "--option", "jack_on_jack=false", "--option", "mau_penalty=3", "--json",
                 "--workers", "2")
    assert result.exit_code == 3
    assert calls == [("maumau", ["heuristic", "random"], 20, 9,
                      {"jack_on_jack": "false", "mau_penalty": "3"}, True, 2)]
    calls.clear()
    assert run("simulate", "maumau").exit_code == 3
    assert calls == [("maumau", None, 1000, 1, {}, False, None)]


def test_simulate_end_to_end(run) -> None:
    result = run("simulate", "maumau", "--players", "heuristic,random", "-n", "6", "--seed",
                 "1", "--option", "rounds=1", "--json", "--workers", "1")
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)


def test_play_uses_a_games_own_match_class_when_its_module_has_one(run, monkeypatch) -> None:
    from pathlib import Path
    from types import SimpleNamespace

    from tiergarten.terminal import driver

    made: list[dict[str, Any]] = []

    class OwnMatch:
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)

        def run(self) -> str:
            return "over"

        def save(self, path: Path | None = None) -> Path:
            assert path is not None
            path.write_text("{}")
            return path

    monkeypatch.setattr(driver, "match_module", lambda game_id: SimpleNamespace(
        MATCH=OwnMatch))
    result = run("play", "maumau", "--players", "me,random", "--seed", "4", "--option",
                 "rounds=1", "--save", "own.json")
    assert result.exit_code == 0 and "Game saved to own.json" in result.output
    assert len(made) == 1 and made[0]["players"] == ["me", "random"]
    assert made[0]["seed"] == 4 and made[0]["options"] == {"rounds": "1"}


def test_serve_hands_its_address_and_database_to_the_server(run, monkeypatch) -> None:
    import tiergarten.server.main as server_main

    seen: list[Any] = []
    monkeypatch.setattr(server_main, "serve", seen.append)
    result = run("serve", "--port", "8123", "--db", "/tmp/x.db")
    assert result.exit_code == 0, result.output
    (config,) = seen
    assert (config.host, config.port, config.db, config.public_url, config.redis_url,
            config.log_format, config.log_level) == (None, 8123, "/tmp/x.db", None, None,
                                                      "text", "warning")
    assert config.cluster_settings() is None
    assert run("serve", "--port", "0").exit_code == 2


def test_ctrl_c_in_play_stops_saves_and_exits_130(run, monkeypatch, tmp_path) -> None:
    from tiergarten.terminal import human

    def interrupt(self: object, prompt: str, completions: object = ()) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(human.LineReader, "__call__", interrupt)
    result = run("play", "maumau", "--seed", "2", "--pace", "0", "--save", "x.json")
    assert result.exit_code == 130 and "Stopped." in result.output
    assert (tmp_path / "x.json").is_file()
    monkeypatch.setattr(human.LineReader, "__call__", lambda self, prompt, c=(): "quit")
    assert run("play", "maumau", "--seed", "2", "--pace", "0", "--no-save").exit_code == 0


def test_ctrl_c_in_a_replay_exits_130(run, monkeypatch, tmp_path) -> None:
    import tiergarten.terminal as terminal

    def interrupt(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    state = tiergarten.load("maumau", 2).new_state(1)
    path = terminal.save_record(state, ["me", "random"], tmp_path / "r.json")
    monkeypatch.setattr(terminal, "replay_record", interrupt)
    assert run("replay", str(path), "--step").exit_code == 130


def test_simulate_help_offers_bots_only_and_play_help_tells_the_menu(run) -> None:
    simulate = " ".join(run("simulate", "--help").output.split())
    assert "Comma-separated bot names" in simulate and "'me' (a person" not in simulate
    play = " ".join(run("play", "--help").output.split())
    for words in ("'me' (a person at this keyboard", "type a number, or the move itself",
                  "which cards, then which species", "numbered from 1", "exit status 130"):
        assert words in play, words


HELPS = [["play"], ["replay"], ["games"], ["rules"], ["simulate"], ["study"], ["serve"],
         ["config"], ["ratings"], ["ratings", "rebuild"], []]


@pytest.mark.parametrize("command", HELPS, ids=lambda c: " ".join(c) or "tiergarten")
def test_every_help_reads_in_whole_lines_at_80_columns(run, command: list[str]) -> None:
    # a docstring's own line breaks are not kept (they left lines of two words at 80 columns),
    # and no option's text is cut short with an ellipsis
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "…" not in result.output, [line for line in lines if "…" in line]
    about = [line.strip() for line in lines[:next(i for i, line in enumerate(lines)
                                                  if line.startswith("╭"))]]
    for line, after in zip(about, about[1:], strict=False):  # the command's description
        if line and after and not line.startswith("Usage"):
            assert len(line) > 60, (line, after)  # only a paragraph's last line is short


def test_serve_lan_listens_everywhere_and_invites_at_the_network_address(run,
                                                                         monkeypatch) -> None:
    from fastapi import FastAPI

    import tiergarten.server.app as server_app
    import tiergarten.server.main as server_main
    from tiergarten.server.edge import logs

    seen: dict[str, Any] = {}
    monkeypatch.setattr(server_main, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(logs, "configure", lambda *args: None)  # not this test process's
    monkeypatch.setattr(server_app, "create_app", lambda url, settings, cluster=None: seen.update(
        public_url=settings.public_url) or FastAPI())
    # uvicorn's Config would configure this test process's logging for the CliRunner's stream
    monkeypatch.setattr("uvicorn.Config", lambda app, **kw: SimpleNamespace(**kw))
    monkeypatch.setattr("gc.freeze", lambda: None)
    monkeypatch.setattr(server_main, "GracefulServer", lambda config, app: seen.update(
        host=config.host, port=config.port) or type("Idle", (), {"run": lambda self: None})())
    assert run("serve", "--lan", "--port", "8123").exit_code == 0
    assert seen == {"host": "0.0.0.0", "port": 8123, "public_url": "http://192.168.1.20:8123"}
    assert run("serve", "--public-url", "https://games.example.org/tg/").exit_code == 0
    assert seen["host"] == "127.0.0.1" and seen["public_url"] == "https://games.example.org/tg"


def test_serve_refuses_a_bad_public_url_in_one_line(run, monkeypatch) -> None:
    import tiergarten.server.main as server_main

    monkeypatch.setattr(server_main, "serve", lambda *a, **kw: pytest.fail("must not start"))
    result = run("serve", "--public-url", "192.168.1.20:8000")
    assert result.exit_code == 2
    assert "error: --public-url '192.168.1.20:8000' must start with http:// or https://" in \
        result.output
