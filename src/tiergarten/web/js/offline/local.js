// The table on this device: the same REST answers and websocket messages as the server's
// (docs/protocol.md), from tiergarten's own Python engine in a Web Worker (worker.js), so the
// screens do not know which one they talk to. `localCall` answers what `call` (api.js) would
// ask the server; `LocalTable` has TableSocket's interface (net.js).
const PREFIX = "local-";  // the ids of tables on this device (tiergarten/offline/table.py)

let worker = null;
let ready = null;
let nextCall = 1;
let nextConn = 1;
const calls = new Map();  // call id -> {resolve, reject}
const tables = new Map();  // connection id -> its LocalTable

export function isLocalTable(tableId) {
  return typeof tableId === "string" && tableId.startsWith(PREFIX);
}

// Whether a REST path is about a table on this device.
export function isLocalPath(path) {
  return /^\/api\/tables\/local-/.test(path);
}

function ask(op, ...args) {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}

function heard({ data }) {
  if (data.deliver) tables.get(data.deliver[0])?.receive(JSON.parse(data.deliver[1]));
  else if (data.close) tables.get(data.close[0])?.closed(data.close[1], data.close[2]);
  else if (calls.has(data.id)) {
    const { resolve, reject } = calls.get(data.id);
    calls.delete(data.id);
    if ("error" in data) reject(new Error(data.error));
    else resolve(data.result);
  }
}

function newWorker() {
  return new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
}

// The worker started before the page knows which engine it boots (mode.js, when it knows the
// engine will be needed): it begins to load Pyodide's scripts meanwhile.
export function spawnEngine() {
  if (!worker) {
    worker = newWorker();
    worker.onmessage = heard;
  }
}

// The engine started (once): Pyodide loaded (its snapshot restored, after the first start),
// the engine ready, the kept tables restored. `engine` is the engine zip's path
// (offline/manifest.json says it); `pace` scales bots' pauses.
export function startEngine(engine, pace = 1) {
  if (!ready) {
    spawnEngine();
    ready = ask("boot", { engine, pace });
  }
  return ready;
}

// Online, once the service worker keeps this version's files: the engine's snapshot made and
// kept by a worker of its own (ended once done; at once when the snapshot is kept already), so
// that the first start offline is a quick one. Never alongside this page's own engine start.
export async function prepareEngine(engine) {
  await ready?.catch(() => null);
  const helper = newWorker();
  try {
    return await new Promise((resolve, reject) => {
      helper.onmessage = ({ data }) => ("error" in data ? reject(new Error(data.error))
        : resolve(data.result));
      helper.onerror = (event) => reject(new Error(event.message || "the worker failed"));
      helper.postMessage({ id: 0, op: "prepare", args: [{ engine }] });
    });
  } finally {
    helper.terminate();
  }
}

// Bot move times in this browser's engine (benchmarks/offline_browser.py): tiergarten.offline.bench.
export async function benchBots(game, level, moves = 20, budget = 30) {
  await ready;
  return ask("bench", game, level, moves, budget);
}

export function engineStarted() {
  return ready !== null;
}

// A REST call answered on this device: {status, data}, as the server would answer it.
export async function localCall(method, path, body) {
  if (!ready) return { status: 503, data: { detail: "the engine on this device has not started", code: "engine_not_ready" } };
  await ready;
  const text = await ask("request", method, path, body === undefined ? null : JSON.stringify(body));
  return JSON.parse(text);
}

// One connection to a table on this device, with TableSocket's interface.
export class LocalTable {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;  // {hello, table, state, error, status, closed}
    this.version = null;
    this.callWindow = null;
    this.sent = null;
    this.stopped = false;
    this.conn = nextConn++;
    this.open = false;
    tables.set(this.conn, this);
    (ready || Promise.reject(new Error("no engine"))).then(() => ask("connect", tableId, token, this.conn))
      .then(() => { this.open = true; this.handlers.status?.("online"); })
      .catch(() => this.closed(1013, "the engine on this device could not start"));
  }

  receive(message) {
    if (this.stopped) return;
    if (message.type === "state") this.version = message.version;
    if (message.type === "hello") this.callWindow = message.call_window ?? null;
    this.handlers[message.type]?.(message);
  }

  closed(code, reason) {
    tables.delete(this.conn);
    this.open = false;
    if (!this.stopped) this.handlers.closed?.(code, reason);
  }

  send(message) {
    if (this.stopped) return false;
    // sent before the greeting's answer came: the worker takes messages in order anyway
    ask("receive", this.conn, JSON.stringify(message));
    return true;
  }

  act(notation, version = this.version) {
    const again = this.sent && this.sent.notation === notation && this.sent.version === version;
    if (again) return true;
    const sent = this.send({ act: notation, version });
    if (sent) this.sent = { notation, version };
    return sent;
  }

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
    if (this.stopped) return;
    this.stopped = true;
    tables.delete(this.conn);
    ask("disconnect", this.conn);
  }
}
