// Re-entries (G8) and late seats (G9): the create form's fields, the host's "re-enter" button,
// the re-entries in the standings and what a waiting player is told (D8: they are dealt in
// when the big blind reaches their seat). Off by default: a freezeout is the house rule (G4).

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Whether a player arriving now may ask for a seat (G9). */
export function lateSeatsOpen(table) {
  const entries = table.entries;
  return Boolean(entries && entries.open && entries.late_seats
                 && (table.status === "playing" || table.status === "paused"));
}

/** The host's button for a seat out of chips while re-entries are open, or null. */
export function reentryButton(table, seat, send) {
  const entries = table.entries;
  if (!entries || !entries.open || !seat.out) return null;
  const used = entries.reentries[String(seat.seat)] || 0;
  if (used >= entries.times) return null;
  return h("button", { type: "button", class: "small", "data-reenter": seat.seat,
                       onclick: () => send({ type: "reenter", seat: seat.seat }) },
    t("entries.reenter_button"), h("span", { class: "sr-only" }, ` ${seat.name}`));
}

/** What a waiting seat is told: the hand it is dealt in at and why, or null. */
export function waitingText(table, seatNumber) {
  const waiting = table.entries && table.entries.waiting[String(seatNumber)];
  if (!waiting || !waiting.hand) return null;
  return t(waiting.now ? "entries.joins_now" : "entries.joins_at_big_blind",
           { hand: waiting.hand, seat: seatNumber });
}

/** The create form's block: its element, and `read(body)` adding the chosen period to it. */
export function reentryFields() {
  const on = h("input", { id: "t-reentry", type: "checkbox" });
  const times = h("input", { id: "t-reentries", type: "number", min: 1, max: 10, value: 1 });
  const end = h("select", { id: "t-reentry-end", "aria-label": t("entries.until") },
    h("option", { value: "minutes" }, t("entries.until_minutes")),
    h("option", { value: "level" }, t("entries.until_level")));
  const until = h("input", { id: "t-reentry-until", type: "number", min: 1, max: 1440, value: 60,
                             "aria-label": t("entries.until") });
  const late = h("input", { id: "t-late-seats", type: "checkbox" });
  const details = h("div", { id: "t-reentry-details" },
    h("p", {}, h("label", { for: "t-reentries" }, t("entries.times")), times),
    h("p", {}, h("label", { for: "t-reentry-until" }, t("entries.until")), end, " ", until),
    h("p", {}, late, " ", h("label", { for: "t-late-seats" }, t("entries.late_seats"))));
  const show = () => { details.hidden = !on.checked; };
  on.addEventListener("change", show);
  show();
  const element = h("fieldset", { id: "reentry-box" }, h("legend", {}, t("entries.title")),
    h("p", {}, on, " ", h("label", { for: "t-reentry" }, t("entries.enable"))), details);
  return {
    element,
    read(body) {
      if (!on.checked) return;
      body.reentries = Number(times.value) || 1;
      if (end.value === "level") body.reentry_level = Number(until.value) || 1;
      else body.reentry_minutes = Number(until.value) || 60;
      body.late_seats = late.checked;
    },
  };
}
