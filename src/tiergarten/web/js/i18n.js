// Plain catalogues (i18n/<lang>.json) and one lookup function. English is the fallback; a key
// missing from a catalogue is recorded in `missing` so the browser tests can see it.
import { here } from "./api.js";

export const LANGUAGES = { en: "English", de: "Deutsch", pl: "Polski", it: "Italiano" };
const STORE = "tiergarten.language";
let catalogue = {};
let fallback = {};
export const missing = new Set();
window.__i18nMissing = missing;  // for the browser tests
export let language = "en";

export function preferredLanguage() {
  const saved = localStorage.getItem(STORE);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

async function fetchCatalogue(lang) {
  const response = await fetch(here(`/i18n/${lang}.json`));
  if (!response.ok) throw new Error(`no catalogue for ${lang}`);
  return response.json();
}

export async function setLanguage(lang) {
  if (!(lang in LANGUAGES)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue("en");
  catalogue = lang === "en" ? fallback : await fetchCatalogue(lang);
  language = lang;
  localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

// Polish has a third form for 2–4 (22–24, …, but not 12–14): "2 karty", "5 kart".
function isFew(n) {
  return language === "pl" && Number.isInteger(n) && n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14);
}

// t("seat.joined", {name: "Ann"}) -> "Ann sat down"; {name} placeholders are filled in, and
// with {n: 1} a "<key>_one" entry (the singular) is used when the catalogue has one; in Polish
// a "<key>_few" entry for 2–4.
export function t(key, params = {}) {
  if (params.n === 1 && (`${key}_one` in catalogue || `${key}_one` in fallback)) key = `${key}_one`;
  else if (isFew(params.n) && `${key}_few` in catalogue) key = `${key}_few`;
  let text = catalogue[key];
  if (text === undefined) {
    missing.add(`${language}:${key}`);
    text = fallback[key] ?? key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

// A translation if the catalogue has one, else the given text (for names from the server).
export function tOr(key, otherwise) {
  return key in catalogue || key in fallback ? t(key) : otherwise;
}
