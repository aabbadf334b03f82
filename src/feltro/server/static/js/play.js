// The player page, `/play/<table>#<seat token>`: own cards, the table around them, the actions.

import { boot, connect } from "./boot.js";
import { fragmentToken, tableIdFromPath, tokens, newId } from "./net.js";
import { t } from "./i18n.js";
import {
  $, announce, announceLog, boardView, card, cardsText, errorText, fill, h, logView, nameOf,
  potsView, refusalWords, seatList, seatOf, showdownView, showNet, standingsView, stopText,
  timerBar, toast,
} from "./ui.js";
import { resultsView } from "./results.js";
import { levelText } from "./levels.js";
import { waitingText } from "./entries.js";
import {
  alarmsView, badCards, contributeIfDue, dealProblems, forgetSent, noteAlarm,
} from "./fairclient.js";
import { renderNightOver } from "./lasthand.js";
import { turnNotice, turnTitle } from "./turnnotice.js";
import { seatGoneView } from "./seatgone.js";
import { reviewView } from "./review.js";
import { reactionBar, showReaction } from "./reactions.js";
import { syncShowLosers } from "./showlosers.js";

const app = {
  tableId: tableIdFromPath(),
  token: null,
  link: null,
  state: null,
  legalKey: null, // "hand:turn" of the actions on screen
  pending: null, // {id, msg} of an action sent and not yet answered
  amount: null, // the raise amount chosen
  heard: { hand: 0, log: 0 }, // log entries already announced
  resultsFor: null,
  fairBad: [], // cards seen that do not match the deal's commitments
  alarmed: new Set(), // the failed deal checks this page reported ("alarm-<hand>-<check>")
};

async function main() {
  await boot({
    chrome: { skipTo: "actions" },
    link: () => app.link,
    onSettings: () => {
      app.legalKey = null;
      app.resultsFor = null;
      $("#game")?.remove(); // rebuilt in the new language
      render();
    },
  });
  const fromLink = fragmentToken();
  if (fromLink) tokens.set("seat", app.tableId, fromLink);
  app.token = fromLink || tokens.get("seat", app.tableId);
  if (!app.token) {
    location.replace(`/join/${encodeURIComponent(app.tableId)}`);
    return;
  }
  connect(app, {
    role: "player", token: app.token, onMessage,
    onState: (msg) => { render(); checkFairness(msg); },
    onStatus: (status, detail) => {
      showNet(status, detail);
      if (status === "gone" && (detail === "bad_token" || detail === "revoked")) {
        // A revoked seat keeps its link on the device: the host may undo the removal.
        if (detail === "bad_token") tokens.remove("seat", app.tableId);
        app.gone = true;
        fill($("#main"), seatGoneView(app.tableId));
        return;
      }
      renderActions(true);
    },
  });
  document.addEventListener("keydown", onKey);
}

function onMessage(msg) {
  if (msg.type === "error") { // a refused seal or value (CONTRIBUTE_ID) is shown, with its reason
    if (app.pending && msg.ref === app.pending.id) {
      app.pending = null;
      renderActions(true);
    }
    if (msg.code !== "bad_token") toast(errorText(msg), { urgent: true });
    if (msg.code === "bad_token") showNet("gone", "bad_token");
  } else if (msg.type === "reaction") {
    if (app.state) showReaction(app.state.table, msg);
  } else if (msg.type === "ack") {
    if (app.pending && msg.ref === app.pending.id) app.pending.acked = true;
  } else if (msg.type === "welcome") {
    forgetSent();
    // After a reconnect, resend an action that got no answer if its turn is still open:
    // the server applies an id once, so this can never act twice.
    app.resend = app.pending && !app.pending.acked ? app.pending : null;
  }
}

// The verifiable shuffle: this phone's randomness for the next hand, and its own check of every
// card it sees (a clear warning if one does not match what the table committed to).
function checkFairness(state) {
  contributeIfDue(state, app.link).then(() => dealProblems(state)).then((failed) => {
    const number = state.table.hand && state.table.hand.number;
    const checks = [...(failed || [])];
    // On this screen at once and all night, whatever the server does with the message ...
    if (checks.filter((check) => noteAlarm({ hand: number, seat: state.you.seat, check })).length) render();
    for (const check of checks) { // ... and told to every screen
      const id = `alarm-${number}-${check}`;
      if (app.alarmed.has(id)) continue;
      app.alarmed.add(id);
      app.link.send({ type: "fair_alarm", hand: number, check, id });
    }
  }).catch(() => {});
  badCards(state).then((bad) => {
    if (bad === null || app.state !== state) return;
    if (bad.join() !== app.fairBad.join()) {
      app.fairBad = bad;
      render();
    }
  }).catch(() => {});
}

