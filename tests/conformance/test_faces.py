"""Every registered game is found by every face by convention alone: a new game adds its own
files (docs/architecture.md, "Adding a game") and edits no shared table: not a Python module's,
not the browser client's scripts, catalogues or stylesheet, not the studies'."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from tests.webparts import (
    LANGUAGES,
    WEB,
    catalogue_files,
    css_classes,
    css_selectors,
    game_folder,
    game_scripts,
    own_namespaces,
    owner,
    script_words,
    shared_scripts,
    string_literals,
)

import tiergarten
from tiergarten import bots
from tiergarten.bots.levels import NAMES as LEVEL_NAMES
from tiergarten.rl.encoders import encoder_class
from tiergarten.sim.studies import studies
from tiergarten.terminal.render import Renderer, renderer_module

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tiergarten"
GAMES = tiergarten.games()
SHARED_CSS = WEB / "css" / "style.css"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_face_finds_the_game_by_its_id(game_id: str) -> None:
    game = importlib.import_module(f"tiergarten.games.{game_id}").GAME
    assert game.info.id == game_id, "the package's name is the game's id"
    own = importlib.import_module(f"tiergarten.bots.{game_id}")  # its bots and levels
    assert set(LEVEL_NAMES) <= set(bots.names(game_id)), "every level plays every game"
    assert own.__name__ == f"tiergarten.bots.{game_id}"
    assert encoder_class(game_id).game_id == game_id
    renderer = getattr(renderer_module(game_id), "RENDERER", None)
    assert isinstance(renderer, Renderer), f"tiergarten/terminal/{game_id}.py exports RENDERER"
    assert (ROOT / "docs" / "games" / f"{game_id}.md").is_file()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_browser_finds_the_games_parts_in_its_folder(game_id: str) -> None:
    """web/games/<id>/: its board, its styles and its words in every language (js/games.js
    loads them by the game's id from GET /api/games)."""
    folder = game_folder(game_id)
    assert (folder / "board.js").is_file() and (folder / "style.css").is_file()
    assert {p.name for p in (folder / "i18n").glob("*.json")} == {f"{x}.json" for x in LANGUAGES}
    board = (folder / "board.js").read_text(encoding="utf-8")
    for declared in ("render", "playOrder"):  # what the shared screens ask of a board
        assert re.search(rf"^export (?:const|function) {declared}\b", board, re.M), declared


@pytest.mark.parametrize("game_id", GAMES)
def test_the_games_study_is_found_by_its_id(game_id: str) -> None:
    """sim/studies/<id>.py: its line-ups and its page, found by `studies()`."""
    assert game_id in studies()
    module = importlib.import_module(f"tiergarten.sim.studies.{game_id}")
    assert callable(module.lines) and callable(module.write)


def test_no_shared_table_names_the_games() -> None:
    """The places that used to list every game by hand name none of them now."""
    places = ["games/__init__.py", "rl/encoders/__init__.py", "server/table/bot_driver.py",
              "server/routes/hints.py", "server/routes/games.py", "sim/studies/__init__.py",
              "web/js/games.js", "web/js/api.js", "web/js/table.js"]
    for place in places:
        lines = (PACKAGE / place).read_text(encoding="utf-8").splitlines()
        text = "\n".join(x for x in lines if not x.lstrip().startswith(">>>"))  # not examples
        for game_id in GAMES:
            assert f'"{game_id}"' not in text and f"{game_id}.js" not in text, (place, game_id)


def test_no_shared_script_names_a_game() -> None:
    """No string of a shared script (web/js/) is a game's id or a key of a game's own words
    (`lm.…`, `animal.…`): what is one game's is asked of its board module."""
    prefixes = tuple(f"{ns}." for game in GAMES for ns in own_namespaces(game))
    found: dict[str, list[str]] = {}
    for path in shared_scripts():
        for text in string_literals(path.read_text(encoding="utf-8")):
            words = set(re.findall(r"[A-Za-z_][\w-]*", text))
            if words & set(GAMES) or text.startswith(prefixes):
                found.setdefault(path.name, []).append(text)
    assert found == {}


def test_no_shared_catalogue_holds_a_games_words() -> None:
    """web/i18n/<lang>.json keeps the shared words; a game's are in its folder: its own
    namespaces and its entries in the namespaces every game fills (`game.<id>.title`,
    `option.<id>.…`, `refusal.<id>.…`, a bot, an end reason or a choice only it has)."""
    for lang in LANGUAGES:
        files = catalogue_files(lang)
        assert {k: owner(k) for k in files[""] if owner(k)} == {}, lang
        for game in GAMES:
            others = {k: owner(k) for k in files[game] if owner(k) not in (game, None)}
            assert others == {}, f"{game}'s {lang} catalogue holds keys of other games"
    for game in GAMES:
        mine = [ns for ns in own_namespaces(game) if ns != game]
        theirs = {ns for other in GAMES if other != game for ns in own_namespaces(other)}
        assert not set(mine) & theirs, f"{game} shares a namespace with another game"


def test_the_key_owner_reads_the_namespaces() -> None:
    assert owner("lm.card") == owner("game.lecker_mammut.title") == "lecker_mammut"
    assert owner("animal.mouse") == owner("choice.dinosaur_powers.remove") == "mammuz"
    assert owner("tutorial.mucca_pazza-junior.title") == owner("bot.memory") == "mucca_pazza"
    assert owner("reason.target_score") == owner("choice.skip") == "maumau"
    assert owner("table.your_turn") is owner("bot.normal") is owner("reason.rounds") is None


def _games_naming(classes: set[str]) -> dict[str, set[str]]:
    """For each class: the games whose scripts alone name it (none if a shared one does)."""
    shared = script_words(*shared_scripts())
    words = {g: script_words(*game_scripts(g)) for g in GAMES}
    return {c: set() if c in shared else {g for g in GAMES if c in words[g]} for c in classes}


def test_no_shared_stylesheet_holds_a_games_selectors() -> None:
    """css/style.css styles what several games or the shared screens draw: no selector names a
    game (a class only one game's scripts use, or its id), no animation only one game runs."""
    css = SHARED_CSS.read_text(encoding="utf-8")
    selectors = css_selectors(css)
    naming = _games_naming({c for s in selectors for c in css_classes(s)})
    own = {s: sorted(g for c in css_classes(s) if len(naming[c]) == 1 for g in naming[c])
           for s in selectors}
    assert {s: g for s, g in own.items() if g} == {}
    assert [s for s in selectors if any(g in s for g in GAMES)] == []
    for name in re.findall(r"@keyframes\s+([\w-]+)", css):
        users = [g for g in GAMES if re.search(rf"animation[^;]*\b{name}\b",
                                               (game_folder(g) / "style.css").read_text())]
        assert re.search(rf"animation[^;]*\b{name}\b", css) or len(users) > 1, name


@pytest.mark.parametrize("game_id", GAMES)
def test_a_games_stylesheet_styles_only_that_game(game_id: str) -> None:
    """Each selector of web/games/<id>/style.css names a class of the game's own scripts (or
    the game's id): the stylesheet is linked at its tables, and only there."""
    words = script_words(*game_scripts(game_id))
    selectors = css_selectors((game_folder(game_id) / "style.css").read_text(encoding="utf-8"))
    assert selectors
    strays = [s for s in selectors if game_id not in s and not css_classes(s) & words]
    assert strays == []


def test_the_stylesheet_reader_sees_every_rule() -> None:
    css = """/* a .comment */ .a, .b .c { x: 1; } .d { y: 2; }
    @media (max-width: 9px) { .e:not(.f) svg { z: 3; } }
    @keyframes k { from { a: 1; } to { a: 2; } }"""
    assert css_selectors(css) == [".a", ".b .c", ".d", ".e:not(.f) svg"]
    assert css_classes(".e:not(.f) svg") == {"e", "f"}
