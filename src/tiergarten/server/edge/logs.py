"""The server's logging: plain lines by default, JSON lines for a log collector.

`configure("json")` makes every record of the server and of uvicorn one JSON object per line
(`time`, `level`, `logger`, `message`, and `exc` with the traceback if any); every record at
ERROR or above also counts in the `tiergarten_server_errors` metric.

>>> import logging
>>> record = logging.LogRecord("tiergarten.server", logging.WARNING, "x", 1, "lease lost", (),
...                            None)
>>> JsonFormatter().format(record).split(", ", 1)[1]
'"level": "WARNING", "logger": "tiergarten.server", "message": "lease lost"}'
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys

from .metrics import SERVER_ERRORS

LOGGERS = ("tiergarten", "uvicorn", "uvicorn.error", "uvicorn.access")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
                 "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry)


class _CountErrors(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        SERVER_ERRORS.inc()


def configure(fmt: str = "text", level: str = "warning") -> None:
    """Set up the server's loggers: `fmt` is "text" or "json"."""
    if fmt not in ("text", "json"):
        raise ValueError(f"log format {fmt!r}; allowed: text, json")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    counter = _CountErrors(logging.ERROR)
    for name in LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = [handler, counter] if name == "tiergarten" else [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
