// The night's hands to review (issue 23): a list of the finished hands and a replayer, street
// by street, from `POST /api/tables/<id>/hands` — the public log of each hand as the table
// showed it (the cards shown at the showdown, never a mucked or folded hand), and with the
// reader's seat token their own hole cards. A share link per hand opens it on the table
// screen, which holds no token: only what was shown.

import { t } from "./i18n.js";
import { boardView, card, fill, h, handLevelLine, logLine, nameOf } from "./ui.js";

const RESULT_KINDS = new Set(["show", "muck", "returned", "pot", "end"]);

/** The hand's log cut into steps: preflop, each later street, then the result. */
export function reviewSteps(log) {
  const steps = [{ street: "preflop", entries: [] }];
  for (const entry of log) {
    let step = steps[steps.length - 1];
    if (entry.kind === "board") {
      step = { street: entry.street, entries: [] };
      steps.push(step);
    } else if (RESULT_KINDS.has(entry.kind) && step.street !== "result") {
      step = { street: "result", entries: [] };
      steps.push(step);
    }
    step.entries.push(entry);
  }
  return steps;
}

function replayer(tableId, hand, index) {
  const steps = reviewSteps(hand.log);
  const at = Math.max(0, Math.min(index, steps.length - 1));
  const entries = steps.slice(0, at + 1).flatMap((s) => s.entries);
  const table = { seats: hand.seats.map((s) => ({ ...s, occupied: true })),
                  hand: { board: entries.filter((e) => e.kind === "board").flatMap((e) => e.cards) } };
  const street = steps[at].street === "result"
    ? (entries.some((e) => e.kind === "show") ? t("web.street.showdown") : t("web.log.end"))
    : t(`web.street.${steps[at].street}`);
  const shows = entries.filter((e) => e.kind === "show");
  const box = h("section", { class: "replayer panel", id: "replayer", "data-hand": hand.number, "data-step": at,
                             "aria-live": "polite", "aria-labelledby": "replayer-title" },
    h("h4", { id: "replayer-title" }, `${t("web.hand.number", { n: hand.number })} · ${street}`),
    hand.hole ? h("p", { class: "review-hole" }, `${t("web.hand.your_cards")}: `, hand.hole.map((c) => card(c, { size: "small" }))) : null,
    boardView(table),
    shows.length ? h("ul", { class: "review-shown" }, shows.map((e) => h("li", {},
      h("strong", {}, nameOf(table, e.seat)), " ", e.cards.map((c) => card(c, { size: "small" }))))) : null,
    h("ol", { class: "review-log" }, [handLevelLine(hand), ...entries.map((e) => logLine(table, e))].filter(Boolean).map((line) => h("li", {}, line))),
    h("p", { class: "controls" },
      h("button", { type: "button", id: "review-prev", disabled: at === 0, onclick: () => box.replaceWith(replayer(tableId, hand, at - 1)) }, t("web.review.prev")),
      h("button", { type: "button", id: "review-next", disabled: at === steps.length - 1, onclick: () => box.replaceWith(replayer(tableId, hand, at + 1)) }, t("web.review.next")),
      h("a", { id: "review-share", href: `${location.origin}/table/${encodeURIComponent(tableId)}#hand-${hand.number}` }, t("web.review.share"))));
  return box;
}

/** The review box: the hand list, and the replayer of the hand chosen (or named by the
 *  address's `#hand-<n>`), opened at its first street. */
export function reviewView(tableId, { token = null } = {}) {
  const list = h("div", { class: "hand-list" }, h("p", { class: "quiet" }, "…"));
  const slot = h("div", {});
  const section = h("section", { class: "review", id: "review", "aria-labelledby": "review-title" },
    h("h3", { id: "review-title" }, t("web.review.title")), list, slot);
  fetch(`/api/tables/${encodeURIComponent(tableId)}/hands`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(token ? { token } : {}),
  }).then((r) => r.json()).then((data) => {
    const hands = data.hands || [];
    const open = (hand, step = 0) => fill(slot, replayer(tableId, hand, step));
    fill(list, hands.length ? h("ol", { class: "hands" }, hands.map((hand) => h("li", {},
      h("button", { type: "button", class: "small", "data-hand": hand.number, onclick: () => open(hand) },
        t("web.hand.number", { n: hand.number })))))
      : h("p", { class: "quiet" }, t("web.review.empty")));
    const named = location.hash.startsWith("#hand-") ? Number(location.hash.slice("#hand-".length)) : null;
    const wanted = named && hands.find((hand) => hand.number === named);
    if (wanted) open(wanted, reviewSteps(wanted.log).length - 1);
  }).catch(() => fill(list));
  return section;
}
