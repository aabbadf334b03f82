// Pieces shared by every page: a tiny element builder, cards, seats, board and pots, the hand
// log, the showdown, standings, timers, the settings dialog and the screen-reader announcer.
//
// Nothing here reads the network: each function takes the `table` part of a `state` message
// (public, the same for everybody) and returns elements.

import { t, lang, loadLang, languageOptions, translatePage } from "./i18n.js";

// --- elements ----------------------------------------------------------------------------------

/** `h("p", {class: "x"}, "text", child)`: an element; text children are never parsed as HTML. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  el.append(...nodes(children));
  return el;
}

/** `fill(el, ...children)`: *el*'s children replaced by *children*, taken as h() takes them. */
export function fill(el, ...children) {
  el.replaceChildren(...nodes(children));
  return el;
}

// h()'s and fill()'s children: arrays flattened; null, undefined, false left out (not "null").
function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
}

export const $ = (selector, root = document) => root.querySelector(selector);

// --- cards -------------------------------------------------------------------------------------

const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** The spoken name of a card: "Ace of spades". */
export function cardName(code) {
  if (!code) return t("web.card.unknown");
  return t("web.card.name", { rank: t(`web.rank.${code[0]}`), suit: t(`web.suit.${code[1]}`) });
}

/** A card face: rank and suit symbol (colour is a second cue, never the only one). */
export function card(code, { size = "" } = {}) {
  if (!code) {
    return h("span", { class: `card back ${size}`, role: "img", "aria-label": t("web.card.unknown") });
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  return h("span", { class: `card suit-${suit} ${size}`, role: "img", "aria-label": cardName(code),
                     "data-card": code },
    h("span", { class: "rank", "aria-hidden": "true" }, rank),
    h("span", { class: "suit", "aria-hidden": "true" }, SUIT_SYMBOL[suit]));
}

export function cardsText(codes) {
  return (codes || []).map(cardName).join(", ");
}

/** Cards as short text, "A♠ K♦", for log lines. */
export function cardsShort(codes) {
  return (codes || []).map((c) => `${c[0] === "T" ? "10" : c[0]}${SUIT_SYMBOL[c[1]]}`).join(" ");
}

// --- names and numbers -------------------------------------------------------------------------

/** A bot's level in words ("bot: calling station"); always says that it is a bot. */
export function botLabel(kind) {
  const key = `bot.level.${kind}`;
  const name = t(key);
  return t("web.seat.bot_kind", { kind: name === key ? kind : name });
}

export function seatOf(table, number) {
  return table.seats.find((s) => s.seat === number) || { seat: number, occupied: false };
}

export function nameOf(table, number) {
  const seat = seatOf(table, number);
  return seat.name || t("web.seat.number", { n: number });
}

export function potName(index) {
  return index === 0 ? t("pot.main") : t("pot.side", { number: index });
}

export function potLabel(index, amount) {
  return `${potName(index)} ${amount}`;
}

/** "1:02:03" or "4:05". */
export function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

// --- seats -------------------------------------------------------------------------------------

/** The short words that describe a seat's situation (each visible as text). */
function seatFlags(table, seat, { you }) {
  const flags = [];
  if (seat.bot) flags.push(h("span", { class: "tag bot" }, botLabel(seat.bot)));
  if (seat.seat === you) flags.push(h("span", { class: "tag you" }, t("web.seat.you")));
  if (seat.host) flags.push(h("span", { class: "tag" }, t("web.seat.host")));
  if (seat.button) flags.push(h("span", { class: "tag marker", title: t("web.seat.button") },
                                h("abbr", { title: t("web.seat.button") }, "D")));
  if (seat.small_blind) flags.push(h("span", { class: "tag marker", title: t("web.seat.sb") },
                                     h("abbr", { title: t("web.seat.sb") }, "SB")));
  if (seat.big_blind) flags.push(h("span", { class: "tag marker", title: t("web.seat.bb") },
                                   h("abbr", { title: t("web.seat.bb") }, "BB")));
  return flags;
}

function seatStatus(table, seat) {
  const words = [];
  if (seat.out) words.push(t("web.seat.out", { place: ordinal(seat.place) }));
  else if (seat.removed) words.push(t("web.seat.removed"));
  if (!seat.out && seat.away && !seat.removed) words.push(t("web.seat.away"));
  if (!seat.bot && !seat.connected && !seat.removed && !seat.out) words.push(t("web.seat.offline"));
  if (seat.folded) words.push(t("web.seat.folded"));
  else if (seat.all_in) words.push(t("web.seat.all_in"));
  if (seat.mucked) words.push(t("web.seat.mucked"));
  return words;
}

/** A place in the reader's language: "1st", "1.º" (pt-PT), "1º" (pt-BR). */
export function ordinal(place) {
  if (!place) return "";
  if (lang() === "pt-PT") return `${place}.º`;
  if (lang() === "pt-BR") return `${place}º`;
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix}`;
}

/** What a seat did last this hand, as words without its name ("raises to 6"): the seat box
 * shows the name just above. */
export function lastActionText(seat) {
  const last = seat.last_action;
  return last ? actionWords(last, (key, amount) => t(`seat.last.${key}`, { amount })) : "";
}

/** Where seat *index* of *count* sits around an ellipse, starting at the bottom centre: far
 * enough in that a whole seat box (at most `--seat-w` wide and `--seat-h` high, feltro.css) stays on
 * the felt, whose edge is an ellipse of radii 50% and 45% with straight sides. */
function ovalPosition(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { "--x": `${50 + 36 * Math.cos(angle)}%`, "--y": `${50 + 33 * Math.sin(angle)}%` };
}

/**
 * The seats as a list. Options: `you` (the viewer's seat, marked), `skipYou` (leave it out: the
 * player page shows it in its own panel), `empty` (show empty seats), `now` (server ms, timers).
 */
export function seatList(table, { you = null, skipYou = false, empty = false, now = 0 } = {}) {
  const count = table.seats.length;
  const start = you ? you % count : 0; // clockwise from the viewer's left
  const ordered = [];
  for (let i = 0; i < count; i += 1) ordered.push(table.seats[(start + i) % count]);
  const items = [];
  const toAct = table.hand && !table.hand.over ? table.hand.to_act : null;
  ordered.forEach((seat, index) => {
    if (!seat.occupied && !empty) return;
    if (skipYou && seat.seat === you) return;
    const style = ovalPosition(you ? (index + 1) % count : index, count);
    if (!seat.occupied) {
      items.push(h("li", { class: "seat empty", style },
        h("span", { class: "seat-name" }, t("web.seat.number", { n: seat.seat })),
        h("span", { class: "seat-status" }, t("web.seat.empty"))));
      return;
    }
    const acting = seat.seat === toAct;
    const status = seatStatus(table, seat);
    const classes = ["seat", acting && "to-act", seat.folded && "folded", seat.out && "out",
                     seat.seat === you && "me", (seat.away || !seat.connected) && "absent"];
    const shown = seat.shown ? h("span", { class: "seat-cards" }, seat.shown.map((c) => card(c, { size: "small" })))
      : seat.has_cards ? h("span", { class: "seat-cards", "aria-label": t("web.seat.cards"), role: "img" },
                           card(null, { size: "tiny" }), card(null, { size: "tiny" }))
        : null;
    const last = lastActionText(seat);
    items.push(h("li", { class: classes.filter(Boolean).join(" "), style, "data-seat": seat.seat },
      h("div", { class: "seat-head" },
        acting ? h("span", { class: "turn-arrow", "aria-hidden": "true" }, "▶") : null,
        h("span", { class: "seat-name" }, seat.name),
        h("span", { class: "seat-no" }, `#${seat.seat}`)),
      h("div", { class: "seat-flags" }, seatFlags(table, seat, { you })),
      h("div", { class: "seat-line" },
        h("span", { class: "seat-stack" }, t("web.seat.stack", { n: seat.stack ?? 0 })),
        seat.bet ? h("span", { class: "seat-bet" }, t("web.seat.bet", { n: seat.bet })) : null),
      shown,
      status.length ? h("div", { class: "seat-status" }, status.join(" · ")) : null,
      acting ? h("div", { class: "seat-status acting" }, t("web.seat.to_act")) : null,
      !acting && last && (!seat.folded || seat.last_action.timeout) ? h("div", { class: "seat-last" }, last) : null,
      acting && table.timer && table.timer.seat === seat.seat ? timerBar(table, now) : null));
  });
  return h("ul", { class: "seats", "aria-label": t("web.host.seats"),
                  style: count > 6 ? { "--seat-w": "16%", "--seat-h": "16%", "--seat-font": "1.85cqh" }
                    : { "--seat-w": "19%" } }, items);
}

