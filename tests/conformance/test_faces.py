"""Every registered game is found by every face by convention alone: a new game adds its own
files (docs/architecture.md, "Adding a game") and edits no shared table."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import tiergarten
from tiergarten import bots
from tiergarten.bots.levels import NAMES as LEVEL_NAMES
from tiergarten.rl.encoders import encoder_class
from tiergarten.terminal.render import Renderer, renderer_module

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tiergarten"


@pytest.mark.parametrize("game_id", tiergarten.games())
def test_every_face_finds_the_game_by_its_id(game_id: str) -> None:
    game = importlib.import_module(f"tiergarten.games.{game_id}").GAME
    assert game.info.id == game_id, "the package's name is the game's id"
    own = importlib.import_module(f"tiergarten.bots.{game_id}")  # its bots and levels
    assert set(LEVEL_NAMES) <= set(bots.names(game_id)), "every level plays every game"
    assert own.__name__ == f"tiergarten.bots.{game_id}"
    assert encoder_class(game_id).game_id == game_id
    renderer = getattr(renderer_module(game_id), "RENDERER", None)
    assert isinstance(renderer, Renderer), f"tiergarten/terminal/{game_id}.py exports RENDERER"
    assert (PACKAGE / "web" / "games" / game_id / "board.js").is_file()
    assert (ROOT / "docs" / "games" / f"{game_id}.md").is_file()


def test_no_shared_table_names_the_games() -> None:
    """The places that used to list every game by hand name none of them now."""
    places = ["games/__init__.py", "rl/encoders/__init__.py", "server/bot_driver.py",
              "server/routes/hints.py", "server/routes/games.py", "web/js/games.js"]
    for place in places:
        lines = (PACKAGE / place).read_text(encoding="utf-8").splitlines()
        text = "\n".join(x for x in lines if not x.lstrip().startswith(">>>"))  # not examples
        for game_id in tiergarten.games():
            assert f'"{game_id}"' not in text and f"{game_id}.js" not in text, (place, game_id)
