// The host page, `/host/<table>#<host token>`: invite, seat, add bots, start, pause, end.
// It receives only the public table (the host role holds no cards); the host plays, if they
// want to, from their own player page like everybody else.

import { boot, connect } from "./boot.js";
import { fragmentToken, tableIdFromPath, tokens } from "./net.js";
import { t } from "./i18n.js";
import {
  $, boardView, botLabel, errorText, fill, h, logView, ordinal, potsView, qrImage, seatList,
  standingsView, stopText, toast,
} from "./ui.js";
import { resultsView } from "./results.js";
import { levelText } from "./levels.js";
import { reentryButton, waitingText } from "./entries.js";
import { alarmsView } from "./fairclient.js";
import { renderNightOver } from "./lasthand.js";

// Bots added from the host page play a sensible game unless the host picks another level.
const DEFAULT_BOT = "tag";

const app = { tableId: tableIdFromPath(), link: null, state: null, built: false, resultsFor: null };

async function main() {
  await boot({
    link: () => app.link,
    onSettings: () => {
      app.built = false;
      app.resultsFor = null;
      render();
    },
  });
  const fromLink = fragmentToken();
  if (fromLink) tokens.set("host", app.tableId, fromLink);
  const token = fromLink || tokens.get("host", app.tableId);
  if (!token) {
    fill($("#main"), h("p", { class: "panel warn" }, t("web.host.missing_token")));
    return;
  }
  connect(app, { role: "host", token, onState: render, onMessage });
}

function onMessage(msg) {
  if (msg.type === "seat_request" && msg.token) {
    tokens.set("seat", app.tableId, msg.token);
    render();
  } else if (msg.type === "seat_link") {
    app.seatLink = { seat: msg.seat, url: `${location.origin}/play/${encodeURIComponent(app.tableId)}#${encodeURIComponent(msg.token)}` };
    render();
  } else if (msg.type === "error") {
    toast(errorText(msg), { urgent: true });
  }
}

function send(msg) {
  if (!app.link.send(msg)) toast(t("web.net.offline"), { urgent: true });
}

// --- rendering ---------------------------------------------------------------------------------

function render() {
  const state = app.state;
  if (!state) return;
  const { table, you } = state;
  document.title = `${t("web.host.title", { table: table.name })} · feltro`;
  $("#title").textContent = t("web.host.title", { table: table.name });
  if (table.status === "over") {
    app.built = false;
    const seatToken = tokens.get("seat", app.tableId);
    const mySeat = table.seats.find((s) => s.host)?.seat ?? null;
    renderNightOver(app, table, $("#main"), () => resultsView(table, { tableId: app.tableId, seat: mySeat, token: seatToken }));
    return;
  }
  app.sawPlay = table.status !== "lobby";
  if (!app.built) {
    fill($("#main"), skeleton(you));
    app.built = true;
  }
  const now = app.link.now();
  fill($("#host-status"), ...statusParts(table));
  fill($("#controls"), ...controls(table));
  fill($("#requests"), ...requestParts(you));
  fill($("#seat-admin"), seatAdmin(table));
  $("#bot-box").hidden = table.status !== "lobby";
  for (const el of document.querySelectorAll(".share .invite-only")) el.hidden = table.status !== "lobby";
  const kinds = $("#bot-kind");
  if (kinds && kinds.options.length !== (you.bots || []).length) {
    fill(kinds, ...(you.bots || []).map((kind) => h("option", { value: kind }, botLevel(kind))));
    if ((you.bots || []).includes(DEFAULT_BOT)) kinds.value = DEFAULT_BOT;
  }
  renderPlayToo(table);
  fill($("#overview"),
    h("div", { class: "middle" }, boardView(table), potsView(table)),
    seatList(table, { now }));
  fill($("#host-log"), logView(table));
  fill($("#host-standings"), standingsView(table, now));
}

