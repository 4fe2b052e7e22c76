"""The server's logging: plain lines by default, JSON lines for a log collector; every line of
the process either way — the server's, uvicorn's, asyncio's, warnings and threads'.

`configure(fmt, level, worker)` (and `dict_config`, which uvicorn is given too, so it does not
set up loggers of its own) puts one handler on the root logger. A JSON line is one object:
`time`, `level`, `logger`, `message`, `worker` (this worker's id), and where there is one
`table` (the table the line is about), `request_id` (the HTTP request or websocket it
happened in: the proxy's `X-Request-ID`, or one made here, see server/edge/requests.py),
`trace_id` (OpenTelemetry, when tracing) and `exc` (the traceback).

Every record at ERROR or above counts in `tiergarten_server_errors_total{kind="error_log"}`
unless it was counted as what it reports (an exception that escaped a request or a task: see
`count_once`). An exception in a task that nobody awaited, or in a callback, reaches
`asyncio_handler` (the event loop's exception handler): it is logged once, as one line, and
counted (`task_exception`), as are a thread's, one nobody caught and one Python could not
raise ("Exception ignored in ...": `sys.unraisablehook`). `spawn` starts a fire-and-forget
task whose failure is logged the same way, and keeps a reference to it until it ends.

>>> import logging
>>> record = logging.LogRecord("tiergarten.server", logging.WARNING, "x", 1,
...                            "table %s: lease lost", ("abc123",), None)
>>> ContextFilter("w1").filter(record)
True
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["message"], line["worker"], line["table"]
('WARNING', 'table abc123: lease lost', 'w1', 'abc123')
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import json
import logging
import logging.config
import re
import sys
import threading
from collections.abc import Coroutine
from typing import Any

from .metrics import SERVER_ERRORS

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id",
                                                                        default=None)
TABLE_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("table_id", default=None)
TRACE = 5  # uvicorn's level below DEBUG
START = "tiergarten.start"  # the start-up lines: said at any level
_TABLE_ARG = re.compile(r"^table %s\b")
log = logging.getLogger("tiergarten.server")


class ContextFilter(logging.Filter):
    """Puts `worker`, `table`, `request_id` and `trace_id` on every record it sees."""

    def __init__(self, worker: str | None = None) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        record.worker = self.worker
        if getattr(record, "table", None) is None:  # the line's own word first: a task
            record.table = _table_of(record) or TABLE_ID.get()  # started by another table's
            # request (a rematch's bots) inherits that request's context
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        record.trace_id = _trace_id()
        return True


def _table_of(record: logging.LogRecord) -> str | None:
    """The table a line is about, when it says so the server's way ("table %s: ...")."""
    if isinstance(record.msg, str) and _TABLE_ARG.match(record.msg) and record.args:
        args = record.args if isinstance(record.args, tuple) else (record.args,)
        return str(args[0])
    return None


def _trace_id() -> str | None:
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:  # tracing was never set up: nothing to look up
        return None
    context = trace.get_current_span().get_span_context()
    return f"{context.trace_id:032x}" if context.is_valid else None


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (a traceback is the `exc` field)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
            "level": record.levelname, "logger": record.name, "message": record.getMessage(),
            "worker": getattr(record, "worker", None)}
        for key in ("table", "request_id", "trace_id"):
            value = getattr(record, key, None)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            entry["exc"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """`time LEVEL logger [table=… request=…]: message`, a traceback below it."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        said = [f"{k}={v}" for k, v in (("table", getattr(record, "table", None)),
                                        ("request", getattr(record, "request_id", None)))
                if v is not None]
        record.context = f" [{' '.join(said)}]" if said else ""
        return super().format(record)


class ErrorCounter(logging.Handler):
    """Counts every record at ERROR or above that was not counted as what it reports."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        if not getattr(record, "counted", False):
            SERVER_ERRORS.labels(kind="error_log").inc()


def count_once(kind: str) -> dict[str, Any]:
    """Count one error of `kind`; the `extra` for the record that reports it (so that the
    record is not counted again)."""
    SERVER_ERRORS.labels(kind=kind).inc()
    return {"counted": True}


def dict_config(fmt: str = "text", level: str = "warning",
                worker: str | None = None) -> dict[str, Any]:
    """The logging configuration (`logging.config.dictConfig`; uvicorn's `log_config`)."""
    if fmt not in ("text", "json"):
        raise ValueError(f"log format {fmt!r}; allowed: text, json")
    logging.addLevelName(TRACE, "TRACE")
    name = level.upper()
    return {
        "version": 1, "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter, "worker": worker}},
        "formatters": {"json": {"()": JsonFormatter}, "text": {"()": TextFormatter}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                       "formatter": fmt, "filters": ["context"]},
            "errors": {"()": ErrorCounter}},
        "root": {"handlers": ["stderr", "errors"], "level": name},
        "loggers": {
            **{logger: {"handlers": [], "propagate": True, "level": name}
               for logger in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi",
                              "tiergarten")},
            START: {"level": "INFO", "handlers": [], "propagate": True}},
    }


