// The lobby: pick a game, set players, options and seats, create the table; or join an open one.
import { api, playerName, rememberName, saveToken } from "./api.js";
import { inPlayOrder, loadedBoard } from "./games.js";
import { h, clear, toast } from "./dom.js";
import { t, tOr, has } from "./i18n.js";
import { me, yourTables } from "./account.js";
import { leaderboardLinks } from "./profile.js";
import { saveOwner } from "./chat.js";
import { devicePanel } from "./offline/records.js";
import { offline } from "./offline/mode.js";
import { quickPanel } from "./quickmatch.js";

export function showLobby(main) {
  let games = [];
  let open = null;  // the open tables last fetched (null: not yet)
  const state = { game: null };
  let quick = null;  // the "Play now" panel (js/quickmatch.js), kept across renders
  const view = h("div.lobby");
  main.append(view);

  async function load() {
    try {
      games = inPlayOrder(await api.games());
    } catch (err) {
      view.append(h("p.error", {}, t("error.server", { detail: err.message })));
      return;
    }
    state.game = state.game || games[0].id;
    if (!offline) quick = quickPanel(games, state.game);  // nobody else plays offline
    render();
    refreshOpen();
  }

  function render() {
    clear(view);
    view.append(...[
      yourTables(),
      quick?.el,
      devicePanel(),  // the games played on this device (js/offline/records.js)
      h("section.panel.create", {},
        h("h1", {}, t("lobby.title")),
        h("p.lead", {}, t("lobby.lead"), " ",
          offline ? null : h("a#learn.button", { href: "#/learn" }, t("tutorial.learn")),  // the server's
          offline ? null : [" ", h("a#lab-entry.button", { href: "#/lab" }, t("lab.link"))]),
        h("div.game-picker", { role: "radiogroup", "aria-label": t("lobby.game") },
          games.map((g) => h(`button.game-choice${g.id === state.game ? ".chosen" : ""}`, {
            type: "button", role: "radio", "aria-checked": String(g.id === state.game),
            dataset: { game: g.id },
            onclick: () => { state.game = g.id; render(); },
          }, h("strong", {}, tOr(`game.${g.id}.title`, g.title)),
          h("span", {}, tOr(`game.${g.id}.summary`, g.summary))))),
        createForm(games.find((g) => g.id === state.game))),
      // offline nobody else can join, and the leaderboards are the server's
      offline ? null : h("section.panel.open-tables", {}, h("h2", {}, t("lobby.open")), h("div#open-list", {}, t("lobby.loading"))),
      offline ? null : h("section.panel", {}, leaderboardLinks(games)),
    ].filter(Boolean));
    showOpen();  // what is known already, at once: switching game must not show "Loading…"
  }

  async function refreshOpen() {
    try { open = await api.openTables(); } catch { open = open ?? []; }
    showOpen();
  }

  function showOpen() {
    const list = view.querySelector("#open-list");
    if (!list || open === null) return;
    clear(list);
    if (!open.length) list.append(h("p.muted", {}, t("lobby.none_open")));
    for (const table of open) {
      const game = games.find((g) => g.id === table.game);
      const free = table.seats.filter((s) => !s.taken).length;
      list.append(h("a.open-table", { href: `#/t/${table.id}` },
        h("strong", {}, game ? tOr(`game.${game.id}.title`, game.title) : table.game),
        h("span", {}, t("lobby.seats_free", { free, players: table.players })),
        h("span.muted", {}, table.seats.filter((s) => s.name).map((s) => s.name).join(", "))));
    }
  }

  load();
  const poll = setInterval(refreshOpen, 5000);
  return { stop: () => { clearInterval(poll); quick?.stop(); }, refresh: () => { if (games.length) { quick?.rerender(); render(); } } };
}

