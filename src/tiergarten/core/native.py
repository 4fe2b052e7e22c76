"""Compiled hot modules, used only when built from exactly the source beside them.

Some rules modules are plain Python that `make` also compiles with mypyc (`tools/compile.py`)
into extension modules next to their `.py` files; Python then imports the compiled ones first.
A stale build would silently run old rules, so the build writes a manifest of the sources'
hashes and `load` imports a package's modules from source whenever the manifest does not match
(with a warning) or the environment sets `TIERGARTEN_PURE=1`. Without a build (a plain `pip
install`, no C compiler) everything is the same Python, only slower.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

# package -> its compiled modules, in import order (a module's own imports come before it)
COMPILED = {"tiergarten.games.mammuz": ("knowledge", "lays", "state")}
MANIFEST = ".native.json"  # beside the sources: {module: sha256 of its source}


def source_hashes(folder: Path, modules: tuple[str, ...]) -> dict[str, str]:
    """The sha256 of each module's source in `folder`."""
    return {m: hashlib.sha256((folder / f"{m}.py").read_bytes()).hexdigest() for m in modules}


def built_from_source(folder: Path, modules: tuple[str, ...]) -> bool | None:
    """Whether the compiled modules in `folder` were built from the sources there now; None
    when there is no build."""
    try:
        built = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return bool(built == source_hashes(folder, modules))


def is_compiled(module: str) -> bool:
    """Whether `module` (imported) runs compiled."""
    return not str(getattr(sys.modules[module], "__file__", "")).endswith(".py")


def load(package: str, folder: str) -> None:
    """Called first thing in `package`'s __init__ (`folder` = its directory): import its
    compiled modules from source unless a matching build exists and TIERGARTEN_PURE is unset."""
    modules = COMPILED[package]
    where = Path(folder)
    fresh = built_from_source(where, modules)
    if fresh and os.environ.get("TIERGARTEN_PURE", "") in ("", "0"):
        return
    if fresh is False:
        warnings.warn(f"{package}: its compiled modules were built from older sources; using "
                      "the Python sources (slower). `make` rebuilds them.", stacklevel=3)
    for m in modules:  # all from source: compiled modules call each other directly
        name = f"{package}.{m}"
        spec = importlib.util.spec_from_file_location(name, where / f"{m}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
