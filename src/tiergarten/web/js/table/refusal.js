// An error from the server in the page's language; a refusal of a move in the game's words:
// its reason code and parameters (seats as names, cards and animals in words: the game's
// refusalWords), or the English reason if the catalogues have no words for that code.
import { t, tOr, has } from "../i18n.js";

// Parameters that name seats in any game; a game's board declares its own (`seatParams`).
const SEAT_PARAMS = ["seat"];

export function errorText(message, info, game, names) {
  const text = tOr(`error.code.${message.code}`, message.message || message.code);
  if (message.code !== "illegal") return text;
  const key = [`refusal.${info?.game}.${message.reason}`, `refusal.${message.reason}`].find((k) => message.reason && has(k));
  if (!key) return `${text}: ${message.message}`;
  const params = seatsAsNames({ ...(message.params || {}) }, [...SEAT_PARAMS, ...(game?.seatParams ?? [])], names);
  return t(key, game?.refusalWords ? game.refusalWords(params) : params);
}

function seatsAsNames(params, seatParams, names) {
  for (const name of seatParams) {
    if (typeof params[name] === "number") params[name] = names[params[name]] ?? params[name];
    else if (Array.isArray(params[name])) params[name] = params[name].map((s) => names[s] ?? s).join(", ");
  }
  return params;
}
