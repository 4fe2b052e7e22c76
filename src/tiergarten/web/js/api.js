// The REST half of the protocol (docs/protocol.md) and the tokens this browser holds. A call
// about a table on this device (or any call while offline) is answered by the engine here
// (js/offline/local.js) with the very same answers.
import { isLocalPath, localCall } from "./offline/local.js";
import { ensureEngine, offline, playingHere } from "./offline/mode.js";
import { has, t } from "./i18n.js";

// A refused call. Its message is the catalogue's words for the answer's `code` (with its
// `params`: docs/protocol.md, "REST error codes") in the page's language; the server's
// English `detail` only when the catalogues have no words for the code.
export class ApiError extends Error {
  constructor(status, detail, data = {}) {
    super(refusalText(detail, data));
    this.status = status;
    this.detail = detail;  // the server's English
    this.data = data;  // the whole answer: a `code` says what went wrong in words of our own
  }
}

export function refusalText(detail, data) {
  const key = `error.code.${data?.code}`;
  return data?.code && has(key) ? t(key, data.params || {}) : detail;
}

// A path of the server ("/api/...") as a URL under the folder this page came from, so that the
// client also works behind a proxy that serves it under a prefix (https://host/tiergarten/).
export function here(path) {
  return new URL(path.replace(/^\//, ""), document.baseURI).href;
}

export async function call(method, path, body) {
  // on this device: its own tables, everything while the server is away, and new tables (and
  // the list of open ones) when the player chose to play here
  if (isLocalPath(path) || offline || (playingHere() && path === "/api/tables")) {
    await ensureEngine().catch((err) => { throw new ApiError(503, err.message, { code: "engine_not_ready" }); });
    const { status, data } = await localCall(method, path, body);
    if (status >= 400) throw new ApiError(status, data.detail, data);
    return data;
  }
  const response = await fetch(here(path), {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ")
      : data.detail || response.statusText;
    throw new ApiError(response.status, detail, data);
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  openTables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${id}`),
  invite: (id) => call("GET", `/api/tables/${id}/invite`),
  create: (body) => call("POST", "/api/tables", body),
  join: (id, name, seat) => call("POST", `/api/tables/${id}/join`, seat === undefined ? { name } : { name, seat }),
  leave: (id, token) => call("POST", `/api/tables/${id}/leave`, { token }),
  rematch: (id, token) => call("POST", `/api/tables/${id}/rematch`, { token }),
  replay: (id) => call("GET", `/api/tables/${id}/replay`),
  hint: (id, token) => call("POST", `/api/tables/${id}/hint`, { token }),
};

// Seat tokens live in this browser only: {tableId: [{seat, token}, ...]} (several seats for
// hot-seat play at one screen).
const TOKENS = "tiergarten.tokens";

export function allTokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS)) || {}; } catch { return {}; }
}

export function tokensFor(tableId) {
  return allTokens()[tableId] || [];
}

export function saveToken(tableId, seat, token) {
  const tokens = allTokens();
  const list = (tokens[tableId] || []).filter((entry) => entry.seat !== seat);
  list.push({ seat, token });
  list.sort((a, b) => a.seat - b.seat);
  tokens[tableId] = list;
  localStorage.setItem(TOKENS, JSON.stringify(tokens));
}

export function forgetToken(tableId, seat) {
  const tokens = allTokens();
  tokens[tableId] = (tokens[tableId] || []).filter((entry) => entry.seat !== seat);
  localStorage.setItem(TOKENS, JSON.stringify(tokens));
}

export function playerName() {
  return localStorage.getItem("tiergarten.name") || "";
}

export function rememberName(name) {
  localStorage.setItem("tiergarten.name", name);
}
