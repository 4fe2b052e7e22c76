"""The tiergarten server: tables, seats, bots and an append-only game log behind FastAPI.

`serve()` runs it; `create_app()` builds the ASGI app; docs/protocol.md describes the wire.
"""

from .app import create_app
from .main import serve
from .manager import TableManager
from .settings import Settings
from .store import Store

__all__ = ["Settings", "Store", "TableManager", "create_app", "serve"]
