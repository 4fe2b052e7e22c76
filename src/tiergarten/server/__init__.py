"""The tiergarten server: tables, seats, bots and an append-only game log behind FastAPI.

`serve()` runs it; `create_app()` builds the ASGI app; docs/protocol.md describes the wire.
A table's storage (`Store`: `SqlStore`, `MemoryStore`) and its connections (`Transport`:
`LocalTransport`) are given to the `TableManager`, which gives them to every table.
"""

from .app import create_app
from .edge.settings import Settings
from .main import serve
from .storage.memory_store import MemoryStore
from .storage.sql_store import SqlStore
from .storage.store import Store
from .table.manager import TableManager
from .table.transport import LocalTransport, Transport

__all__ = ["LocalTransport", "MemoryStore", "Settings", "SqlStore", "Store", "TableManager",
           "Transport", "create_app", "serve"]
