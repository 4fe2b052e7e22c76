"""`render_mode="rgb_array"`: a picture of the table, an HxWx3 uint8 numpy array (Pillow).

The cards are drawn from the browser's own art, with no browser: the shapes of
`web/js/cards.js` (Mau Mau's French faces and backs), `web/games/mammuz/animals.js` (MammuZ's
animal cards), `web/games/lecker_mammut/board.js` (a card in its colour, a cream disc, the
colour's shape in the corners) and `web/games/mucca_pazza/board.js` (a tile per animal part
with its colour band),
in the same coordinates, and the colours are read from those files when the module is first
used (so the picture follows the art when the art changes; a test checks every name is found).
Emoji pictures are left out (no colour-emoji font is assumed): every card carries its name, as
in the browser. Under the cards, the `text` it is given: the table as the terminal draws it
(`render.ansi`, colours dropped), so nothing is shown that the viewer's observation does not
hold.

>>> import tiergarten
>>> state = tiergarten.load("maumau", players=2).new_state(seed=1)
>>> image = picture(state.game, state.observe(0), "the table as text")
>>> image.dtype, image.ndim, image.shape[2]
(dtype('uint8'), 3, 3)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from tiergarten.core import Game

WEB = Path(__file__).resolve().parents[1] / "web"  # js/cards.js, games/<id>/*.js
WIDTH = 820  # pixels
CREAM, INK, GREY, FELT = "#fffdf7", "#1d1d1d", "#888888", "#2f5d50"
_ENTRY = re.compile(r'(\w+): \["([^"]*)", "(#[0-9a-fA-F]{6})"\]')
_SUIT = re.compile(r'(\w): \{ symbol: "(.)", colour: "(#[0-9a-fA-F]{6})"')


@functools.cache
def palette(name: str) -> dict[str, tuple[str, str]]:
    """A colour table of the browser's art: `name` -> (symbol or emoji, colour).

    "suits" come from js/cards.js, "mammuz" (animal -> emoji, colour) from its animals.js,
    "lecker_mammut" (colour -> paint, shape) and "mucca_pazza" (animal -> emoji, colour) from
    the game's board.js."""
    if name == "suits":
        text = (WEB / "js" / "cards.js").read_text("utf-8")
        return {s: (sym, colour) for s, sym, colour in _SUIT.findall(text)}
    source = {"mammuz": WEB / "games" / "mammuz" / "animals.js",
              "lecker_mammut": WEB / "games" / "lecker_mammut" / "board.js",
              "mucca_pazza": WEB / "games" / "mucca_pazza" / "board.js"}[name]
    text = source.read_text("utf-8")
    if name == "lecker_mammut":  # PAINT = { red: ["#d32f2f", "●"], ... }: colour first
        found = re.findall(r'(\w+): \["(#[0-9a-fA-F]{6})", "([^"]*)"\]', text)
        return {key: (shape, paint) for key, paint, shape in found}
    return {key: (emoji, colour) for key, emoji, colour in _ENTRY.findall(text)}


@functools.cache
def _font(size: int, mono: bool = False, bold: bool = False) -> Any:
    from matplotlib import get_data_path
    from PIL import ImageFont

    name = "DejaVuSansMono" if mono else "DejaVuSans"
    path = Path(get_data_path()) / "fonts" / "ttf" / f"{name}{'-Bold' if bold else ''}.ttf"
    return ImageFont.truetype(str(path), size)


class _Canvas:
    """A Pillow drawing with the cards' viewBox units scaled (`s` pixels a unit)."""

    def __init__(self, height: int) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", (WIDTH, height), FELT)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: str,
             anchor: str = "ls", bold: bool = False, mono: bool = False) -> None:
        self.draw.text(xy, text, fill=fill, font=_font(max(size, 6), mono, bold), anchor=anchor)

    def rect(self, box: tuple[float, float, float, float], r: float, fill: str,
             outline: str | None = None, width: int = 1) -> None:
        self.draw.rounded_rectangle(box, radius=r, fill=fill, outline=outline, width=width)


# --- the cards, in their viewBox units (cards.js: 60 x 90; Lecker Mammut!'s: 80 x 110) -------

