// The end of the series on every page (issue 23): the hand that decided it stays on the screen
// in full (board, shown cards with their hand names, who won which pot) for a while before the
// results, with a button to go on at once; the results then offer "See the last hand".
//
// A page that opens after the series ended goes straight to the results. Public information
// only: the cards of the state's last hand that were shown at its showdown.

import { t, lang } from "./i18n.js";
import { boardView, fill, h, seatList, showdownView } from "./ui.js";

const MIN_HOLD_MS = 6000;
const SHOWDOWN_EXTRA = 0.5; // as the server's pause between hands (server/turn_clock.py)
const SHOWDOWN_EXTRA_MAX_S = 30;

/** How long the last hand stays before the results: twice the pause the server would have
 *  made before a next hand (longer after a showdown), at least six seconds. */
export function holdMs(table) {
  const base = Number(table.settings?.between_hands_seconds ?? 4);
  const shown = (table.hand?.showdown || []).filter((s) => !s.mucked).length;
  const pause = base + Math.min(SHOWDOWN_EXTRA_MAX_S, base * SHOWDOWN_EXTRA * shown);
  return Math.max(MIN_HOLD_MS, 2000 * pause);
}

/** The last hand in full, and the button to the results. */
export function lastHandView(table, { onResults, leftMs = null }) {
  const hand = table.hand;
  return h("section", { class: "last-hand panel", id: "last-hand", "aria-labelledby": "last-hand-title" },
    h("h2", { id: "last-hand-title" }, t("web.night.last_hand_title", { n: hand.number })),
    leftMs === null ? null
      : h("p", { id: "results-in", class: "quiet", role: "timer" }, t("web.night.results_in", { s: Math.ceil(leftMs / 1000) })),
    boardView(table),
    seatList(table, { empty: false }),
    showdownView(table),
    h("p", {}, h("button", { type: "button", id: "see-results", class: "primary", onclick: onResults }, t("web.night.see_results"))));
}

/**
 * Render the end of the series into *main*. *app* is the page's state: `app.sawPlay` (set by the
 * page while the series is being played), `app.resultsFor` (what is built, reset by the page to
 * rebuild, e.g. on a new language) and `app.night` (kept here). *results()* builds the page's
 * results view.
 */
export function renderNightOver(app, table, main, results) {
  if (!app.night) {
    const hold = app.sawPlay && table.hand ? holdMs(table) : 0;
    app.night = { mode: hold ? "hand" : "results", until: Date.now() + hold, timer: null };
    if (hold) {
      app.night.timer = setInterval(() => {
        if (app.night.mode !== "hand" || Date.now() >= app.night.until) {
          clearInterval(app.night.timer);
          if (app.night.mode === "hand") show(app, table, main, results, "results");
          return;
        }
        const left = document.getElementById("results-in");
        if (left) left.textContent = t("web.night.results_in", { s: Math.ceil((app.night.until - Date.now()) / 1000) });
      }, 250);
    }
  }
  const key = `${app.night.mode}|${lang()}`;
  if (app.resultsFor !== key) show(app, table, main, results, app.night.mode);
}

function show(app, table, main, results, mode) {
  const night = app.night;
  night.mode = mode;
  app.resultsFor = `${mode}|${lang()}`;
  if (mode === "hand") {
    const counting = night.timer !== null && Date.now() < night.until;
    fill(main, lastHandView(table, {
      onResults: () => show(app, table, main, results, "results"),
      leftMs: counting ? night.until - Date.now() : null,
    }));
    return;
  }
  night.until = 0;
  clearInterval(night.timer);
  night.timer = null;
  const view = results();
  if (table.hand) {
    const again = h("p", {}, h("button", { type: "button", id: "see-last-hand",
      onclick: () => show(app, table, main, results, "hand") }, t("web.night.see_last_hand")));
    const winner = view.querySelector(".winner");
    if (winner) winner.after(again);
    else view.prepend(again);
  }
  fill(main, view);
}
