// The animal cards of MammuZ drawn as SVG, like the French cards of js/cards.js: our own art, an
// emoji picture, a colour band and the name, so each card reads at once (and by its
// aria-label without colour and by screen readers).
import { svg } from "../../js/dom.js";
import { fitLabel } from "../../js/labels.js";

// name -> [emoji, colour]
const ANIMALS = {
  mammoth: ["🦣", "#8d6e63"], bear: ["🐻", "#6d4c41"], deer: ["🦌", "#c28e4a"],
  tiger: ["🐅", "#ef8c1f"], hare: ["🐇", "#9e9e9e"], squirrel: ["🐿️", "#d2691e"],
  marmot: ["🦫", "#a1887f"], mouse: ["🐭", "#78909c"],
  stegosaurus: ["🦕", "#5b8c3a"], triceratops: ["🦏", "#7b8f3a"], pterosaurus: ["🦅", "#4f7cac"],
  brontosaurus: ["🦕", "#3f7f6f"], plesiosaurus: ["🐉", "#2f6f9f"], tyrannosaurus: ["🦖", "#8f3f3f"],
};

// The animals of MammuZ that can be declared (the last two only from 6 players); the rest of
// ANIMALS are dinosaurs.
export const SPECIES = ["mammoth", "bear", "deer", "tiger", "hare", "squirrel", "marmot", "mouse"];

export function animalEmoji(name) {
  return ANIMALS[name]?.[0] ?? "❔";
}

export function animalCard(name, label) {
  const [emoji, colour] = ANIMALS[name] ?? ["❔", "#777"];
  const dino = !SPECIES.includes(name);
  return svg(`<svg class="face" viewBox="0 0 60 90" role="img" aria-label="${label ?? name}">
    <rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#888"/>
    <rect x="1" y="1" width="58" height="16" rx="6" fill="${colour}"/>
    ${dino ? `<text x="54" y="13" font-size="9" text-anchor="end" fill="#fff">★</text>` : ""}
    <text x="30" y="56" font-size="28" text-anchor="middle" font-family="Noto Color Emoji, sans-serif">${emoji}</text>
    ${fitLabel(label ?? name, { x: 30, y: 75.5, width: 54, height: 26, size: 8, min: 5.5, lines: 3 })}
    </svg>`);
}