// --- rendering ---------------------------------------------------------------------------------

function render() {
  const state = app.state;
  if (!state || app.gone) return;
  const { table, you } = state;
  document.title = turnTitle(`${table.name} · feltro`, Boolean(myLegal()));
  $("#title").textContent = table.name;
  const main = $("#main");
  main.dataset.status = table.status;
  if (you.role === "pending" || (you.role === "player" && you.seat === null)) {
    fill(main, pendingView(you));
    return;
  }
  if (table.status === "over") {
    renderNightOver(app, table, main, () => resultsView(table, { seat: you.seat, token: app.token, tableId: app.tableId }));
    return;
  }
  app.resultsFor = null;
  app.sawPlay = true;
  if (!$("#game", main)) fill(main, gameSkeleton());
  const now = app.link.now();
  fill($("#hand-info"), ...handInfo(table));
  fill($("#banner"), ...bannerParts(table, you, now));
  fill($("#seats"), seatList(table, { you: you.seat, skipYou: true, now }));
  fill($("#middle"), boardView(table), potsView(table));
  fill($("#me"), ...meParts(table, you, now), ...showMine(you));
  renderActions(false);
  $("#reactions-bar").hidden = table.settings.reactions === false || table.status === "lobby";
  fill($("#showdown"), showdownView(table));
  fill($("#log"), logView(table));
  fill($("#standings"), standingsView(table, now));
  speak(table, you);
  syncShowLosers(app, you, table.status !== "lobby" && you.hole !== undefined);
}

/** After winning a hand everybody else folded, before the next deal: show it to all (P8). */
function showMine(you) {
  if (!you.may_show) return [];
  return [h("button", { type: "button", id: "show-cards", onclick: () => app.link.send({ type: "show" }) },
    t("web.show.button"))];
}

function gameSkeleton() {
  return h("div", { id: "game", class: "game" },
    h("div", { id: "banner", class: "banner", role: "status" }),
    h("p", { id: "hand-info", class: "hand-info" }),
    h("section", { class: "table-area", "aria-label": t("web.tabs.table") },
      h("div", { id: "seats" }),
      h("div", { id: "middle", class: "middle" })),
    h("section", { id: "me", class: "me", "aria-label": t("web.hand.your_cards") }),
    h("section", { id: "actions", class: "actions", tabindex: "-1", "aria-label": t("web.turn.yours") }),
    h("div", { id: "showdown" }),
    h("div", { id: "reactions-bar" }, reactionBar((emoji) => app.link.send({ type: "react", emoji }))),
    h("div", { class: "side" },
      h("details", { id: "log-box", class: "box", open: window.innerWidth >= 900 },
        h("summary", {}, t("web.tabs.log")), h("div", { id: "log" })),
      h("details", { id: "standings-box", class: "box", open: window.innerWidth >= 900 },
        h("summary", {}, t("web.tabs.standings")), h("div", { id: "standings" })),
      // The earlier hands, loaded each time the box is opened (issue 23).
      h("details", { id: "review-box", class: "box", ontoggle: (event) => {
        if (event.target.open) fill($("#review-slot"), reviewView(app.tableId, { token: app.token }));
      } }, h("summary", {}, t("web.review.title")), h("div", { id: "review-slot" }))));
}

/** Hand number, the blinds or the level (G7: its countdown in a `data-level` span the quarter-
 *  second tick keeps current) and the street, joined by " · ". */
function handInfo(table) {
  const parts = [];
  const settings = table.settings;
  if (table.hand) parts.push(t("web.hand.number", { n: table.hand.number }));
  const level = levelText(table, app.link.now());
  parts.push(level ? h("span", { "data-level": "1" }, level)
    : t("web.hand.blinds", { sb: settings.small_blind, bb: settings.big_blind }));
  if (table.hand && !table.hand.over) parts.push(t(`web.street.${table.hand.street}`));
  return parts.flatMap((part, i) => (i ? [" · ", part] : [part]));
}

