// The browser's own check of a night's verifiable shuffle (scheme feltro-fair/1, see
// docs/fairness.md). It shares no code with the server: it re-derives every deck from the
// revealed secrets and the players' contributions with WebCrypto (SHA-256, HMAC-SHA256) and
// compares the result with what was published, so a player need not trust the server's answer.
//
//   const { ok, hands, fingerprint, firstFailure } = await verifySeries(exportJson);
//
// firstFailure is null, or { hand, check, detail } naming the first hand and what failed
// (check: format, order, contribution, secret, commitment, seed, position, card, chain,
// fingerprint; hand is null when the whole file is at fault).

const SCHEME = "feltro-fair/1";
const EXPORT_FORMAT = "feltro-fair-export/1";
const DECK_SIZE = 52;
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

// --- bytes -------------------------------------------------------------------------------------

const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE["0123456789abcdef".charCodeAt(i)] = i;
  NIBBLE["0123456789ABCDEF".charCodeAt(i)] = i;
}

export function fromHex(text) {
  const bad = () => new FormatError(`not hexadecimal: ${String(text).slice(0, 20)}`);
  if (typeof text !== "string" || text.length % 2) throw bad();
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = NIBBLE[text.charCodeAt(2 * i)] ?? -1;
    const low = NIBBLE[text.charCodeAt(2 * i + 1)] ?? -1;
    if (high < 0 || low < 0) throw bad();
    out[i] = (high << 4) | low;
  }
  return out;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function uint(value, size) {
  const out = new Uint8Array(size);
  let rest = BigInt(value);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// msg(tag, f1, f2...): each part as a 4-byte big-endian length, then its bytes.
export function message(tag, ...fields) {
  const parts = [];
  for (const field of [encoder.encode(`${SCHEME} ${tag}`), ...fields]) {
    parts.push(uint(field.length, 4), field);
  }
  return concat(parts);
}

async function sha256(data) {
  return new Uint8Array(await subtle.digest("SHA-256", data));
}

async function hmacKey(key) {
  return subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, data) {
  return new Uint8Array(await subtle.sign("HMAC", key, data));
}

class FormatError extends Error {}

// --- the construction --------------------------------------------------------------------------

export function cardText(id) {
  return RANKS[id >> 2] + SUITS[id & 3];
}

export function cardId(text) {
  if (typeof text !== "string" || text.length !== 2 || !RANKS.includes(text[0]) ||
      !SUITS.includes(text[1])) {
    throw new FormatError(`not a card: ${text}`);
  }
  return RANKS.indexOf(text[0]) * 4 + SUITS.indexOf(text[1]);
}

export async function commitment(secret) {
  return sha256(message("commit", secret));
}

function contributionFields(contributions) {
  const fields = [];
  for (const [seat, value] of contributions) fields.push(uint(seat, 1), value);
  return fields;
}

// contributions: [[seat, Uint8Array], ...] in ascending seat order.
export async function deckSeed(secret, table, hand, contributions) {
  const key = await hmacKey(secret);
  return hmac(key, message("seed", encoder.encode(table), uint(hand, 8),
    ...contributionFields(contributions)));
}

export async function streamBlock(seedKey, block) {
  return hmac(seedKey, message("stream", uint(block, 4)));
}

// The deck, top first: Fisher–Yates from the end with rejection sampling (no modulo bias).
export async function deckOrder(seed, seedKey = null) {
  const key = seedKey || await hmacKey(seed);
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  // Two blocks nearly always suffice; more are fetched when the rejections need them.
  let bytes = concat([await streamBlock(key, 0), await streamBlock(key, 1)]);
  let next = 2;
  let at = 0;
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let byte;
    do {
      if (at === bytes.length) bytes = concat([bytes, await streamBlock(key, next++)]);
      byte = bytes[at++];
    } while (byte >= limit);
    const j = byte % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

// The 52 salts in one call: HKDF-SHA256 (salt: 32 zero bytes, info: msg("salts")).
export async function positionSalts(seed) {
  const key = await subtle.importKey("raw", seed, "HKDF", false, ["deriveBits"]);
  const bits = new Uint8Array(await subtle.deriveBits({ name: "HKDF", hash: "SHA-256",
    salt: new Uint8Array(32), info: message("salts") }, key, 8 * 32 * DECK_SIZE));
  return Array.from({ length: DECK_SIZE }, (_, i) => bits.slice(32 * i, 32 * i + 32));
}

export async function positionCommitment(salt, index, card) {
  return sha256(message("position", salt, uint(index, 1), uint(card, 1)));
}

// The check a client makes the moment it sees a card: is it the card committed at its deck
// position? (position and salt as hexadecimal text, the card as "As").
export async function cardMatches(positionHex, saltHex, index, card) {
  if (!Number.isInteger(index) || index < 0 || index >= DECK_SIZE) return false;
  try {
    return equal(await positionCommitment(fromHex(saltHex), index, cardId(card)),
      fromHex(positionHex));
  } catch (error) {
    if (error instanceof FormatError) return false;
    throw error;
  }
}

export async function dealCommitment(positions) {
  return sha256(message("deal", ...positions));
}

export async function genesis(table) {
  return sha256(message("genesis", encoder.encode(table)));
}

export async function contributionCommitment(table, hand, seat, value) {
  return sha256(message("contribution", encoder.encode(table), uint(hand, 8), uint(seat, 1),
    value));
}

export async function chainLink(previous, hand, commit, contributions, deal) {
  return sha256(message("chain", previous, uint(hand, 8), commit, deal,
    ...contributionFields(contributions)));
}

export function fingerprint(link) {
  let value = 0n;
  for (let i = 0; i < 5; i++) value = (value << 8n) | BigInt(link[i]);
  let code = "";
  for (let k = 0; k < 8; k++) code += ALPHABET[Number((value >> BigInt(35 - 5 * k)) & 31n)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

// --- reading an export -------------------------------------------------------------------------

function bytesField(value, where, size = null) {
  if (typeof value !== "string") throw new FormatError(`${where}: expected hexadecimal text`);
  const bytes = fromHex(value);
  if (size !== null && bytes.length !== size) {
    throw new FormatError(`${where}: expected ${size} bytes, got ${bytes.length}`);
  }
  return bytes;
}

function intField(value, where) {
  if (!Number.isInteger(value)) throw new FormatError(`${where}: expected an integer`);
  return value;
}

function readDeck(deck, where) {
  if (deck === null || deck === undefined) return null;
  if (!Array.isArray(deck)) throw new FormatError(`${where}: the deck is not a list`);
  const ids = deck.map(cardId);
  if (ids.length !== DECK_SIZE || new Set(ids).size !== DECK_SIZE) {
    throw new FormatError(`${where}: the deck is not the 52 cards once each`);
  }
  return ids;
}

function seatList(value, where) {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new FormatError(`${where}: not a list of seats`);
  return value.map((seat) => intField(seat, where));
}

function readHand(data, where) {
  if (!data || typeof data !== "object") throw new FormatError(`${where}: not an object`);
  const hand = intField(data.hand, `${where}.hand`);
  where = `hand ${hand}`;
  if (!Array.isArray(data.contributions) || !Array.isArray(data.positions)) {
    throw new FormatError(`${where}: contributions or positions are missing`);
  }
  const seen = new Set();
  const contributions = data.contributions.map((c) => {
    const seat = intField(c && c.seat, `${where}.contributions.seat`);
    if (seen.has(seat)) throw new FormatError(`${where}: seat ${seat} contributes twice`);
    seen.add(seat);
    return [seat, bytesField(c.value, `${where}.contributions.value`)];
  }).sort((a, b) => a[0] - b[0]);
  const sealedSeats = new Set();
  const sealed = (data.sealed || []).map((c) => {
    const seat = intField(c && c.seat, `${where}.sealed.seat`);
    if (sealedSeats.has(seat)) throw new FormatError(`${where}: seat ${seat} seals twice`);
    sealedSeats.add(seat);
    return [seat, bytesField(c.commitment, `${where}.sealed.commitment`, 32)];
  });
  const opt = (value, name, size) => (value === null || value === undefined ? null
    : bytesField(value, `${where}.${name}`, size));
  return {
    hand,
    commitment: bytesField(data.commitment, `${where}.commitment`, 32),
    contributions,
    sealed: new Map(sealed),
    positions: data.positions.map((p) => bytesField(p, `${where}.positions`, 32)),
    chain: bytesField(data.chain, `${where}.chain`, 32),
    previous: opt(data.previous, "previous", 32),
    secret: opt(data.secret, "secret", null),
    seed: opt(data.seed, "seed", 32),
    deck: readDeck(data.deck, where),
    dealt: (data.dealt || []).map((d) => [intField(d && d.position, `${where}.dealt`),
      cardId(d.card)]),
    dealtTo: new Map((data.dealt || []).filter((d) => d.seat !== null && d.seat !== undefined)
      .map((d) => [d.position, intField(d.seat, `${where}.dealt.seat`)])),
    seats: seatList(data.seats, `${where}.seats`) || [],
    withheld: seatList(data.withheld, `${where}.withheld`),
    salts: (data.salts || []).map((s) => [intField(s && s.position, `${where}.salts`),
      bytesField(s.salt, `${where}.salts.salt`, 32)]),
  };
}

function readExport(exportJson) {
  const data = typeof exportJson === "string" ? JSON.parse(exportJson) : exportJson;
  if (!data || data.format !== EXPORT_FORMAT) {
    throw new FormatError(`not a fairness export (format ${EXPORT_FORMAT} expected)`);
  }
  if (data.scheme !== SCHEME) throw new FormatError(`unknown scheme ${data.scheme}`);
  if (typeof data.table !== "string") throw new FormatError("the export names no table");
  if (!Array.isArray(data.hands)) throw new FormatError("the export has no list of hands");
  return {
    table: data.table,
    fingerprint: data.fingerprint ?? null,
    hands: data.hands.map((h, i) => readHand(h, `hands[${i}]`)),
  };
}

// --- verification ------------------------------------------------------------------------------

/** The deck positions of hand position p's hole cards with n players (D4). */
export function holePositions(n, p) {
  return [p, n + p];
}

/** The deck positions of the flop, turn and river with n players (D5: a burn before each). */
export function boardPositions(n) {
  return [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7];
}

// With the hand's seats: every seal and value from a seat dealt in, every sealed seat without
// a value named as withheld (and only those), every card from the position the dealing rule
// gives it (D4: position p gets p and n + p; D5: the board 2n+1..2n+3, 2n+5, 2n+7).
function rosterProblem(proof) {
  const seats = proof.seats;
  if (!seats.length) return null;
  const values = new Set(proof.contributions.map(([seat]) => seat));
  const all = new Set([...proof.sealed.keys(), ...values, ...(proof.withheld || [])]);
  for (const seat of [...all].sort((a, b) => a - b)) {
    if (!seats.includes(seat)) return ["contribution", `seat ${seat} is not in the hand`];
  }
  const named = new Set(proof.withheld || []);
  const missing = new Set([...proof.sealed.keys()].filter((seat) => !values.has(seat)));
  const odd = [...named, ...missing].filter((seat) => named.has(seat) !== missing.has(seat));
  if (odd.length) {
    return ["contribution", `seat ${Math.min(...odd)}: a sealed seat without a value must be ` +
      "named as having withheld it, and only such a seat"];
  }
  const n = seats.length;
  const board = boardPositions(n);
  for (const [index, card] of proof.dealt) {
    const seat = proof.dealtTo.get(index);
    const p = seat === undefined ? -1 : seats.indexOf(seat);
    const rule = p < 0 ? board : holePositions(n, p);
    if (!rule.includes(index)) {
      return ["card", `${cardText(card)} was dealt from deck position ${index}, which the ` +
        "dealing rule (D4, D5) does not give it"];
    }
  }
  return null;
}

// Everything about one hand but its place in the chain.
async function checkHand(table, proof) {
  const fail = (check, detail) => ({ hand: proof.hand, check, detail });
  if (proof.positions.length !== DECK_SIZE) {
    return fail("format", `a hand publishes ${DECK_SIZE} position commitments`);
  }
  for (const [seat, value] of proof.contributions) {
    if (seat < 1 || seat > 255 || value.length < 1 || value.length > 64) {
      return fail("contribution", `seat ${seat}: a contribution is 1..64 bytes`);
    }
  }
  const roster = rosterProblem(proof);
  if (roster) return fail(...roster);
  for (const [seat, value] of proof.contributions) {
    if (proof.sealed.size && !proof.sealed.has(seat)) {
      return fail("contribution", `seat ${seat} contributed without sealing first`);
    }
    if (proof.sealed.has(seat) && !equal(await contributionCommitment(table, proof.hand, seat,
      value), proof.sealed.get(seat))) {
      return fail("contribution", `seat ${seat}'s contribution is not the one it sealed`);
    }
  }
  const dealt = new Map(proof.dealt);
  for (const [index, salt] of proof.salts) {
    if (dealt.has(index) && index < DECK_SIZE) {
      const mine = await positionCommitment(salt, index, dealt.get(index));
      if (!equal(mine, proof.positions[index])) {
        return fail("card", `${cardText(dealt.get(index))} at deck position ${index} is not ` +
          "the card committed there");
      }
    }
  }
  if (proof.secret === null) return fail("secret", "the server secret is not revealed");
  if (proof.secret.length !== 32 || !equal(await commitment(proof.secret), proof.commitment)) {
    return fail("commitment", "the revealed secret does not match the commitment");
  }
  const seed = await deckSeed(proof.secret, table, proof.hand, proof.contributions);
  if (proof.seed !== null && !equal(seed, proof.seed)) {
    return fail("seed", "the deck seed does not follow from the secret and the contributions");
  }
  const seedKey = await hmacKey(seed);
  const order = await deckOrder(seed, seedKey);
  const salts = await positionSalts(seed);
  const positions = await Promise.all(order.map((card, i) => positionCommitment(salts[i], i,
    card)));
  for (let i = 0; i < DECK_SIZE; i++) {
    if (!equal(positions[i], proof.positions[i])) {
      return fail("position", `the commitment of deck position ${i} does not match the deck`);
    }
  }
  if (proof.deck !== null) {
    const first = proof.deck.findIndex((card, i) => card !== order[i]);
    if (first >= 0) {
      return fail("card", `the published deck differs from the shuffled deck at position ${first}`);
    }
  }
  for (const [index, card] of proof.dealt) {
    if (index < 0 || index >= DECK_SIZE || order[index] !== card) {
      return fail("card", `${cardText(card)} was dealt at deck position ${index}`);
    }
  }
  return null;
}

export async function verifySeries(exportJson) {
  let parsed;
  try {
    parsed = readExport(exportJson);
  } catch (error) {
    return { ok: false, hands: 0, fingerprint: null,
      firstFailure: { hand: null, check: "format", detail: String(error.message || error) } };
  }
  const { table, hands } = parsed;
  const refuse = (hand, check, detail) => ({ ok: false, hands: hands.length, fingerprint: null,
    firstFailure: { hand, check, detail } });
  if (!hands.length) return refuse(null, "order", "the export holds no hand");
  if (parsed.fingerprint === null) {
    return refuse(null, "fingerprint", "the export claims no fingerprint");
  }
  const seatless = hands.find((proof) => !proof.seats.length);
  if (seatless) {
    return refuse(seatless.hand, "format", "the hand does not say which seats were dealt in");
  }
  let link = await genesis(table);
  let expected = 1;
  for (const proof of hands) {
    const result = (failure) => ({ ok: false, hands: hands.length, fingerprint: null,
      firstFailure: failure });
    if (proof.hand !== expected) {
      return result({ hand: proof.hand, check: "order", detail: `hand ${expected} was expected` });
    }
    if (proof.previous !== null && !equal(proof.previous, link)) {
      return result({ hand: proof.hand, check: "chain",
        detail: "the link before this hand is not the previous hand's link" });
    }
    const failure = await checkHand(table, proof);
    if (failure) return result(failure);
    const deal = await dealCommitment(proof.positions);
    const mine = await chainLink(link, proof.hand, proof.commitment, proof.contributions, deal);
    if (!equal(mine, proof.chain)) {
      return result({ hand: proof.hand, check: "chain",
        detail: "the chain link does not follow from the previous hand" });
    }
    link = proof.chain;
    expected += 1;
  }
  const code = fingerprint(link);
  if (parsed.fingerprint !== code) {
    return { ok: false, hands: hands.length, fingerprint: code,
      firstFailure: { hand: null, check: "fingerprint",
        detail: `the export claims ${parsed.fingerprint}, the chain gives ${code}` } };
  }
  return { ok: true, hands: hands.length, fingerprint: code, firstFailure: null };
}
