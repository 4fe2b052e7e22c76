// The service worker: keeps every file the client needs to start and play with no network
// (offline/manifest.json lists them: the page, scripts, styles, each game's parts, the
// catalogues, the icons, Pyodide and the engine zip), under the version it was registered
// with (`sw.js?v=<version>`, js/offline/mode.js); the engine's worker adds its memory snapshot
// to the same cache (js/offline/worker.js), so it goes with the version it was made from.
// Kept files are answered from the cache (pyodide.asm.wasm with the server's
// `application/wasm`, so that chromium keeps its compiled code with it); the REST API and the
// websocket always go to the server (but for the page's question whether the server is there,
// answered at once when this device has no network at all); the manifest goes to the server
// first and to the cache when the server does not answer (at once when the page asks for the
// kept copy: it knows it is offline).
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `tiergarten-${VERSION}`;
const SCOPE = self.registration.scope;  // the page's folder
const MANIFEST = new URL("offline/manifest.json", SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const response = await fetch(MANIFEST, { cache: "no-store" });
    const manifest = await response.clone().json();
    const cache = await caches.open(CACHE);
    await cache.addAll(manifest.files.map((file) => new Request(new URL(file, SCOPE).href, { cache: "no-store" })));
    await cache.put(MANIFEST, response);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("tiergarten-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  const path = request.url.slice(SCOPE.length);
  if (path === "api/health" && !self.navigator.onLine) {  // no network: say so, ask nothing
    event.respondWith(Response.json({ ok: false, offline: true }, { status: 503 }));
    return;
  }
  if (path.startsWith("api/") || path.startsWith("ws/")) return;  // the server's, always
  if (request.url.split("?")[0] === MANIFEST) {  // `?kept`: the page knows it is offline
    const kept = () => caches.match(MANIFEST, { cacheName: CACHE });
    event.respondWith(request.url.endsWith("?kept") ? kept() : fetch(request).catch(kept));
    return;
  }
  // the page itself, whatever its hash or query: the kept copy of the folder's index
  const key = request.mode === "navigate" || path === "" || path === "index.html"
    ? SCOPE : request;
  event.respondWith((async () => {
    const kept = await caches.match(key, { cacheName: CACHE, ignoreSearch: key === SCOPE });
    return kept || fetch(request);
  })());
});
