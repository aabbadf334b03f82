// Seasons (`docs/seasons.md`): `/seasons` lists them and starts one; `/season/<slug>` shows one
// (standings, a chart of the points series by series, the series) and lets a table's host or
// players add the table once its series is over. The API refuses with a reason code that is
// worded here from the catalogue (`season.error.<code>`), never from the server's English.

import { boot } from "./boot.js";
import { lang, t } from "./i18n.js";
import { tokens } from "./net.js";
import { lineChart } from "./linechart.js";
import { $, fill, h, ordinal, toast } from "./ui.js";

const slug = location.pathname.startsWith("/season/")
  ? decodeURIComponent(location.pathname.split("/")[2] || "") : null;

async function main() {
  await boot({ onSettings: () => render() });
  $("#net").hidden = true;
  render();
}

function render() {
  if (slug) showSeason(); else showList();
}

/** A refusal of the seasons API in the reader's language. */
async function failure(response) {
  try {
    const data = await response.json();
    if (data.code) return t(`season.error.${data.code}`, data.params || {});
  } catch { /* not JSON */ }
  return t("season.web.failed", { reason: `HTTP ${response.status}` });
}

async function api(path, body = null) {
  const response = await fetch(path, body === null ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(await failure(response));
  return response.json();
}

// --- /seasons ----------------------------------------------------------------------------------

function showList() {
  $("#title").textContent = t("season.seasons");
  const list = h("div", { id: "seasons" }, h("p", { class: "quiet" }, "…"));
  fill($("#main"), h("div", { class: "index-grid" },
    h("section", { class: "panel", "aria-labelledby": "seasons-title" },
      h("h2", { id: "seasons-title" }, t("season.seasons")),
      h("p", {}, t("season.web.intro")), list),
    createForm()));
  api("/api/seasons").then((seasons) => {
    const rows = seasons.filter((one) => one.name).map((one) => h("li", {},
      h("a", { href: `/season/${encodeURIComponent(one.slug)}` }, h("strong", {}, one.name)), " · ",
      t("season.web.list_line", { series: one.series, players: one.players }),
      one.leaders.length ? [" · ", t("season.web.leader", { names: one.leaders.join(", ") })] : null));
    fill(list, rows.length ? h("ul", { class: "tables" }, rows) : h("p", { class: "quiet" }, t("season.web.none")));
  }).catch((error) => fill(list, h("p", { class: "warn" }, error.message)));
}

function field(id, label, input, hint) {
  return h("p", {}, h("label", { for: id }, label), input,
    hint ? h("small", { id: `${id}-hint` }, hint) : null);
}

function createForm() {
  const name = h("input", { id: "s-name", maxlength: 40, required: true });
  const players = h("input", { id: "s-players", required: true, "aria-describedby": "s-players-hint" });
  const points = h("input", { id: "s-points", value: "10,7,5,3,2,1", "aria-describedby": "s-points-hint" });
  const status = h("p", { id: "season-status", role: "status" });
  const form = h("form", { id: "season-form", class: "panel" },
    h("h2", {}, t("season.web.create")),
    field("s-name", t("season.web.name"), name),
    field("s-players", t("season.web.players"), players, t("season.web.players_hint")),
    field("s-points", t("season.web.points"), points, t("season.web.points_hint")),
    h("p", {}, h("button", { type: "submit", class: "primary", id: "season-create" }, t("season.web.create"))),
    status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const numbers = points.value.split(",").map((x) => x.trim()).filter(Boolean);
    const body = { name: name.value.trim(), players: players.value.split(",").map((x) => x.trim()).filter(Boolean) };
    if (numbers.length) body.points = numbers.map((x) => (/^\d{1,4}$/.test(x) ? Number(x) : x));
    $("#season-create").disabled = true;
    status.textContent = t("season.web.creating");
    try {
      const season = await api("/api/seasons", body);
      location.assign(`/season/${encodeURIComponent(season.slug)}`);
    } catch (error) {
      $("#season-create").disabled = false;
      status.textContent = error.message;
      toast(error.message, { urgent: true });
    }
  });
  return form;
}

// --- /season/<slug> ----------------------------------------------------------------------------

let season = null;

async function showSeason() {
  $("#title").textContent = season ? t("season.title", { name: season.name }) : t("season.seasons");
  if (!season) {
    fill($("#main"), h("p", { class: "quiet" }, "…"));
    try {
      season = await api(`/api/seasons/${encodeURIComponent(slug)}`);
    } catch (error) {
      fill($("#main"), h("p", { class: "warn", id: "season-problem" }, error.message),
        h("p", {}, h("a", { href: "/seasons" }, t("season.web.back"))));
      return;
    }
    $("#title").textContent = t("season.title", { name: season.name });
  }
  const reentries = season.standings.some((line) => line.reentries !== null);
  fill($("#main"),
    h("section", { class: "panel", "aria-labelledby": "standings-title" },
      h("h2", { id: "standings-title" }, t("season.web.standings")),
      standingsTable(reentries),
      h("p", { class: "quiet" }, t("season.points_table", { points: season.points.join(", ") })),
      h("p", { class: "quiet" }, t("season.who_counts")),
      h("p", {}, h("a", { id: "season-csv", href: `/api/seasons/${encodeURIComponent(season.slug)}/csv?lang=${encodeURIComponent(lang())}`,
                          download: `${season.slug}.csv` }, t("season.web.csv")))),
    season.nights.length ? h("section", { class: "panel", "aria-labelledby": "chart-title" },
      h("h2", { id: "chart-title" }, t("season.chart")),
      h("figure", { class: "chart-box" }, pointsChart(), h("figcaption", {}, t("season.web.chart_desc"))),
      chartTable()) : null,
    h("section", { class: "panel", "aria-labelledby": "nights-title" },
      h("h2", { id: "nights-title" }, t("season.nights")),
      season.nights.length ? nightsList() : h("p", { class: "quiet", id: "no-nights" }, t("season.web.no_nights"))),
    addTables(),
    h("p", {}, h("a", { href: "/seasons" }, t("season.web.back"))));
}

