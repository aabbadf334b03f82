// The player's side of the verifiable shuffle (docs/fairness.md): this device's fresh
// randomness for the next hand, and the check of every card it sees against the position
// commitments the table published at the deal (verify.js, WebCrypto: the server's word is not
// trusted).

import { cardMatches, toHex } from "./verify.js";

const sent = new Set(); // hands this page has contributed to
const results = new Map(); // "hand:index:card:salt:position" -> Promise<boolean>

/** The id prefix of contribute messages (their refusals are not worth a toast: a late one is
 * harmless, the hand is simply dealt without it). */
export const CONTRIBUTE_ID = "fair-";

/**
 * Send fresh randomness (crypto.getRandomValues) for the next hand, once per hand, while the
 * current one is played: nobody waits for it.
 */
export function contributeIfDue(state, link) {
  const fair = state.table.fair;
  const you = state.you;
  if (!fair || !fair.next || you.role !== "player" || you.seat === null || you.away) return;
  const hand = fair.next.hand;
  if (sent.has(hand) || (fair.next.contributed || []).includes(you.seat)) return;
  const seat = (state.table.seats || []).find((s) => s.seat === you.seat);
  if (!seat || seat.out || seat.removed) return;
  const value = new Uint8Array(32);
  globalThis.crypto.getRandomValues(value);
  if (link.send({ type: "contribute", hand, value: toHex(value), id: `${CONTRIBUTE_ID}${hand}` })) {
    sent.add(hand);
  }
}

/** After a reconnection: a contribution the server may have lost (a restart before the deal)
 * can be sent again; a second copy of one it kept is refused, harmlessly. */
export function forgetSent() {
  sent.clear();
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
