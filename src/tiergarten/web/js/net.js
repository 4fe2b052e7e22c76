// The websocket half of the protocol: one connection per seat (or one spectator), resumed after
// any drop with the same token, so closing the tab or losing the network loses nothing.
import { here } from "./api.js";

// Final: a bad token, a seat given up, no such table, a flood, a frame too large, too many
// connections from here. Any other close (the server stopping or restarting, a connection too
// slow to keep up, a database away for a moment) is reconnected, with back-off.
const FINAL_CLOSES = new Set([4401, 4403, 4404, 1008, 1009, 4429]);

export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;  // {hello, table, state, error, status, closed}
    this.version = null;
    this.retry = 0;
    this.stopped = false;
    this.open();
  }

  url() {
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return here(`/ws/${this.tableId}${query}`).replace(/^http/, "ws");  // https: -> wss:
  }

  open() {
    const ws = this.ws = new WebSocket(this.url());
    ws.onopen = () => { this.retry = 0; this.handlers.status?.("online"); };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      if (this.stopped || FINAL_CLOSES.has(event.code)) {
        this.handlers.closed?.(event.code, event.reason);
        return;
      }
      this.handlers.status?.("offline");
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  receive(message) {
    if (message.type === "ping") {  // the server measures our round trip (fair real-time hits)
      this.send({ pong: message.id });
      return;
    }
    if (message.type === "state") this.version = message.version;
    this.handlers[message.type]?.(message);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  act(notation) {
    return this.send({ act: notation, version: this.version });
  }

  sync() {
    return this.send({ sync: true });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}