function bannerParts(table, you, now) {
  const parts = [];
  if (table.status === "lobby") parts.push(h("p", {}, t("web.status.lobby")));
  if (table.status === "broken" || table.status === "stalled") {
    parts.push(h("p", { class: "warn", role: "status" }, t(`web.status.${table.status}`, { problem: table.problem })));
  }
  if (table.paused) parts.push(h("p", { class: "warn" }, t(table.pause_pending ? "web.hand.pause_pending" : "web.hand.paused")));
  const stop = stopText(table, now);
  if (stop) parts.push(h("p", { class: table.stop.last_hand ? "warn" : "", "data-stop": "1" }, stop));
  if (table.next_hand_at) {
    parts.push(h("p", { id: "next-hand" }, t("web.hand.next_in", { s: Math.max(0, Math.ceil((table.next_hand_at - now) / 1000)) })));
  }
  if (app.fairBad.length) {
    parts.push(h("p", { class: "warn", id: "fair-warning", role: "alert" }, t("web.fair.card_bad", { cards: cardsText(app.fairBad) })));
  }
  const waiting = you.seat !== null ? waitingText(table, you.seat) : null;
  if (waiting) parts.push(h("p", { "data-waiting": "1" }, waiting));
  parts.push(alarmsView(table));
  if (you.away) {
    parts.push(h("p", { class: "warn" }, t("web.act.away"), " ",
      h("button", { type: "button", onclick: () => app.link.send({ type: "back" }) }, t("web.act.come_back"))));
  }
  return parts;
}

function meParts(table, you, now) {
  const seat = seatOf(table, you.seat);
  const hole = you.hole || [];
  const parts = [];
  parts.push(h("div", { class: "hole", role: "group", "aria-label": hole.length
    ? `${t("web.hand.your_cards")}: ${cardsText(hole)}` : t("web.hand.your_cards") },
    hole.length ? hole.map((c) => card(c, { size: "big" }))
      : [card(null, { size: "big ghost" }), card(null, { size: "big ghost" })]));
  const info = [];
  if (you.hand_name) info.push(h("p", { class: "hand-name" }, t("table.you_have", { hand: you.hand_name })));
  else if (table.hand && !table.hand.over && !seat.in_hand) info.push(h("p", {}, t("web.hand.not_in_hand")));
  const flags = [];
  if (seat.button) flags.push(h("abbr", { class: "tag marker", title: t("web.seat.button") }, "D"));
  if (seat.small_blind) flags.push(h("abbr", { class: "tag marker", title: t("web.seat.sb") }, "SB"));
  if (seat.big_blind) flags.push(h("abbr", { class: "tag marker", title: t("web.seat.bb") }, "BB"));
  if (seat.folded) flags.push(h("span", { class: "tag" }, t("web.seat.folded")));
  if (seat.all_in) flags.push(h("span", { class: "tag" }, t("web.seat.all_in")));
  info.push(h("p", { class: "me-line" },
    h("strong", {}, you.name || ""), h("span", { class: "sep", "aria-hidden": "true" }, " · "),
    h("span", { class: "seat-stack" }, t("web.hand.your_stack", { n: seat.stack ?? 0 })), " ",
    seat.bet ? h("span", { class: "seat-bet" }, t("web.seat.bet", { n: seat.bet })) : null, " ", flags));
  const hand = table.hand;
  if (hand && hand.over && hand.net && hand.net[String(you.seat)] !== undefined) {
    const net = hand.net[String(you.seat)];
    info.push(h("p", { class: "net" }, net > 0 ? t("web.hand.won", { n: net }) : net < 0 ? t("web.hand.lost", { n: -net }) : t("web.hand.even")));
  }
  if (hand && !hand.over && hand.to_act !== null) {
    const mine = hand.to_act === you.seat;
    info.push(h("p", { class: mine ? "turn mine" : "turn" },
      mine ? h("strong", {}, t("web.turn.yours")) : t("web.turn.of", { name: nameOf(table, hand.to_act) })));
    if (table.timer) info.push(timerBar(table, now));
  } else if (!hand || hand.over) {
    info.push(h("p", { class: "turn" }, t("web.hand.waiting_deal")));
  }
  parts.push(h("div", { class: "me-info" }, info));
  return parts;
}

function pendingView(you) {
  const request = you.request || {};
  const refused = request.status === "refused";
  return h("section", { class: "panel" },
    h("h2", {}, you.name || ""),
    h("p", { role: "status" }, refused ? t("web.join.refused") : t("web.join.waiting")),
    refused ? h("p", {}, h("a", { href: `/table/${encodeURIComponent(app.tableId)}` }, t("web.join.watch"))) : null);
}

