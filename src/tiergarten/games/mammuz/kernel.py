"""MammuZ's speed beside its rules: the one place that decides which implementation each
accelerated function is.

The rules are Python, and each function on the hot path of play that has a faster twin keeps
its Python definition, the readable one, beside the rules it serves:

| here          | its Python definition       | what it does                                     |
|---------------|-----------------------------|--------------------------------------------------|
| `legal_lays`  | `lays.LegalLays`            | a hand's legal lays, as a lazy sequence          |
| `shuffle`     | `shuffles.shuffle`          | CPython's shuffle, draw for draw                 |
| `move_lay`    | `shuffles.move_lay`         | a lay's cards in shuffled order, hand to herd    |
| `deal`        | `shuffles.deal`             | the deck shuffled and dealt into count vectors   |
| `learn_herd`  | `knowledge.learn_herd`      | what each seat learns when a herd is taken       |

The optional C kernel, `_kernel.c`, holds a twin of each: the extension module
`tiergarten.games.mammuz._kernel`, which the packaging's build hook (hatch_build.py) compiles
into the package where a C compiler is there. It is used when it can be imported, its `VERSION`
matches this package's and `TIERGARTEN_PURE` is unset (or 0): this module alone reads that
variable, once, at import; everything else calls the functions below. Without the kernel
MammuZ is pure Python: the same games, slower. Each twin is tested against its definition, and
the same random games are played with and without the kernel
(tests/games/mammuz/test_kernel.py).
"""

from __future__ import annotations

import importlib
import os
import random
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import cast

from . import knowledge, lays, shuffles
from .actions import MammuZAction

VERSION = 2  # the calling convention of _kernel.c (its VERSION)
MODULE = f"{__package__}._kernel"  # the C kernel's module

Actions = tuple[MammuZAction, ...]
Lays = Callable[[tuple[int, ...], list[int], Actions], Sequence[MammuZAction]]
Shuffle = Callable[[random.Random, list[int]], None]
MoveLay = Callable[[random.Random, tuple[int, ...], list[int], list[int]], tuple[int, ...]]
Deal = Callable[[random.Random, list[int], int, int], list[list[int]]]
LearnHerd = Callable[[list[list[int]], int, knowledge.Lays, int, int, int], None]


def load() -> ModuleType | None:
    """The C kernel, if it is installed, matches this package and TIERGARTEN_PURE is not set;
    else None (pure Python: the same games, slower)."""
    if os.environ.get("TIERGARTEN_PURE", "") not in ("", "0"):
        return None
    try:
        kernel = importlib.import_module(MODULE)
    except ImportError:
        return None
    if getattr(kernel, "VERSION", None) != VERSION:
        warnings.warn(f"{MODULE} was built from another version of "
                      "tiergarten/games/mammuz/_kernel.c; MammuZ runs as pure Python (slower). "
                      "Reinstall the package (`make`) to rebuild it.", stacklevel=2)
        return None
    return kernel


def kernel_lays(kernel: ModuleType) -> Lays:
    """The kernel's `Lays(species, hand, tail)`, set up with the tables of lays.py."""
    kernel.setup(*lays.kernel_tables())
    Sequence.register(kernel.Lays)
    return cast(Lays, kernel.lays)  # Lays(…), called without an argument tuple


KERNEL = load()

# The implementations MammuZ plays with: the C kernel's twins where it is there, else Python.
legal_lays: Lays = lays.LegalLays if KERNEL is None else kernel_lays(KERNEL)
shuffle: Shuffle = shuffles.shuffle if KERNEL is None else KERNEL.shuffle
move_lay: MoveLay = shuffles.move_lay if KERNEL is None else KERNEL.move_lay
deal: Deal = shuffles.deal if KERNEL is None else KERNEL.deal
learn_herd: LearnHerd = knowledge.learn_herd if KERNEL is None else KERNEL.learn_herd


def uses_kernel() -> bool:
    """Whether MammuZ runs with the C kernel (else pure Python)."""
    return KERNEL is not None


__all__ = ["KERNEL", "MODULE", "VERSION", "deal", "kernel_lays", "learn_herd", "legal_lays",
           "load", "move_lay", "shuffle", "uses_kernel"]
