// The websocket half of the protocol: one connection per seat (or one spectator), resumed after
// any drop with the same token, so closing the tab or losing the network loses nothing.
import { here } from "./api.js";

// Final: a bad token, a seat given up, no such table, a closed table, a flood, a frame too
// large, too many connections from here. Any other close (the server stopping or restarting, a
// connection too slow to keep up, a database away for a moment) is reconnected, with back-off.
const FINAL_CLOSES = new Set([4401, 4403, 4404, 4410, 1008, 1009, 4429]);

export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;  // {hello, table, state, error, status, closed}
    this.version = null;
    this.callWindow = null;  // real-time tables: seconds a press waits for its call (hello)
    this.spectator = null;   // a spectator's number at the table (hello), else null
    this.sent = null;        // the last act sent: {notation, version}
    this.retry = 0;
    this.stopped = false;
    this.open();
  }

  url() {
    return here(`/ws/${this.tableId}`).replace(/^http/, "ws");  // https: -> wss:
  }

  // The seat's token travels in Sec-WebSocket-Protocol, never in the URL (proxies log URLs).
  protocols() {
    return this.token ? ["tiergarten", `token.${this.token}`] : ["tiergarten"];
  }

  open() {
    const ws = this.ws = new WebSocket(this.url(), this.protocols());
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
    if (message.type === "hello") {
      this.callWindow = message.call_window ?? null;
      this.spectator = message.spectator ?? null;
    }
    this.handlers[message.type]?.(message);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // An act made on the version shown (or the one given: a hit's call names the version seen
  // when the club was pressed). The same act on the same version again (a double click) is
  // dropped here: the server would only answer that the table moved on.
  act(notation, version = this.version) {
    const again = this.sent && this.sent.notation === notation && this.sent.version === version;
    if (again) return true;
    const sent = this.send({ act: notation, version });
    if (sent) this.sent = { notation, version };
    return sent;
  }

  // The club is pressed (real-time tables): the moment counts, the call follows (or not).
  press(version = this.version) {
    return this.send({ press: true, version });
  }

  unpress(version = this.version) {
    return this.send({ press: false, version });
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
