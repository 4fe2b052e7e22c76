// The table's sockets: one per seat this browser holds (several make a hot-seat table), else
// one to watch; each seat's last state and whole move log. `events` hears what the screen
// needs: hello(key, message), table(info), chat(line), chatLog(lines), state(key, message,
// changed: a new version),
// error(message), offline(yes) and closed(key, code) (a socket the server closed for good).
import { tokensFor } from "../api.js";
import { TableSocket } from "../net.js";
import { isLocalTable, LocalTable } from "../offline/local.js";
import { keptLog } from "./log.js";

export class TableConnection {
  constructor(tableId, events) {
    this.tableId = tableId;
    this.events = events;
    this.sockets = new Map();  // seat (or "watch") -> TableSocket
    this.states = new Map();   // seat (or "watch") -> last state message
    this.logs = new Map();     // seat (or "watch") -> every log entry so far, by position
  }

  // The seats this browser holds.
  mine() {
    return [...this.sockets.keys()].filter((k) => k !== "watch");
  }

  // A socket for every seat token this browser holds (none left over), else one to watch.
  connectAll() {
    const tokens = tokensFor(this.tableId);
    const wanted = new Set(tokens.map((e) => e.seat));
    for (const key of this.sockets.keys()) {
      if (!wanted.has(key) && !(key === "watch" && !tokens.length)) this.drop(key);
    }
    for (const { seat, token } of tokens) {
      if (!this.sockets.has(seat)) this.sockets.set(seat, this.socketFor(seat, token));
    }
    if (!tokens.length && !this.sockets.has("watch")) this.sockets.set("watch", this.socketFor("watch", null));
  }

  drop(key) {
    this.sockets.get(key)?.close();
    this.sockets.delete(key);
    this.states.delete(key);
    this.logs.delete(key);
  }

  socketFor(key, token) {
    const events = this.events;
    const Socket = isLocalTable(this.tableId) ? LocalTable : TableSocket;  // the same interface
    return new Socket(this.tableId, token, {
      hello: (message) => events.hello?.(key, message),
      table: (message) => events.table(message),
      chat: (line) => events.chat(line),
      chat_log: (message) => events.chatLog(message.lines),
      state: (message) => this.onState(key, message),
      error: (message) => {
        events.error(message);
        if (message.code === "stale") this.sockets.get(key).sync();
      },
      status: (status) => events.offline(status === "offline"),
      closed: (code) => events.closed(key, code),
    });
  }

  onState(key, message) {
    const changed = message.version !== this.states.get(key)?.version;
    this.states.set(key, message);
    const log = keptLog(this.logs.get(key), message);
    if (log) this.logs.set(key, log);
    else this.sockets.get(key).sync();  // a gap in the log: ask for all of it
    this.events.state(key, message, changed);
  }

  // Sent on the first socket that is open; false if none is.
  send(message) {
    return [...this.sockets.values()].some((s) => s.send(message));
  }

  close() {
    for (const socket of this.sockets.values()) socket.close();
  }
}
