"""Refusals in words a client can translate, for every registered game: every code a game's
code can give has a catalogue key in every language (`refusal.<game>.<code>` in the game's
src/tiergarten/web/games/<game>/i18n or `refusal.<code>` in the shared web/i18n), and seeded
random games with random illegal acts find every refusal coded, with JSON parameters that name
only what the refused seat sees.
"""

from __future__ import annotations

import ast
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from tests.conformance.cases import GAMES
from tests.webparts import game_catalogue, shared_catalogue

import tiergarten
from tiergarten.core import IllegalAction, State

SRC = Path(tiergarten.__file__).resolve().parent
LANGUAGES = ("en", "de", "pl", "it")
PLAYOUTS = 30
TRIES = 3  # random illegal acts per seat and step
STEPS = 400  # steps per playout at most (a whole game for most)


def codes_in(path: Path) -> set[str]:
    """The reason codes written in a module: `Refusal(text, "code", ...)` and `code="..."`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "Refusal" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                found.add(node.args[1].value)
            found |= {ast.literal_eval(k.value) for k in node.keywords if k.arg == "code"
                      and isinstance(k.value, ast.Constant)}
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
              and isinstance(node.value.value, str)
              and any(isinstance(t, ast.Attribute) and t.attr == "code" for t in node.targets)):
            found.add(node.value.value)
    return found


@cache
def game_codes(gid: str) -> frozenset[str]:
    """Every code `gid` can give: its own modules' and those every game shares (core)."""
    shared = codes_in(SRC / "core" / "game.py") | codes_in(SRC / "core" / "errors.py")
    return frozenset(shared | {c for p in (SRC / "games" / gid).glob("*.py") for c in codes_in(p)})


def catalogue(lang: str, gid: str) -> dict[str, str]:
    """The words a table of `gid` has: the shared catalogue's and the game's own."""
    return shared_catalogue(lang) | game_catalogue(gid, lang)


def test_the_codes_are_found_in_the_source() -> None:
    assert {"game_over", "not_to_move", "notation", "mismatch", "seven_chain"} <= game_codes(
        "maumau")
    assert {"extinct_need_all", "hold_fewer"} <= game_codes("mammuz")
    assert "mismatch" not in game_codes("mammuz")


@pytest.mark.parametrize("gid", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_a_game_can_give_has_words_in_every_language(gid: str, lang: str) -> None:
    words = catalogue(lang, gid)
    missing = [c for c in sorted(game_codes(gid))
               if f"refusal.{gid}.{c}" not in words and f"refusal.{c}" not in words]
    assert missing == [], f"{lang} has no words for these refusals of {gid}"


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def check_refusal(state: State, seat: int, action: Any, exc: IllegalAction, gid: str) -> str:
    """What every refusal promises; its code."""
    assert exc.code in game_codes(gid), (action, exc.reason)
    assert json.loads(json.dumps(exc.params)) == exc.params, exc.params
    seen = json.dumps(state.observe(seat)) + str(action)
    for text in strings(list(exc.params.values())):
        assert text in seen, f"{exc.code} names {text!r}, which seat {seat} does not see"
    for value in exc.params.values():
        assert isinstance(value, (str, int, list)) and not isinstance(value, bool), exc.params
    return exc.code or ""


def refusals(gid: str) -> set[str]:
    """The codes of the refusals met in seeded random games with random illegal acts."""
    met: set[str] = set()
    cases = GAMES[gid].cases
    for seed in range(PLAYOUTS):
        case = cases[seed % len(cases)]
        state = tiergarten.load(gid, players=case.players, **case.options).new_state(seed=seed)
        rng = random.Random(seed)
        actions = state.game.actions
        for _ in range(STEPS):
            for seat in range(state.game.players):
                legal = state.legal_actions(seat)
                for action in rng.sample(actions, TRIES):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction) as refused:
                        state.apply(seat, action)
                    met.add(check_refusal(state, seat, action, refused.value, gid))
            if state.is_over():
                break
            movers = state.to_move()
            seat = movers[0] if rng.random() < 0.8 else rng.choice(movers)
            state.apply(seat, rng.choice(tuple(state.legal_actions(seat))))
        while not state.is_over():  # played to its end, which refuses everything
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(tuple(state.legal_actions(seat))))
        with pytest.raises(IllegalAction) as refused:
            state.apply(0, actions[0])
        met.add(check_refusal(state, 0, actions[0], refused.value, gid))
    return met


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_random_refusals_are_coded_and_name_only_what_the_seat_sees(gid: str) -> None:
    met = refusals(gid)
    assert "game_over" in met
    assert len(met) >= 6, met  # a fair share of the game's reasons was met