function createForm(game) {
  const players = h("select", { name: "players", id: "players" });
  for (let n = game.min_players; n <= game.max_players; n++) {
    players.append(new Option(String(n), String(n), false, n === game.default_players));
  }
  const seatsBox = h("div.seats-setup");
  const name = h("input", { id: "name", name: "name", value: me?.name || playerName(), maxlength: "40",
    autocomplete: "nickname", placeholder: t("lobby.your_name") });
  const timer = h("select", { name: "timer", id: "timer" },
    [["", t("lobby.timer_none")], ["15", "15 s"], ["30", "30 s"], ["60", "60 s"], ["120", "120 s"],
      ...(game.real_time ? [] : [["clock:180:5", t("lobby.clock", { minutes: 3, seconds: 5 })],
        ["clock:600:10", t("lobby.clock", { minutes: 10, seconds: 10 })]])]
      .map(([v, label]) => new Option(label, v)));
  const options = game.options.map((o) => optionField(game, o));
  const hints = game.hints ? h("input", { type: "checkbox", id: "hints", checked: true }) : null;

  function renderSeats() {
    clear(seatsBox);
    const n = Number(players.value);
    const bots = game.bots;
    const preferred = ["normal", "heuristic", "random"].find((b) => bots.includes(b)) || bots[0];
    for (let seat = 0; seat < n; seat++) {
      const select = h("select", { name: `seat${seat}`, dataset: { seat } },
        new Option(seat === 0 ? t("lobby.seat_you") : t("lobby.seat_open"), seat === 0 ? "you" : "open"),
        seat === 0 ? null : new Option(t("lobby.seat_here"), "here"),
        botChoices(game));
      if (seat === 0) select.append(new Option(t("lobby.seat_open"), "open"));
      else select.value = `bot:${preferred}`;
      // A second person at this screen (hot-seat) gets a name of their own.
      const here = h("input", { dataset: { hereName: seat }, maxlength: "40", hidden: true,
        placeholder: t("lobby.their_name"), "aria-label": t("lobby.their_name") });
      // Real time: a person's seat may get a head start (their hits count that much earlier).
      const start = game.real_time ? h("input", { type: "number", min: "0", max: "3", step: "0.5", value: "0",
        dataset: { headStart: seat }, "aria-label": t("lobby.head_start_of", { n: seat + 1 }), title: t("lobby.head_start_help") }) : null;
      const startBox = start ? h("span.head-start", {}, t("lobby.head_start"), " ", start) : null;
      select.addEventListener("change", () => {
        here.hidden = select.value !== "here";
        if (startBox) startBox.hidden = select.value.startsWith("bot:");
      });
      if (startBox) startBox.hidden = select.value.startsWith("bot:");
      seatsBox.append(h("label.seat-setup", {}, h("span", {}, t("lobby.seat_n", { n: seat + 1 })), select, here, startBox));
    }
  }
  players.addEventListener("change", renderSeats);
  renderSeats();

  async function submit(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const button = form.querySelector("button[type=submit]");
    const seatChoices = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const names = seatChoices.map((c, i) => (c === "you" ? name.value.trim()
      : c === "here" ? seatsBox.querySelector(`[data-here-name="${i}"]`).value.trim() : null));
    const mine = names.map((n, i) => (n === null ? null : i)).filter((i) => i !== null);
    if (mine.some((i) => !names[i])) {
      toast(t("lobby.need_name"), "error");
      return;
    }
    const starts = seatChoices.map((c, i) => (c.startsWith("bot:") ? 0
      : Number(seatsBox.querySelector(`[data-head-start="${i}"]`)?.value || 0)));
    if (starts.some((x) => !(x >= 0 && x <= 3))) {
      toast(t("lobby.head_start_range"), "error");
      return;
    }
    const body = {
      game: game.id,
      players: Number(players.value),
      options: Object.fromEntries(options.map((o) => o.read()).filter(Boolean)),
      seats: seatChoices.map((c, i) => (c.startsWith("bot:") ? { bot: c.slice(4) }
        : starts[i] > 0 ? { head_start: starts[i] } : null)),
      timer: timer.value && !timer.value.startsWith("clock:") ? Number(timer.value) : null,
      clock: timer.value.startsWith("clock:")
        ? { bank: Number(timer.value.split(":")[1]), increment: Number(timer.value.split(":")[2]) } : null,
      hints: hints ? hints.checked : true,
    };
    button.disabled = true;
    try {
      const table = await api.create(body);
      saveOwner(table.id, table.owner);
      if (name.value.trim()) rememberName(name.value.trim());
      for (const seat of mine) {
        const joined = await api.join(table.id, names[seat], seat);
        saveToken(table.id, joined.seat, joined.token);
      }
      location.hash = `#/t/${table.id}`;
    } catch (err) {
      toast(t("error.create", { detail: optionRefusal(game, err) ?? err.message }), "error");
      button.disabled = false;
    }
  }

  return h("form.create-form", { onsubmit: submit },
    h("label.field", {}, h("span", {}, t("lobby.name")), name),
    h("label.field", {}, h("span", {}, t("lobby.players")), players),
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatsBox),
    options.length ? h("details.options", {}, h("summary", {}, t("lobby.options")),
      options.map((o) => o.el)) : null,
    offline ? null : h("label.field", {}, h("span", {}, t("lobby.timer")), timer),  // nobody waits here
    hints ? h("label.field", { title: t("lobby.hints_help") }, h("span", {}, t("lobby.hints")), hints,
      h("small", {}, t("lobby.hints_help"))) : null,
    h("button.primary", { type: "submit" }, t("lobby.create")));
}

