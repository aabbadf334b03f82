// How every page starts: `boot(page)`. The server serves one shell for every page
// (`static/shell.html`, the page's name filled in); each page module calls `boot` first.
//
// To add a page: write `js/<name>.js` that calls `boot({...})` and then builds `#main`, and add
// the page to `PAGES` in `src/feltro/server/routes/pages.py` (its address and module name).

import { Link } from "./net.js";
import { lang, loadLang, preferredLang, t, translatePage } from "./i18n.js";
import { $, applyPrefs, mountChrome, setupSettings, showNet, stopText, tickTimers } from "./ui.js";
import { levelText } from "./levels.js";

/** Start a page: display preferences, the reader's language, the header and settings dialog,
 *  the static words. Options:
 *  - `chrome`: options of `mountChrome` (e.g. `{ skipTo: "actions" }`);
 *  - `before()`: runs once the language is loaded, before the chrome; `false` stops the page
 *    (e.g. it redirected);
 *  - `link()`: the page's websocket `Link`, if any: told the new language when the reader
 *    changes it, and its status shown again;
 *  - `onSettings(code, opts)`: re-render after a change in the settings dialog.
 *  Returns whether the page goes on. */
export async function boot({ chrome = {}, before = null, link = () => null, onSettings = () => {} } = {}) {
  applyPrefs();
  await loadLang(preferredLang());
  if (before && before() === false) return false;
  mountChrome(chrome);
  translatePage();
  setupSettings((code, opts) => {
    const current = link();
    if (current && (!opts || !opts.prefsOnly)) current.setLang(code);
    if (current) showNet(current.status);
    onSettings(code, opts);
  });
  return true;
}

/** Every quarter second: the turn timer, the stop time and the next-hand countdown of *state*'s
 *  table (`state()` gives the newest `state` message, `now()` the server's time). */
export function tickEvery(state, now) {
  setInterval(() => {
    const current = state();
    if (!current) return;
    const table = current.table;
    const at = now();
    tickTimers(table, at);
    for (const el of document.querySelectorAll("[data-stop]")) el.textContent = stopText(table, at);
    for (const el of document.querySelectorAll("[data-level]")) el.textContent = levelText(table, at) || "";  // G7 countdown
    const next = $("#next-hand");
    if (next && table.next_hand_at) {
      next.textContent = t("web.hand.next_in", { s: Math.max(0, Math.ceil((table.next_hand_at - at) / 1000)) });
    }
  }, 250);
}

/** Connect the page *app* (`{tableId, link, state}`) to its table as *role*: each `state` is
 *  kept in `app.state` and passed to `onState(msg, first)`, every other message to
 *  `onMessage`; the timers tick every quarter second. Returns the `Link`. */
export function connect(app, { role, token = null, onState, onMessage = () => {}, onStatus = showNet }) {
  app.link = new Link({
    tableId: app.tableId, role, token, lang: lang(), onStatus,
    onMessage: (msg) => {
      if (msg.type !== "state") return onMessage(msg);
      const first = !app.state;
      app.state = msg;
      return onState(msg, first);
    },
  });
  app.link.connect();
  tickEvery(() => app.state, () => app.link.now());
  return app.link;
}