// --- timer -------------------------------------------------------------------------------------

/** Seconds left and the phase of the turn's timer at server time *now*: the action time
 *  first, then the time bank (and, for a disconnected player, the extra time), each with its
 *  own full bar. */
export function timerInfo(timer, now) {
  if (!timer) return null;
  if (now <= timer.action_ends_at) {
    const span = Math.max(1, timer.action_ends_at - timer.started_at);
    const left = timer.action_ends_at - now;
    return { seconds: Math.ceil(left / 1000), fraction: left / span, phase: "action" };
  }
  const span = Math.max(1, timer.ends_at - timer.action_ends_at);
  const left = Math.max(0, timer.ends_at - now);
  const phase = timer.grace && now > timer.action_ends_at + timer.bank_ms ? "grace" : "bank";
  return { seconds: Math.ceil(left / 1000), fraction: left / span, phase };
}

export function timerBar(table, now) {
  const timer = table.timer;
  const info = timerInfo(timer, now);
  if (!info) return null;
  const name = nameOf(table, timer.seat);
  return h("div", { class: `timer phase-${info.phase}`, "data-timer": "1", role: "timer",
                    "aria-label": t("web.turn.timer_label", { name }) },
    h("span", { class: "timer-bar", "aria-hidden": "true" },
      h("span", { class: "timer-fill", style: { width: `${Math.round(info.fraction * 100)}%` } })),
    h("span", { class: "timer-text" }, timerWords(info)));
}

