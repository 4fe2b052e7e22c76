"""MammuZ's optional C kernel: `_gather.c`, built by hatch_build.py into the top-level module
`_tiergarten_mammuz` where the package was installed with a C compiler.

It accelerates the hot path of play, each part the twin of a Python function that stays its
readable definition: the legal lays as a lazy sequence (`lays.LegalLays`, twin of its `Lays`),
the shuffles and the moving of cards (`state.shuffle`, `state.move_lay`, `state.deal`), and
what the seats learn when a herd is taken (`knowledge.learn_herd`). Each is tested against its
twin, and the same random games are played with and without the kernel
(tests/games/mammuz/test_kernel.py). TIERGARTEN_PURE=1 forces pure Python.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

VERSION = 2  # the calling convention of _gather.c (its VERSION)


def load() -> ModuleType | None:
    """The kernel, if it is installed, matches this package and TIERGARTEN_PURE is not set;
    else None (pure Python: the same games, slower)."""
    if os.environ.get("TIERGARTEN_PURE", "") not in ("", "0"):
        return None
    try:
        kernel = importlib.import_module("_tiergarten_mammuz")
    except ImportError:
        return None
    if getattr(kernel, "VERSION", None) != VERSION:
        warnings.warn("_tiergarten_mammuz was built from another version of "
                      "tiergarten/games/mammuz/_gather.c; MammuZ runs as pure Python (slower). "
                      "Reinstall the package (`make`) to rebuild it.", stacklevel=2)
        return None
    return kernel


KERNEL = load()


def uses_kernel() -> bool:
    """Whether MammuZ runs with the C kernel (else pure Python)."""
    return KERNEL is not None
