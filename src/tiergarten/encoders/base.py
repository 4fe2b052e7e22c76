"""What every observation encoder shares: a documented flat layout of float32 entries in [0, 1].

An encoder turns one seat's observation dict (`state.observe(seat)`, the only source of what a
seat may see) into a fixed-shape numpy vector. Seats are written relative to the observer:
slot 0 is the observing seat, slot 1 the next seat clockwise, and so on; every game reserves
`max_players` slots so the shape depends on the game only. Counts are divided by the stated
scale and clipped to [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tiergarten.core import Game


@dataclass(frozen=True)
class Field:
    """One named block of the vector: `size` entries from `start`."""

    name: str
    start: int
    size: int
    doc: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class Encoder:
    """Builds the fixed-shape observation vector of one game from a seat's observation."""

    game_id = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.players
        self.slots = game.info.max_players
        self.fields: list[Field] = []
        self._at: dict[str, int] = {}
        self.layout()
        self.size = sum(f.size for f in self.fields)

    def layout(self) -> None:
        """Declare the fields in order with `add`."""
        raise NotImplementedError

    def add(self, name: str, size: int, doc: str) -> None:
        start = sum(f.size for f in self.fields)
        self.fields.append(Field(name, start, size, doc))
        self._at[name] = start

    def at(self, name: str) -> int:
        """Where field `name` starts."""
        return self._at[name]

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        """The vector for `obs` (a new float32 array of shape (size,))."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(out, obs)
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def fill(self, out: np.ndarray, obs: dict[str, Any]) -> None:
        """Write `obs` into the zeroed vector `out`."""
        raise NotImplementedError

    def sparse(self, state: Any, seat: int) -> tuple[list[int], list[float]]:
        """The non-zero entries of `encode(state.observe(seat))`: indices and values (the
        batched env writes many games' rows in one scatter). A game may compute them from its
        state directly, faster (Mau Mau does; a test checks it is the same vector)."""
        vector = self.encode(state.observe(seat))
        where = np.flatnonzero(vector)
        return where.tolist(), vector[where].tolist()

    # -- helpers for subclasses -------------------------------------------------------------

    def rel(self, obs: dict[str, Any], seat: int) -> int:
        """The slot of `seat` as seen from the observing seat."""
        me = obs["seat"] if obs["seat"] is not None else 0
        return int((seat - me) % self.n)

    def seats(self, out: np.ndarray, name: str, obs: dict[str, Any],
              values: Sequence[float], scale: float = 1.0) -> None:
        """Write one value per seat into field `name`, in relative slots."""
        base = self._at[name]
        for s, v in enumerate(values):
            out[base + self.rel(obs, s)] = v / scale

    def one_seat(self, out: np.ndarray, name: str, obs: dict[str, Any], seat: int | None) -> None:
        """Mark `seat` (if any) in field `name`, in relative slots."""
        if seat is not None:
            out[self._at[name] + self.rel(obs, seat)] = 1.0

    def describe(self) -> list[tuple[str, int, int, str]]:
        """(name, first index, last index, meaning) for every field: the documented layout."""
        return [(f.name, f.start, f.stop - 1, f.doc) for f in self.fields]


__all__ = ["Encoder", "Field"]