function skeleton() {
  const joinUrl = `${location.origin}/join/${encodeURIComponent(app.tableId)}`;
  const tableUrl = `/table/${encodeURIComponent(app.tableId)}`;
  const linkBox = h("input", { id: "join-link", readonly: true, value: joinUrl, "aria-label": t("web.host.share") });
  const botName = h("input", { id: "bot-name", maxlength: 24 });
  const botKind = h("select", { id: "bot-kind" });
  const botForm = h("form", { id: "bot-form" },
    h("p", {}, h("label", { for: "bot-kind" }, t("web.host.bot_kind")), botKind),
    h("p", {}, h("label", { for: "bot-name" }, t("web.host.bot_name")), botName),
    h("p", {}, h("button", { type: "submit" }, t("web.host.add"))));
  botForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const msg = { type: "add_bot", kind: botKind.value };
    if (botName.value.trim()) msg.name = botName.value.trim();
    send(msg);
    botName.value = "";
  });
  return h("div", { class: "host-grid" },
    h("section", { class: "panel", "aria-labelledby": "ctl-title" },
      h("h2", { id: "ctl-title" }, t("web.host.controls")),
      h("div", { id: "host-status", role: "status" }),
      h("div", { id: "controls", class: "controls" }),
      h("p", { class: "quiet" }, t("web.host.no_secret"))),
    h("section", { class: "panel share", "aria-labelledby": "share-title" },
      h("h2", { id: "share-title" }, t("web.host.share")),
      h("p", { class: "invite-only" }, t("web.host.share_hint")),
      h("div", { class: "invite-only" }, qrImage(app.tableId)),
      h("p", { class: "link-row" }, linkBox,
        h("button", { type: "button", onclick: () => copy(joinUrl, linkBox) }, t("web.host.copy"))),
      h("p", {}, h("a", { href: tableUrl, target: "_blank", rel: "noopener" }, t("web.host.table_screen")))),
    h("section", { class: "panel", "aria-labelledby": "req-title" },
      h("h2", { id: "req-title" }, t("web.host.requests")),
      h("div", { id: "requests", "aria-live": "polite" })),
    h("section", { class: "panel", "aria-labelledby": "seats-title" },
      h("h2", { id: "seats-title" }, t("web.host.seats")),
      h("div", { id: "seat-admin" }),
      h("div", { id: "bot-box" }, h("h3", {}, t("web.host.add_bot")), botForm)),
    h("section", { class: "panel", id: "play-too", "aria-labelledby": "play-title" },
      h("h2", { id: "play-title" }, t("web.host.play_too")),
      h("div", { id: "play-too-body" })),
    h("section", { class: "panel wide", "aria-label": t("web.tabs.table") },
      h("div", { id: "overview", class: "table-area" })),
    h("section", { class: "panel" }, h("div", { id: "host-standings" })),
    h("section", { class: "panel" }, h("div", { id: "host-log" })));
}

async function copy(text, box) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("web.host.copied"));
  } catch {
    box.select();
  }
}

function statusParts(table) {
  const parts = [h("p", {}, h("strong", {}, t(`web.status.${table.status}`, { problem: table.problem || "" })))];
  if (table.hand) parts.push(h("p", {}, t("web.hand.number", { n: table.hand.number })));
  const level = levelText(table, app.link.now());
  if (level) parts.push(h("p", { "data-level": "1" }, level));
  if (table.pause_pending) parts.push(h("p", { class: "warn" }, t("web.hand.pause_pending")));
  const stop = stopText(table, app.link.now());
  if (stop) parts.push(h("p", { "data-stop": "1" }, stop));
  parts.push(alarmsView(table)); // a failed deal check a device reported: all night long
  return parts;
}

function controls(table) {
  const buttons = [];
  if (table.status === "lobby") {
    const enough = table.seats.filter((s) => s.occupied).length >= 2;
    buttons.push(h("button", { type: "button", class: "primary", id: "start", disabled: !enough,
                               "aria-describedby": enough ? null : "need-two",
                               onclick: () => send({ type: "start" }) }, t("web.host.start")));
    if (!enough) buttons.push(h("p", { id: "need-two", class: "quiet" }, t("web.host.need_two")));
  } else if (table.status === "playing" || table.status === "paused") {
    buttons.push(table.paused
      ? h("button", { type: "button", id: "resume", onclick: () => send({ type: "resume" }) }, t("web.host.resume"))
      : h("button", { type: "button", id: "pause", onclick: () => send({ type: "pause" }) }, t("web.host.pause")));
    if (!table.stop.requested) {
      buttons.push(h("button", { type: "button", id: "end", class: "danger", onclick: () => {
        if (window.confirm(t("web.host.end_confirm"))) send({ type: "end" });
      } }, t("web.host.end")));
    } else {
      buttons.push(h("p", { class: "warn" }, t("web.host.ending")));
    }
  }
  return buttons;
}

function requestParts(you) {
  const requests = you.requests || [];
  if (!requests.length) return [h("p", { class: "quiet" }, t("web.host.no_requests"))];
  return [h("ul", { class: "requests" }, requests.map((r) => h("li", {},
    h("strong", {}, r.name), r.seat ? ` (${t("web.seat.number", { n: r.seat })})` : "", " ",
    h("button", { type: "button", class: "primary", "data-accept": r.request_id,
                  onclick: () => send({ type: "accept", request_id: r.request_id }) }, t("web.host.accept", { name: r.name })),
    " ",
    h("button", { type: "button", "data-refuse": r.request_id,
                  onclick: () => send({ type: "refuse", request_id: r.request_id }) }, t("web.host.refuse", { name: r.name })))))];
}

