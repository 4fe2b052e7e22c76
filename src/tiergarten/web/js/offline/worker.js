// The engine in the browser: Pyodide (from this server's offline/pyodide/, copied there from the
// npm package by `make`) runs tiergarten's own core, games, bots and the local table
// (tiergarten/offline), unzipped from the engine zip the server builds from its sources. The
// page asks by message: {id, op, args} -> {id, result} or {id, error}; the local table's words
// to a connection come as {deliver: [conn, text]} and {close: [conn, code, reason]}. Every
// change of a table is kept in IndexedDB here, and the kept tables come back on start.
//
// Starting fast (docs/web.md, "Offline"): the first start makes a memory snapshot of Pyodide
// with the engine imported (Pyodide's `_makeSnapshot` and `makeMemorySnapshot`), kept by the
// service worker's cache beside the engine zip it was made from; every later start restores it
// (`_loadSnapshot`) instead of starting Python and importing the engine, so all it does is
// instantiate the WebAssembly (from chromium's code cache) and copy the memory back.
import { keepTable, keptTables } from "./store.js";

const base = new URL("../../", import.meta.url);  // the page's folder
const PYODIDE = new URL("offline/pyodide/", base).href;
// Pyodide's loader and its Emscripten module, asked for as soon as this worker runs (the page
// starts the worker before it knows which engine to boot)
const loader = import(`${PYODIDE}pyodide.mjs`);
import(`${PYODIDE}pyodide.asm.mjs`).catch(() => null);  // the same module loadPyodide imports

// What a snapshot holds: the engine unzipped to /engine, on sys.path, and imported. A new FORMAT
// (when SETUP changes) leaves older snapshots unused; a new engine is a new zip name anyway.
const FORMAT = 1;
const ZIP = "/tmp/engine.zip";
const UNZIP = `
import sys, zipfile
with zipfile.ZipFile("${ZIP}") as kept:
    kept.extractall("/engine")
del kept
if "/engine" not in sys.path:
    sys.path.insert(0, "/engine")
`;
const SETUP = `${UNZIP}
import tiergarten.offline
`;
// After a restore the files are unzipped again (a snapshot keeps memory, not the file system:
// tiergarten.offline.bench and tracebacks read them), and `random` is seeded anew, or every
// start would deal from the snapshot's state of it (the tables' seeds come from `secrets`).
const RESTORED = `${UNZIP}
import random
random.seed()
`;

let server = null;
let booting = null;
let pyodide = null;

// The service worker's cache that keeps `url` (the engine zip), or null (not installed yet, no
// Cache Storage). The snapshot goes in the same cache, and goes with it when a new version of
// the files replaces it (sw.js).
async function cacheKeeping(url) {
  if (typeof caches === "undefined") return null;
  for (const name of await caches.keys()) {
    if (!name.startsWith("tiergarten-")) continue;
    const cache = await caches.open(name);
    if (await cache.match(url)) return cache;
  }
  return null;
}

function snapshotURL(engineURL) {
  return engineURL.replace(/\.zip$/, `.snapshot-${FORMAT}`);
}

