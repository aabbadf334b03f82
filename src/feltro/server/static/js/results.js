// After the game: the winner, the standings, a chart of everybody's chips hand by hand
// (an SVG drawn here, eliminations marked), and the player's own hand histories.

import { lang, t } from "./i18n.js";
import { lineChart } from "./linechart.js";
import { ruleLink } from "./rulelinks.js";
import { fill, h, ordinal, standingsView } from "./ui.js";
import { verifySeries } from "./verify.js";
import { alarmsView, computedFingerprint } from "./fairclient.js";
import { reviewView } from "./review.js";

// Why a series ended, as the rule that says so: one player has every chip (G4), or the agreed
// stop time came (G6).
const END_RULE = { last_player: "G4", stopped: "G6", ended: "G6" };

/**
 * The chips chart from `GET /api/tables/<id>/chips`: `{players: {seat: name}, start: {seat:
 * chips}, hands: [{hand, stacks: {seat: chips}, eliminated: [seat]}]}`.
 */
export function chipsChart(data) {
  const seats = Object.keys(data.players || {}).sort((a, b) => Number(a) - Number(b));
  const outAt = {};
  const lines = seats.map((seat) => ({ points: [[0, (data.start || {})[seat] ?? 0]] }));
  for (const hand of data.hands || []) {
    seats.forEach((seat, i) => {
      if (outAt[seat] !== undefined) return;
      lines[i].points.push([hand.hand, hand.stacks[seat] ?? 0]);
      if ((hand.eliminated || []).map(String).includes(seat)) outAt[seat] = hand.hand;
    });
  }
  seats.forEach((seat, i) => {
    lines[i].out = outAt[seat] !== undefined;
    lines[i].label = `${data.players[seat]}${lines[i].out ? " ✕" : ""}`;
  });
  return lineChart(lines, { id: "chart", title: t("web.over.chart"), desc: t("web.over.chart_desc"),
                            xLabel: t("web.over.hand") });
}

/** The same numbers as a table (for screen readers and for reading exact values). */
function chipsTable(data) {
  const seats = Object.keys(data.players || {}).sort((a, b) => Number(a) - Number(b));
  return h("details", { class: "box" }, h("summary", {}, t("web.over.chart_table")),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.over.hand")), seats.map((seat) => h("th", { scope: "col", class: "num" }, data.players[seat])))),
      h("tbody", {}, (data.hands || []).map((hand) => h("tr", {},
        h("th", { scope: "row" }, hand.hand),
        seats.map((seat) => h("td", { class: "num" }, (hand.eliminated || []).map(String).includes(seat) ? "0 ✕" : hand.stacks[seat] ?? ""))))))));
}

async function download(tableId, token, seat, status) {
  status.textContent = "";
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/histories`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
    });
    if (!response.ok) {
      let reason = `HTTP ${response.status}`;
      try {
        reason = (await response.json()).error || reason;
      } catch { /* not JSON */ }
      throw new Error(reason);
    }
    const blob = await response.blob();
    const link = h("a", { href: URL.createObjectURL(blob), download: `feltro-${tableId}${seat ? `-seat${seat}` : ""}.phhs` });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    status.textContent = t("web.over.download_failed", { reason: error.message });
  }
}

/**
 * Fetch the night's export and check it here, with verify.js (WebCrypto): the server's own
 * answer is never asked for. *shown* is the fingerprint the table displayed.
 */
async function verifyNight(tableId, shown, status, button) {
  button.disabled = true;
  status.className = "";
  status.textContent = t("web.fair.verifying");
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/fairness`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const result = await verifySeries(await response.json());
    const failure = result.firstFailure;
    if (failure) {
      const what = t(`verify.check.${failure.check}`);
      status.className = "warn";
      status.textContent = failure.hand === null ? t("web.fair.file_failed", { what })
        : t("web.fair.failed", { hand: failure.hand, what });
    } else if (shown && result.fingerprint !== shown) {
      status.className = "warn";
      status.textContent = t("web.fair.mismatch", { code: result.fingerprint, shown });
    } else {
      status.className = "ok";
      status.textContent = t("web.fair.ok", { hands: result.hands, code: result.fingerprint });
    }
  } catch (error) {
    status.className = "warn";
    status.textContent = t("web.fair.error", { reason: error.message });
  } finally {
    button.disabled = false;
  }
}

/** The night's fingerprint (a short code friends compare) and the Verify button. */
function fairnessView(table, tableId) {
  const fair = table.fair;
  if (!fair) return null;
  const code = computedFingerprint() || fair.fingerprint; // this device's own, when it has one
  const status = h("p", { id: "verify-status", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", id: "verify" }, t("web.fair.verify"));
  button.addEventListener("click", () => verifyNight(tableId, code, status, button));
  return h("section", { class: "fairness", "aria-labelledby": "fair-title" },
    h("h3", { id: "fair-title" }, t("web.fair.title")),
    alarmsView(table),
    code ? h("p", {}, t("web.fair.fingerprint"), " ", h("strong", { id: "fingerprint", class: "fingerprint" }, code)) : null,
    h("p", { class: "quiet" }, t("web.fair.fingerprint_help")),
    h("p", {}, button),
    status);
}

/** The results screen; a player's *seat* and *token* enable the download of their histories. */
export function resultsView(table, { seat = null, token = null, tableId }) {
  const outcome = table.outcome || { winners: [], names: [], end: "" };
  const names = outcome.names.join(", ");
  const chart = h("figure", { class: "chart-box" }, h("p", { class: "quiet" }, "…"));
  fetch(`/api/tables/${encodeURIComponent(tableId)}/chips`).then((r) => r.json()).then((data) => {
    fill(chart, chipsChart(data), h("figcaption", {}, t("web.over.chart_desc")),
      ...(table.eliminations.length ? [h("ul", { class: "eliminations" }, table.eliminations.map((e) =>
        h("li", {}, `${ordinal(e.place)} ${t("web.over.eliminated", { name: e.name, n: e.hand })}`)))] : []));
    chart.after(chipsTable(data));
  }).catch(() => fill(chart));
  const status = h("p", { class: "warn", role: "status" });
  return h("section", { class: "results panel", "aria-labelledby": "results-title" },
    h("h2", { id: "results-title" }, t("series.over_title")),
    h("p", { class: "winner" }, outcome.winners.length > 1 ? t("series.co_winners", { names }) : t("series.winner", { name: names })),
    outcome.end ? h("p", {}, t(`series.end_${outcome.end}`, { hands: outcome.hands }), " ",
      ruleLink(END_RULE[outcome.end], lang(), t("rules.see", { rule: END_RULE[outcome.end] }))) : null,
    standingsView(table, 0),
    reviewView(tableId, { token }),
    h("h3", {}, t("web.over.chart")),
    chart,
    token ? h("p", {}, h("button", { type: "button", id: "download", onclick: () => download(tableId, token, seat, status) }, t("web.over.download"))) : null,
    status,
    fairnessView(table, tableId),
    h("p", {}, h("a", { href: "/seasons" }, t("season.web.add_this"))),
    h("p", {}, h("a", { href: "/" }, t("web.over.new_table"))));
}
