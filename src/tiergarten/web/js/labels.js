// Words on cards that always fit their card, in every language: a name may break where a
// syllable starts (soft hyphens, as a person would hyphenate: "Säbel-zahntiger") or between its
// words, over as many lines as the card has room for, and only then gets smaller (never below a
// readable size; past that it is drawn narrower, never cut). SVG text does not wrap by itself,
// so the lines are chosen here with the widths the browser measures in the page's own font.
import { language } from "./i18n.js";

// A name that may break over two lines on a narrow card: soft hyphens where a syllable may
// start ("Schild\u00adkröte", "cock\u00adatoo"), shown only when the name must wrap, never cut.
const VOWEL = /[aeiouyäöüàèéìòùąęó]/i;
const ONSET = /^(?:[bcdfgkpt][rl]|sch|ch|sp|st|sz|cz|rz|dz)$/i;  // consonants a syllable may start with

export function breakable(word) {
  if (word.length < 7) return word;
  if (/\s/.test(word)) return word.split(/(\s+)/).map((w) => (/\s/.test(w) ? w : breakable(w))).join("");
  const cuts = new Set();
  for (let i = 2; i < word.length - 2; i++) {
    if (VOWEL.test(word[i]) || !VOWEL.test(word[i + 1]) || !VOWEL.test(word.slice(0, i))) continue;
    let start = i;  // the consonants before this vowel, from `start` to `i`
    while (start > 0 && !VOWEL.test(word[start - 1]) && /\p{L}/u.test(word[start - 1])) start--;
    if (start === 0) continue;
    const run = word.slice(start, i + 1);
    let cut = i;  // one consonant starts the next syllable ...
    if (/ck$/i.test(run)) cut = i + 1;  // ... "ck" ends this one ...
    else for (let k = start; k < i; k++) if (ONSET.test(word.slice(k, i + 1))) { cut = k; break; }  // ... or a cluster starts it
    if (cut >= 2 && word.length - cut >= 2) cuts.add(cut);
  }
  return [...word].map((c, i) => (cuts.has(i) ? `\u00ad${c}` : c)).join("");
}

let canvas = null;
function measure(text, weight) {  // the width of `text` at a font size of 1
  canvas = canvas || document.createElement("canvas").getContext("2d");
  const family = getComputedStyle(document.documentElement).fontFamily || "sans-serif";
  canvas.font = `${weight} 100px ${family}`;
  return canvas.measureText(text).width / 100;
}

// The ways to cut `text` into at most `most` lines: at spaces (dropped), soft hyphens (shown as
// "-" at the end of a line) and hyphens (kept).
function layouts(text, most) {
  const pieces = [];  // {text, after}: the separator after it (" ", "\u00ad" or "")
  let piece = "";
  for (const c of breakable(text)) {
    if (c === " " || c === "\u00ad") { pieces.push({ text: piece, after: c }); piece = ""; }
    else if (c === "-") { pieces.push({ text: piece + c, after: "" }); piece = ""; }
    else piece += c;
  }
  pieces.push({ text: piece, after: "" });
  const join = (from, to) => pieces.slice(from, to + 1).map((p, i) => p.text + (from + i < to && p.after === " " ? " " : "")).join("")
    + (pieces[to].after === "\u00ad" && to < pieces.length - 1 ? "-" : "");
  const out = [];
  const walk = (start, lines) => {
    out.push([...lines, join(start, pieces.length - 1)]);
    if (lines.length + 1 >= most) return;
    for (let end = start; end < pieces.length - 1; end++) walk(end + 1, [...lines, join(start, end)]);
  };
  walk(0, []);
  return out;
}

// SVG <text> for `text` in the box centred on (x, y) of `width` and `height`: the layout with
// the largest font size (at most `size`) wins, one line where it fits as big as it may be.
const LEAD = 1.17;  // a line's height, in font sizes (DejaVu Sans: 0.93 above, 0.24 below)
export function fitLabel(text, { x, y, width, height, size, min = 6, lines = 2, weight = 400, fill = "#333", className = "label" }) {
  let best = null;
  for (const layout of layouts(String(text), lines)) {
    const widest = Math.max(...layout.map((line) => measure(line, weight)));
    const fits = Math.min(size, width / widest, height / (layout.length * LEAD));
    if (!best || fits > best.size * (layout.length > best.lines.length ? 1.15 : 1)) best = { lines: layout, size: fits };
  }
  const font = Math.max(min, Math.floor(best.size * 10) / 10);
  const top = y - (best.lines.length * LEAD * font) / 2;
  const tspans = best.lines.map((line, i) => {
    const squeeze = measure(line, weight) * font > width ? ` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : "";
    return `<tspan x="${x}" y="${(top + 0.93 * font + i * LEAD * font).toFixed(2)}"${squeeze}>${escape(line)}</tspan>`;
  }).join("");
  return `<text class="${className}" lang="${language}" font-size="${font}" font-weight="${weight}" text-anchor="middle" fill="${fill}">${tspans}</text>`;
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