function timerWords(info) {
  const extra = info.phase === "bank" ? ` (${t("web.turn.bank")})`
    : info.phase === "grace" ? ` (${t("web.turn.grace")})` : "";
  return t("web.turn.seconds", { s: info.seconds }) + extra;
}

/** Refresh every timer on the page without re-rendering the rest (called a few times a second). */
export function tickTimers(table, now) {
  if (!table || !table.timer) return;
  const info = timerInfo(table.timer, now);
  for (const el of document.querySelectorAll("[data-timer]")) {
    el.className = `timer phase-${info.phase}`;
    const fill = el.querySelector(".timer-fill");
    if (fill) fill.style.width = `${Math.round(info.fraction * 100)}%`;
    const text = el.querySelector(".timer-text");
    if (text) text.textContent = timerWords(info);
  }
}

// --- board and pots ----------------------------------------------------------------------------

export function boardView(table, { size = "" } = {}) {
  const hand = table.hand;
  const board = hand ? hand.board : [];
  const slots = [];
  for (let i = 0; i < 5; i += 1) {
    slots.push(board[i] ? card(board[i], { size }) : h("span", { class: `card slot ${size}`, "aria-hidden": "true" }));
  }
  return h("div", { class: "board", role: "group",
                    "aria-label": board.length ? `${t("web.hand.board")}: ${cardsText(board)}` : t("web.hand.no_board") },
    slots);
}

