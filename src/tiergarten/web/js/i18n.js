// Plain catalogues and one lookup function: the shared words (i18n/<lang>.json) and each game's
// (games/<id>/i18n/<lang>.json, added by js/games.js at start-up), one catalogue per language
// once loaded. English is the fallback; a key missing from a catalogue is recorded in `missing`
// so the browser tests can see it.
//
// Messages use a subset of ICU MessageFormat, so that each language writes its own plural and
// agreement rules instead of the code gluing words together:
//   {name}                                          a parameter
//   {n, plural, =0 {none} one {# card} few {# karty} other {# cards}}
//                                                   the browser's Intl.PluralRules picks the
//                                                   form for the page's language; # is n
//   {gender, select, f {una} other {un}}            a choice by a word's value
// Branches may nest. Nothing is fetched and nothing is built: Intl is in every browser.
import { here } from "./api.js";

export const LANGUAGES = { en: "English", de: "Deutsch", pl: "Polski", it: "Italiano" };
const STORE = "tiergarten.language";
let catalogue = {};
let fallback = {};
export const missing = new Set();
window.__i18nMissing = missing;  // for the browser tests
export let language = "en";
let plurals = new Intl.PluralRules("en");
const parsed = new Map();  // message text -> its parts

export function preferredLanguage() {
  const saved = localStorage.getItem(STORE);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

const folders = [""];  // where catalogues are: the shared words' folder, then each game's

// Another folder of catalogues (a game's "games/<id>/"), read from the next setLanguage on.
export function addCatalogues(folder) {
  if (folders.includes(folder)) return;
  folders.push(folder);
  fallback = {};
}

async function fetchCatalogue(lang) {
  const parts = await Promise.all(folders.map((folder, i) => fetchPart(folder, lang, i === 0)));
  return Object.assign({}, ...parts);
}

// One folder's catalogue; a game without words in a language leaves them to the fallback.
async function fetchPart(folder, lang, needed) {
  const response = await fetch(here(`/${folder}i18n/${lang}.json`)).catch((err) => {
    if (needed) throw err;
    return null;
  });
  if (response?.ok) return response.json();
  if (needed) throw new Error(`no catalogue for ${lang}`);
  return {};
}

export async function setLanguage(lang) {
  if (!(lang in LANGUAGES)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue("en");
  catalogue = lang === "en" ? fallback : await fetchCatalogue(lang);
  language = lang;
  plurals = new Intl.PluralRules(lang);
  localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

// -- the message format ------------------------------------------------------------------------

// "a {n, plural, one {# x} other {# xs}} b" -> ["a ", {arg: "n", type: "plural", options}, " b"]
function parse(text) {
  let i = 0;
  function message(inBranch) {
    const parts = [];
    let literal = "";
    while (i < text.length) {
      const c = text[i];
      if (c === "}" && inBranch) break;
      if (c === "{") {
        if (literal) { parts.push(literal); literal = ""; }
        parts.push(argument());
      } else if (c === "#" && inBranch) {
        if (literal) { parts.push(literal); literal = ""; }
        parts.push({ hash: true });
        i++;
      } else {
        literal += c;
        i++;
      }
    }
    if (literal) parts.push(literal);
    return parts;
  }
  function argument() {
    const close = /[,}]/g;
    close.lastIndex = ++i;
    const end = close.exec(text);
    if (!end) throw new SyntaxError(`unclosed {} in ${JSON.stringify(text)}`);
    const arg = text.slice(i, end.index).trim();
    i = end.index + 1;
    if (end[0] === "}") return { arg };
    const comma = text.indexOf(",", i);
    const type = text.slice(i, comma).trim();
    if (type !== "plural" && type !== "select") throw new SyntaxError(`unknown {${arg}, ${type}} in ${JSON.stringify(text)}`);
    i = comma + 1;
    const options = {};
    for (;;) {
      while (/\s/.test(text[i])) i++;
      if (text[i] === "}") { i++; break; }
      const open = text.indexOf("{", i);
      if (open < 0) throw new SyntaxError(`a choice without {text} in ${JSON.stringify(text)}`);
      const key = text.slice(i, open).trim();
      i = open + 1;
      options[key] = message(true);
      i++;  // the branch's closing }
    }
    return { arg, type, options };
  }
  return message(false);
}

function format(parts, params, count) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.hash) out += count === undefined ? "#" : String(count);
    else if (!part.type) out += part.arg in params ? String(params[part.arg]) : `{${part.arg}}`;
    else {
      const value = params[part.arg];
      const options = part.options;
      let branch;
      if (part.type === "plural") {
        branch = options[`=${value}`] ?? options[plurals.select(Number(value))] ?? options.other;
        out += format(branch ?? [], params, value);
      } else {
        branch = options[String(value)] ?? options.other;
        out += format(branch ?? [], params, count);
      }
    }
  }
  return out;
}

// Fill a message text with parameters (exported for messages that do not live in a catalogue).
export function formatMessage(text, params = {}) {
  let parts = parsed.get(text);
  if (!parts) {
    try { parts = parse(text); } catch (err) { console.error(err.message); parts = [text]; }
    parsed.set(text, parts);
  }
  return format(parts, params, undefined);
}

// t("seat.joined", {name: "Ann"}) -> "Ann sat down".
export function t(key, params = {}) {
  let text = catalogue[key];
  if (text === undefined) {
    missing.add(`${language}:${key}`);
    text = fallback[key] ?? key;
  }
  return formatMessage(text, params);
}

// A translation if the catalogue has one, else the given text (for names from the server).
export function tOr(key, otherwise, params = {}) {
  return key in catalogue || key in fallback ? t(key, params) : otherwise;
}

// Whether the catalogues have a key (for optional, more specific wordings).
export function has(key) {
  return key in catalogue || key in fallback;
}