// A refused option named by its label in the page's language (the server names it by its name).
function optionRefusal(game, err) {
  const option = err.data?.code === "bad_option" ? err.data.params?.option : null;
  return option ? t("error.code.bad_option", { option: tOr(`option.${game.id}.${option}`, option) }) : null;
}

// The bots a seat may get: the five levels, weakest first, each with a line on how it plays
// in this game (the game's words), then the engines and the game's own players apart, for the
// curious (GET /api/games: `levels` among `bots`).
function botChoices(game) {
  const levels = (game.levels || []).filter((b) => game.bots.includes(b));
  const others = game.bots.filter((b) => !levels.includes(b));
  const option = (b) => {
    const bot = tOr(`bot.${b}`, b);
    const how = `game.${game.id}.level.${b}`;
    return new Option(levels.includes(b) && has(how) ? t("lobby.seat_level", { bot, how: t(how) })
      : t("lobby.seat_bot", { bot }), `bot:${b}`);
  };
  return [
    levels.length ? h("optgroup", { label: t("lobby.levels") }, levels.map(option)) : null,
    others.length ? h("optgroup", { label: t("lobby.other_bots") }, others.map(option)) : null,
  ];
}

// One option's field (the lobby's and the lab's forms): `el` to show, `read()` the chosen
// [name, value], or null for the default.
export function optionField(game, option) {
  const id = `opt-${option.name}`;
  const label = tOr(`option.${game.id}.${option.name}`, option.name.replaceAll("_", " "));
  const doc = tOr(`option.${game.id}.${option.name}.doc`, option.doc);
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: option.default === true });
  } else if (option.choices) {
    input = h("select", { id }, option.choices.map((c) => new Option(tOr(`choice.${c}`, String(c)), String(c), false, c === option.default)));
  } else if (option.kind === "int") {
    input = h("input", { type: "number", id, value: option.default ?? "", min: option.minimum ?? undefined,
      max: option.maximum ?? undefined, placeholder: option.nullable ? t("lobby.unlimited") : undefined });
  } else if (isMapping(option.default)) {
    return mappingField(game, option, id, label, doc);
  } else {
    input = h("input", { type: "text", id, value: typeof option.default === "object" ? JSON.stringify(option.default) : option.default ?? "" });
  }
  const el = h("label.option", { for: id, title: option.allowed },
    h("span.option-name", {}, label), input, h("small", {}, doc));
  const read = () => {
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "int") value = input.value === "" ? null : Number(input.value);
    else if (option.choices) value = option.choices.find((c) => String(c) === input.value);
    else {
      try { value = JSON.parse(input.value); } catch { value = input.value; }
    }
    if (JSON.stringify(value) === JSON.stringify(option.default)) return null;
    return [option.name, value];
  };
  return { el, read };
}

// A mapping of names to words (MammuZ's dinosaur_powers): one select per name, offering every
// word the default uses (each power once), in the page's language; the game's board words
// the names (`optionKeyWord`).
function mappingField(game, option, id, label, doc) {
  const keys = Object.keys(option.default);
  const keyWord = (key) => loadedBoard(game.id)?.optionKeyWord?.(option.name, key) ?? key;
  const values = [...new Set(Object.values(option.default))];
  const selects = keys.map((key) => h("select", { id: `${id}-${key}`, dataset: { key } },
    values.map((v) => new Option(tOr(`choice.${option.name}.${v}`, v.replaceAll("_", " ")), v, false, v === option.default[key]))));
  const el = h("fieldset.option.mapping", { id, title: option.allowed },
    h("legend.option-name", {}, label),
    h("div.mapping-rows", {}, keys.map((key, i) => h("label.mapping-row", { for: selects[i].id },
      h("span", {}, keyWord(key)), selects[i]))),
    h("small", {}, doc));
  const read = () => {
    const value = Object.fromEntries(selects.map((sel) => [sel.dataset.key, sel.value]));
    return JSON.stringify(value) === JSON.stringify(option.default) ? null : [option.name, value];
  };
  return { el, read };
}

function isMapping(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && Object.values(value).every((v) => typeof v === "string");
}