export function potsView(table) {
  const hand = table.hand;
  if (!hand) return h("div", { class: "pots" });
  const parts = hand.over ? [] : [h("div", { class: "pot-total" }, t("web.hand.pot", { n: hand.pot_total }))];
  if (hand.pots.length > 1 || (hand.over && hand.pots.length)) {
    parts.push(h("ul", { class: "pot-list" }, hand.pots.map((pot, i) => {
      const winners = pot.winners
        ? ` → ${pot.winners.map((w, k) => `${nameOf(table, w)} ${pot.shares[k]}`).join(", ")}` : "";
      return h("li", {}, potLabel(i, pot.amount) + winners);
    })));
  }
  return h("div", { class: "pots" }, parts);
}

// --- log ---------------------------------------------------------------------------------------

/** An action of the log in words, with the player's name ("Ana raises to 6"). */
export function actionText(table, entry) {
  const name = nameOf(table, entry.seat);
  return actionWords(entry, (key, amount) => t(`log.${key}`, { name, amount }));
}

// An action as `say(key, amount)` words it: one key per kind of action (the log's, with the
// player's name, and a seat box's, without, are laid out alike).
function actionWords(entry, say) {
  const allIn = entry.all_in ? "_all_in" : "";
  if (entry.timeout) return say(entry.action === "check" ? "timeout.checks" : "timeout.folds");
  if (entry.withheld) return say("withheld.folds");
  switch (entry.action) {
    case "fold": return say("folds");
    case "check": return say("checks");
    case "call": return say(`calls${allIn}`, entry.chips);
    default: return say(`${entry.bet ? "bets" : "raises"}${allIn}`, entry.to);
  }
}

/** One log entry in words, or null for entries not worth a line. */
export function logLine(table, entry) {
  switch (entry.kind) {
    case "action": return actionText(table, entry);
    case "blind": return t(seatOf(table, entry.seat).small_blind && !seatOf(table, entry.seat).big_blind
      ? "log.posts_small_blind" : "log.posts_big_blind", { name: nameOf(table, entry.seat), amount: entry.amount });
    case "ante": return t("log.posts_ante", { name: nameOf(table, entry.seat), amount: entry.amount });
    case "board": return t("web.log.board", { street: t(`web.street.${entry.street}`), cards: cardsShort(entry.cards) });
    case "show": return `${t("log.shows", { name: nameOf(table, entry.seat) })} ${cardsShort(entry.cards)}`;
    case "muck": return t("log.mucks", { name: nameOf(table, entry.seat) });
    case "returned": return t("log.returned", { name: nameOf(table, entry.seat), amount: entry.amount });
    case "pot": return t("log.pot", {
      pot: potName(entry.index),
      amount: entry.amount,
      shares: entry.winners.map((w, k) => `${nameOf(table, w)} ${entry.shares[k]}`).join(", "),
    });
    case "end": return t("web.log.end");
    default: return null;
  }
}

/** Spoken text for a log entry (cards by name rather than symbols). */
export function logSpeech(table, entry) {
  if (entry.kind === "board") return t("web.announce.board", { street: t(`web.street.${entry.street}`), cards: cardsText(entry.cards) });
  if (entry.kind === "show") return `${t("log.shows", { name: nameOf(table, entry.seat) })} ${cardsText(entry.cards)}`;
  return logLine(table, entry);
}

/** A level's forced bets, "5/10" or "5/10 ante 1" (G7). */
export function blindsText(level) {
  const text = `${level.small_blind}/${level.big_blind}`;
  return level.ante ? `${text} ${t("levels.ante", { ante: level.ante })}` : text;
}

/** "Hand 7 is at level 2: 2/4", the first line of a hand's log with blind levels (G7); null
 *  with fixed blinds (the hand has no `level`). */
export function handLevelLine(hand) {
  if (!hand || !hand.level) return null;
  return t("levels.hand_level", { hand: hand.number, n: hand.level.level, blinds: blindsText(hand.level.blinds) });
}

