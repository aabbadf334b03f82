// The player's side of the verifiable shuffle (docs/fairness.md): this device's fresh
// randomness for the next hand, and the check of every card it sees against the position
// commitments the table published at the deal (verify.js, WebCrypto: the server's word is not
// trusted).

import {
  boardPositions, cardMatches, chainLink, contributionCommitment, dealCommitment, fingerprint,
  fromHex, holePositions, toHex,
} from "./verify.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

const values = new Map(); // hand -> {value, seal}: this page's randomness, sealed then revealed
const revealed = new Set(); // hands whose value this page has sent
const results = new Map(); // "hand:index:card:salt:position" -> Promise<boolean>

/** The id prefix of contribute messages: a refusal of one is shown with its reason, since it
 * means this device's randomness was not used. */
export const CONTRIBUTE_ID = "fair-";

function playingSeat(state) {
  const you = state.you;
  if (you.role !== "player" || you.seat === null || you.away) return null;
  const seat = (state.table.seats || []).find((s) => s.seat === you.seat);
  return !seat || seat.out || seat.removed ? null : you.seat;
}

/**
 * Commit, then reveal (docs/fairness.md): while the next hand's seals are open, draw fresh
 * randomness (crypto.getRandomValues) and send only its seal; once they close, send the value
 * if the seal the table published is this page's. Nobody learns a value before every seal is
 * fixed. Returns the hand whose published seal is not this page's (a failed check), else null.
 */
export async function contributeIfDue(state, link) {
  const fair = state.table.fair;
  const seat = playingSeat(state);
  if (!fair || !fair.next || seat === null) return null;
  const hand = fair.next.hand;
  if ((fair.next.phase || "seal") === "seal") {
    if (values.has(hand)) return null;
    const value = new Uint8Array(32);
    globalThis.crypto.getRandomValues(value);
    const entry = { value, seal: null };
    values.set(hand, entry);
    entry.seal = toHex(await contributionCommitment(fair.table, hand, seat, value));
    link.send({ type: "contribute", hand, seal: entry.seal, id: `${CONTRIBUTE_ID}seal-${hand}` });
    return null;
  }
  const entry = values.get(hand);
  if (!entry || !entry.seal || revealed.has(hand) || (fair.next.contributed || []).includes(seat)) return null;
  revealed.add(hand);
  const published = (fair.next.sealed || {})[String(seat)];
  if (published === undefined) return null; // the seal was refused (the refusal said why)
  if (published !== entry.seal) return hand;
  link.send({ type: "contribute", hand, value: toHex(entry.value), id: `${CONTRIBUTE_ID}${hand}` });
  return null;
}

/** After a reconnection: a value the server may have lost (a restart before the deal) can be
 * sent again; a second copy of one it kept is refused, and the refusal says so. */
export function forgetSent() {
  revealed.clear();
}

function check(positions, item) {
  const position = positions[item.index];
  const key = `${item.index}:${item.card}:${item.salt}:${position}`;
  if (!results.has(key)) {
    results.set(key, typeof position === "string"
      ? cardMatches(position, item.salt, item.index, item.card) : Promise.resolve(false));
  }
  return results.get(key);
}

/**
 * The cards this phone sees that do not match the table's commitments (an empty list when all
 * match; null when there is nothing to check). The cards shown must also be the ones proved.
 */
export async function badCards(state) {
  const fair = state.table.fair;
  const hand = state.table.hand;
  if (!fair || !fair.hand || !hand || fair.hand.number !== hand.number) return null;
  const own = state.you.fair && state.you.fair.hand === hand.number ? state.you.fair.cards : [];
  const board = fair.hand.board || [];
  const bad = [];
  const shownHole = state.you.hole || [];
  for (const c of shownHole) if (!own.some((item) => item.card === c)) bad.push(c);
  for (const c of hand.board || []) if (!board.some((item) => item.card === c)) bad.push(c);
  const checks = await Promise.all([...own, ...board].map((item) => check(fair.hand.positions, item)));
  [...own, ...board].forEach((item, i) => { if (!checks[i]) bad.push(item.card); });
  return [...new Set(bad)];
}