def configure(fmt: str = "text", level: str = "warning", worker: str | None = None) -> None:
    """Set up the process's logging (see the module doc): `fmt` is "text" or "json"."""
    logging.config.dictConfig(dict_config(fmt, level, worker))
    logging.captureWarnings(True)  # warnings.warn: the py.warnings logger, one line each
    threading.excepthook = _thread_failed
    sys.excepthook = _uncaught
    sys.unraisablehook = _unraisable  # "Exception ignored in ...": one record too


def banner(text: str, fmt: str) -> None:
    """The start-up lines (where to open the server): printed as they are in text mode, one
    record at any level in JSON mode."""
    if fmt == "text":
        print(text, flush=True)
    else:
        logging.getLogger(START).info("; ".join(line.strip() for line in text.splitlines()))


def _thread_failed(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "?"
    log.error("thread %s failed", name, exc_info=(args.exc_type, args.exc_value,
                                                  args.exc_traceback),
              extra=count_once("task_exception"))


def _uncaught(kind: type[BaseException], value: BaseException, tb: Any) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    log.critical("the server stopped: an exception nobody caught", exc_info=(kind, value, tb),
                 extra=count_once("task_exception"))


def _unraisable(args: Any) -> None:  # sys.UnraisableHookArgs
    """An exception Python could not raise (in a `__del__`, a finalizer, a closing
    generator): logged once and counted, instead of "Exception ignored in" on stderr."""
    exc = args.exc_value
    log.error("%s: %r", args.err_msg or "Exception ignored in", args.object,
              exc_info=(args.exc_type, exc, args.exc_traceback) if exc is not None else None,
              extra=count_once("task_exception"))


def asyncio_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: an exception no task awaited (e.g. "Task exception
    was never retrieved") or a callback raised, as one logged, counted record."""
    exc = context.get("exception")
    where = context.get("task") or context.get("future") or context.get("handle")
    name = where.get_name() if isinstance(where, asyncio.Task) else None
    message = context.get("message") or "an exception in the event loop"
    log.error("%s%s", message, f" (task {name!r})" if name else "",
              exc_info=(type(exc), exc, exc.__traceback__) if exc is not None else None,
              extra=count_once("task_exception"))


def task_done(task: asyncio.Future[Any]) -> None:
    """A done-callback: log (once, counted) how a fire-and-forget task failed."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None:
        return
    name = task.get_name() if isinstance(task, asyncio.Task) else "a task"
    log.error("task %r failed: %s", name, exc, exc_info=(type(exc), exc, exc.__traceback__),
              extra=count_once("task_exception"))


def spawn(coro: Coroutine[Any, Any, Any], tasks: set[asyncio.Task[Any]],
          name: str | None = None) -> asyncio.Task[Any]:
    """Start a task nobody awaits: `tasks` holds it until it ends (so it is not collected
    mid-way), and its failure is logged and counted (`task_done`), never left unretrieved."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    task.add_done_callback(task_done)
    return task
