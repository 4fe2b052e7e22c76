"""Tables on this device: the server's REST answers and websocket messages for tables whose
every seat is here (people at this screen and bots), built from the engine alone.

The browser's offline mode runs this in a Web Worker (Pyodide) and talks to it exactly as it
talks to the server (docs/protocol.md), so the screens do not know which one they talk to:

- `request(method, path, body)` answers a REST call (`/api/games`, `POST /api/tables`, join,
  leave, the table, its record, replay, rematch and hint) as `{"status", "data"}`;
- `connect(table, token)` opens a connection (`hello`, `table`, `state` are delivered),
  `receive(conn, text)` takes what a client sends (`act`, `sync`, `pong`, `press`, ...), and
  `disconnect(conn)` ends it;
- everything said to a connection goes out through the `Transport` given (`deliver`, `close`),
  and every change of a table through `saved(table, text)`, so the page keeps it (IndexedDB)
  and `restore` brings it back after a reload.

Like the server, a `state` message is built from its seat's observation, log and legal actions
only, and bots move after their nominal pause (times `bot_pace`), on a clock scheduled through
`schedule(delay, callback)` (asyncio's `call_later` by default: Pyodide's event loop is the
browser's). Not here: chat, accounts, invites, turn timers and clocks — nobody else is at the
table.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from tiergarten import bots
from tiergarten.core import IllegalAction, OptionError, State, load
from tiergarten.core import games as game_ids
from tiergarten.core import replay as replay_record
from tiergarten.core.realtime import TimedView

from .facts import describe_game, replay_steps
from .presses import Presses

PROTOCOL = 1
CALL_WINDOW = 3.0  # seconds a press waits for its call (the server's default)
PREFIX = "local-"  # every table id here starts so: the page knows whose table it is
LIMITS = {"max_message": 4096, "rate": 10.0, "burst": 30}
SEEDS = 2**53  # a seed below this survives JSON in the page (a JavaScript number) exactly


def fresh_seed() -> int:
    return secrets.randbelow(SEEDS)


class Transport(Protocol):
    """Where the local tables' words go: to a connection, or to the page's storage."""

    def deliver(self, conn: int, text: str) -> None: ...

    def close(self, conn: int, code: int, reason: str) -> None: ...

    def saved(self, table: str, text: str) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Any]


class Refused(Exception):
    """A REST call refused: its HTTP status, the reason (`detail`) and the code (with its
    `params`) by which the page words it, as the server's (docs/protocol.md, "REST error
    codes")."""

    def __init__(self, http: int, detail: str, code: str, **params: Any) -> None:
        super().__init__(detail)
        self.status = http
        self.detail = detail
        self.code = code
        self.params = params

    def data(self) -> dict[str, Any]:
        return {"detail": self.detail, "code": self.code, "params": self.params}


@dataclass
class Seat:
    seat: int
    kind: str  # "bot" or "human"
    bot: str | None = None
    name: str | None = None
    token: str | None = None

    def info(self, connected: bool) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name,
                "taken": self.kind == "bot" or self.token is not None,
                "connected": self.kind == "bot" or connected, "away": False, "account": None}


