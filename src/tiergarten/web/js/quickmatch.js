// "Play now" (quick match): a panel in the lobby to join the server's queue for a game, a
// player count and rules (or any), with bots filling the seats after a wait of one's choice
// (or never); then a waiting view with a cancel until the server has seated the person at a
// table, which the page goes to. The queue is asked by REST (docs/protocol.md, "Quick
// match"): a signed-in player is their account, a guest this browser's guest id (kept in
// local storage, so two tabs are one person in the queue).
import { call, playerName, rememberName, saveToken } from "./api.js";
import { h, clear, toast } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { me } from "./account.js";

const GUEST = "tiergarten.guest";
const POLL = 1500;  // ms between two questions while waiting
const IDLE_POLL = 5000;  // ... and otherwise (the counts per game)
const BOT_WAITS = [["never", null], ["now", 0], ["30", 30], ["60", 60], ["120", 120]];
const LEVELS = ["easy", "normal", "hard", "expert", "master"];

function guestId() {
  let id = localStorage.getItem(GUEST);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => ({ "+": "-", "/": "_", "=": "" })[c]);
    localStorage.setItem(GUEST, id);
  }
  return id;
}

const who = () => (me ? {} : { guest: guestId() });
export const quick = {
  join: (body) => call("POST", "/api/quickmatch", { ...body, ...who() }),
  status: () => call("POST", "/api/quickmatch/status", who()),
  cancel: () => call("POST", "/api/quickmatch/cancel", who()),
};

function gameTitle(games, id) {
  const game = games.find((g) => g.id === id);
  return game ? tOr(`game.${game.id}.title`, game.title) : id;
}

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function botWaitWords(wait) {
  if (wait === null || wait === undefined) return t("quick.bots_never");
  if (wait === 0) return t("quick.bots_now");
  return wait < 60 ? t("quick.bots_seconds", { n: wait }) : t("quick.bots_minutes", { n: wait / 60 });
}

// The panel: `games` from GET /api/games, `chosen` the lobby's chosen game. Returns the
// element and stop() (ends its polling).
export function quickPanel(games, chosen) {
  const el = h("section#quick.panel.quick");
  let status = null;  // the last answer
  let timer = null;
  let stopped = false;

  function schedule() {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(refresh, status?.status === "waiting" ? POLL : IDLE_POLL);
  }

  async function refresh() {
    const wasWaiting = status?.status === "waiting";
    try { status = await quick.status(); } catch { schedule(); return; }
    if (status.status === "matched" && wasWaiting) return go(status.match);
    if (wasWaiting || status.status === "waiting" || !el.querySelector("#quick-form")) render();
    else el.querySelector("#quick-counts")?.replaceWith(counts());  // the form keeps its choices
    schedule();
  }

  function go(match) {
    saveToken(match.table, match.seat, match.token);
    toast(t("quick.found"));
    location.hash = `#/t/${match.table}`;
  }

  function counts() {
    const waiting = status?.waiting || {};
    const busy = games.filter((g) => waiting[g.id]);
    return h("p#quick-counts.quick-counts", {}, busy.length
      ? [t("quick.waiting_now"), " ", busy.map((g, i) => [i ? " · " : "",
        h("span", { dataset: { game: g.id } }, t("quick.waiting_game", { game: gameTitle(games, g.id), n: waiting[g.id] }))])]
      : t("quick.nobody_waiting"));
  }

  function render() {
    clear(el);
    el.append(h("h2", {}, t("quick.title")));
    if (status?.status === "waiting") el.append(waitingView());
    else el.append(form());
    el.append(counts());
  }

  function waitingView() {
    const players = status.counts.length === 1 ? t("quick.players_n", { n: status.counts[0] }) : t("quick.players_any");
    const cancel = h("button#quick-cancel", { type: "button", onclick: async () => {
      cancel.disabled = true;
      try { status = await quick.cancel(); toast(t("quick.cancelled")); } catch (err) { toast(err.message, "error"); }
      render();
    } }, t("quick.cancel"));
    return h("div#quick-waiting.quick-waiting", { role: "status", "aria-live": "polite" },
      h("p.quick-searching", {}, h("span.spinner", { "aria-hidden": "true" }),
        t("quick.searching", { game: gameTitle(games, status.game), players })),
      h("p", {}, t("quick.waited", { time: clock(status.waited) })),
      h("p.muted", {}, status.bot_wait === null ? t("quick.only_people")
        : status.bot_wait === 0 ? t("quick.bots_then_now") : t("quick.bots_then", { time: clock(status.bot_wait) })),
      cancel);
  }

  function form() {
    const game = h("select#quick-game", { name: "quick-game" },
      games.map((g) => new Option(gameTitle(games, g.id), g.id, false, g.id === chosen)));
    const players = h("select#quick-players", { name: "quick-players" });
    const fillPlayers = () => {
      const g = games.find((x) => x.id === game.value);
      clear(players).append(new Option(t("quick.players_any"), ""));
      for (let n = g.min_players; n <= g.max_players; n++) {
        players.append(new Option(String(n), String(n), false, n === g.default_players));
      }
    };
    game.addEventListener("change", fillPlayers);
    fillPlayers();
    const rules = h("select#quick-rules", { name: "quick-rules" },
      new Option(t("quick.rules_standard"), "standard"), new Option(t("quick.rules_any"), "any"));
    const bots = h("select#quick-bots", { name: "quick-bots" },
      BOT_WAITS.map(([v, wait]) => new Option(botWaitWords(wait), v, false, v === "60")));
    const name = me ? null : h("input#quick-name", { maxlength: "40", value: playerName(), autocomplete: "nickname",
      placeholder: t("lobby.your_name") });
    const level = me ? null : h("select#quick-level", { name: "quick-level" },
      LEVELS.map((l) => new Option(tOr(`bot.${l}`, l), l, false, l === "normal")));
    const submit = async (event) => {
      event.preventDefault();
      const button = el.querySelector("#quick-start");
      if (name && !name.value.trim()) { toast(t("lobby.need_name"), "error"); return; }
      button.disabled = true;
      try {
        if (name) rememberName(name.value.trim());
        status = await quick.join({
          game: game.value,
          players: players.value ? Number(players.value) : null,
          options: rules.value === "any" ? null : {},
          bot_wait: BOT_WAITS.find(([v]) => v === bots.value)[1],
          ...(me ? {} : { name: name.value.trim(), level: level.value }),
        });
        render();
        schedule();
      } catch (err) {
        toast(t("quick.refused", { detail: err.message }), "error");
        button.disabled = false;
      }
    };
    const field = (label, input) => h("label.field", {}, h("span", {}, label), input);
    return h("form#quick-form.quick-form", { onsubmit: submit },
      h("p.lead", {}, t(me ? "quick.lead" : "quick.lead_guest")),
      h("div.quick-fields", {},
        field(t("lobby.game"), game), field(t("lobby.players"), players),
        field(t("quick.rules"), rules), field(t("quick.bots"), bots),
        name ? field(t("lobby.name"), name) : null,
        level ? field(t("quick.level"), level) : null),
      // not a submit button: the lobby's own form below keeps the page's only one
      h("button#quick-start.primary", { type: "button", onclick: submit }, t("quick.start")));
  }

  render();
  refresh();
  return { el, stop: () => { stopped = true; clearTimeout(timer); }, rerender: render };
}
