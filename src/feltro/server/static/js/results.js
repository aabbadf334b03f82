// After the game: the winner, the standings, a chart of everybody's chips hand by hand
// (an SVG drawn here, eliminations marked), and the player's own hand histories.

import { lang, t } from "./i18n.js";
import { ruleLink } from "./rulelinks.js";
import { h, ordinal, standingsView } from "./ui.js";
import { verifySeries } from "./verify.js";

// Why a series ended, as the rule that says so: one player has every chip (G4), or the agreed
// stop time came (G6).
const END_RULE = { last_player: "G4", stopped: "G6", ended: "G6" };

const SVG = "http://www.w3.org/2000/svg";
// Line styles: a colour *and* a dash pattern and a marker shape, so that lines differ without
// colour too. Colours are readable on the dark and the light (high-contrast) background.
const STYLES = [
  { colour: "#ffd166", dash: "", marker: "circle" },
  { colour: "#4cc9f0", dash: "8 4", marker: "square" },
  { colour: "#f72585", dash: "2 4", marker: "diamond" },
  { colour: "#80ed99", dash: "12 4 2 4", marker: "triangle" },
  { colour: "#ff9f1c", dash: "4 2", marker: "circle" },
  { colour: "#c77dff", dash: "1 3", marker: "square" },
  { colour: "#f1faee", dash: "10 6", marker: "diamond" },
  { colour: "#90be6d", dash: "6 2 1 2", marker: "triangle" },
  { colour: "#ef476f", dash: "3 3", marker: "circle" },
  { colour: "#48cae4", dash: "14 3", marker: "square" },
];

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function marker(shape, x, y, size, colour) {
  const r = size;
  if (shape === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  if (shape === "diamond") return s("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.3},${y} ${x},${y + r * 1.3} ${x - r * 1.3},${y}`, fill: colour });
  if (shape === "triangle") return s("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.2},${y + r} ${x - r * 1.2},${y + r}`, fill: colour });
  return s("circle", { cx: x, cy: y, r, fill: colour });
}

/**
 * The chips chart from `GET /api/tables/<id>/chips`: `{players: {seat: name}, start: {seat:
 * chips}, hands: [{hand, stacks: {seat: chips}, eliminated: [seat]}]}`.
 */
export function chipsChart(data) {
  const seats = Object.keys(data.players || {}).sort((a, b) => Number(a) - Number(b));
  const hands = data.hands || [];
  const width = 640;
  const height = 320;
  const pad = { left: 48, right: 110, top: 16, bottom: 36 };
  const points = seats.map(() => []);
  const outAt = {};
  seats.forEach((seat, i) => points[i].push([0, (data.start || {})[seat] ?? 0]));
  for (const hand of hands) {
    seats.forEach((seat, i) => {
      if (outAt[seat] !== undefined) return;
      const chips = hand.stacks[seat] ?? 0;
      points[i].push([hand.hand, chips]);
      if ((hand.eliminated || []).map(String).includes(seat)) outAt[seat] = hand.hand;
    });
  }
  const lastHand = Math.max(1, ...hands.map((x) => x.hand));
  const top = Math.max(1, ...points.flat().map(([, chips]) => chips));
  const x = (n) => pad.left + (n / lastHand) * (width - pad.left - pad.right);
  const y = (c) => pad.top + (1 - c / top) * (height - pad.top - pad.bottom);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
                         "aria-labelledby": "chart-title chart-desc" },
    s("title", { id: "chart-title" }, t("web.over.chart")),
    s("desc", { id: "chart-desc" }, t("web.over.chart_desc")));
  // Axes with a few round ticks.
  const axis = s("g", { class: "axis" });
  const step = niceStep(top);
  for (let c = 0; c <= top; c += step) {
    axis.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(c), y2: y(c), class: "grid" }),
                s("text", { x: pad.left - 6, y: y(c) + 4, "text-anchor": "end" }, c));
  }
  const handStep = niceStep(lastHand);
  for (let n = 0; n <= lastHand; n += handStep) {
    axis.append(s("text", { x: x(n), y: height - pad.bottom + 16, "text-anchor": "middle" }, n));
  }
  axis.append(s("text", { x: (pad.left + width - pad.right) / 2, y: height - 4, "text-anchor": "middle" }, t("web.over.hand")));
  svg.append(axis);
  const labels = [];
  seats.forEach((seat, i) => {
    const style = STYLES[i % STYLES.length];
    const line = points[i];
    const group = s("g", { class: "series" });
    group.append(s("polyline", { points: line.map(([n, c]) => `${x(n)},${y(c)}`).join(" "), fill: "none",
                                 stroke: style.colour, "stroke-width": 2.5, "stroke-dasharray": style.dash }));
    const [lastN, lastC] = line[line.length - 1];
    if (outAt[seat] !== undefined) {
      const cx = x(lastN);
      const cy = y(lastC);
      group.append(s("path", { d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx + 6},${cy - 6}L${cx - 6},${cy + 6}`,
                               stroke: style.colour, "stroke-width": 3, class: "out-mark" }));
    } else {
      group.append(marker(style.marker, x(lastN), y(lastC), 4, style.colour));
    }
    labels.push({ y: y(lastC), text: `${data.players[seat]}${outAt[seat] !== undefined ? " ✕" : ""}`, colour: style.colour, x: x(lastN) });
    svg.append(group);
  });
  // Names at the end of the lines, spread so that they never overlap.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i += 1) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 14);
  for (const label of labels) {
    svg.append(s("text", { x: width - pad.right + 8, y: label.y + 4, fill: label.colour, class: "label" }, label.text));
  }
  return svg;
}

function niceStep(span) {
  const rough = span / 4;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

/** The same numbers as a table (for screen readers and for reading exact values). */
function chipsTable(data) {
  const seats = Object.keys(data.players || {}).sort((a, b) => Number(a) - Number(b));
  return h("details", { class: "box" }, h("summary", {}, t("web.over.chart_table")),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.over.hand")), seats.map((seat) => h("th", { scope: "col" }, data.players[seat])))),
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
  const code = fair.fingerprint;
  const status = h("p", { id: "verify-status", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", id: "verify" }, t("web.fair.verify"));
  button.addEventListener("click", () => verifyNight(tableId, code, status, button));
  return h("section", { class: "fairness", "aria-labelledby": "fair-title" },
    h("h3", { id: "fair-title" }, t("web.fair.title")),
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
    chart.replaceChildren(chipsChart(data), h("figcaption", {}, t("web.over.chart_desc")),
      ...(table.eliminations.length ? [h("ul", { class: "eliminations" }, table.eliminations.map((e) =>
        h("li", {}, `${ordinal(e.place)} ${t("web.over.eliminated", { name: e.name, n: e.hand })}`)))] : []));
    chart.after(chipsTable(data));
  }).catch(() => chart.replaceChildren());
  const status = h("p", { class: "warn", role: "status" });
  return h("section", { class: "results panel", "aria-labelledby": "results-title" },
    h("h2", { id: "results-title" }, t("series.over_title")),
    h("p", { class: "winner" }, outcome.winners.length > 1 ? t("series.co_winners", { names }) : t("series.winner", { name: names })),
    outcome.end ? h("p", {}, t(`series.end_${outcome.end}`, { hands: outcome.hands }), " ",
      ruleLink(END_RULE[outcome.end], lang(), t("rules.see", { rule: END_RULE[outcome.end] }))) : null,
    standingsView(table, 0),
    h("h3", {}, t("web.over.chart")),
    chart,
    token ? h("p", {}, h("button", { type: "button", id: "download", onclick: () => download(tableId, token, seat, status) }, t("web.over.download"))) : null,
    status,
    fairnessView(table, tableId),
    h("p", {}, h("a", { href: "/" }, t("web.over.new_table"))));
}