export function logView(table) {
  const hand = table.hand;
  const level = handLevelLine(hand);
  const lines = hand ? hand.log.map((e) => logLine(table, e)).filter(Boolean) : [];
  const items = [...(level ? [h("li", { class: "hand-level" }, level)] : []), ...lines.map((line) => h("li", {}, line))];
  return h("section", { class: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, hand ? `${t("web.log.title")} · ${t("web.hand.number", { n: hand.number })}` : t("web.log.title")),
    items.length ? h("ol", {}, items) : h("p", {}, t("web.log.empty")));
}

// --- showdown ----------------------------------------------------------------------------------

export function showdownView(table) {
  const hand = table.hand;
  if (!hand || !hand.over) return null;
  const rows = hand.showdown.map((show) => h("li", {},
    show.mucked ? t("web.showdown.mucks", { name: nameOf(table, show.seat) })
      : h("span", {}, h("strong", {}, nameOf(table, show.seat)), " ",
          h("span", { class: "inline-cards" }, show.cards.map((c) => card(c, { size: "small" }))),
          " — ", show.hand_name || "")));
  const pots = hand.pots.map((pot, i) => h("li", {},
    t("web.showdown.pot_won", {
      pot: potLabel(i, pot.amount),
      winners: (pot.winners || []).map((w, k) => t("web.showdown.wins", { name: nameOf(table, w), n: pot.shares[k] })).join(", "),
    })));
  return h("section", { class: "showdown", "aria-labelledby": "showdown-title" },
    h("h2", { id: "showdown-title" }, hand.showdown.length ? t("web.showdown.title") : t("web.log.end")),
    rows.length ? h("ol", { class: "show-order" }, rows) : null,
    h("ul", { class: "pot-winners" }, pots));
}

// --- standings ---------------------------------------------------------------------------------

export function standingsView(table, now) {
  const rows = table.standings.map((row) => h("tr", { class: row.out_in_hand ? "out" : "" },
    h("td", {}, ordinal(row.place)),
    h("th", { scope: "row" }, row.name, row.bot ? h("span", { class: "tag bot" }, t("web.seat.bot")) : null),
    h("td", { class: "num" }, row.stack),
    h("td", {}, row.out_in_hand ? t("standings.out_in_hand", { hand: row.out_in_hand }) : "",
      row.reentries ? ` ${t("entries.count", { n: row.reentries })}` : "")));
  const stop = stopText(table, now);
  return h("section", { class: "standings", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title" }, t("standings.title")),
    stop ? h("p", { class: "stop", "data-stop": "1" }, stop) : null,
    h("p", {}, t("web.standings.hands", { n: table.hands_played })),
    rows.length ? h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("standings.place")), h("th", { scope: "col" }, t("standings.name")),
        h("th", { scope: "col", class: "num" }, t("standings.stack")), h("th", { scope: "col" }, ""))),
      h("tbody", {}, rows)) : null);
}

/** "Stops in 1:02:03" while a stop time is set, "Last hand" once it is near. */
export function stopText(table, now) {
  const stop = table.stop;
  if (!stop) return "";
  if (stop.last_hand) return t("web.hand.last_hand");
  if (stop.requested && table.status === "playing") return t("web.host.ending");
  if (stop.at && table.status !== "over") {
    const left = (Date.parse(stop.at) - now) / 1000;
    return t("web.standings.stop_in", { t: clock(left) });
  }
  return "";
}

// --- the announcer (aria-live) -----------------------------------------------------------------

