// A stored table this server cannot replay (409, code "unreplayable", docs/protocol.md): the
// reason in the page's language, the server's detail, and the moves as they are stored.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function isUnreplayable(err) {
  return err?.data?.code === "unreplayable";
}

export function unreplayablePanel(err, back) {
  const table = err.data.table;
  return h("section.panel.unreplayable", {},
    h("h1", {}, t("unreplayable.title")),
    h("p", {}, t("unreplayable.text", { n: table.moves.length })),
    h("p.detail", {}, err.detail ?? err.message),  // which act, and why: the server's words
    h("ol.moves", {}, ...table.moves.map(([seat, move]) => h("li", {}, t("unreplayable.move", { seat: seat + 1, move })))),
    back);
}