def french(c: _Canvas, x: float, y: float, code: str, s: float = 1.0) -> None:
    """cards.js `frenchCard`: rank and suit in the corners, pips or a big rank in the middle."""
    rank, suit = code[:-1], code[-1]
    symbol, colour = palette("suits")[suit]
    c.rect((x + 1 * s, y + 1 * s, x + 59 * s, y + 89 * s), 6 * s, CREAM, GREY)
    c.text((x + 5 * s, y + 14 * s), rank, round(12 * s), colour, bold=True)
    c.text((x + 5 * s, y + 25 * s), symbol, round(11 * s), colour)
    c.text((x + 55 * s, y + 76 * s), rank, round(12 * s), colour, anchor="rs", bold=True)
    c.text((x + 55 * s, y + 87 * s), symbol, round(11 * s), colour, anchor="rs")
    if rank in ("7", "8", "9", "10"):
        for px, py in _PIPS[int(rank)]:
            c.text((x + px * s, y + py * s), symbol, round(13 * s), colour, anchor="ms")
    else:
        if rank != "A":
            c.draw.rounded_rectangle((x + 12 * s, y + 17 * s, x + 48 * s, y + 73 * s),
                                     radius=3 * s, outline=colour, width=1)
        c.text((x + 30 * s, y + 58 * s), symbol if rank == "A" else rank, round(30 * s), colour,
               anchor="ms", bold=True)
        if rank != "A":
            c.text((x + 30 * s, y + 74 * s), symbol, round(14 * s), colour, anchor="ms")


_L, _R, _M = 21, 39, 30
_PIPS = {7: [(_L, 30), (_R, 30), (_M, 41), (_L, 52), (_R, 52), (_L, 73), (_R, 73)],
         8: [(_L, 28), (_R, 28), (_M, 39), (_L, 50), (_R, 50), (_M, 61), (_L, 74), (_R, 74)],
         9: [(_L, 27), (_R, 27), (_L, 42), (_R, 42), (_M, 51), (_L, 60), (_R, 60), (_L, 75),
             (_R, 75)],
         10: [(_L, 27), (_R, 27), (_M, 35), (_L, 43), (_R, 43), (_L, 58), (_R, 58), (_M, 66),
              (_L, 75), (_R, 75)]}


def back(c: _Canvas, x: float, y: float, s: float = 1.0) -> None:
    """cards.js `cardBack`: green with a cream inner frame of dots."""
    c.rect((x + 1 * s, y + 1 * s, x + 59 * s, y + 89 * s), 6 * s, FELT, "#1c3a32")
    c.rect((x + 6 * s, y + 6 * s, x + 54 * s, y + 84 * s), 4 * s, FELT, "#e9d9a6")
    for i in range(1, 5):
        for j in range(1, 8):
            cx, cy = x + (6 + i * 10) * s, y + (6 + j * 10) * s
            c.draw.ellipse((cx - 2 * s, cy - 2 * s, cx + 2 * s, cy + 2 * s), fill="#c9bb8c")


def animal(c: _Canvas, x: float, y: float, name: str, s: float = 1.0) -> None:
    """mammuz/animals.js `animalCard`: a colour band at the top (a star for a dinosaur), its
    name."""
    colour = palette("mammuz").get(name, ("", "#777777"))[1]
    c.rect((x + 1 * s, y + 1 * s, x + 59 * s, y + 89 * s), 6 * s, CREAM, GREY)
    c.rect((x + 1 * s, y + 1 * s, x + 59 * s, y + 17 * s), 6 * s, colour)
    if name not in _SPECIES:
        c.text((x + 54 * s, y + 13 * s), "★", round(9 * s), "#ffffff", anchor="rs")
    c.draw.ellipse((x + 14 * s, y + 30 * s, x + 46 * s, y + 62 * s), fill=colour)
    c.text((x + 30 * s, y + 82 * s), name, round((6.5 if len(name) > 9 else 8) * s), "#333333",
           anchor="ms")


_SPECIES = ("mammoth", "bear", "deer", "tiger", "hare", "squirrel", "marmot", "mouse")


def lecker(c: _Canvas, x: float, y: float, code: str, s: float = 1.0) -> None:
    """lecker_mammut/board.js `card`: the colour's paint, a cream disc, its shape in both corners,
    the animal and the colour named at the foot."""
    colour, beast = code.split("-")
    shape, paint = palette("lecker_mammut")[colour]
    ink = "#222222" if colour == "yellow" else "#ffffff"
    c.rect((x + 1 * s, y + 1 * s, x + 79 * s, y + 109 * s), 8 * s, paint, "#222222", 2)
    c.draw.ellipse((x + 13 * s, y + 25 * s, x + 67 * s, y + 79 * s), fill=CREAM)
    c.text((x + 40 * s, y + 58 * s), beast[:1].upper(), round(26 * s), paint, anchor="ms",
           bold=True)
    c.text((x + 8 * s, y + 18 * s), shape, round(15 * s), ink)
    c.text((x + 72 * s, y + 18 * s), shape, round(15 * s), ink, anchor="rs")
    c.text((x + 40 * s, y + 96 * s), beast, round(11 * s), ink, anchor="ms", bold=True)
    c.text((x + 40 * s, y + 106 * s), colour, round(8 * s), ink, anchor="ms")


