// The player's choice to show even a losing hand at the showdown (P8, D11; issue 23): a box in
// the settings dialog of the player page, kept by the server (the `show_losers` message, read
// back as `you.show_losers`), so it is in the series log and survives a restart.

import { t } from "./i18n.js";
import { $, h } from "./ui.js";

/**
 * Put the box in the settings dialog (once), shown while the player has a hand in the series,
 * and tick it as the server says (not while the player is changing it).
 */
export function syncShowLosers(app, you, playing) {
  const dialog = $("#settings");
  const close = dialog && $("#settings-close", dialog);
  if (!close) return;
  let row = $("#pref-show-losers-row", dialog);
  if (!row) {
    const box = h("input", { type: "checkbox", id: "pref-show-losers" });
    box.addEventListener("change", () => app.link.send({ type: "show_losers", on: box.checked }));
    row = h("p", { id: "pref-show-losers-row" }, box, " ",
      h("label", { for: "pref-show-losers", "data-i18n": "web.prefs.showdown.show_losers" },
        t("web.prefs.showdown.show_losers")));
    close.parentElement.before(row);
  }
  row.hidden = !playing;
  const box = $("#pref-show-losers", row);
  if (document.activeElement !== box) box.checked = Boolean(you.show_losers);
}
