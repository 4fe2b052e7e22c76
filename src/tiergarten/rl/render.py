"""Render modes of the envs: `"ansi"` is the table as the terminal draws it, as text.

The text is the terminal's screen for one observation (`tiergarten.terminal.render.screen_text`:
the game's renderer, framed as `tiergarten play` frames it; drawing only, none of the terminal's
driver), 80 columns wide, with ANSI colour codes (256 colours; cards in Mau Mau, Lecker
Mammut!'s coloured cards). Multi-agent envs draw
the spectator's view (`observe(None)`), the Gymnasium env its learner's own screen, so a
rendering shows nothing the engine hides from that viewer. `plain(text)` drops the colour codes.

>>> import tiergarten
>>> state = tiergarten.load("mucca_pazza", players=2).new_state(seed=1)
>>> text = ansi(state.game, state.observe(None), ["player_0", "player_1"], "Mucca Pazza")
>>> "\\x1b[" in text, plain(text).splitlines()[0].startswith("╭─ Mucca Pazza")
(True, True)
>>> check_mode("human")
Traceback (most recent call last):
...
ValueError: render_mode 'human' is not supported: use 'ansi' (the table as text) or None
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tiergarten.core import Game

RENDER_MODES = ("ansi",)
WIDTH = 80  # columns, as a standard terminal


def check_mode(render_mode: str | None) -> str | None:
    """`render_mode` if an env can honour it; a clear ValueError otherwise."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not supported: use 'ansi' (the table "
                         "as text) or None")
    return render_mode


def ansi(game: Game, obs: Mapping[str, Any], names: Sequence[str], title: str) -> str:
    """The terminal's screen of `obs`, seats called `names`, framed under `title`."""
    from tiergarten.terminal.render import screen_text

    return screen_text(game.id, obs, names, title, WIDTH)


def plain(text: str) -> str:
    """`text` without its colour codes."""
    from rich.text import Text

    return Text.from_ansi(text).plain


__all__ = ["RENDER_MODES", "WIDTH", "ansi", "check_mode", "plain"]
