"""Every word on every card fits its card, in every language, on a desktop and on a phone: the
cards of Lecker Mammut! and MammuZ (SVG: each line's box inside the card's, names above the
colour, never below a readable size) and Mucca Pazza's cards (HTML: no overflow, nothing
clipped). Mau Mau's cards carry no words. One page draws every card of every game in turn."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SHOTS

DRAW_ALL = """async () => {
  const lm = await import("/games/lecker_mammut/board.js");
  const mz = await import("/games/mammuz/animals.js");
  const mp = await import("/games/mucca_pazza/board.js");
  const { t } = await import("/js/i18n.js");
  for (const id of ["lecker_mammut", "mammuz", "mucca_pazza"]) {
    if (!document.querySelector(`link[data-test="${id}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet"; link.href = `/games/${id}/style.css`; link.dataset.test = id;
      const loaded = new Promise((ok) => { link.onload = ok; });
      document.head.append(link);
      await loaded;
    }
  }
  const main = document.querySelector("main");
  main.replaceChildren();
  const board = document.createElement("section");
  board.className = "board";
  main.append(board);
  const row = (cls, cards) => { const div = document.createElement("div"); div.className = cls;
    div.append(...cards); board.append(div); };
  row("lm-middle", lm.ANIMALS.flatMap((a) => lm.COLOURS.map((c) => lm.card(`${c}-${a}`))));
  row("lm-prizes", lm.ANIMALS.map((a) => lm.card(`red-${a}`, false)));
  const names = [...mz.SPECIES, "stegosaurus", "triceratops", "pterosaurus", "brontosaurus",
                 "plesiosaurus", "tyrannosaurus"];
  const hand = names.map((a) => { const b = document.createElement("div"); b.className = "card";
    b.append(mz.animalCard(a, t(`animal.${a}`))); return b; });
  row("hand", hand);
  row("mp-landing-cards", ["frog", "dragon", "monkey", "cockatoo", "pig", "turtle", "dog", "zebra",
                           "cat", "horse", "ghost"].map((a) => mp.card(a)));
  await document.fonts.ready;
  const bad = [];
  for (const card of board.querySelectorAll("svg.lm-card, svg.face")) {
    const [, , w, hgt] = card.getAttribute("viewBox").split(" ").map(Number);
    const labels = [...card.querySelectorAll("text.label")];
    if (!labels.length) bad.push(`${card.getAttribute("aria-label")}: no label`);
    let bottom = 0;
    for (const label of labels) {
      const box = label.getBBox();
      const size = parseFloat(label.getAttribute("font-size"));
      const what = `${card.getAttribute("aria-label")} "${label.textContent}"`;
      if (box.x < 0.5 || box.x + box.width > w - 0.5)
        bad.push(`${what}: ${box.x.toFixed(1)}+${box.width.toFixed(1)} of ${w}`);
      if (box.y < 0 || box.y + box.height > hgt) bad.push(`${what}: runs off the card's height`);
      if (box.y < bottom - 1.5) bad.push(`${what}: overlaps the line above`);
      if (size < 5.5) bad.push(`${what}: font ${size}`);
      if (label.getAttribute("lang") !== document.documentElement.lang)
        bad.push(`${what}: no lang`);
      if (/\\u00ad/.test(label.textContent)) bad.push(`${what}: a soft hyphen drawn`);
      bottom = box.y + box.height;
    }
  }
  for (const name of board.querySelectorAll(".mp-card-name")) {
    const card = name.closest(".mp-card").getBoundingClientRect();
    const box = name.getBoundingClientRect();
    if (name.scrollWidth > name.clientWidth || box.left < card.left - 0.5
        || box.right > card.right + 0.5 || box.bottom > card.bottom + 0.5)
      bad.push(`mucca ${name.textContent}: out of its card`);
  }
  return { bad, cards: board.querySelectorAll("svg.lm-card, svg.face, .mp-card").length };
}"""


@pytest.mark.parametrize("viewport", [{"width": 1100, "height": 900},
                                      {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_every_card_label_fits_its_card_in_every_language(
        page: Any, web: Any, viewport: dict[str, int], page_errors: list[str]) -> None:
    page.set_viewport_size(viewport)
    page.goto(web.url + "/")
    page.wait_for_selector(".game-choice")
    where = "phone" if viewport["width"] < 600 else "desktop"
    for lang in ("en", "de", "pl", "it"):
        page.select_option("#language", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        found = page.evaluate(DRAW_ALL)
        assert found["cards"] == 49 + 7 + 14 + 11
        assert found["bad"] == [], f"{lang} ({where}): " + "\n".join(found["bad"])
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"card-labels-{lang}-{where}.png"), full_page=True)
    assert page_errors == []
