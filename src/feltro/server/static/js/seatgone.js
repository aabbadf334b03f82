// A phone whose seat link stopped working (issue 23): the host removed the seat or gave its
// player a new link. Instead of a frozen table, a clean page says what happened and what to do.

import { t } from "./i18n.js";
import { h } from "./ui.js";

export function seatGoneView(tableId) {
  return h("section", { class: "panel seat-gone", id: "seat-gone", "aria-labelledby": "seat-gone-title" },
    h("h2", { id: "seat-gone-title" }, t("web.gone.title")),
    h("p", {}, t("web.gone.revoked")),
    h("p", { class: "controls" },
      h("button", { type: "button", id: "seat-retry", onclick: () => location.reload() }, t("web.gone.retry")),
      h("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}` }, t("web.gone.watch"))));
}