const links = new Map(); // hand -> the chain link this page computed (hex)

/**
 * This page's own check of the deal on screen (docs/fairness.md), the server's word not
 * trusted: its own seal and value are in the deal, its hole cards and every board card come
 * from the deck positions the dealing rule gives (D4, D5) and match their commitments, and
 * the chain link it computes is the one published. Returns the failed checks ("seal",
 * "contribution", "position", "card", "chain"); null when there is nothing to check.
 */
export async function dealProblems(state) {
  const fair = state.table.fair;
  const hand = state.table.hand;
  if (!fair || !fair.hand || !hand || fair.hand.number !== hand.number) return null;
  const pub = fair.hand;
  const number = hand.number;
  const failed = new Set();
  try {
    const previous = links.get(number - 1) || pub.previous;
    const contributions = Object.entries(pub.contributions).map(([s, v]) => [Number(s), fromHex(v)])
      .sort((a, b) => a[0] - b[0]);
    const deal = await dealCommitment(pub.positions.map(fromHex));
    const link = toHex(await chainLink(fromHex(previous), number, fromHex(pub.commitment),
      contributions, deal));
    if (link === pub.chain) links.set(number, link); else failed.add("chain");
  } catch (error) {
    failed.add("chain");
  }
  const seats = pub.seats || [];
  const n = seats.length;
  const own = state.you.fair && state.you.fair.hand === number ? state.you.fair.cards : [];
  const p = seats.indexOf(state.you.seat);
  if (own.length && (p < 0 || own.some((c, i) => c.index !== holePositions(n, p)[i]))) {
    failed.add("position");
  }
  const board = boardPositions(n);
  if (!n || (pub.board || []).some((c, i) => c.index !== board[i])) failed.add("position");
  const bad = await badCards(state);
  if (bad && bad.length) failed.add("card");
  const seat = playingSeat(state);
  const entry = seat === null ? undefined : values.get(number);
  if (entry && entry.seal && revealed.has(number)) {
    if ((pub.sealed || {})[String(seat)] !== entry.seal) failed.add("seal");
    if (pub.contributions[String(seat)] !== toHex(entry.value)) failed.add("contribution");
  }
  return failed;
}

/** The fingerprint of the last chain link this page computed itself (null before any). */
export function computedFingerprint() {
  if (!links.size) return null;
  return fingerprint(fromHex(links.get(Math.max(...links.keys()))));
}

const own = []; // the failed deal checks this page computed itself ({hand, seat, check})

function sameAlarm(a, b) {
  return a.hand === b.hand && a.seat === b.seat && a.check === b.check;
}

/** Keeps a failed check of the deal this page computed itself: alarmsView shows it at once
 * and for the rest of the night, whether or not the server passes it on. Returns false for
 * one already kept. */
export function noteAlarm(alarm) {
  if (own.some((a) => sameAlarm(a, alarm))) return false;
  own.push({ hand: alarm.hand, seat: alarm.seat, check: alarm.check });
  return true;
}

/** The failed deal checks anyone's device reported this night (table.fair.alarms) and the
 * ones this page computed itself (noteAlarm; marked when the night's record lacks them: a
 * server that drops them cannot hide them from this screen), each once, as a banner that
 * stays for the whole night; null when there are none. */
export function alarmsView(table) {
  const recorded = (table.fair && table.fair.alarms) || [];
  const alarms = [...recorded.map((a) => [a, false]),
    ...own.filter((a) => !recorded.some((r) => sameAlarm(r, a))).map((a) => [a, true])]
    .sort((x, y) => x[0].hand - y[0].hand);
  if (!alarms.length) return null;
  return h("div", { class: "warn", id: "fair-alarms", role: "alert" },
    h("p", {}, h("strong", {}, t("fair_alarm.title", { count: alarms.length }))),
    ...alarms.slice(-5).map(([a, unrecorded]) => h("p", unrecorded ? { "data-own": "1" } : {},
      t("fair_alarm.line", { hand: a.hand, seat: a.seat, what: t(`fair_alarm.check.${a.check}`) }),
      unrecorded ? ` ${t("fair_alarm.unrecorded")}` : "")));
}
