// The start page, `/`: create a table (the host), or find a table on this server.

import { boot } from "./boot.js";
import { tokens } from "./net.js";
import { t } from "./i18n.js";
import { $, fill, h, toast } from "./ui.js";
import { levelFields } from "./levels.js";
import { reentryFields } from "./entries.js";

async function main() {
  await boot({ onSettings: () => render() });
  $("#net").hidden = true;
  render();
}

function field(id, label, input, hint) {
  return h("p", {}, h("label", { for: id }, label), input, hint ? h("small", { id: `${id}-hint` }, hint) : null);
}

function render() {
  $("#title").textContent = t("web.app.tagline");
  const name = h("input", { id: "t-name", maxlength: 24, value: t("web.index.default_name"), required: true });
  const seats = h("input", { id: "t-seats", type: "number", min: 2, max: 10, value: 6, required: true });
  const stack = h("input", { id: "t-stack", type: "number", min: 1, value: 200, required: true });
  const sb = h("input", { id: "t-sb", type: "number", min: 1, value: 1, required: true });
  const bb = h("input", { id: "t-bb", type: "number", min: 1, value: 2, required: true });
  const timer = h("input", { id: "t-timer", type: "number", min: 5, max: 600, value: 30 });
  const untimed = h("input", { id: "t-untimed", type: "checkbox" });
  const stop = h("input", { id: "t-stop", type: "time" });
  const levels = levelFields();
  const reentry = reentryFields();
  const bank = bankInput();
  const form = h("form", { id: "create-form", class: "panel" },
    h("h2", {}, t("web.index.create")),
    field("t-name", t("web.index.table_name"), name),
    h("div", { class: "row" }, field("t-seats", t("web.index.seats"), seats), field("t-stack", t("web.index.stack"), stack)),
    h("div", { class: "row" }, field("t-sb", t("web.index.small_blind"), sb), field("t-bb", t("web.index.big_blind"), bb)),
    h("div", { class: "row" }, field("t-timer", t("web.index.timer"), timer),
      h("p", {}, untimed, " ", h("label", { for: "t-untimed" }, t("web.index.untimed")))),
    field("t-bank", t("web.create.bank"), bank, t("web.create.bank_hint")),
    reactionsChoice(),
    field("t-stop", t("web.index.stop_at"), stop),
    levels.element,
    reentry.element,
    h("p", {}, h("button", { type: "submit", class: "primary", id: "create" }, t("web.index.create"))),
    h("p", { id: "create-status", role: "status" }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      name: name.value.trim() || t("web.index.default_name"),
      seats: Number(seats.value), stack: Number(stack.value),
      small_blind: Number(sb.value), big_blind: Number(bb.value),
      action_seconds: untimed.checked ? null : Number(timer.value),
      ...bankChoices(bank),
      reactions: $("#t-reactions").checked,
    };
    if (stop.value) body.stop_at = stopAt(stop.value);
    levels.read(body);
    reentry.read(body);
    $("#create").disabled = true;
    $("#create-status").textContent = t("web.index.creating");
    try {
      const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" },
                                                    body: JSON.stringify(body) });
      const data = await response.json();
      if (!response.ok) {
        throw new Error(data.code ? t(`create_refused.${data.code}`) : data.error || `HTTP ${response.status}`);
      }
      tokens.set("host", data.table_id, data.host_token);
      location.assign(`/host/${encodeURIComponent(data.table_id)}#${encodeURIComponent(data.host_token)}`);
    } catch (error) {
      $("#create").disabled = false;
      $("#create-status").textContent = t("web.index.failed", { reason: error.message });
      toast(t("web.index.failed", { reason: error.message }), { urgent: true });
    }
  });
  const list = h("section", { class: "panel", "aria-labelledby": "tables-title" },
    h("h2", { id: "tables-title" }, t("web.index.tables")), h("div", { id: "tables" }, h("p", { class: "quiet" }, "…")));
  fill($("#main"), h("div", { class: "index-grid" }, form, list));
  list.append(h("p", {}, h("a", { href: "/seasons", id: "seasons-link" }, t("season.web.open"))));
  fetch("/api/tables").then((r) => r.json()).then((tables) => {
    const rows = tables.map((table) => {
      const id = encodeURIComponent(table.table_id);
      const hostToken = tokens.get("host", table.table_id);
      const seatToken = tokens.get("seat", table.table_id);
      return h("li", {}, h("strong", {}, table.name), ` · ${t(`web.status.${table.status}`, { problem: "" })} · ${table.occupied}/${table.seats} `,
        hostToken ? h("a", { href: `/host/${id}#${encodeURIComponent(hostToken)}` }, t("web.index.open_host")) : null, " ",
        seatToken ? h("a", { href: `/play/${id}#${encodeURIComponent(seatToken)}` }, t("web.index.my_seat"))
          : table.status === "lobby" ? h("a", { href: `/join/${id}` }, t("web.index.open_join")) : null, " ",
        h("a", { href: `/table/${id}` }, t("web.index.open_table")));
    });
    fill($("#tables"), rows.length ? h("ul", { class: "tables" }, rows) : h("p", { class: "quiet" }, t("web.index.no_tables")));
  }).catch(() => fill($("#tables")));
}

// --- the time bank (issue 23): shown and set on the form, 0 turns it off -----------------------

function bankInput() {
  return h("input", { id: "t-bank", type: "number", min: 0, max: 600, value: 60, "aria-describedby": "t-bank-hint" });
}

/** The request's bank fields: *n* seconds to start with, refilled by the server's 5 s a hand
 *  up to twice *n*; 0: no bank at all (no refill either). */
function bankChoices(input) {
  const seconds = Math.min(600, Math.max(0, Math.round(Number(input.value) || 0)));
  if (!seconds) return { bank_seconds: 0, bank_refill_seconds: 0, bank_max_seconds: 0 };
  return { bank_seconds: seconds, bank_max_seconds: 2 * seconds };
}

// --- quick reactions (issue 23): on unless the host turns them off ---------------------------

function reactionsChoice() {
  return h("p", {}, h("input", { id: "t-reactions", type: "checkbox", checked: true }), " ",
    h("label", { for: "t-reactions" }, t("web.create.reactions")));
}

/** "23:30" today (or tomorrow if already past) as ISO 8601 with this device's offset. */
function stopAt(hhmm) {
  const [hours, minutes] = hhmm.split(":").map(Number);
  const when = new Date();
  when.setHours(hours, minutes, 0, 0);
  if (when.getTime() < Date.now()) when.setDate(when.getDate() + 1);
  const offset = -when.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(hours)}:${pad(minutes)}:00${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

main();