@dataclass
class Table:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    hints: bool
    created: str
    seats: list[Seat]
    state: State
    status: str = "open"
    rematch: str | None = None
    rematch_of: str | None = None
    conns: dict[int, int | None] = field(default_factory=dict)  # connection -> seat
    started: float = 0.0  # the bots' clock began (loop time)
    since: float = 0.0  # the table last changed (a bot's pause counts from it)
    pending: Any = None  # the scheduled bot move's handle
    skipped: float = 0.0  # bots' seconds that passed without real time (bot_pace 0)
    _bots: dict[int, bots.Bot] = field(default_factory=dict)
    presses: Presses = field(default_factory=Presses)  # the moments of real-time acts

    @property
    def version(self) -> int:
        return len(self.state.history)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat.seat
        return None

    def info(self) -> dict[str, Any]:
        connected = set(self.conns.values())
        return {"type": "table", "id": self.id, "game": self.game, "players": self.players,
                "options": self.options, "status": self.status, "version": self.version,
                "timer": None, "hints": self.hints, "chat": False, "clock": None,
                "tutorial": None, "head_starts": [], "created": self.created,
                "rules": self.state.game.rules, "rematch": self.rematch,
                "seats": [s.info(s.seat in connected) for s in self.seats]}

    def bot(self, seat: int) -> bots.Bot:
        if seat not in self._bots:
            name = self.seats[seat].bot or "random"
            self._bots[seat] = bots.make(name, self.state.game, seat, random.Random(0))
        return self._bots[seat]

    def export(self) -> dict[str, Any]:
        """The table as the page keeps it: its record, seats (with tokens) and status; once
        over also the result, so a list of games needs no replay."""
        out: dict[str, Any] = {
            "id": self.id, "game": self.game, "status": self.status, "created": self.created,
            "hints": self.hints, "rematch": self.rematch, "rematch_of": self.rematch_of,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "token": s.token} for s in self.seats],
            "record": self.state.record()}
        if self.status == "over":
            out["result"] = self.state.result().to_dict()
        return out


