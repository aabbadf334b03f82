// Rule ids as links: every "B8", "(G4)", "G1-G4" in a page's text becomes a link to that rule
// on the Rules page (`/rules/<lang>#B8`), in the reader's language.
//
// The ids come from the server (`/api/rules`, the ids the rules document defines), so a word
// that only looks like an id ("X99") stays text. Use:
//
//   import { linkRules, watchRules } from "/static/js/rulelinks.js";
//   await watchRules(document.body, lang());   // once: links ids now and in any later text
//   element.append(ruleLink("G4", lang()));    // one link, built by hand
//
// Text inside links, buttons, inputs, code and scripts is left alone.

export const RULE_ID = /\b([GDBPX]\d{1,2})\b/g;

const SKIP = new Set(["A", "BUTTON", "INPUT", "TEXTAREA", "SELECT", "OPTION", "CODE", "PRE",
                      "SCRIPT", "STYLE", "NOSCRIPT"]);

let known = null;  // Map id -> title, for the current language
let knownLang = null;

/** The rule ids (and titles) of *lang*, fetched once per language. */
export async function loadRuleIds(lang = "en") {
  if (known && knownLang === lang) return known;
  const response = await fetch(`/api/rules?lang=${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`/api/rules: HTTP ${response.status}`);
  const data = await response.json();
  known = new Map(Object.entries(data.rules || {}));
  knownLang = lang;
  return known;
}

/** The address of rule *id* on the Rules page in *lang*. */
export function ruleHref(id, lang = "en") {
  return `/rules/${encodeURIComponent(lang)}#${encodeURIComponent(id)}`;
}

/** An `<a>` to rule *id* in *lang* (opens in a new tab so a game is never left behind). */
export function ruleLink(id, lang = "en", text = id) {
  const a = document.createElement("a");
  a.href = ruleHref(id, lang);
  a.textContent = text;
  a.className = "rule-link";
  a.target = "_blank";
  a.rel = "noopener";
  const title = known && knownLang === lang ? known.get(id) : null;
  if (title) a.title = `${id} · ${title}`;
  return a;
}

function skipped(node, root) {
  for (let el = node.parentElement; el && el !== root.parentElement; el = el.parentElement) {
    if (SKIP.has(el.tagName) || el.isContentEditable) return true;
  }
  return false;
}

/** Turn the known rule ids in the text under *root* into links; returns how many. */
export function linkRules(root, lang = "en", ids = known) {
  if (!root || !ids) return 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    RULE_ID.lastIndex = 0;
    if (RULE_ID.test(node.nodeValue) && !skipped(node, root)) nodes.push(node);
  }
  let count = 0;
  for (const node of nodes) {
    const text = node.nodeValue;
    const pieces = [];
    let last = 0;
    RULE_ID.lastIndex = 0;
    for (let m = RULE_ID.exec(text); m; m = RULE_ID.exec(text)) {
      if (!ids.has(m[1])) continue;
      pieces.push(document.createTextNode(text.slice(last, m.index)), ruleLink(m[1], lang));
      last = m.index + m[1].length;
      count += 1;
    }
    if (!pieces.length) continue;
    pieces.push(document.createTextNode(text.slice(last)));
    node.replaceWith(...pieces.filter((p) => p.nodeType !== Node.TEXT_NODE || p.nodeValue));
  }
  return count;
}

/** Link the ids under *root* now and whenever its text changes (toasts, refusals, results). */
export async function watchRules(root = document.body, lang = "en") {
  const ids = await loadRuleIds(lang);
  linkRules(root, lang, ids);
  const observer = new MutationObserver((records) => {
    observer.disconnect();
    for (const record of records) {
      const target = record.type === "characterData" ? record.target.parentElement : record.target;
      if (target && root.contains(target)) linkRules(target, lang, ids);
    }
    observer.observe(root, { childList: true, subtree: true, characterData: true });
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  return observer;
}
