// Players' profiles (#/p/<name>) and leaderboards (#/leaderboard/<game>): ratings per game
// with their history as a small SVG chart drawn here (no chart library), games played and
// won, recent games with their replays, favourite opponents.
import { api, call } from "./api.js";
import { inPlayOrder } from "./games.js";
import { h, clear } from "./dom.js";
import { t, tOr, language } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// A rating's history as a line: 1000 (the start) and then one point per rated game, the first
// and the last value written beside their points.
export function ratingChart(history, width = 260, height = 80) {
  const values = [1000, ...history.map((p) => p.rating)];
  const low = Math.min(...values) - 10, high = Math.max(...values) + 10;
  const x = (i) => 34 + (i * (width - 70)) / Math.max(1, values.length - 1);
  const y = (v) => height - 10 - ((v - low) * (height - 20)) / (high - low);
  const last = values.length - 1;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "rating-chart",
    role: "img", "aria-label": t("profile.chart", { from: values[0], to: values[last] }) });
  svg.append(el("line", { x1: 0, x2: width, y1: y(1000), y2: y(1000), class: "start" }));
  svg.append(el("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  values.forEach((v, i) => svg.append(el("circle", { cx: x(i), cy: y(v), r: 3, class: "point" })));
  for (const [i, anchor, dx] of last ? [[0, "end", -5], [last, "start", 5]] : [[0, "start", 5]]) {
    const label = el("text", { x: x(i) + dx, y: y(values[i]) + 4, "text-anchor": anchor, class: "value" });
    label.textContent = String(values[i]);
    svg.append(label);
  }
  return svg;
}

const gameTitle = (id) => tOr(`game.${id}.title`, id);

export function showProfile(main, name) {
  const view = h("div.profile-screen");
  main.append(view);
  let data = null;

  async function start() {
    try {
      data = await call("GET", `/api/players/${encodeURIComponent(name)}`);
    } catch (err) {
      view.append(h("section.panel", {}, h("h1", {}, name), h("p.error", {}, err.message)));
      return;
    }
    render();
  }

  function render() {
    if (!data) return;
    clear(view);
    view.append(
      h("section#profile-head.panel", {}, h("h1", {}, data.name),
        h("p#played", {}, t("profile.played", { played: data.played, won: data.won }))),
      h("section#profile-ratings.panel", {}, h("h2", {}, t("profile.ratings")),
        data.ratings.length ? data.ratings.map((r) => h("div.rating", { dataset: { game: r.game } },
          h("h3", {}, h("a", { href: `#/leaderboard/${r.game}` }, gameTitle(r.game)), " ",
            h("strong.rating-value", {}, String(r.rating))),
          h("p.muted", {}, t("profile.games_rated", { n: r.games }),
            r.level ? ` · ${t("profile.level", { bot: tOr(`bot.${r.level}`, r.level) })}` : null),
          ratingChart(r.history))) : h("p.muted", {}, t("profile.unrated"))),
      // sections with nothing to show are left out (no empty "Played most with")
      data.recent.length ? h("section#profile-recent.panel", {}, h("h2", {}, t("profile.recent")),
        h("ol.recent", {}, data.recent.map((g) => h(`li${g.won ? ".won" : ""}`, { dataset: { table: g.table } },
          h("strong", {}, gameTitle(g.game)), " ",
          h("span", {}, g.won ? t("profile.won") : t("table.rank", { rank: g.rank })), " · ",
          h("span.muted", {}, g.players.join(", ")), " · ",
          h("time.muted", { datetime: g.at }, new Date(g.at).toLocaleDateString(language, { day: "numeric", month: "short" })),
          " · ", h("a.replay-link", { href: `#/t/${g.table}/replay` }, t("table.replay")))))) : null,
      data.opponents.length ? h("section#profile-opponents.panel", {}, h("h2", {}, t("profile.opponents")),
        h("ul", {}, data.opponents.map((o) => h("li", {},
          o.account ? h("a", { href: `#/p/${encodeURIComponent(o.account)}` }, o.name) : o.name,
          " ", h("span.muted", {}, t("profile.together", { n: o.games })))))) : null);
  }

  start();
  return { refresh: render };
}

export function showLeaderboard(main, game) {
  const view = h("div.leaderboard-screen");
  main.append(view);
  let data = null;
  let games = [];

  async function start() {
    try {
      [data, games] = await Promise.all([call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
        api.games().then(inPlayOrder)]);
    } catch (err) {
      view.append(h("p.error", {}, err.message));
      return;
    }
    render();
  }

  function render() {
    if (!data) return;
    clear(view);
    view.append(h("section.panel", {},
      h("h1", {}, t("profile.leaderboard", { game: gameTitle(game) })),
      leaderboardLinks(games),
      h("ol#leaderboard.leaderboard", {}, ranked(data).map((row) => row.bot
        ? h("li.bot-level", { dataset: { bot: row.bot } }, "🤖 ", t("lobby.seat_bot", { bot: tOr(`bot.${row.bot}`, row.bot) }),
          " ", h("strong", {}, String(row.rating)))
        : h("li", { value: row.rank }, h("a", { href: `#/p/${encodeURIComponent(row.name)}` }, row.name), " ",
          h("strong", {}, String(row.rating)), " ", h("span.muted", {}, t("profile.games_rated", { n: row.games }))))),
      data.players.length ? null : h("p.muted", {}, t("profile.nobody")),
      data.bots.length ? h("p.muted", {}, t("profile.bots")) : null));
  }

  start();
  return { refresh: render };
}

// The players, ranked, with the bots' fixed levels among them where their ratings fall (a
// player sees at once which level is a fair game).
function ranked(data) {
  const players = data.players.map((p, i) => ({ ...p, rank: i + 1 }));
  return [...players, ...data.bots].sort((a, b) => b.rating - a.rating || (a.bot ? 1 : 0) - (b.bot ? 1 : 0));
}

// Links to the leaderboard of each of `games` (from GET /api/games; the lobby shows them too).
export function leaderboardLinks(games) {
  return h("nav.leaderboard-links", { "aria-label": t("profile.leaderboards") },
    h("span", {}, t("profile.leaderboards"), ": "),
    games.map((g) => h("a", { href: `#/leaderboard/${g.id}`, dataset: { game: g.id } }, gameTitle(g.id))));
}