export function announce(text, { urgent = false } = {}) {
  const region = document.getElementById(urgent ? "announce-urgent" : "announce");
  if (!region || !text) return;
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read the same words again.
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Announce what the hand log of *table* says that was not heard yet; *heard* (`{hand, log}`,
 *  kept by the page) remembers what was. A new hand is announced with `newHand(number)`, and
 *  its first entries that `skip(entry)` names are not read out. */
export function announceLog(heard, table, {
  newHand = (n) => t("web.announce.new_hand_public", { n }),
  skip = () => false,
} = {}) {
  const hand = table.hand;
  if (!hand) return;
  if (hand.number !== heard.hand) {
    heard.hand = hand.number;
    const level = handLevelLine(hand);
    announce(level ? `${newHand(hand.number)}. ${level}` : newHand(hand.number));
    heard.log = hand.log.filter(skip).length;
  }
  const fresh = hand.log.slice(heard.log);
  heard.log = hand.log.length;
  const words = fresh.map((e) => logSpeech(table, e)).filter(Boolean);
  if (words.length) announce(words.join(". "));
}

// --- preferences and the settings dialog -------------------------------------------------------

const PREFS = ["four-colour", "high-contrast", "turn-sound", "turn-vibrate"];
const ON_BY_DEFAULT = ["turn-vibrate"];

export function applyPrefs() {
  for (const pref of PREFS) {
    let on = ON_BY_DEFAULT.includes(pref);
    try {
      const stored = localStorage.getItem(`feltro.${pref}`);
      if (stored !== null) on = stored === "1";
    } catch { /* no storage */ }
    document.documentElement.classList.toggle(pref, on);
  }
}

function setPref(pref, on) {
  try {
    localStorage.setItem(`feltro.${pref}`, on ? "1" : "0");
  } catch { /* no storage */ }
  document.documentElement.classList.toggle(pref, on);
}

/**
 * Wire the header's settings button and dialog (language, four-colour deck, high contrast).
 * *onLang* is called after a new language is loaded.
 */
export function setupSettings(onLang) {
  const dialog = $("#settings");
  const button = $("#settings-button");
  if (!dialog || !button) return;
  const select = $("#lang-select", dialog);
  languageOptions(select);
  select.value = lang();
  select.addEventListener("change", async () => {
    await loadLang(select.value);
    translatePage();
    languageOptions(select);
    onLang(select.value);
  });
  for (const pref of PREFS) {
    const box = $(`#pref-${pref}`, dialog);
    box.checked = document.documentElement.classList.contains(pref);
    box.addEventListener("change", () => { setPref(pref, box.checked); onLang(lang(), { prefsOnly: true }); });
  }
  button.addEventListener("click", () => dialog.showModal());
  $("#settings-close", dialog).addEventListener("click", () => dialog.close());
}

/** Show the connection status in the header (text, not only a colour). */
export function showNet(status, detail) {
  const el = $("#net");
  if (!el) return;
  const key = status === "gone" ? null : `web.net.${status}`;
  let text = key ? t(key) : detail === "no_table" ? t("web.net.no_table")
    : detail === "bad_token" || detail === "revoked" ? t("web.net.bad_token")
    : detail === "replaced" ? t("web.net.replaced") : t("web.net.gone", { reason: t(`error.${detail}`) });
  el.textContent = text;
  el.dataset.status = status;
  document.body.classList.toggle("is-offline", status !== "online");
}

// --- page chrome -------------------------------------------------------------------------------

/**
 * The header (title, connection status, settings button), the settings dialog and the two
 * live regions, put at the start of `<body>`. Texts are filled by `translatePage()`.
 */
export function mountChrome({ skipTo = "main" } = {}) {
  const header = h("header", { class: "top" },
    h("a", { class: "skip", href: `#${skipTo}`, "data-i18n": "web.nav.skip" }),
    h("a", { class: "brand", href: "/", "aria-label": "feltro" }, "feltro"),
    h("h1", { id: "title" }),
    h("p", { id: "net", role: "status", "data-status": "connecting" }),
    h("button", { id: "settings-button", type: "button", class: "icon", "aria-haspopup": "dialog" },
      h("span", { "aria-hidden": "true" }, "⚙"), " ", h("span", { class: "label", "data-i18n": "web.prefs.open" })));
  const dialog = h("dialog", { id: "settings", "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title", "data-i18n": "web.prefs.title" }),
    h("p", {}, h("label", { for: "lang-select", "data-i18n": "web.lang.label" }), " ",
      h("select", { id: "lang-select" })),
    h("p", {}, h("input", { type: "checkbox", id: "pref-four-colour" }), " ",
      h("label", { for: "pref-four-colour", "data-i18n": "web.prefs.four_colour" })),
    h("p", {}, h("input", { type: "checkbox", id: "pref-high-contrast" }), " ",
      h("label", { for: "pref-high-contrast", "data-i18n": "web.prefs.contrast" })),
    h("p", {}, h("input", { type: "checkbox", id: "pref-turn-sound" }), " ",
      h("label", { for: "pref-turn-sound", "data-i18n": "web.prefs.turn.sound" })),
    h("p", {}, h("input", { type: "checkbox", id: "pref-turn-vibrate" }), " ",
      h("label", { for: "pref-turn-vibrate", "data-i18n": "web.prefs.turn.vibrate" })),
    h("h3", { "data-i18n": "web.prefs.keys" }),
    h("p", { "data-i18n": "web.act.keys" }),
    h("p", {}, h("button", { type: "button", id: "settings-close", "data-i18n": "web.prefs.close" })));
  const live = [h("div", { id: "announce", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" }),
                h("div", { id: "announce-urgent", class: "sr-only", "aria-live": "assertive", "aria-atomic": "true" })];
  document.body.prepend(header);
  document.body.append(dialog, ...live);
}

/** A short message that disappears by itself (refusals, copy confirmations). */
export function toast(text, { urgent = false } = {}) {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: urgent ? "alert" : "status" });
    document.body.append(box);
  }
  box.setAttribute("role", urgent ? "alert" : "status");
  box.textContent = text;
  box.classList.add("shown");
  clearTimeout(box._timer);
  box._timer = setTimeout(() => box.classList.remove("shown"), 6000);
}