// --- actions -----------------------------------------------------------------------------------

function myLegal() {
  const state = app.state;
  if (!state || state.table.status === "over") return null;
  return state.you.legal;
}

/** Sizes for the quick buttons: the server's, inside the legal range it sent. */
function quickSizes(legal) {
  const sizes = legal.sizes || {};
  const range = legal.raise;
  return {
    min: sizes.min ?? range.min,
    half: sizes.half_pot ?? range.min,
    pot: sizes.pot ?? range.max,
    max: sizes.all_in ?? range.max,
  };
}

/** Render the action panel; it is rebuilt only when the turn changes (or *force*), so a
 *  half-moved slider or the keyboard focus are not lost when other players' news arrives. */
function renderActions(force) {
  const panel = $("#actions");
  if (!panel) return;
  const legal = myLegal();
  const key = legal ? `${legal.hand}:${legal.turn}` : null;
  if (!force && key === app.legalKey) return;
  const newTurn = key !== null && key !== app.legalKey;
  app.legalKey = key;
  if (!legal) {
    app.pending = null;
    const you = app.state?.you;
    const canStep = app.state && app.state.table.status === "playing" && you && !you.away && you.seat;
    fill(panel, canStep ? h("p", { class: "quiet" },
      h("button", { type: "button", class: "small", onclick: () => app.link.send({ type: "away" }) }, t("web.act.step_away"))) : "");
    panel.classList.remove("live");
    return;
  }
  if (app.resend && app.resend.msg.hand === legal.hand && app.resend.msg.turn === legal.turn) {
    app.link.sendRaw(app.resend.msg);
  }
  app.resend = null;
  if (app.pending && (app.pending.msg.hand !== legal.hand || app.pending.msg.turn !== legal.turn)) app.pending = null;
  panel.classList.add("live");
  const disabled = Boolean(app.pending) || !app.link.isOpen;
  const buttons = [];
  buttons.push(h("button", { type: "button", class: "act fold", "data-act": "fold", disabled,
                             "aria-keyshortcuts": "F", onclick: () => act("fold") }, t("act.fold")));
  if (legal.check) {
    buttons.push(h("button", { type: "button", class: "act check", "data-act": "check", disabled,
                               "aria-keyshortcuts": "C", onclick: () => act("check") }, t("act.check")));
  } else {
    buttons.push(h("button", { type: "button", class: "act call", "data-act": "call", disabled,
                               "aria-keyshortcuts": "C", onclick: () => act("call") },
      t(legal.call_all_in ? "act.call_all_in" : "act.call", { amount: legal.call })));
  }
  const row = h("div", { class: "act-row" }, buttons);
  const parts = [row];
  if (legal.raise) {
    const sizes = quickSizes(legal);
    if (newTurn || app.amount === null || app.amount < sizes.min || app.amount > sizes.max) app.amount = sizes.min;
    const isBet = legal.bet;
    const raiseButton = h("button", { type: "button", class: "act raise", "data-act": "raise", disabled,
                                      "aria-keyshortcuts": "R", onclick: () => act("raise", app.amount) });
    const label = () => {
      raiseButton.textContent = app.amount === sizes.max ? t("act.size_all_in", { amount: app.amount })
        : `${t(isBet ? "act.bet_to" : "act.raise_to")} ${app.amount}`;
    };
    label();
    row.append(raiseButton);
    if (sizes.max > sizes.min) {
      const slider = h("input", { type: "range", id: "amount-range", min: sizes.min, max: sizes.max, step: 1,
                                  value: app.amount, "aria-label": t("web.act.amount"), disabled });
      const number = h("input", { type: "number", id: "amount", inputmode: "numeric", min: sizes.min,
                                  max: sizes.max, step: 1, value: app.amount, "aria-label": t("web.act.amount"),
                                  disabled, "aria-describedby": "amount-help" });
      const help = h("p", { id: "amount-help", class: "amount-help", "aria-live": "polite" });
      const set = (value, from) => {
        app.amount = value;
        if (from !== slider) slider.value = String(value);
        if (from !== number) number.value = String(value);
        help.textContent = "";
        label();
      };
      slider.addEventListener("input", () => set(Number(slider.value), slider));
      number.addEventListener("input", () => {
        const value = Number(number.value);
        if (Number.isInteger(value) && value >= sizes.min && value <= sizes.max) set(value, number);
      });
      number.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          const value = Number(number.value);
          const problem = Number.isInteger(value) && value < 0 ? t("input.below_zero", { text: number.value.trim(), min: sizes.min })
            : !Number.isInteger(value) || number.value.trim() === "" ? t("input.not_a_number", { text: number.value })
            : value < sizes.min ? t("input.below_min", { amount: value, min: sizes.min })
              : value > sizes.max ? t("input.above_stack", { amount: value, max: sizes.max }) : null;
          if (problem) {
            help.textContent = problem;
            return;
          }
          set(value, number);
          act("raise", value);
        }
      });
      number.addEventListener("blur", () => {
        if (Number(number.value) !== app.amount) number.value = String(app.amount);
      });
      const quick = [["min", "act.size_min", "M"], ["half", "act.size_half_pot", "H"], ["pot", "act.size_pot", "P"],
                     ["max", "act.size_all_in", "A"]]
        .map(([which, keyName, shortcut]) => h("button", {
          type: "button", class: "quick", "data-size": which, disabled, "aria-keyshortcuts": shortcut,
          onclick: () => set(sizes[which], null),
        }, t(keyName, { amount: sizes[which] })));
      parts.push(h("div", { class: "sizer" },
        h("div", { class: "quick-row" }, quick),
        h("div", { class: "amount-row" }, slider, number),
        help));
      app.setAmount = (which) => set(sizes[which], null);
      app.focusAmount = () => slider.focus();
    } else {
      app.setAmount = null;
      app.focusAmount = () => raiseButton.focus();
    }
  } else {
    app.setAmount = null;
    app.focusAmount = null;
  }
  // Why a raise is not offered (B7, B8, B10) is news; that a check is not, every time a bet
  // is owed, is not: the Call button already says what is owed (B3).
  const refusals = Object.entries(legal.refusal_details || {}).filter(([kind]) => kind !== "check")
    .map(([, refusal]) => refusal);
  if (refusals.length) {
    parts.push(h("ul", { class: "refusals" }, refusals.map((refusal) => h("li", {}, refusalWords(refusal)))));
  }
  if (app.pending) parts.push(h("p", { class: "quiet" }, t("web.act.sent")));
  fill(panel, ...parts);
  if (newTurn && !app.pending) {
    announce(t("web.announce.turn", {
      options: legal.check ? t("web.announce.options_check") : t("web.announce.options_call", { n: legal.call }),
    }), { urgent: true });
    if (window.matchMedia("(hover: hover)").matches) panel.querySelector("button.act")?.focus();
    turnNotice();
  }
  if (newTurn) panel.scrollIntoView({ block: "nearest" });
}