// Pyodide 314 restores a snapshot into the memory its module starts with, smaller than the
// engine's (it sets `INITIAL_MEMORY`, which its module does not read: pyodide/pyodide#6254).
// So while it loads, the module's memory grows to the snapshot's size as soon as it is
// instantiated, before Emscripten makes its views of it (grown pages are zeros, as ever). Only
// a module that exports a memory: pyodide.mjs instantiates a tiny one of its own too, maybe
// meanwhile. Should growing fail, so does the restore, and the engine starts afresh.
async function withMemoryFor(snapshot, load) {
  const grow = async (result) => {
    const memory = (result.instance ?? result).exports?.memory;
    if (!(memory instanceof WebAssembly.Memory)) return result;
    try {
      const bytes = await snapshot;
      const size = bytes.length - new Uint32Array(bytes.buffer, bytes.byteOffset, 2)[1];
      const pages = Math.ceil((size - memory.buffer.byteLength) / 65536);
      if (pages > 0) memory.grow(pages);
    } catch (err) {
      console.warn("the memory did not grow for the engine's snapshot:", err);
    }
    return result;
  };
  const { instantiate, instantiateStreaming } = WebAssembly;
  WebAssembly.instantiateStreaming = (...args) => instantiateStreaming(...args).then(grow);
  WebAssembly.instantiate = (...args) => instantiate(...args).then(grow);
  try {
    return await load();
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
}

// Pyodide with the engine imported: restored from the kept snapshot when there is one, else
// started afresh (and, when `keep` and the service worker keeps the files, its snapshot kept).
async function engineReady(engine, keep = true) {
  const times = {};
  const since = performance.now();
  const lap = (name) => { times[name] = Math.round(performance.now() - since); };
  const engineURL = new URL(engine, base).href;
  const zip = fetch(engineURL).then((r) => {
    if (!r.ok) throw new Error(`the engine (${engine}): ${r.status}`);
    return r.arrayBuffer();
  });
  zip.catch(() => null);  // awaited below; a failure is reported there
  const cache = await cacheKeeping(engineURL).catch(() => null);
  const url = snapshotURL(engineURL);
  const kept = await cache?.match(url).catch(() => null);
  const { loadPyodide } = await loader;
  lap("loader");
  if (kept) {
    const snapshot = kept.arrayBuffer().then((b) => new Uint8Array(b));
    try {
      const py = await withMemoryFor(snapshot, () => loadPyodide({
        indexURL: PYODIDE, _loadSnapshot: snapshot }));
      lap("pyodide");
      py.FS.writeFile(ZIP, new Uint8Array(await zip));
      py.runPython(RESTORED);
      lap("engine");
      return { py, times, snapshot: "restored", mb: Math.round((await snapshot).length / 2 ** 20) };
    } catch (err) {  // another build of Pyodide, a damaged copy: start afresh, keep a new one
      console.warn("the engine's snapshot could not be restored:", err);
      await cache.delete(url).catch(() => null);
    }
  }
  const py = await loadPyodide({ indexURL: PYODIDE, _makeSnapshot: true });
  lap("pyodide");
  py.FS.writeFile(ZIP, new Uint8Array(await zip));
  py.runPython(SETUP);
  lap("engine");
  if (!keep || !cache) return { py, times, snapshot: "none" };
  try {
    const bytes = py.makeMemorySnapshot();
    const stored = cache.put(url, new Response(bytes, {
      headers: { "Content-Type": "application/octet-stream" } }))
      .catch((err) => console.warn("the engine's snapshot was not kept:", err));
    lap("snapshot");
    return { py, times, snapshot: "made", mb: Math.round(bytes.length / 2 ** 20), stored };
  } catch (err) {
    console.warn("no snapshot of the engine:", err);
    return { py, times, snapshot: "none" };
  }
}

async function boot({ engine, pace }) {
  const started = performance.now();
  const ready = await engineReady(engine);
  pyodide = ready.py;
  const loaded = performance.now();
  const offline = pyodide.pyimport("tiergarten.offline");
  const transport = {
    deliver: (conn, text) => postMessage({ deliver: [conn, text] }),
    close: (conn, code, reason) => postMessage({ close: [conn, code, reason] }),
    saved: (table, text) => { keepTable(JSON.parse(text)); },
  };
  server = offline.LocalServer.callKwargs(transport, { bot_pace: pace });
  offline.destroy();
  const kept = await keptTables().catch(() => []);
  server.restore(JSON.stringify(kept))?.destroy?.();
  return { ms: Math.round(performance.now() - started), pyodide_ms: Math.round(loaded - started),
           at: Math.round(performance.timeOrigin + started), times: ready.times,
           snapshot: ready.snapshot, snapshot_mb: ready.mb ?? null };
}

// On installing (online, the service worker's files kept): the snapshot made and kept now, so
// that the first start offline is already a quick one. The page ends this worker afterwards.
async function prepare({ engine }) {
  const engineURL = new URL(engine, base).href;
  const cache = await cacheKeeping(engineURL);
  if (!cache) return { snapshot: "no cache" };
  if (await cache.match(snapshotURL(engineURL))) return { snapshot: "kept" };
  const ready = await engineReady(engine);
  await ready.stored;
  return { snapshot: ready.snapshot, times: ready.times };
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
    else if (op === "prepare") result = await prepare(args[0]);
    else {
      await booting;
      result = OPS[op](...args);
    }
    postMessage({ id, result: result ?? null });
  } catch (err) {
    postMessage({ id, error: String(err?.message || err) });
  }
};
