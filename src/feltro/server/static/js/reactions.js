// Quick reactions (issue 23): a row of a few emoji on the player page (when the table allows
// them), and every player's reaction shown for a few seconds on the phones and the table screen.
// The server sends each one once (`reaction`) and allows one every few seconds per seat.

import { t } from "./i18n.js";
import { h, nameOf } from "./ui.js";

const REACTIONS = [["👍", "thumbs"], ["😂", "laugh"], ["😮", "wow"], ["😬", "grimace"], ["👏", "clap"], ["🔥", "fire"]];
const SHOWN_MS = 4000;
const GAP_MS = 3000;

/** The row of reaction buttons; *send(emoji)* sends one. Rests a few seconds after each. */
export function reactionBar(send) {
  const buttons = REACTIONS.map(([emoji, name]) => h("button", {
    type: "button", class: "small react", "data-react": name, "aria-label": t(`web.react.${name}`), title: t(`web.react.${name}`),
    onclick: () => {
      send(emoji);
      for (const b of buttons) b.disabled = true;
      setTimeout(() => { for (const b of buttons) b.disabled = false; }, GAP_MS);
    },
  }, emoji));
  return h("div", { class: "react-row", role: "group", "aria-label": t("web.react.title") }, buttons);
}

/** Show a `reaction` frame: "Bruno 👍" in a corner of the screen for a few seconds. */
export function showReaction(table, msg) {
  let box = document.getElementById("reactions");
  if (!box) {
    box = h("div", { id: "reactions", "aria-live": "polite" });
    document.body.append(box);
  }
  const known = REACTIONS.find(([emoji]) => emoji === msg.emoji);
  const item = h("p", { class: "reaction", "data-seat": msg.seat },
    h("span", { class: "sr-only" }, known ? `${nameOf(table, msg.seat)}: ${t(`web.react.${known[1]}`)}` : ""),
    h("span", { "aria-hidden": "true" }, `${nameOf(table, msg.seat)} ${msg.emoji}`));
  box.append(item);
  setTimeout(() => item.remove(), SHOWN_MS);
}
