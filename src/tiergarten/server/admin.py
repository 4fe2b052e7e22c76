"""`tiergarten admin`: the operator's commands, against the deployment's database and Redis.

They read the settings `tiergarten serve` reads (`ServerConfig`, server/config.py: the
`TIERGARTEN_*` variables of /etc/tiergarten/tiergarten.env, checked the same way; `--db`,
`--redis-url` and `--redis-prefix` win over them), so they work on what the workers work on:

- `tables`: the tables, newest first (`--status`, `--limit`), each with its game, status (and
  why it was closed), seats, moves, when it was made and last active, and with Redis its
  connections and its owner's lease;
- `close TABLE`: close an open or playing table on purpose (reason `operator`). With Redis
  the worker that owns it does it (an order on its inbox, cluster/orders.py: its people are
  told and their connections closed with 4410); a table nobody owns is closed here, under its
  lease. Without Redis it is closed in the database, and a server running alone on it stops
  the table at its next check, within 5 s (table/expiry.py);
- `drain WORKER`: the worker stops gracefully, as on SIGTERM, and exits (with Redis only);
- `leases`, `workers`: who owns which table, and who is alive (with Redis only).

Each prints a table, or JSON with `--json`. An error is one `error:` line on stderr; exit 2
for what is to be set differently (a setting, Redis not configured for a command of several
workers), 1 for what cannot be done (no such table, a table over already, a worker that is not
alive, an order not carried out in time).
"""

from __future__ import annotations

import contextlib
import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .admin_view import in_seconds, iso, show, when
from .command import fail, load

app = typer.Typer(name="tiergarten admin", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False,
                  help="The operator's commands, on the database (and Redis) the workers use: "
                       "the settings are serve's (TIERGARTEN_* variables, or the flags).")

EXIT_FAILED = 1


