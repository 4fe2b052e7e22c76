// The end of a game: who won (you, or by name), why, then every seat once by rank (ties share
// one), and the way on: a rematch, the replay, the lobby.
import { api, tokensFor, saveToken } from "../api.js";
import { h, toast } from "../dom.js";
import { t, tOr, language } from "../i18n.js";
import { carryOwner } from "../chat.js";

// `mine`: the seats this browser holds (a rematch needs one).
export function resultsPanel(state, info, names, mine, tableId) {
  const result = state.observation.result;
  return h("section#results.panel.results", { role: "region", "aria-label": t("table.game_over") },
    h("h2.banner", {}, result ? winnerLine(result, names, mine) : t("table.game_over")),
    result ? h("p.reason", {}, tOr(`reason.${result.reason}`, result.reason)) : null,
    result ? ranking(result, info, names) : null,
    h("div.buttons", {},
      mine.length ? h("button#rematch.primary", { type: "button", onclick: () => rematch(tableId) }, t("table.rematch")) : null,
      info.rematch ? h("a.button", { href: `#/t/${info.rematch}` }, t("table.to_rematch")) : null,
      h("a.button", { href: `#/t/${tableId}/replay` }, t("table.replay")),
      h("a.button", { href: "#/" }, t("table.back"))));
}

function ranking(result, info, names) {
  const order = info.seats.map((s) => s.seat).sort((a, b) => result.ranks[a] - result.ranks[b]);
  return h("ul.ranking", {}, order.map((s) => h(`li${result.winners.includes(s) ? ".winner" : ""}`, { dataset: { seat: s } },
    h("span.rank", {}, t("table.rank", { rank: result.ranks[s] })), " ", h("strong", {}, names[s]), " ",
    h("span", {}, t("table.points", { points: result.scores[s], n: result.scores[s] })))));
}

function winnerLine(result, names, mine) {
  const list = (seats) => new Intl.ListFormat(language, { type: "conjunction" }).format(seats.map((s) => names[s]));
  const won = result.winners;
  if (mine.length === 1 && won.includes(mine[0])) {
    const others = won.filter((s) => s !== mine[0]);
    return others.length ? t("table.you_share", { names: list(others), n: others.length }) : t("table.you_won");
  }
  return t("table.won", { names: list(won), n: won.length });
}

// Every seat of this browser sits down at the rematch table, which the page then shows.
async function rematch(tableId) {
  try {
    let table = null;
    for (const { seat, token } of tokensFor(tableId)) {
      table = await api.rematch(tableId, token);
      saveToken(table.id, seat, table.token || token);  // an account's token is new there
    }
    carryOwner(tableId, table.id);
    location.hash = `#/t/${table.id}`;
  } catch (err) {
    toast(t("error.rematch", { detail: err.message }), "error");
  }
}
