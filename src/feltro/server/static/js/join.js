// The join page, `/join/<table>`: give a name, ask for a seat, then go to the player page.

import { boot, connect } from "./boot.js";
import { tableIdFromPath, tokens } from "./net.js";
import { t } from "./i18n.js";
import { $, botLabel, errorText, fill, h, toast } from "./ui.js";
import { lateSeatsOpen } from "./entries.js";

const app = { tableId: tableIdFromPath(), link: null, state: null, asked: false };

async function main() {
  const goOn = await boot({
    before: () => {
      const known = tokens.get("seat", app.tableId);
      if (!known) return true;
      location.replace(`/play/${encodeURIComponent(app.tableId)}#${encodeURIComponent(known)}`);
      return false;
    },
    link: () => app.link,
    onSettings: () => render(true),
  });
  if (!goOn) return;
  connect(app, { role: "spectator", onState: (msg, first) => render(first), onMessage });
}

function onMessage(msg) {
  if (msg.type === "seat_request" && msg.token) {
    tokens.set("seat", app.tableId, msg.token);
    location.assign(`/play/${encodeURIComponent(app.tableId)}#${encodeURIComponent(msg.token)}`);
  } else if (msg.type === "error") {
    app.asked = false;
    const button = $("#ask");
    if (button) button.disabled = false;
    toast(errorText(msg), { urgent: true });
  }
}

function render(full) {
  const state = app.state;
  if (!state) return;
  const table = state.table;
  document.title = `${table.name} · feltro`;
  $("#title").textContent = t("web.join.title", { table: table.name });
  const seated = table.seats.filter((s) => s.occupied);
  const list = h("ul", { class: "names" }, seated.map((s) => h("li", {}, s.name,
    s.bot ? h("span", { class: "tag bot" }, botLabel(s.bot)) : null)));
  const existing = $("#join-form");
  if (table.status !== "lobby" && !lateSeatsOpen(table)) {
    fill($("#main"), h("section", { class: "panel" },
      h("p", {}, t("web.join.started")),
      h("p", {}, h("a", { class: "button", href: `/table/${encodeURIComponent(app.tableId)}` }, t("web.join.watch"))),
      h("h2", {}, t("web.join.seated")), list));
    return;
  }
  if (existing && !full) {
    fill($("#seated"), list);
    fillSeats($("#seat-select"), table);
    return;
  }
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 24, autocomplete: "nickname",
                            autocapitalize: "words" });
  const seat = h("select", { id: "seat-select", name: "seat" });
  fillSeats(seat, table);
  const form = h("form", { id: "join-form", class: "panel" },
    h("p", {}, h("label", { for: "name" }, t("web.join.name")), name),
    h("p", {}, h("label", { for: "seat-select" }, t("web.join.seat")), seat),
    h("p", {}, h("button", { id: "ask", type: "submit", class: "primary" }, t("web.join.ask"))));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = name.value.trim();
    if (!value || app.asked) return;
    const msg = { type: "join", name: value };
    if (seat.value) msg.seat = Number(seat.value);
    if (app.link.send(msg)) {
      app.asked = true;
      $("#ask").disabled = true;
    } else {
      toast(t("web.net.offline"), { urgent: true });
    }
  });
  fill($("#main"), form, h("section", { class: "panel" },
    h("h2", {}, t("web.join.seated")), h("div", { id: "seated" }, list)));
  name.focus();
}

function fillSeats(select, table) {
  const chosen = select.value;
  fill(select, h("option", { value: "" }, t("web.join.any_seat")),
    ...table.seats.filter((s) => !s.occupied).map((s) => h("option", { value: s.seat, selected: String(s.seat) === chosen },
      t("web.seat.number", { n: s.seat }))));
}

main();