// --- refusals in the reader's language ---------------------------------------------------------

/** A refusal as the server sends it (`legal.refusal_details[kind]`, an error's `refusal`: the
 *  rule, a reason code and its numbers, seats as seats) in the reader's language, from the
 *  shared catalogue's `refusal.<rule>.<reason>`; the server's English is never read. */
export function refusalWords(refusal) {
  const key = `refusal.${refusal.rule}.${refusal.reason}`;
  const text = t(key, refusal.params || {});
  return text === key ? t("refusal.fallback", { rule: refusal.rule, detail: refusal.reason }) : text;
}

/** An `error` frame as a sentence in the reader's language: its refusal, else its code
 *  (`error.<code>`; the frame's English `reason` is for logs). */
export function errorText(msg) {
  if (msg.refusal) return refusalWords(msg.refusal);
  return t(`error.${msg.code}`);
}

/** The join link's QR code (or, with *link*, that link's: `POST /api/qr`) as an `<img>`. The
 *  SVG is fetched and given its namespace when it lacks one (an SVG without `xmlns` shows
 *  inline but not as an image). */
export function qrImage(tableId, { size = 200, link = null, alt = null } = {}) {
  const img = h("img", { class: "qr", alt: alt || t("web.host.qr_alt"), width: size, height: size });
  const got = link ? fetch("/api/qr", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: link }) })
    : fetch(`/api/tables/${encodeURIComponent(tableId)}/qr.svg`);
  got.then((r) => r.text()).then((text) => {
    const fixed = /<svg[^>]*xmlns=/.test(text) ? text
      : text.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + svgSize(text) + '"');
    img.src = URL.createObjectURL(new Blob([fixed], { type: "image/svg+xml" }));
  }).catch(() => { img.alt = ""; });
  return img;
}

function svgSize(text) {
  const width = /width="(\d+)"/.exec(text);
  const height = /height="(\d+)"/.exec(text);
  return `${width ? width[1] : 200} ${height ? height[1] : 200}`;
}