def tile(c: _Canvas, x: float, y: float, name: str, part: int, w: float, h: float) -> None:
    """mucca_pazza/board.js `tile`: cream, the animal's colour as a band at its row's part (top for
    heads, middle for bodies, bottom for legs) and along the foot, the name."""
    colour = palette("mucca_pazza").get(name, ("", "#777777"))[1]
    c.rect((x, y, x + w, y + h), 5, CREAM)
    band = (0.40, 0.31, 0.62)[part]
    c.draw.rectangle((x + 2, y + band * h, x + w - 2, y + (band + 0.06) * h), fill=colour)
    c.draw.rectangle((x, y + h - 5, x + w, y + h), fill=colour)
    c.text((x + w / 2, y + 0.25 * h), name[:7], 10, INK, anchor="ms")


# --- what each game shows above the text ---------------------------------------------------

def _maumau(c: _Canvas, obs: Mapping[str, Any]) -> None:
    french(c, 12, 30, obs["top"], 1.2)
    c.text((12, 22), "top", 12, "#e9d9a6")
    hand = obs.get("hand")
    c.text((110, 22), "hand" if hand is not None else "hands", 12, "#e9d9a6")
    if hand is not None:
        for i, card in enumerate(hand[:14]):
            french(c, 110 + i * 50, 30, card, 1.2)
    else:
        for seat, size in enumerate(obs["hand_sizes"]):
            back(c, 110 + seat * 90, 30, 1.2)
            c.text((110 + seat * 90 + 36, 148), f"{size}", 13, CREAM, anchor="ms")


def _mammuz(c: _Canvas, obs: Mapping[str, Any]) -> None:
    hand = obs.get("hand")
    c.text((12, 22), f"herd {obs['herd_size']}" + (f" · {obs['species']}" if obs["species"]
                                                     else ""), 12, "#e9d9a6")
    back(c, 12, 30, 1.2)
    if hand is not None:
        for i, card in enumerate(hand[:16]):
            animal(c, 100 + i * 44, 30, card, 1.2)
    else:
        for seat, size in enumerate(obs["hand_sizes"][:8]):
            back(c, 100 + seat * 86, 30, 1.2)
            c.text((100 + seat * 86 + 36, 148), f"{size}", 13, CREAM, anchor="ms")


def _lecker(c: _Canvas, obs: Mapping[str, Any]) -> None:
    c.text((12, 22), "middle", 12, "#e9d9a6")
    tops = [pile["top"] for piles in obs["prize_piles"] for pile in piles[-1:]]
    for i, card in enumerate(obs["middle"][:9]):
        lecker(c, 12 + i * 70, 30, card, 0.95)
    if tops:
        c.text((WIDTH - 12, 22), "prize tops", 12, "#e9d9a6", anchor="rs")
        for i, card in enumerate(tops[:2]):
            lecker(c, WIDTH - 12 - (i + 1) * 64, 30, card, 0.75)


def _mucca(c: _Canvas, obs: Mapping[str, Any]) -> None:
    board = obs["board"]
    columns = len(board["heads"])
    w = min(76, (WIDTH - 24) / columns - 4)
    for r, row in enumerate(("heads", "bodies", "legs")):
        for col, name in enumerate(board[row]):
            tile(c, 12 + col * (w + 4), 12 + r * 46, name, r, w, 42)


_TOP: dict[str, tuple[int, Callable[[_Canvas, Mapping[str, Any]], None]]] = {
    "maumau": (160, _maumau), "mammuz": (160, _mammuz), "lecker_mammut": (150, _lecker),
    "mucca_pazza": (152, _mucca)}


def picture(game: Game, obs: Mapping[str, Any], text: str) -> np.ndarray:
    """The table of `obs` as an image: the game's cards above, `text` (plain) below."""
    lines = [_drawable(t) for t in text.splitlines()]
    top, draw = _TOP.get(game.id, (0, lambda c, o: None))
    line = 16
    canvas = _Canvas(top + 12 + line * len(lines))
    draw(canvas, obs)
    canvas.rect((4, top, WIDTH - 4, top + 8 + line * len(lines)), 6, "#f4efe1")
    for i, text in enumerate(lines):
        canvas.text((10, top + 16 + i * line), text, 13, INK, mono=True)
    return np.asarray(canvas.image, dtype=np.uint8).copy()


def _drawable(text: str) -> str:
    """`text` with the emoji the fonts lack as two spaces (the two cells they take)."""
    return "".join("  " if ord(ch) >= 0x1F000 else ch for ch in text if ch != "\ufe0f")


__all__ = ["palette", "picture"]