class LocalServer:
    """Every table of this device, answering as the server does."""

    def __init__(self, transport: Transport, bot_pace: float = 1.0,
                 schedule: Schedule | None = None, now: Callable[[], float] | None = None) -> None:
        self.transport = transport
        self.bot_pace = bot_pace
        self._schedule = schedule
        self._now = now
        self.tables: dict[str, Table] = {}
        self._conns: dict[int, str] = {}  # connection -> table id
        self._next_conn = 1

    # -- time --------------------------------------------------------------------------------

    def now(self) -> float:
        return self._now() if self._now is not None else asyncio.get_event_loop().time()

    def schedule(self, delay: float, callback: Callable[[], None]) -> Any:
        if self._schedule is not None:
            return self._schedule(delay, callback)
        return asyncio.get_event_loop().call_later(delay, callback)

    # -- REST --------------------------------------------------------------------------------

    def request(self, method: str, path: str, body: str | None = None) -> str:
        """A REST call as JSON text `{"status", "data"}`; a refusal's data is `{"detail",
        "code", "params"}`."""
        try:
            parsed = json.loads(body) if body else {}
            status, data = self._route(method.upper(), path, parsed)
        except Refused as exc:
            status, data = exc.status, exc.data()
        except OptionError as exc:
            status, data = 400, (
                {"detail": str(exc), "code": "bad_settings", "params": {}} if exc.option is None
                else {"detail": str(exc), "code": "bad_option", "params": {"option": exc.option}})
        except (ValueError, TypeError, KeyError) as exc:
            status, data = 422, {"detail": f"not a body this call takes: {exc}",
                                 "code": "bad_body", "params": {}}
        return json.dumps({"status": status, "data": data})

    def _route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        url = urlsplit(path)
        parts = [p for p in url.path.split("/") if p][1:]  # after "api"
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if parts == ["games"] and method == "GET":
            return 200, [describe_game(g) for g in game_ids()]
        if parts == ["tables"] and method == "GET":
            return 200, []  # nobody else can join a table here
        if parts == ["tables"] and method == "POST":
            return 201, self.create(body)
        if parts == ["health"]:
            return 200, {"ok": True, "protocol": PROTOCOL, "local": True}
        if len(parts) >= 2 and parts[0] == "tables":
            table = self._table(parts[1])
            rest = (method, *parts[2:])
            if rest == ("GET",):
                return 200, table.info()
            if rest == ("POST", "join"):
                return 200, self.join(table, body["name"], body.get("seat"))
            if rest == ("POST", "leave"):
                return 200, self.leave(table, body["token"])
            if rest == ("GET", "record"):
                return 200, self.record(table)
            if rest == ("GET", "replay"):
                return 200, self.replay(table)
            if rest == ("POST", "rematch"):
                return 201, self.new_rematch(table, body["token"])
            if rest == ("POST", "hint"):
                return 200, self.hint(table, str(body.get("token", "")))
            if rest == ("GET", "hint"):
                return 200, self.hint(table, query.get("token", ""))
            if rest == ("GET", "invite"):
                raise Refused(404, "a table on this device has no invite: play it here",
                              "not_here")
        raise Refused(404, f"{method} {url.path} is not answered on this device (offline)",
                      "not_here")

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused(404, f"no table {table_id!r} on this device", "no_table",
                          table=table_id)
        return table

    def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        game_id = body["game"]
        if game_id not in game_ids():
            raise Refused(400, f"unknown game {game_id!r}; known: {', '.join(game_ids())}",
                          "bad_settings")
        options = dict(body.get("options") or {})
        game = load(game_id, body.get("players"), **options)
        specs = list(body.get("seats") or [])
        specs += [None] * (game.players - len(specs))
        if len(specs) > game.players:
            raise Refused(400, f"{len(specs)} seats for {game.players} players", "bad_settings")
        seats = []
        for i, spec in enumerate(specs):
            name = spec.get("bot") if isinstance(spec, Mapping) else None
            if name is not None and name not in bots.names(game_id):
                raise Refused(400, f"no bot {name!r} for {game_id}; known: "
                                   f"{', '.join(bots.names(game_id))}", "bad_settings")
            seats.append(Seat(i, "bot", bot=name) if name else Seat(i, "human"))
        table = self._new_table(game_id, game.players, dict(game.options), fresh_seed(),
                                bool(body.get("hints", True)), seats)
        self._start_if_full(table)
        return {**table.info(), "owner": None}

    def _new_table(self, game_id: str, players: int, options: dict[str, Any], seed: int,
                   hints: bool, seats: list[Seat]) -> Table:
        table_id = PREFIX + secrets.token_urlsafe(9)
        state = load(game_id, players, **options).new_state(seed)
        table = Table(table_id, game_id, players, options, seed, hints,
                      dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), seats, state)
        self.tables[table_id] = table
        self._save(table)
        return table

    def join(self, table: Table, name: str, seat: int | None) -> dict[str, Any]:
        name = " ".join(str(name).split())
        if not name:
            raise Refused(400, "a name is needed to sit down", "name_missing")
        if len(name) > 40:
            raise Refused(400, f"a name may have at most 40 characters; this one has "
                               f"{len(name)}", "name_too_long", most=40, length=len(name))
        if table.status != "open":
            raise Refused(409, f"the table is {table.status}: no seat to take", "no_open_seat")
        free = [s.seat for s in table.seats if s.kind == "human" and s.token is None]
        if seat is None:
            seat = free[0] if free else None
        if seat not in free:
            raise Refused(409, f"seat {seat} is not open; open: {free}",
                          "seat_taken" if free else "no_open_seat")
        token = secrets.token_urlsafe(18)
        table.seats[seat].name, table.seats[seat].token = name, token
        self._save(table)
        self._tell_table(table)
        self._start_if_full(table)
        return {"table": table.id, "seat": seat, "token": token}

    def leave(self, table: Table, token: str) -> dict[str, Any]:
        seat = table.seat_of(token)
        if seat is None:
            raise Refused(403, "this token claims no seat at this table", "bad_token")
        if table.status == "open":
            table.seats[seat].name = table.seats[seat].token = None
            for conn, s in list(table.conns.items()):
                if s == seat:
                    self._close(conn, 4403, "you left this seat")
            self._save(table)
            self._tell_table(table)
        return {"table": table.id, "seat": seat}

    def record(self, table: Table) -> dict[str, Any]:
        seats = table.info()["seats"]
        if table.status == "over":
            return {"status": "over", "record": table.state.record(),
                    "result": table.state.result().to_dict(), "seats": seats}
        return {"status": table.status, "version": table.version,
                "observation": table.state.observe(None), "seats": seats}

    def replay(self, table: Table) -> dict[str, Any]:
        if table.status != "over":
            raise Refused(409, "a game can be replayed once it is over; this one is "
                               f"{table.status}", "not_over", status=table.status)
        return {"game": table.game, "players": table.players, "seats": table.info()["seats"],
                "result": table.state.result().to_dict(),
                "steps": replay_steps(table.state.record()), "chat": []}

    def new_rematch(self, table: Table, token: str) -> dict[str, Any]:
        seat = table.seat_of(token)
        if seat is None:
            raise Refused(403, "this token claims no seat at this table", "bad_token")
        if table.status != "over":
            raise Refused(409, f"a rematch follows the end; this table is {table.status}",
                          "not_over", status=table.status)
        if table.rematch is None:
            seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token) for s in table.seats]
            new = self._new_table(table.game, table.players, table.options, fresh_seed(),
                                  table.hints, seats)
            new.rematch_of = table.id
            table.rematch = new.id
            self._save(table)
            self._tell_table(table)
            self._start_if_full(new)
        return {**self.tables[table.rematch].info(), "token": token}

    def hint(self, table: Table, token: str) -> dict[str, Any]:
        seat = table.seat_of(token)
        if seat is None:
            raise Refused(403, "this token claims no seat at this table", "bad_token")
        adviser = bots.adviser(table.game)
        if adviser is None:
            raise Refused(409, f"there are no hints for {table.game}", "no_hints",
                          game=table.game)
        if not table.hints:
            raise Refused(409, "hints are off at this table (its creator chose so)", "hints_off")
        if table.status != "playing":
            raise Refused(409, f"hints are given during the game; this one is {table.status}",
                          "not_playing", status=table.status)
        legal = [str(a) for a in table.state.legal_actions(seat)]
        if not legal:
            raise Refused(409, "it is not your move: a hint is given when you may act",
                          "not_your_move")
        return {**adviser(table.state.observe(seat), legal), "version": table.version,
                "seat": seat}

    # -- connections -------------------------------------------------------------------------

    def connect(self, table_id: str, token: str | None = None, conn: int | None = None) -> int:
        """A new connection to a table (a seat's with its token, else a spectator's); it is
        greeted at once. Its id (`conn`, chosen by the caller so that it knows whose the
        greeting is, else the next free one), for `receive` and `disconnect`."""
        if conn is None:
            conn = self._next_conn
        self._next_conn = max(self._next_conn, conn) + 1
        table = self.tables.get(table_id)
        if table is None:
            self._send(conn, _error("not_found", f"no table {table_id!r} on this device"))
            self._close(conn, 4404, "no such table")
            return conn
        seat = table.seat_of(token)
        if token and seat is None:
            self._send(conn, _error("bad_token", "this token claims no seat at this table"))
            self._close(conn, 4401, "bad token")
            return conn
        self._conns[conn] = table_id
        known = seat in table.conns.values()
        table.conns[conn] = seat
        self._greet(table, conn)
        if seat is not None and not known:
            self._tell_table(table, but=conn)
        return conn

    def _greet(self, table: Table, conn: int) -> None:
        seat = table.conns[conn]
        real_time = table.state.game.info.real_time
        self._send(conn, {"type": "hello", "protocol": PROTOCOL, "table": table.id,
                          "game": table.game, "players": table.players, "seat": seat,
                          "limits": LIMITS, "call_window": CALL_WINDOW if real_time else None})
        self._send(conn, table.info())
        self._send(conn, self._state_message(table, seat, None))
        self._send(conn, {"type": "chat_log", "lines": [], "before": None, "more": False})

    def disconnect(self, conn: int) -> None:
        table_id = self._conns.pop(conn, None)
        table = self.tables.get(table_id or "")
        if table is None:
            return
        seat = table.conns.pop(conn, None)
        if seat is not None and seat not in table.conns.values():
            self._tell_table(table)

    def receive(self, conn: int, text: str) -> None:
        """What a connection sent, answered as the server would."""
        table = self.tables.get(self._conns.get(conn, ""))
        if table is None:
            return
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self._send(conn, _error("bad_message", "not a JSON object", table.version))
            return
        if "pong" in message:
            return
        if "sync" in message:
            self._send(conn, self._state_message(table, table.conns[conn], None))
            return
        if "token" in message:
            seat = table.seat_of(message["token"])
            if seat is None:
                self._send(conn, _error("bad_token", "this token claims no seat at this table"))
                return
            table.conns[conn] = seat
            self._greet(table, conn)
            self._tell_table(table, but=conn)
            return
        if "chat" in message or "react" in message:
            self._send(conn, _error("chat_off", "there is no chat at a table on this device",
                                    table.version))
            return
        if "press" in message:
            if not table.state.game.info.real_time:
                self._send(conn, _error("bad_message", "press is for real-time tables",
                                        table.version))
                return
            self._press(table, conn, message.get("press") is True, message.get("version"))
            return
        if "act" in message and isinstance(message.get("act"), str):
            self._act(table, conn, message["act"], message.get("version"))
            return
        self._send(conn, _error("bad_message", "not one of the messages a client sends",
                                table.version))

    def _act(self, table: Table, conn: int, text: str, seen: Any) -> None:
        seat = table.conns.get(conn)
        version = table.version
        if seat is None:
            self._send(conn, _error("not_seated", "a spectator cannot act", version))
            return
        if table.status != "playing":
            self._send(conn, _error("not_playing", f"the table is {table.status}", version))
            return
        real_time = table.state.game.info.real_time
        if not isinstance(seen, int) or seen > version or (seen < version and not real_time):
            self._send(conn, _error("stale", f"you acted on version {seen}, but the table is at "
                                    f"version {version}; nothing changed", version))
            return
        state = table.state
        try:
            action = state.game.parse_action(text)
            if real_time and table.presses.charged(state, seat, action, seen):
                self._send(conn, _error(
                    "void", "your press was judged by itself (a mistake: nothing to call was "
                    "in sight, or it came too late), so this act does not count", version))
                return
            if real_time:
                seen = table.presses.seen(state, seat, action, seen)
            if real_time and state.is_void(seat, action, seen):
                self._send(conn, _error(
                    "void", f"someone acted first: your act on version {seen} did not count "
                    f"(the table is at version {version}); nothing changed", version))
                return
            self._apply(table, seat, action)
        except IllegalAction as exc:
            error = _error("illegal", str(exc), version)
            if getattr(exc, "code", None) is not None:
                error["reason"] = exc.code
                error["params"] = dict(exc.params)
            self._send(conn, error)

    def _press(self, table: Table, conn: int, press: bool, seen: Any) -> None:
        """A press of the moment of the seat's next act, or its withdrawal (presses.py)."""
        seat = table.conns.get(conn)
        if seat is None or table.status != "playing" or not isinstance(seen, int):
            return
        presses, state = table.presses, table.state
        cost = presses.press(state, seat, seen) if press else presses.withdraw(state, seat)
        if cost is not None and not state.is_void(seat, cost, seen):
            self._apply(table, seat, cost)

    def _apply(self, table: Table, seat: int, action: Any) -> None:
        before = len(table.state.events)
        table.state.apply(seat, action)
        table.since = self.now()
        if table.state.is_over():
            table.status = "over"
        self._save(table)
        self._broadcast(table, len(table.state.events) - before)
        if table.status == "over":
            self._tell_table(table)
        self._wake(table)

    # -- bots --------------------------------------------------------------------------------

    def _wake(self, table: Table) -> None:
        """The table changed: the bots due think now and move after their pause."""
        if table.pending is not None:
            table.pending.cancel()
            table.pending = None
        if table.status != "playing":
            return
        move = self.choose(table)
        if move is None:
            return
        seat, action, delay = move
        version = table.version
        wait = max(0.0, table.since + delay * self.bot_pace - self.now())

        def fire() -> None:
            table.pending = None
            if table.version == version and table.status == "playing":
                if self.bot_pace <= 0:
                    table.skipped += delay
                self._apply(table, seat, action)

        table.pending = self.schedule(wait, fire)

    def choose(self, table: Table) -> tuple[int, Any, float] | None:
        """The earliest proposal of the bots due to move (as the server's bot driver)."""
        state = table.state
        pace = self.bot_pace
        now = ((self.now() - table.started) / pace if pace > 0 else 0.0) + table.skipped
        best: tuple[int, Any, float] | None = None
        for seat in state.to_move():
            if table.seats[seat].kind != "bot":
                continue
            legal = state.legal_actions(seat)
            if not legal:
                continue
            bot = table.bot(seat)
            bot.rng.seed(f"{table.seed}:{seat}:{len(state.history)}")
            proposal = bot.propose(TimedView(state.clone(), seat, legal, now))
            if proposal is not None and (best is None or proposal[0] < best[2]):
                best = (seat, proposal[1], max(0.0, proposal[0]))
        return best

    # -- telling -----------------------------------------------------------------------------

    def _start_if_full(self, table: Table) -> None:
        if table.status == "open" and all(s.kind == "bot" or s.token for s in table.seats):
            table.status = "playing"
            table.started = table.since = self.now()
            self._save(table)
            self._tell_table(table)
            self._broadcast(table, None)
        if table.status == "playing":
            self._wake(table)

    def _state_message(self, table: Table, seat: int | None,
                       new_events: int | None) -> dict[str, Any]:
        state = table.state
        legal: list[str] = []
        if seat is not None and table.status == "playing":
            legal = [a.text for a in state.legal_actions(seat)]
        size = len(state.events)
        start = 0 if new_events is None else max(0, size - new_events)
        log = state.log_since(seat, start)
        return {"type": "state", "version": table.version, "seat": seat,
                "observation": state.observe(seat), "legal": legal,
                "events": [] if new_events is None else log, "log": log, "log_from": start}

    def _broadcast(self, table: Table, new_events: int | None) -> None:
        by_seat: dict[int | None, str] = {}
        for conn, seat in list(table.conns.items()):
            if seat not in by_seat:
                by_seat[seat] = json.dumps(self._state_message(table, seat, new_events))
            self.transport.deliver(conn, by_seat[seat])

    def _tell_table(self, table: Table, but: int | None = None) -> None:
        text = json.dumps(table.info())
        for conn in list(table.conns):
            if conn != but:
                self.transport.deliver(conn, text)

    def _send(self, conn: int, message: Mapping[str, Any]) -> None:
        self.transport.deliver(conn, json.dumps(message))

    def _close(self, conn: int, code: int, reason: str) -> None:
        table = self.tables.get(self._conns.pop(conn, ""))
        if table is not None:
            table.conns.pop(conn, None)
        self.transport.close(conn, code, reason)

    def _save(self, table: Table) -> None:
        self.transport.saved(table.id, json.dumps(table.export()))

    # -- kept by the page --------------------------------------------------------------------

    def restore(self, kept: str) -> list[str]:
        """Bring back the tables the page kept (a JSON list of `Table.export()`s), replaying
        each record; those that do not replay are skipped. The ids restored."""
        restored = []
        for item in json.loads(kept):
            try:
                table = self._restored(item)
            except (ValueError, KeyError, TypeError, IllegalAction, OptionError):
                continue
            self.tables[table.id] = table
            restored.append(table.id)
        for table_id in restored:
            self._start_if_full(self.tables[table_id])
        return restored

    def _restored(self, item: Mapping[str, Any]) -> Table:
        record = item["record"]
        state = replay_record(record)
        seats = [Seat(s["seat"], s["kind"], s.get("bot"), s.get("name"), s.get("token"))
                 for s in item["seats"]]
        table = Table(item["id"], record["game"], record["players"], dict(record["options"]),
                      record["seed"], bool(item.get("hints", True)), item["created"], seats,
                      state, status=item["status"], rematch=item.get("rematch"),
                      rematch_of=item.get("rematch_of"))
        if state.is_over():
            table.status = "over"
        table.started = table.since = self.now()
        return table


def _error(code: str, message: str, version: int | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "version": version, "message": message}


def finished(record: Mapping[str, Any]) -> State:
    """A record of a finished game, replayed and checked: its state, or ValueError (an
    IllegalAction is one) saying why not."""
    state = replay_record(record)
    if not state.is_over():
        raise ValueError("the record's game is not over")
    return state
