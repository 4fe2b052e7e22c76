// Players' profiles (#/p/<name>) and leaderboards (#/leaderboard/<game>): ratings per game
// with their history as a small SVG chart drawn here (no chart library), games played and
// won, recent games with their replays, favourite opponents.
import { call } from "./api.js";
import { h, clear } from "./dom.js";
import { t, tOr } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const GAMES = ["maumau", "mammuz", "lecker_mammut", "mucca_pazza"];

function el(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// A rating's history as a line: 1000 (the start) and then one point per rated game.
export function ratingChart(history, width = 260, height = 80) {
  const values = [1000, ...history.map((p) => p.rating)];
  const low = Math.min(...values) - 10, high = Math.max(...values) + 10;
  const x = (i) => 6 + (i * (width - 12)) / Math.max(1, values.length - 1);
  const y = (v) => height - 6 - ((v - low) * (height - 12)) / (high - low);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "rating-chart",
    role: "img", "aria-label": t("profile.chart", { from: values[0], to: values[values.length - 1] }) });
  svg.append(el("line", { x1: 0, x2: width, y1: y(1000), y2: y(1000), class: "start" }));
  svg.append(el("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  values.forEach((v, i) => svg.append(el("circle", { cx: x(i), cy: y(v), r: 3, class: "point" })));
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
          h("p.muted", {}, t("profile.games_rated", { n: r.games }), " · ",
            t("profile.level", { bot: tOr(`bot.${r.level}`, r.level) })),
          ratingChart(r.history))) : h("p.muted", {}, t("profile.unrated"))),
      h("section#profile-recent.panel", {}, h("h2", {}, t("profile.recent")),
        h("ol.recent", {}, data.recent.map((g) => h(`li${g.won ? ".won" : ""}`, { dataset: { table: g.table } },
          h("strong", {}, gameTitle(g.game)), " ",
          h("span", {}, g.won ? t("profile.won") : t("table.rank", { rank: g.rank })), " ",
          h("span.muted", {}, g.players.join(", ")), " ",
          h("a.replay-link", { href: `#/t/${g.table}/replay` }, t("table.replay")))))),
      h("section#profile-opponents.panel", {}, h("h2", {}, t("profile.opponents")),
        h("ul", {}, data.opponents.map((o) => h("li", {},
          o.account ? h("a", { href: `#/p/${encodeURIComponent(o.account)}` }, o.name) : o.name,
          " ", h("span.muted", {}, t("profile.together", { n: o.games })))))));
  }

  start();
  return { refresh: render };
}

export function showLeaderboard(main, game) {
  const view = h("div.leaderboard-screen");
  main.append(view);
  let data = null;

  async function start() {
    try { data = await call("GET", `/api/leaderboard/${encodeURIComponent(game)}`); } catch (err) {
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
      leaderboardLinks(),
      h("ol#leaderboard.leaderboard", {}, data.players.map((p) => h("li", {},
        h("a", { href: `#/p/${encodeURIComponent(p.name)}` }, p.name), " ",
        h("strong", {}, String(p.rating)), " ", h("span.muted", {}, t("profile.games_rated", { n: p.games }))))),
      data.players.length ? null : h("p.muted", {}, t("profile.nobody")),
      h("h2", {}, t("profile.bots")),
      h("ul.bot-levels", {}, data.bots.map((b) => h("li", {}, tOr(`bot.${b.bot}`, b.bot), " ", h("strong", {}, String(b.rating)))))));
  }

  start();
  return { refresh: render };
}

// Links to every game's leaderboard (the lobby shows them too).
export function leaderboardLinks() {
  return h("nav.leaderboard-links", { "aria-label": t("profile.leaderboards") },
    h("span", {}, t("profile.leaderboards"), ": "),
    GAMES.map((g) => h("a", { href: `#/leaderboard/${g}`, dataset: { game: g } }, gameTitle(g))));
}
