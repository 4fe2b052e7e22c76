// Online (the server plays every table) or offline (this device does: the engine in a Web
// Worker, js/offline/local.js). Decided at start-up: offline when the server does not answer
// (no network, no server) or when the player chose to play on this device; the page says which
// in the top bar. Online, the service worker (sw.js) is registered under the version of the
// files it keeps (offline/manifest.json), so a new release installs a new one.
import { startEngine } from "./local.js";

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

// Without a network (navigator.onLine false) nothing is asked of it: the manifest comes from the
// service worker's copy (`?kept`), and the server is not probed.
export async function decideMode() {
  const reachable = navigator.onLine
    && await json("api/health", { cache: "no-store" }).then(() => true, () => false);
  manifest = await json(reachable ? "offline/manifest.json" : "offline/manifest.json?kept").catch(() => null);
  offline = !reachable;
  if (reachable && manifest?.ready && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(url(`sw.js?v=${manifest.version}`)).catch(() => null);
  }
  if (offline || playingHere()) ensureEngine();  // Pyodide takes seconds: begin at once
  return offline;
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
