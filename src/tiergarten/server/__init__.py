"""The tiergarten server: tables, seats, bots and an append-only game log behind FastAPI.

`serve()` runs it; `create_app()` builds the ASGI app; docs/protocol.md describes the wire.
A table's storage (`Store`: `SqlStore`, `MemoryStore`) and its connections (`Transport`:
`LocalTransport`) are given to the `TableManager`, which gives them to every table.

The names below are loaded when first used, so that the command line can read the server's
settings (server/config.py) without importing the web framework and the database layer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .edge.settings import Settings
    from .main import serve
    from .storage.memory_store import MemoryStore
    from .storage.sql_store import SqlStore
    from .storage.store import Store
    from .table.manager import TableManager
    from .table.transport import LocalTransport, Transport

_WHERE = {"create_app": ".app", "Settings": ".edge.settings", "serve": ".main",
          "MemoryStore": ".storage.memory_store", "SqlStore": ".storage.sql_store",
          "Store": ".storage.store", "TableManager": ".table.manager",
          "LocalTransport": ".table.transport", "Transport": ".table.transport"}

__all__ = ["LocalTransport", "MemoryStore", "Settings", "SqlStore", "Store", "TableManager",
           "Transport", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