function standingsTable(reentries) {
  const columns = ["place", "player", "points", "series", "wins", "hands", "biggest_pot", "knockouts",
                   ...(reentries ? ["reentries"] : [])];
  const value = (line, column) => ({ place: ordinal(line.place), player: line.name }[column]
    ?? (column === "reentries" ? line.reentries ?? 0 : line[column]));
  // A region of its own that the keyboard can reach: on a phone the table scrolls sideways.
  return h("div", { class: "scroll", tabindex: 0, role: "region", "aria-labelledby": "standings-title" },
    h("table", { id: "season-standings", class: "standings" },
    h("thead", {}, h("tr", {}, columns.map((column) => h("th", {
      scope: "col", style: column === "player" ? null : { "text-align": "right" } }, t(`season.column.${column}`))))),
    h("tbody", {}, season.standings.map((line) => h("tr", { "data-player": line.name },
      columns.map((column) => (column === "player" ? h("th", { scope: "row" }, line.name)
        : h("td", { class: "num", "data-column": column }, value(line, column)))))))));
}

/** The season chart: one line per player, their total points after each series. */
function pointsChart() {
  const lines = season.standings.map((line) => {
    const points = season.chart[line.name];
    return { label: `${line.name} ${points[points.length - 1]}`,
             points: [[0, 0], ...points.map((total, n) => [n + 1, total])] };
  });
  return lineChart(lines, { id: "season-chart", title: t("season.chart"), desc: t("season.web.chart_desc"),
                            xLabel: t("season.web.after") });
}

/** The chart's numbers as a table (for screen readers and for exact values). */
function chartTable() {
  const names = season.standings.map((line) => line.name);
  return h("details", { class: "box" }, h("summary", {}, t("season.web.chart_table")),
    h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("season.web.chart_table") }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("season.web.after")), names.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, season.nights.map((night, n) => h("tr", {},
        h("th", { scope: "row" }, `${n + 1} · ${night.date}`),
        names.map((name) => h("td", { class: "num" }, season.chart[name][n]))))))));
}

function nightsList() {
  return h("ol", { id: "season-nights", class: "tables" }, season.nights.map((night) => h("li", { "data-key": night.key },
    h("strong", {}, night.label), ` · ${night.date} · `,
    t("season.web.won_by", { names: night.winners.join(", ") }), ` · ${t("season.night.hands")}: ${night.hands}`,
    night.source === "terminal" ? ` · ${t("season.web.terminal")}` : null)));
}

/** The tables this device hosted or played at (their tokens are kept on it, `net.js`). */
function knownTables() {
  const found = new Map();
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const match = /^feltro\.(host|seat)\.([A-Za-z0-9_-]{1,64})$/.exec(localStorage.key(i));
      if (match && !found.has(match[2])) found.set(match[2], tokens.get(match[1], match[2]));
    }
  } catch { /* private mode: nothing kept */ }
  return found;
}

function addTables() {
  const list = h("div", { id: "season-tables" }, h("p", { class: "quiet" }, "…"));
  const status = h("p", { id: "season-add-status", role: "status" });
  const known = knownTables();
  Promise.all([...known.keys()].map((id) => fetch(`/api/tables/${encodeURIComponent(id)}`)
    .then((r) => (r.ok ? r.json() : null)).catch(() => null))).then((tables) => {
    const rows = tables.filter(Boolean).sort((a, b) => (a.created_at < b.created_at ? -1 : 1))
      .map((table) => tableRow(table, known.get(table.table_id), status));
    fill(list, rows.length ? h("ul", { class: "tables" }, rows) : h("p", { class: "quiet" }, t("season.web.no_tables")));
  });
  return h("section", { class: "panel", "aria-labelledby": "add-title" },
    h("h2", { id: "add-title" }, t("season.web.add_title")),
    h("p", { class: "quiet" }, t("season.web.add_hint")), list, status);
}

function tableRow(table, token, status) {
  const inSeason = season.nights.some((night) => night.key === `server:${table.table_id}`);
  const act = async (button, path, done) => {
    button.disabled = true;
    status.textContent = t("season.web.adding");
    try {
      season = await api(path, { table_id: table.table_id, token });
      await showSeason();
      $("#season-add-status").textContent = t(done, { name: table.name });
    } catch (error) {
      button.disabled = false;
      status.textContent = error.message;
      toast(error.message, { urgent: true });
    }
  };
  const base = `/api/seasons/${encodeURIComponent(season.slug)}/nights`;
  let button = null;  // a table joins once its series is over
  if (inSeason) {
    button = h("button", { type: "button", "data-table": table.table_id,
                           onclick: (e) => act(e.currentTarget, `${base}/remove`, "season.web.removed") }, t("season.web.remove"));
  } else if (table.status === "over" || table.status === "archived") {
    button = h("button", { type: "button", class: "primary", "data-table": table.table_id,
                           onclick: (e) => act(e.currentTarget, base, "season.web.added") }, t("season.web.add"));
  }
  return h("li", {}, h("strong", {}, table.name), ` · ${(table.created_at || "").slice(0, 10)} · `,
    t(`web.status.${table.status === "archived" ? "over" : table.status}`, { problem: "" }), inSeason ? ` · ${t("season.web.in_season")} ` : " ", button);
}

main();