function act(action, to) {
  const legal = myLegal();
  if (!legal || app.pending) return;
  const msg = { type: "act", id: newId("a"), hand: legal.hand, turn: legal.turn, action };
  if (action === "raise") msg.to = to;
  if (!app.link.sendRaw(msg)) {
    toast(t("web.net.offline"), { urgent: true });
    return;
  }
  app.pending = { id: msg.id, msg, acked: false };
  renderActions(true);
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target instanceof HTMLElement && (target.tagName === "SELECT" || target.tagName === "TEXTAREA"
    || (target.tagName === "INPUT" && target.type !== "range" && target.type !== "checkbox"));
  if (typing || document.querySelector("dialog[open]")) return;
  const legal = myLegal();
  if (!legal) return;
  const key = event.key.toLowerCase();
  if (key === "f") act("fold");
  else if (key === "c" || key === "k") act(legal.check ? "check" : "call");
  else if ((key === "r" || key === "b") && app.focusAmount) app.focusAmount();
  else if (key === "enter" && target instanceof HTMLInputElement && target.type === "range") act("raise", app.amount);
  else if (app.setAmount && { m: "min", h: "half", p: "pot", a: "max" }[key]) app.setAmount({ m: "min", h: "half", p: "pot", a: "max" }[key]);
  else return;
  event.preventDefault();
}

// --- announcements -----------------------------------------------------------------------------

function speak(table, you) {
  // A player hears their own cards with the new hand; the blinds are not read out.
  const cards = you.hole && you.hole.length ? cardsText(you.hole) : "";
  announceLog(app.heard, table, {
    newHand: (n) => (cards ? t("web.announce.new_hand", { n, cards }) : t("web.announce.new_hand_public", { n })),
    skip: (entry) => entry.kind === "blind" || entry.kind === "ante",
  });
}

main();
