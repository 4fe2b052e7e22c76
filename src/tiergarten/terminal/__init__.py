"""Playing at the terminal: the match driver, the Human agent, and per-game renderers.

A game's renderer is the module `tiergarten.terminal.<game id>` (attribute `RENDERER`); games
without one are shown by the generic renderer, which prints any observation readably. A game
that cannot be played turn by turn (real time) also puts its own match class there as `MATCH`.
"""

from .driver import Match, MatchLike, lineup, save_record, seat_names, start_match
from .human import Human, LineReader, Quit
from .render import Renderer, register, renderer_for
from .replay import RecordError, read_record, replay_record
from .screen import Screen

__all__ = ["Human", "LineReader", "Match", "MatchLike", "Quit", "RecordError", "Renderer", "Screen",
           "lineup", "read_record", "register", "renderer_for", "replay_record", "save_record",
           "seat_names", "start_match"]
