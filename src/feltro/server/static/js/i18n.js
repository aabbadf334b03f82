// Languages: the message catalogues (en, pt-PT, pt-BR), the chosen language and `t()`.
//
// Each person picks their language on their own device (kept in localStorage); the server is
// told too (`hello`/`set_lang`) so that the hand names it sends come in that language.

import { watchRules } from "./rulelinks.js";

// The languages and their names come from the server (feltro.i18n, the one list), written into
// every page's shell as JSON (`#feltro-languages`).
function shellLanguages() {
  try {
    const list = JSON.parse(document.getElementById("feltro-languages").textContent);
    if (Array.isArray(list) && list.length) return list;
  } catch { /* a page without the shell */ }
  return [{ code: "en", name: "English" }];
}
const KNOWN = shellLanguages();
export const LANGUAGES = KNOWN.map((entry) => entry.code);
const LANG_NAMES = Object.fromEntries(KNOWN.map((entry) => [entry.code, entry.name]));

// The one catalogue of every feltro interface (`src/feltro/i18n/*.toml`, keys such as "act.fold",
// "web.host.start", "error.not_host", "refusal.B8.not-reopened"), served by the server as JSON
// at `/static/i18n/<lang>.json` straight from those files. English stays loaded underneath, for
// any key a translation lacks.
let words = {};
let english = {};
let current = "en";

/** The language saved on this device, else the one asked in the URL (`?lang=`), else the
 *  browser's, else English. */
export function preferredLang() {
  try {
    const saved = localStorage.getItem("feltro.lang");
    if (LANGUAGES.includes(saved)) return saved;
  } catch { /* no storage */ }
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  // The browser's tags: a language of ours exactly ("pt-BR"), else the first of ours with the
  // same primary language ("pt" and "pt-AO" give pt-PT, "en-GB" gives en).
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const exact = LANGUAGES.find((code) => code.toLowerCase() === String(tag).toLowerCase());
    if (exact) return exact;
    const primary = String(tag).toLowerCase().split("-")[0];
    const near = LANGUAGES.find((code) => code.toLowerCase().split("-")[0] === primary);
    if (near) return near;
  }
  return LANGUAGES[0];
}

async function fetchJson(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** Load *code* (and English underneath, for any key a translation lacks). */
export async function loadLang(code) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(english).length) english = await fetchJson("/static/i18n/en.json");
  words = code === "en" ? english : await fetchJson(`/static/i18n/${code}.json`);
  current = code;
  document.documentElement.lang = code;
  try {
    localStorage.setItem("feltro.lang", code);
  } catch { /* no storage */ }
  linkRuleIds(code);
  return code;
}

// Every rule id on the page ("(B8)" in a refusal, "G4") links to that rule in this language.
let ruleWatch = null;
let ruleWatchTurn = 0;
function linkRuleIds(code) {
  if (ruleWatch) ruleWatch.disconnect();
  ruleWatch = null;
  const turn = ++ruleWatchTurn;
  watchRules(document.body, code).then((observer) => {
    if (turn === ruleWatchTurn) ruleWatch = observer;
    else observer.disconnect();
  }).catch(() => { /* no ids: the page stays as it is */ });
}

export function lang() {
  return current;
}

/** The form of a counting message (`<key>.one`, `<key>.other`) its count asks for: "one" when
 *  the last number among its placeholders is 1 (the rule of `feltro.i18n.plural_form`). */
function pluralForm(text, params) {
  const names = [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).reverse();
  const count = names.find((name) => typeof params[name] === "number");
  return count !== undefined && params[count] === 1 ? "one" : "other";
}

function lookup(key, params) {
  for (const layer of [words, english]) {
    if (layer[key] !== undefined) return layer[key];
    const other = layer[`${key}.other`];
    if (other !== undefined) return layer[`${key}.${pluralForm(other, params)}`] ?? other;
  }
  return undefined;
}

/** The message *key* with `{name}` placeholders filled from *params*. */
export function t(key, params = {}) {
  const text = lookup(key, params) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (params[name] === undefined || params[name] === null ? whole : String(params[name])));
}

/** Fill every `[data-i18n]` (text), `[data-i18n-label]` (aria-label) and
 *  `[data-i18n-placeholder]` element under *root*. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
}

/** A `<select>` of the languages, each named in its own language. */
export function languageOptions(select) {
  select.replaceChildren(...LANGUAGES.map((code) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = LANG_NAMES[code];
    option.lang = code;
    option.selected = code === current;
    return option;
  }));
}
