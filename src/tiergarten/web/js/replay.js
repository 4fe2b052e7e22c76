// The replay of a finished game: step through every move with every hand revealed.
import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { gameModule, describeEvent } from "./games/index.js";
import { chatUpTo } from "./chat.js";

export function showReplay(main, tableId) {
  const view = h("div.replay-screen");
  main.append(view);
  let data = null;
  let game = null;
  let index = 0;
  let timer = null;

  async function start() {
    try {
      data = await api.replay(tableId);
      game = await gameModule(data.game);
    } catch (err) {
      view.append(h("section.panel", {}, h("h1", {}, t("replay.title")), h("p.error", {}, err.message),
        h("a", { href: `#/t/${tableId}` }, t("replay.back"))));
      return;
    }
    index = data.steps.length - 1;
    render();
  }

  function names() {
    return data.seats.map((s) => s.name
      || (s.bot ? t("table.bot_name", { n: s.seat + 1, bot: tOr(`bot.${s.bot}`, s.bot) }) : t("table.open_seat")));
  }

  function go(to) {
    index = Math.max(0, Math.min(data.steps.length - 1, to));
    render();
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; render(); return; }
    if (index >= data.steps.length - 1) index = 0;
    timer = setInterval(() => {
      if (index >= data.steps.length - 1) { clearInterval(timer); timer = null; }
      go(index + 1);
    }, 700);
    render();
  }

  function render() {
    clear(view);
    const step = data.steps[index];
    const seatNames = names();
    const event = step.act === null ? t("replay.start") : describeEvent(data.game, { seat: step.seat, act: step.act }, seatNames);
    const prev = index > 0 ? data.steps[index - 1].view : null;
    const ctx = { obs: step.view, legal: [], seat: null, events: [], version: index, prev, table: data,
      names: seatNames, ui: {}, t, act: () => {}, refresh: render };
    view.append(
      h("section.table-head", {}, h("h1", {}, t("replay.title"), " · ", tOr(`game.${data.game}.title`, data.game)),
        h("a.button", { href: `#/t/${tableId}` }, t("replay.back"))),
      h("section.panel.replay-controls", {},
        h("button", { type: "button", onclick: () => go(0), "aria-label": t("replay.first") }, "⏮"),
        h("button#replay-prev", { type: "button", onclick: () => go(index - 1), "aria-label": t("replay.previous") }, "◀"),
        h("button#replay-play", { type: "button", onclick: play }, timer ? "⏸" : "▶"),
        h("button#replay-next", { type: "button", onclick: () => go(index + 1), "aria-label": t("replay.next") }, "▶▶"),
        h("button", { type: "button", onclick: () => go(data.steps.length - 1), "aria-label": t("replay.last") }, "⏭"),
        h("input", { type: "range", min: 0, max: data.steps.length - 1, value: index, "aria-label": t("replay.position"),
          oninput: (e) => go(Number(e.target.value)) }),
        h("span#replay-step", {}, t("replay.step", { n: index, total: data.steps.length - 1 })),
        h("p.replay-event", {}, event)),
      h("section.board", { dataset: { game: data.game, seat: "replay" } }, game.render(ctx)),
      chatUpTo(data.chat, index),
      h("section.panel.hands", {}, h("h2", {}, t("replay.hands")),
        step.seats.map((obs, s) => h("div.revealed-hand", { dataset: { seat: s } },
          h("strong", {}, seatNames[s]),
          game.handOf ? game.handOf(obs) : h("code", {}, JSON.stringify(obs.hand ?? obs[Object.keys(obs).find((k) => k.includes("hand"))] ?? ""))))));
  }

  start();
  return { stop: () => clearInterval(timer), refresh: () => data && render() };
}
