// The engine in the browser: Pyodide (from this server's offline/pyodide/, copied there from the
// npm package by `make`) runs tiergarten's own core, games, bots and the local table
// (tiergarten/offline), unzipped from the engine zip the server builds from its sources. The
// page asks by message: {id, op, args} -> {id, result} or {id, error}; the local table's words
// to a connection come as {deliver: [conn, text]} and {close: [conn, code, reason]}. Every
// change of a table is kept in IndexedDB here, and the kept tables come back on start.
import { keepTable, keptTables } from "./store.js";

const base = new URL("../../", import.meta.url);  // the page's folder
let server = null;
let booting = null;
let pyodide = null;

async function boot({ engine, pace }) {
  const started = performance.now();
  const { loadPyodide } = await import(new URL("offline/pyodide/pyodide.mjs", base).href);
  pyodide = await loadPyodide({ indexURL: new URL("offline/pyodide/", base).href });
  const loaded = performance.now();
  const zip = await fetch(new URL(engine, base)).then((r) => {
    if (!r.ok) throw new Error(`the engine (${engine}): ${r.status}`);
    return r.arrayBuffer();
  });
  pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  const offline = pyodide.pyimport("tiergarten.offline");
  const transport = {
    deliver: (conn, text) => postMessage({ deliver: [conn, text] }),
    close: (conn, code, reason) => postMessage({ close: [conn, code, reason] }),
    saved: (table, text) => { keepTable(JSON.parse(text)); },
  };
  server = offline.LocalServer.callKwargs(transport, { bot_pace: pace });
  const kept = await keptTables().catch(() => []);
  server.restore(JSON.stringify(kept)).destroy?.();
  return { ms: Math.round(performance.now() - started), pyodide_ms: Math.round(loaded - started) };
}

let bench = null;  // tiergarten.offline.bench, imported when first asked (benchmarks only)

const OPS = {
  bench: (game, level, moves, budget) => {
    bench ??= pyodide.pyimport("tiergarten.offline.bench");
    const figures = bench.bot_times.callKwargs(game, level, { moves, budget });
    try { return JSON.parse(pyodide.pyimport("json").dumps(figures)); } finally { figures.destroy(); }
  },
  request: (method, path, body) => server.request(method, path, body ?? null),
  connect: (table, token, conn) => server.connect(table, token ?? null, conn),
  receive: (conn, text) => server.receive(conn, text),
  disconnect: (conn) => server.disconnect(conn),
};

onmessage = async ({ data }) => {
  const { id, op, args = [] } = data;
  try {
    let result;
    if (op === "boot") result = await (booting ??= boot(args[0]));
    else {
      await booting;
      result = OPS[op](...args);
    }
    postMessage({ id, result: result ?? null });
  } catch (err) {
    postMessage({ id, error: String(err?.message || err) });
  }
};