function seatAdmin(table) {
  const lobby = table.status === "lobby";
  const playing = table.status === "playing" || table.status === "paused";
  return h("ul", { class: "admin-seats" }, table.seats.map((seat) => {
    if (!seat.occupied) return h("li", { class: "quiet" }, `${t("web.seat.number", { n: seat.seat })}: ${t("web.seat.empty")}`);
    const words = [];
    if (seat.bot) words.push(botLabel(seat.bot));
    if (seat.host) words.push(t("web.seat.host"));
    if (seat.removed) words.push(t("web.seat.removed"));
    else if (seat.away) words.push(t("web.seat.away"));
    if (!seat.bot && !seat.connected && !seat.removed) words.push(t("web.seat.offline"));
    if (seat.out) words.push(t("web.seat.out", { place: ordinal(seat.place) }));
    const waiting = waitingText(table, seat.seat);
    if (waiting) words.push(waiting);
    const actions = [];
    if (!seat.host && !seat.removed && !seat.out && (lobby || playing)) {
      actions.push(h("button", { type: "button", class: "small", "data-remove": seat.seat, onclick: () => {
        // Asked first (issue 23): a removal during play can be undone only until the next hand.
        if (lobby || window.confirm(t("web.host.undo.confirm", { name: seat.name }))) {
          send({ type: seat.bot ? "remove_bot" : "remove_player", seat: seat.seat });
        }
      } },
        t("web.host.remove"), h("span", { class: "sr-only" }, ` ${seat.name}`)));
    }
    const reenter = playing ? reentryButton(table, seat, send) : null;
    if (reenter) actions.push(reenter);
    if (playing && seat.restorable) {
      actions.push(h("button", { type: "button", class: "small", "data-restore": seat.seat,
        onclick: () => send({ type: "restore_seat", seat: seat.seat }) },
        t("web.host.undo.restore"), h("span", { class: "sr-only" }, ` ${seat.name}`)));
    }
    if ((lobby || playing) && !seat.bot && !seat.host && !seat.removed && !seat.out) {
      actions.push(h("button", { type: "button", class: "small", "data-reissue": seat.seat,
        onclick: () => send({ type: "reissue_seat", seat: seat.seat }) },
        t("web.host.link.new"), h("span", { class: "sr-only" }, ` ${seat.name}`)));
    }
    if (playing && !seat.bot && !seat.away && !seat.removed && !seat.out) {
      actions.push(h("button", { type: "button", class: "small", onclick: () => send({ type: "mark_away", seat: seat.seat }) },
        t("web.host.mark_away"), h("span", { class: "sr-only" }, ` ${seat.name}`)));
    }
    return h("li", { "data-seat": seat.seat },
      h("span", {}, `${t("web.seat.number", { n: seat.seat })}: `, h("strong", {}, seat.name)),
      words.length ? h("span", { class: "seat-status" }, ` — ${words.join(" · ")}`) : null,
      h("span", { class: "seat-stack" }, ` · ${standingStack(table, seat)}`), " ", actions,
      app.seatLink?.seat === seat.seat && !seat.removed ? seatLinkBox(seat) : null);
  }));
}

/** The seat's chips as the standings count them (before the hand in progress), so that the
 *  two lists of the host page agree mid-hand (issue 23). */
function standingStack(table, seat) {
  const row = (table.standings || []).find((r) => r.seat === seat.seat);
  return row ? row.stack : seat.stack ?? "";
}

/** The seat's new link (issue 23), to send to its player: the old one no longer works. */
function seatLinkBox(seat) {
  // Built once per new link: the seat list is redrawn at every state, the QR fetched once.
  if (!app.seatLink.box) app.seatLink.box = buildSeatLinkBox(seat);
  return app.seatLink.box;
}

function buildSeatLinkBox(seat) {
  const url = app.seatLink.url;
  const box = h("input", { readonly: true, value: url, id: `seat-link-${seat.seat}`, "aria-label": t("web.host.link.label", { name: seat.name }) });
  return h("div", { class: "seat-link" },
    h("p", {}, t("web.host.link.hint", { name: seat.name })),
    h("p", { class: "link-row" }, box, h("button", { type: "button", onclick: () => copy(url, box) }, t("web.host.copy"))),
    qrImage(app.tableId, { size: 180, link: url, alt: t("web.host.link.label", { name: seat.name }) }));
}

/** A bot level's name for the menu ("calling station"); the kind itself if it has none. */
function botLevel(kind) {
  const name = t(`bot.level.${kind}`);
  return name === `bot.level.${kind}` ? kind : name;
}

function renderPlayToo(table) {
  const body = $("#play-too-body");
  const seatToken = tokens.get("seat", app.tableId);
  if (seatToken) {
    if (!$("#open-seat", body)) {
      fill(body, h("p", {}, h("a", { id: "open-seat", class: "button primary", target: "_blank", rel: "noopener",
        href: `/play/${encodeURIComponent(app.tableId)}#${encodeURIComponent(seatToken)}` }, t("web.host.open_seat"))));
    }
    return;
  }
  if (table.status !== "lobby") {
    fill(body);
    $("#play-too").hidden = true;
    return;
  }
  if ($("#sit-form", body)) return;
  const name = h("input", { id: "host-name", maxlength: 24, required: true, autocomplete: "nickname" });
  const form = h("form", { id: "sit-form" },
    h("p", {}, h("label", { for: "host-name" }, t("web.host.play_name")), name),
    h("p", {}, h("button", { type: "submit" }, t("web.host.sit"))));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (name.value.trim()) send({ type: "join", name: name.value.trim() });
  });
  fill(body, form);
}

main();
