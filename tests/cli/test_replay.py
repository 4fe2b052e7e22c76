"""`tiergarten replay`: a saved game action by action, every hand shown; bad files refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tiergarten
from tiergarten.terminal import save_record, seat_names

from .conftest import BOTS, GAMES, bot_game, load_record


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A finished one-round game between two bots, saved as `tiergarten play` saves it."""
    game = tiergarten.load("maumau", 2, rounds=1)
    state = game.new_state(21)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return save_record(state, ["me", "random"], tmp_path / "game.json")


def test_replay_prints_every_action_with_the_seat_and_the_result(run, saved: Path) -> None:
    record = load_record(saved)
    result = run("replay", str(saved))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for number, (seat, text) in enumerate(record["actions"], 1):  # counted from 1
        name = ["You", "Random 2"][seat]
        assert any(line.split()[:1] == [str(number)] and name in line and text in line
                   for line in lines), (number, text)
    assert not any(line.split()[:1] == ["0"] for line in lines)
    assert "Game over" in result.output or "Round over" in result.output
    assert "wins" in result.output


def test_replay_shows_every_hand(run, saved: Path) -> None:
    result = run("replay", str(saved))
    state = tiergarten.replay(load_record(saved))
    loser = max(range(2), key=lambda s: len(state.observe(s)["hand"]))
    end = result.output[result.output.index("End of the record"):]
    hand = state.observe(loser)["hand"]
    assert hand and all(f"{c[:-1]}{'♣♦♥♠'['cdhs'.index(c[-1])]}" in end for c in hand)


def test_replay_step_waits_for_enter_and_q_stops(run, saved: Path) -> None:
    result = run("replay", str(saved), "--step", input="\n\nq\n")
    assert result.exit_code == 0
    assert result.output.count("before move") == 3
    assert "before move 1" in result.output and "before move 0" not in result.output
    assert "End of the record" not in result.output


def _bad(run, tmp_path: Path, content: str) -> str:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


def test_bad_record_files_give_one_line(run, tmp_path: Path, saved: Path) -> None:
    missing = run("replay", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2 and "no file" in missing.stderr
    assert "is not JSON" in _bad(run, tmp_path, "{not json")
    assert "expected a JSON object" in _bad(run, tmp_path, "[1, 2]")
    assert "record lacks" in _bad(run, tmp_path, '{"game": "maumau"}')
    record = load_record(saved)
    record["actions"][3] = [record["actions"][3][0], "play Zz"]
    assert "move 4 of the record" in _bad(run, tmp_path, json.dumps(record))
    record["actions"][3] = [5, "draw"]
    assert "no seat 5" in _bad(run, tmp_path, json.dumps(record))
    record["actions"][3] = "draw"
    assert "not a [seat, action] pair" in _bad(run, tmp_path, json.dumps(record))
    record["game"] = "chess"
    assert "unknown game 'chess'" in _bad(run, tmp_path, json.dumps(record))


# what some move of a random game of each game must be seen to do, under its move
OUTCOMES = {
    "maumau": [r"→ .+ is skipped$", r"→ Play reversed|: play reversed"],
    "mammuz": [r"→ .+ doubted .+: card \d was \w+$", r"→ .+ took the herd \(\d+ cards\)$"],
    "lecker_mammut": [r"→ .+ hit \w+: \d+ cards",
                      r"→ .+ hit \w+ wrongly \((only \d|none) showing\)",
                      r"→ .+ flipped +\w+ \w+$"],
    "mucca_pazza": [r"→ .+ won \d+ \w+", r"→ New on the landing place: "],
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_replay_rows_keep_their_columns_and_say_what_each_move_did(
        run, tmp_path: Path, game_id: str) -> None:
    state = bot_game(game_id, 7, **({"rounds": 2} if game_id == "maumau" else {}))
    kinds = ["me", *BOTS[game_id][1:]]  # seat 0 is named You
    result = run("replay", str(save_record(state, kinds, tmp_path / "game.json")))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    head = next(line for line in lines if re.match(r" +# +Player +Move", line))
    move_at = head.index("Move")
    hand_at = head.index("Hand before the move") if "Hand" in head else len(head)
    rows = [line for line in lines if re.match(r" *\d+  \S", line)]
    moves = [str(text) for _, text in state.history]
    assert len(rows) == len(moves)
    names = seat_names(kinds)
    for row, (seat, move) in zip(rows, state.history, strict=True):
        assert row[:move_at].split(None, 1)[1].strip() == names[seat], row
        shown = row[move_at:hand_at].rstrip()
        assert str(move).startswith(shown) and shown, row  # wrapped in its column, or whole
        if len(str(move)) < hand_at - move_at - 2:
            assert row[move_at + len(str(move)):hand_at].strip() == "", row
    for pattern in OUTCOMES[game_id]:
        assert any(re.search(pattern, line.strip()) for line in lines), pattern
    ending = [line for line in lines if line.startswith("The game ended: ")]
    assert len(ending) == 1 and ending[0].endswith("."), ending


def _replayed(run, tmp_path: Path, state: tiergarten.State) -> list[str]:
    kinds = ["me", *BOTS[state.game.id][1:]]
    result = run("replay", str(save_record(state, kinds, tmp_path / "game.json")))
    assert result.exit_code == 0, result.output
    return [line.strip() for line in result.output.splitlines()]


def test_a_replayed_catch_says_who_was_caught_and_what_it_cost(run, tmp_path: Path) -> None:
    state = next(s for s in (bot_game("maumau", seed, rounds=2) for seed in range(40))
                 if any(str(a) == "catch" for _, a in s.history))
    lines = _replayed(run, tmp_path, state)
    at = next(i for i, line in enumerate(lines) if re.match(r"\d+ +\S+ \d +catch", line))
    assert re.fullmatch(r"→ .+ caught .+ without Mau: \+\d+", lines[at + 1]), lines[at:at + 2]


def test_a_replayed_slide_is_not_repeated_under_it_unless_it_spent_a_star(run, tmp_path: Path,
                                                                          ) -> None:
    lines = _replayed(run, tmp_path, bot_game("mucca_pazza", 7))
    pushed = [line for line in lines if " pushed the " in line]
    assert pushed and all(line.endswith("(spent a star)") for line in pushed), pushed[:3]
    assert any(re.search(r"→ .+ won \d+ \w+", line) for line in lines)
