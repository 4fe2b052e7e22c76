// Online (the server plays every table) or offline (this device does: the engine in a Web
// Worker, js/offline/local.js). Decided at start-up: offline when the server does not answer
// (no network, no server) or when the player chose to play on this device; the page says which
// in the top bar. Online, the service worker (sw.js) is registered under the version of the
// files it keeps (offline/manifest.json), so a new release installs a new one.
import { prepareEngine, spawnEngine, startEngine } from "./local.js";

const LOCAL = "tiergarten.local";      // "1": play on this device even when online
const PACE = "tiergarten.botPace";     // bots' pauses times this (tests and benchmarks: 0)
export let offline = false;            // true: every table is on this device
export let manifest = null;            // offline/manifest.json: engine, version, files

function url(path) {
  return new URL(path, document.baseURI).href;
}

async function json(path, options) {
  const response = await fetch(url(path), options);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

// Decided once, as soon as this module runs: index.html runs it before the page's other modules
// load, so that the engine (when it is needed) starts loading in parallel with them.
let deciding = null;
export function decideMode() {
  return (deciding ??= decide());
}

// Without a network (navigator.onLine false) nothing is asked of it: the manifest comes from the
// service worker's copy (`?kept`), and the server is not probed. With one, `GET /api/health`
// says whether the server answers (a network can be there while the server is not).
async function decide() {
  if (!navigator.onLine || playingHere()) spawnEngine();  // Pyodide's scripts load meanwhile
  const reachable = navigator.onLine
    && await json("api/health", { cache: "no-store" }).then(() => true, () => false);
  manifest = await json(reachable ? "offline/manifest.json" : "offline/manifest.json?kept").catch(() => null);
  offline = !reachable;
  if (reachable && manifest?.ready && "serviceWorker" in navigator) install(manifest).catch(() => null);
  if (offline || playingHere()) ensureEngine();  // Pyodide takes seconds: begin at once
  return offline;
}

// Online: the service worker of this version registered; once it keeps every file, and the page
// is idle, the engine's snapshot is made and kept too (local.js), so that the first start offline
// is as quick as any later one.
async function install({ version, engine }) {
  const registration = await navigator.serviceWorker.register(url(`sw.js?v=${version}`));
  if (!await activated(registration)) return;
  await idle();
  await prepareEngine(engine);
}

function activated(registration) {
  const pending = registration.installing || registration.waiting;
  if (!pending) return Promise.resolve(registration.active !== null);
  return new Promise((resolve) => pending.addEventListener("statechange", () => {
    if (pending.state === "activated") resolve(true);
    else if (pending.state === "redundant") resolve(false);
  }));
}

function idle() {
  return new Promise((resolve) => (window.requestIdleCallback
    ? requestIdleCallback(resolve, { timeout: 5000 }) : setTimeout(resolve, 1000)));
}

// The engine on this device, started once (at once when offline; online when a table of this
// device is opened).
export function ensureEngine() {
  if (!manifest?.ready) return Promise.reject(new Error("this server has no offline engine"));
  return startEngine(manifest.engine, Number(localStorage.getItem(PACE) ?? 1));
}

export function playHere(yes) {
  if (yes) localStorage.setItem(LOCAL, "1");
  else localStorage.removeItem(LOCAL);
}

export function playingHere() {
  return localStorage.getItem(LOCAL) === "1";
}

decideMode();
