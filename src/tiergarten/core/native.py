"""Compiled hot modules, used only when built from exactly the source beside them.

Some rules modules are plain Python that `make` also compiles with mypyc (`tools/compile.py`)
into extension modules next to their `.py` files; Python then imports the compiled ones first.
A module may also have a small C helper (`name.c`) whose importer falls back to Python code.
A stale build would silently run old rules, so the build writes a manifest of the hashes of
every source in the package (compiled code also takes constants from its uncompiled siblings)
and `load` imports a package's modules from source (and blocks its C helpers) whenever the
manifest does not match (with a warning) or the environment sets `TIERGARTEN_PURE=1`.
Without a build (a plain `pip install`, no C compiler) everything is the same Python, slower.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

# package -> the sources of its compiled modules: .py (mypyc) in import order (a module's own
# imports first), .c (C helpers)
COMPILED = {"tiergarten.games.mammuz": ("knowledge.py", "lays.py", "state.py", "_gather.c")}
MANIFEST = ".native.json"  # beside the sources: {source file: its sha256}


def source_hashes(folder: Path) -> dict[str, str]:
    """The sha256 of every source file (.py, .c) in `folder`."""
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted([*folder.glob("*.py"), *folder.glob("*.c")])}


def built_from_source(folder: Path) -> bool | None:
    """Whether the compiled modules in `folder` were built from the sources there now; None
    when there is no build."""
    try:
        built = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return bool(built == source_hashes(folder))


def is_compiled(module: str) -> bool:
    """Whether `module` (imported) runs compiled."""
    return not str(getattr(sys.modules[module], "__file__", "")).endswith(".py")


def load(package: str, folder: str) -> None:
    """Called first thing in `package`'s __init__ (`folder` = its directory): import its
    compiled modules from source unless a matching build exists and TIERGARTEN_PURE is unset."""
    sources = COMPILED[package]
    where = Path(folder)
    fresh = built_from_source(where)
    if fresh and os.environ.get("TIERGARTEN_PURE", "") in ("", "0"):
        return
    if fresh is False:
        warnings.warn(f"{package}: its compiled modules were built from older sources; using "
                      "the Python sources (slower). `make` rebuilds them.", stacklevel=3)
    for source in sources:  # C helpers first: their importers then take the Python code
        if source.endswith(".c"):
            sys.modules[f"{package}.{source[:-2]}"] = None  # type: ignore[assignment]
    for source in sources:  # all from source: compiled modules call each other directly
        if not source.endswith(".py"):
            continue
        name = f"{package}.{source[:-3]}"
        spec = importlib.util.spec_from_file_location(name, where / source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
