// "How to play": the game's rules in short, a paragraph a line, and the way to its tutorial.
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function rulesPanel(gameId) {
  return h("details#rules.panel.rules", {}, h("summary", {}, t("table.how_to_play")),
    t(`rules.${gameId}`).split("\n").map((line) => h("p", {}, line)),
    h("a.learn-link", { href: `#/learn/${gameId}` }, t("tutorial.learn")));
}
