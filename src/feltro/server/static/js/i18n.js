// Languages: the message catalogues (en, pt-PT, pt-BR), the chosen language and `t()`.
//
// Each person picks their language on their own device (kept in localStorage); the server is
// told too (`hello`/`set_lang`) so that the hand names it sends come in that language.

export const LANGUAGES = ["en", "pt-PT", "pt-BR"];
const LANG_NAMES = { en: "English", "pt-PT": "Português (Portugal)", "pt-BR": "Português (Brasil)" };

let catalogue = {};
let fallback = {};
let current = "en";

/** The language saved on this device, else the browser's, else English. */
export function preferredLang() {
  try {
    const saved = localStorage.getItem("feltro.lang");
    if (LANGUAGES.includes(saved)) return saved;
  } catch { /* no storage */ }
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    if (/^pt-BR/i.test(tag)) return "pt-BR";
    if (/^pt/i.test(tag)) return "pt-PT";
    if (/^en/i.test(tag)) return "en";
  }
  return "en";
}

async function fetchCatalogue(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`catalogue ${lang}: HTTP ${response.status}`);
  return response.json();
}

/** Load *lang* (and English underneath, for any key a translation lacks). */
export async function loadLang(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue("en");
  catalogue = lang === "en" ? fallback : await fetchCatalogue(lang);
  current = lang;
  document.documentElement.lang = lang;
  try {
    localStorage.setItem("feltro.lang", lang);
  } catch { /* no storage */ }
  return lang;
}

export function lang() {
  return current;
}

/** The message *key* with `{name}` placeholders filled from *params*. */
export function t(key, params = {}) {
  const text = catalogue[key] ?? fallback[key] ?? key;
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
