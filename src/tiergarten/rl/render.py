"""Render modes of the envs: `"human"`, `"ansi"` and `"rgb_array"`, as PettingZoo's classic games
and Gymnasium name them.

- `"ansi"`: `render()` returns the table as the terminal draws it, as text: the terminal's
  screen for one observation (`tiergarten.terminal.render.screen_text`: the game's renderer,
  framed as `tiergarten play` frames it; drawing only, none of the terminal's driver), 80
  columns wide, with ANSI colour codes (256 colours; cards in Mau Mau, Lecker Mammut!'s
  coloured cards). `plain(text)` drops the colour codes.
- `"human"`: the same text printed to standard output at every `render()` (and after each
  step, as PettingZoo's classic games do); `render()` returns None.
- `"rgb_array"`: `render()` returns a picture of the table, an HxWx3 uint8 numpy array: the
  cards drawn from the browser's art, the terminal's text below (image.py).

Multi-agent envs draw the spectator's view (`observe(None)`), the Gymnasium env its learner's
own screen, so a rendering shows nothing the engine hides from that viewer.

>>> import tiergarten
>>> state = tiergarten.load("mucca_pazza", players=2).new_state(seed=1)
>>> text = ansi(state.game, state.observe(None), ["player_0", "player_1"], "Mucca Pazza")
>>> "\\x1b[" in text, plain(text).splitlines()[0].startswith("╭─ Mucca Pazza")
(True, True)
>>> draw("rgb_array", state.game, state.observe(None), ["player_0", "player_1"], "").shape[2]
3
>>> check_mode("svg")
Traceback (most recent call last):
...
ValueError: render_mode 'svg' is not supported: use 'human', 'ansi' or 'rgb_array' (or None)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tiergarten.core import Game

RENDER_MODES = ("human", "ansi", "rgb_array")
WIDTH = 80  # columns, as a standard terminal


def check_mode(render_mode: str | None) -> str | None:
    """`render_mode` if an env can honour it; a clear ValueError otherwise."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not supported: use 'human', 'ansi' "
                         "or 'rgb_array' (or None)")
    return render_mode


def ansi(game: Game, obs: Mapping[str, Any], names: Sequence[str], title: str) -> str:
    """The terminal's screen of `obs`, seats called `names`, framed under `title`."""
    from tiergarten.terminal.render import screen_text

    return screen_text(game.id, obs, names, title, WIDTH)


def draw(mode: str | None, game: Game, obs: Mapping[str, Any], names: Sequence[str],
         title: str) -> Any:
    """What `render()` gives in `mode`: the text, None (text printed), an image, or None."""
    if mode == "ansi":
        return ansi(game, obs, names, title)
    if mode == "human":
        sys.stdout.write(ansi(game, obs, names, title))
        sys.stdout.flush()
        return None
    if mode == "rgb_array":
        from .image import picture

        return picture(game, obs, plain(ansi(game, obs, names, title)))
    return None


def plain(text: str) -> str:
    """`text` without its colour codes."""
    from rich.text import Text

    return Text.from_ansi(text).plain


__all__ = ["RENDER_MODES", "WIDTH", "ansi", "check_mode", "draw", "plain"]
