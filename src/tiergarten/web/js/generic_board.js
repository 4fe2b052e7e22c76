// Any game: the observation as plain facts and every legal action as a button.
import { h } from "./dom.js";

export function render(ctx) {
  const facts = Object.entries(ctx.obs).filter(([k]) => !["log", "result", "game"].includes(k));
  return h("div.generic", {},
    h("dl.facts", {}, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v))])),
    h("div.actions", {}, ctx.legal.map((a) => h("button.action", { type: "button", dataset: { act: a }, onclick: () => ctx.act(a) }, a))));
}