def command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A subcommand whose help is its docstring, its lines joined (and its first sentence in
    the list of commands)."""
    def register(function: Callable[..., None]) -> Callable[..., None]:
        doc = " ".join(inspect.cleandoc(function.__doc__ or "").split())
        app.command(name, help=doc, short_help=doc.split(": ")[0].split(". ")[0])(function)
        return function

    return register


Db = Annotated[str | None, typer.Option(
    "--db", metavar="PATH|URL",
    help="The database: a SQLite path or a postgresql:// URL [TIERGARTEN_DB].")]
RedisUrl = Annotated[str | None, typer.Option(
    "--redis-url", "--redis", metavar="URL", help="The workers' Redis [TIERGARTEN_REDIS_URL].")]
Prefix = Annotated[str | None, typer.Option(
    "--redis-prefix", metavar="TEXT",
    help="The workers' Redis prefix [TIERGARTEN_REDIS_PREFIX].")]
Json = Annotated[bool, typer.Option("--json", help="JSON for scripts instead of a table.")]


def failed(message: str) -> NoReturn:
    """What could not be done, as one `error:` line; exit 1."""
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(EXIT_FAILED)


@dataclass
class Opened:
    """What a command works on: the settings, the database (if asked) and the deployment in
    Redis (None: one process, no Redis configured)."""

    config: Any
    store: Any
    deployment: Any


@contextlib.contextmanager
def opened(db: str | None, redis_url: str | None, prefix: str | None, *, store: bool = True,
           cluster: str | None = None) -> Iterator[Opened]:
    """The settings (as serve reads them: exit 2 if one is wrong), the database (unless
    `store` is False) and Redis. `cluster`: the command, which needs Redis (exit 2 without)."""
    import redis

    from .cluster.orders import Deployment

    config = load({"db": db, "redis_url": redis_url, "redis_prefix": prefix})
    if cluster is not None and config.redis_url is None:
        fail(f"`{cluster}` is for a deployment of several workers, and Redis is not configured: "
             "set TIERGARTEN_REDIS_URL (or --redis-url) as the workers have it")
    deployment = None
    if config.redis_url is not None:
        client = redis.Redis.from_url(config.redis_url, socket_timeout=5.0)
        try:
            client.ping()
        except redis.RedisError as exc:
            failed(f"Redis does not answer at {config.shown('redis_url')}: {exc}")
        deployment = Deployment(client, config.redis_prefix)
    sql = _open_store(config.db) if store else None
    try:
        yield Opened(config, sql, deployment)
    finally:
        if sql is not None:
            sql.close()
        if deployment is not None:
            deployment.client.close()


def _open_store(db: str | None) -> Any:
    from .storage import migrate
    from .storage.sql_store import SqlStore, database_url
    from .storage.store import StoreUnavailable

    url = database_url(db)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        failed(f"there is no database at {url.removeprefix('sqlite:///')}")  # make none
    try:
        store = SqlStore(db, upgrade=False)  # the workers migrate it, not this command
        at, want = migrate.current(store.engine), migrate.head()
    except StoreUnavailable as exc:
        failed(str(exc))
    if at != want:
        store.close()
        failed(f"the database's schema is at revision {at}, this tiergarten's is {want}: run "
               "the release the workers run (they migrate the database when they start)")
    return store


# -- the commands ---------------------------------------------------------------------------


@command("tables")
def tables(status: Annotated[list[str] | None, typer.Option(
               "--status", metavar="STATUS", help="open, playing, over, closed, or all "
               "(repeatable; default open and playing).")] = None,
           limit: Annotated[int, typer.Option(min=1, help="The newest so many.")] = 100,
           db: Db = None, redis_url: RedisUrl = None, redis_prefix: Prefix = None,
           as_json: Json = False) -> None:
    """List the tables, newest first: game, status (closed: why), seats taken of the seats
    for people (and bots), moves, created, last activity; with Redis also the connections to
    each, its owner and when its lease runs out."""
    from .storage.overview import list_tables
    from .storage.store import STATUSES

    wanted = list(status or ["open", "playing"])
    if "all" in wanted:
        wanted = list(STATUSES)
    unknown = [s for s in wanted if s not in STATUSES]
    if unknown:
        fail(f"--status {unknown[0]!r} is not a status; the statuses: {', '.join(STATUSES)}, or "
             "all")
    with opened(db, redis_url, redis_prefix) as now:
        found, total = list_tables(now.store.engine, wanted, limit)
        ids = [t.id for t in found]
        owners = now.deployment.owners(ids) if now.deployment else {}
        connected = now.deployment.connections(ids) if now.deployment else {}
    rows = [{"id": t.id, "game": t.game, "status": t.status, "close_reason": t.close_reason,
             "players": t.players, "people": t.people, "seated": t.seated, "bots": t.bots,
             "moves": t.moves, "connected": connected.get(t.id), "created": iso(t.created),
             "last_active": iso(t.last_active), "closed": iso(t.closed),
             "owner": owners.get(t.id, (None, 0))[0],
             "lease_ms": owners[t.id][1] if t.id in owners else None} for t in found]
    shown = [{**r, "status": r["status"] + (f" ({r['close_reason']})" if r["close_reason"]
                                            else ""),
              "seats": f"{r['seated']}/{r['people']}" + (
                  f" +{r['bots']} bot" + "s" * (r["bots"] != 1) if r["bots"] else ""),
              "lease": None if r["lease_ms"] is None else in_seconds(r["lease_ms"]),
              "created": when(r["created"]), "last_active": when(r["last_active"])}
             for r in rows]
    columns = {"id": "Table", "game": "Game", "status": "Status", "seats": "Seated",
               "moves": "Moves", "created": "Created", "last_active": "Last activity"}
    if now.deployment is not None:  # (alone, the connections are the server's to know)
        columns |= {"connected": "Connected", "owner": "Owner", "lease": "Lease"}
    show(rows if as_json else shown, as_json,
         f"{len(rows)} of {total} tables ({', '.join(wanted)}), newest first", columns,
         f"no tables ({', '.join(wanted)})")


@command("close")
def close(table: Annotated[str, typer.Argument(help="The table's id.")],
          timeout: Annotated[float, typer.Option(
              min=0.1, help="Seconds to wait for the table's owner to close it.")] = 10.0,
          db: Db = None, redis_url: RedisUrl = None, redis_prefix: Prefix = None,
          as_json: Json = False) -> None:
    """Close an open or playing table on purpose (recorded as closed, reason operator): its
    people are told and their connections closed, its row stays. With Redis the worker that
    owns it closes it; without, it is closed in the database and a server running alone on
    it stops the table within 5 s."""
    from .cluster import orders
    from .storage.store import CLOSED, UNFINISHED
    from .table.closing import OPERATOR

    with opened(db, redis_url, redis_prefix) as now:
        row = now.store.load_table(table)
        if row is None:
            failed(f"there is no table {table!r}")
        if row.status not in UNFINISHED:
            failed(f"table {table} is {row.status} already"
                   + (f" ({row.close_reason})" if row.close_reason else "")
                   + ": only an open or playing table is closed")
        if now.deployment is None:
            if not now.store.close_table(table, OPERATOR):
                failed(f"table {table} ended meanwhile; nothing was closed")
            by = "this command, in the database (a server running alone stops it within 5 s)"
        else:
            try:
                by = orders.close(now.deployment, now.store, table,
                                  int(now.config.lease_ttl * 1000), timeout)
            except orders.OrderFailed as exc:
                failed(str(exc))
        row = now.store.load_table(table)
    assert row is not None and row.status == CLOSED
    done = {"table": table, "status": row.status, "close_reason": row.close_reason,
            "closed": iso(row.closed), "by": by}
    if as_json:
        typer.echo(json.dumps(done, indent=2))
    else:
        typer.echo(f"closed table {table} ({row.game}); by {by}")


@command("drain")
def drain(worker: Annotated[str, typer.Argument(help="The worker's id (`tiergarten admin "
                                                     "workers` lists them).")],
          wait: Annotated[bool, typer.Option(help="Wait until the worker has let go of "
                                                  "everything.")] = True,
          timeout: Annotated[float, typer.Option(min=0.1, help="Seconds to wait.")] = 30.0,
          redis_url: RedisUrl = None, redis_prefix: Prefix = None,
          as_json: Json = False) -> None:
    """Ask a worker to drain as SIGTERM does: no new connections, every table stopped after
    its commit in hand, every client asked to reconnect (1012), its leases released for the
    others, then it exits (systemd's Restart=always starts it again, fresh: a graceful
    restart; to keep it down, `systemctl stop`)."""
    from .cluster import orders

    with opened(None, redis_url, redis_prefix, store=False, cluster="drain") as now:
        try:
            held = orders.drain(now.deployment, worker, wait, timeout)
        except orders.OrderFailed as exc:
            failed(str(exc))
    done = {"worker": worker, "leases": held, "drained": True if wait else None}
    if as_json:
        typer.echo(json.dumps(done, indent=2))
    elif wait:
        typer.echo(f"worker {worker} drained: it let go of {held} table(s) for the others")
    else:
        typer.echo(f"worker {worker} was asked to drain ({held} table(s))")


@command("leases")
def leases(redis_url: RedisUrl = None, redis_prefix: Prefix = None,
           as_json: Json = False) -> None:
    """List the tables' leases: which worker owns which table, and when each lease runs out
    unless renewed."""
    with opened(None, redis_url, redis_prefix, store=False, cluster="leases") as now:
        found = now.deployment.leases()
    rows = [{"table": lease.table, "worker": lease.worker, "alive": lease.alive,
             "expires_ms": lease.expires_ms}
            for lease in sorted(found, key=lambda x: (x.worker, x.table))]
    shown = [{**r, "alive": "yes" if r["alive"] else "no (its lease runs out)",
              "expires": in_seconds(r["expires_ms"])} for r in rows]
    show(rows if as_json else shown, as_json, f"{len(rows)} leases",
         {"table": "Table", "worker": "Worker", "alive": "Worker alive",
          "expires": "Expires in"}, "no leases: no worker owns a table now")


@command("workers")
def workers(redis_url: RedisUrl = None, redis_prefix: Prefix = None,
            as_json: Json = False) -> None:
    """List the live workers: each one's liveness (when it runs out unless renewed) and how
    many tables it owns."""
    with opened(None, redis_url, redis_prefix, store=False, cluster="workers") as now:
        found = now.deployment.workers()
    rows = [{"worker": w.id, "expires_ms": w.expires_ms, "leases": w.leases} for w in found]
    shown = [{**r, "expires": in_seconds(r["expires_ms"])} for r in rows]
    show(rows if as_json else shown, as_json, f"{len(rows)} live workers",
         {"worker": "Worker", "expires": "Alive for", "leases": "Tables owned"},
         "no live workers")


def run(args: list[str]) -> None:
    """Run `tiergarten admin ARGS...`."""
    typer.main.get_command(app).main(list(args), prog_name="tiergarten admin")
