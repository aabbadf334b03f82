// The table screen, `/table/<table>`: a TV or a laptop everyone can see. Public information
// only (it connects as a spectator: the server sends it no private cards), large, with the
// last action announced.

import { boot, connect } from "./boot.js";
import { tableIdFromPath } from "./net.js";
import { t } from "./i18n.js";
import {
  $, actionText, announceLog, boardView, fill, h, handLevelLine, logLine, nameOf, potsView,
  qrImage, seatList, showdownView, standingsView, stopText,
} from "./ui.js";
import { levelText } from "./levels.js";
import { waitingText } from "./entries.js";
import { resultsView } from "./results.js";
import { alarmsView } from "./fairclient.js";
import { renderNightOver } from "./lasthand.js";
import { reviewView } from "./review.js";
import { showReaction } from "./reactions.js";

const app = { tableId: tableIdFromPath(), link: null, state: null, heard: { hand: 0, log: 0 }, resultsFor: null };

async function main() {
  await boot({
    link: () => app.link,
    onSettings: () => {
      app.resultsFor = null;
      render();
    },
  });
  connect(app, { role: "spectator", onState: render,
                 onMessage: (msg) => { if (msg.type === "reaction" && app.state) showReaction(app.state.table, msg); } });
}

/** The newest thing that happened, in words: an action, a board card, a pot won; with blind
 *  levels (G7), the hand's level until its first action. */
function lastEvent(table) {
  const hand = table.hand;
  if (!hand) return "";
  for (let i = hand.log.length - 1; i >= 0; i -= 1) {
    const entry = hand.log[i];
    if (entry.kind === "end") continue;
    if ((entry.kind === "blind" || entry.kind === "ante") && hand.level) return handLevelLine(hand);
    if (entry.kind === "action") return actionText(table, entry);
    const line = logLine(table, entry);
    if (line) return line;
  }
  return "";
}

function render() {
  const state = app.state;
  if (!state) return;
  const table = state.table;
  document.title = t("web.screen.title", { table: table.name });
  $("#title").textContent = table.name;
  const main = $("#main");
  if (table.status === "over") {
    renderNightOver(app, table, main, () => resultsView(table, { tableId: app.tableId }));
    return;
  }
  app.resultsFor = null;
  app.sawPlay = true;
  const now = app.link.now();
  const hand = table.hand;
  const info = [];
  if (hand) info.push(t("web.hand.number", { n: hand.number }));
  const level = levelText(table, now);  // G7: the tick keeps its countdown current
  info.push(level ? h("span", { "data-level": "1" }, level)
    : t("web.hand.blinds", { sb: table.settings.small_blind, bb: table.settings.big_blind }));
  if (hand && !hand.over) info.push(t(`web.street.${hand.street}`));
  const banner = [];
  if (table.status === "lobby") {
    banner.push(h("div", { class: "invite" },
      qrImage(app.tableId, { size: 220 }),
      h("p", { class: "big" }, t("web.screen.waiting")),
      h("p", { class: "join-url" }, `${location.origin}/join/${app.tableId}`)));
  }
  if (table.paused) banner.push(h("p", { class: "warn" }, t(table.pause_pending ? "web.hand.pause_pending" : "web.hand.paused")));
  const alarms = alarmsView(table); // a failed deal check anyone reported: all night long
  if (alarms) banner.push(alarms);
  const stop = stopText(table, now);
  if (stop) banner.push(h("p", { class: table.stop.last_hand ? "warn" : "", "data-stop": "1" }, stop));
  if (table.next_hand_at) banner.push(h("p", { id: "next-hand" }, t("web.hand.next_in", { s: Math.max(0, Math.ceil((table.next_hand_at - now) / 1000)) })));
  for (const seat of Object.keys((table.entries && table.entries.waiting) || {})) {
    const waiting = waitingText(table, Number(seat));  // G8, G9: when they are dealt in
    if (waiting) banner.push(h("p", { "data-waiting": seat }, `${nameOf(table, Number(seat))}: ${waiting}`));
  }
  const last = lastEvent(table);
  const turn = hand && !hand.over && hand.to_act !== null ? t("web.turn.of", { name: nameOf(table, hand.to_act) }) : "";
  const showdown = showdownView(table);
  fill(main, h("div", { class: "screen" },
    h("p", { class: "hand-info" }, info.flatMap((part, i) => (i ? [" · ", part] : [part]))),
    h("div", { class: "banner" }, banner),
    h("section", { class: "table-area oval", "aria-label": t("web.tabs.table") },
      seatList(table, { empty: false, now }),
      h("div", { class: "middle" },
        boardView(table, { size: "large" }),
        potsView(table),
        h("p", { class: "last-action", "aria-label": t("web.screen.last_action") }, last),
        turn ? h("p", { class: "turn" }, turn) : null)),
    h("div", { class: "screen-side" },
      showdown,
      standingsView(table, now),
      reviewBox(table))));
  announceLog(app.heard, table);
}

/** The earlier hands on the table screen (issue 23): loaded when opened, and again when a
 *  hand ends while it is open; the same box across re-renders. */
function reviewBox(table) {
  if (!app.review) {
    // A share link (`#hand-<n>`) opens the box on its hand, also while the series is played.
    const box = h("details", { class: "box", id: "review-box", open: location.hash.startsWith("#hand-"), ontoggle: () => {
      if (box.open) fill(box.querySelector(".review-slot"), reviewView(app.tableId));
    } }, h("summary", {}, t("web.review.title")), h("div", { class: "review-slot" }));
    if (box.open) fill(box.querySelector(".review-slot"), reviewView(app.tableId));
    app.review = { hands: table.hands_played, box };
  }
  const review = app.review;
  if (review.hands !== table.hands_played) {
    review.hands = table.hands_played;
    if (review.box.open) fill(review.box.querySelector(".review-slot"), reviewView(app.tableId));
  }
  return review.box;
}

main();
