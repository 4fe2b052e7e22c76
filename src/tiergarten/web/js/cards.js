// Card faces drawn here as SVG: our own art, no publisher images. Every face also carries its
// name in text (aria-label) so a card is readable without colour and by screen readers. A game
// with cards of its own draws them in its folder (games/<id>/), with the backs from here.
import { svg } from "./dom.js";

const SUITS = {
  c: { symbol: "♣", colour: "#1d1d1d", name: "clubs" },
  d: { symbol: "♦", colour: "#c0262d", name: "diamonds" },
  h: { symbol: "♥", colour: "#c0262d", name: "hearts" },
  s: { symbol: "♠", colour: "#1d1d1d", name: "spades" },
};
export const SUIT_ORDER = ["c", "d", "h", "s"];

export function suitSymbol(suit) {
  return SUITS[suit]?.symbol ?? suit;
}

export function suitColour(suit) {
  return SUITS[suit]?.colour ?? "#333";
}

// "10h" -> {rank: "10", suit: "h"}
export function splitCard(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

const PIPS = { 7: 7, 8: 8, 9: 9, 10: 10 };

export function frenchCard(code, label) {
  const { rank, suit } = splitCard(code);
  const { symbol, colour } = SUITS[suit];
  const middle = rank in PIPS
    ? pipLayout(PIPS[rank]).map(([x, y]) =>
      `<text x="${x}" y="${y}" font-size="13" text-anchor="middle" fill="${colour}">${symbol}</text>`).join("")
    : `<text x="30" y="58" font-size="30" text-anchor="middle" fill="${colour}" font-weight="700">${rank === "A" ? symbol : rank}</text>`
      + (rank === "A" ? "" : `<text x="30" y="74" font-size="14" text-anchor="middle" fill="${colour}">${symbol}</text>`);
  const frame = rank in PIPS || rank === "A" ? "" :
    `<rect x="12" y="17" width="36" height="56" rx="3" fill="none" stroke="${colour}" stroke-width="0.8" opacity="0.6"/>`;
  return svg(`<svg class="face" viewBox="0 0 60 90" role="img" aria-label="${label ?? code}">
    <rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#888"/>
    ${frame}
    <text x="5" y="14" font-size="12" font-weight="700" fill="${colour}">${rank}</text>
    <text x="5" y="25" font-size="11" fill="${colour}">${symbol}</text>
    <g transform="rotate(180 30 45)"><text x="5" y="14" font-size="12" font-weight="700" fill="${colour}">${rank}</text>
    <text x="5" y="25" font-size="11" fill="${colour}">${symbol}</text></g>
    ${middle}</svg>`);
}

function pipLayout(n) {
  const left = 21, right = 39, mid = 30;
  const rows = { 7: [[left, 30], [right, 30], [mid, 41], [left, 52], [right, 52], [left, 73], [right, 73]],
    8: [[left, 28], [right, 28], [mid, 39], [left, 50], [right, 50], [mid, 61], [left, 74], [right, 74]],
    9: [[left, 27], [right, 27], [left, 42], [right, 42], [mid, 51], [left, 60], [right, 60], [left, 75], [right, 75]],
    10: [[left, 27], [right, 27], [mid, 35], [left, 43], [right, 43], [left, 58], [right, 58], [mid, 66], [left, 75], [right, 75]] };
  return rows[n];
}

// A card back; without a label it is decoration (the count beside it says how many there are).
export function cardBack(label = "") {
  const named = label ? `role="img" aria-label="${label}"` : `aria-hidden="true" focusable="false"`;
  return svg(`<svg class="back" viewBox="0 0 60 90" ${named}>
    <defs><pattern id="leaf" width="10" height="10" patternUnits="userSpaceOnUse">
      <circle cx="5" cy="5" r="2.2" fill="#e9d9a6" opacity="0.55"/></pattern></defs>
    <rect x="1" y="1" width="58" height="88" rx="6" fill="#2f5d50" stroke="#1c3a32"/>
    <rect x="6" y="6" width="48" height="78" rx="4" fill="url(#leaf)" stroke="#e9d9a6" stroke-width="1"/>
    </svg>`);
}

// A hand seen from behind: up to ten card backs, decoration only (the count is written beside it).
export function handBacks(count) {
  return Array.from({ length: Math.min(count, 10) }, () => cardBack());
}
