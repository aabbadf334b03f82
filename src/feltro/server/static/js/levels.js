// Blind levels (G7): the level now, the next and the countdown (phones, the TV, the host), and
// the create form's fields. Off by default: fixed blinds are the house rule (G5).

import { t } from "./i18n.js";
import { h, clock, blindsText } from "./ui.js";

const READY = ["standard", "turbo", "slow"];

/** "Level 2: 2/4 · next 5/10 in 3:12", or null with fixed blinds. *now*: the server's time (ms). */
export function levelText(table, now) {
  const level = table.level;
  if (!level) return null;
  const current = t("levels.level", { n: level.level, blinds: blindsText(level.blinds) });
  if (!level.next) return `${current} · ${t("levels.last")}`;
  const blinds = blindsText(level.next);
  if (level.hands_left !== null && level.hands_left !== undefined) {
    return level.hands_left === 0 ? `${current} · ${t("levels.next_now", { blinds })}`
      : `${current} · ${t("levels.next_hands", { blinds, hands: level.hands_left })}`;
  }
  if (!level.due_at) return current;
  const left = (Date.parse(level.due_at) - now) / 1000;
  return left <= 0 ? `${current} · ${t("levels.next_now", { blinds })}`
    : `${current} · ${t("levels.next_time", { blinds, left: clock(left) })}`;
}

function row(id, label, input) {
  return h("p", {}, h("label", { for: id }, label), input);
}

/** The create form's block: its element, and `read(body)` adding the chosen levels to it. */
export function levelFields() {
  const structure = h("select", { id: "t-levels" },
    h("option", { value: "" }, t("levels.fixed")),
    ...READY.map((name) => h("option", { value: name }, t(`levels.ready.${name}`))),
    h("option", { value: "custom" }, t("levels.custom")));
  const custom = h("input", { id: "t-levels-custom", maxlength: 1000, placeholder: "1/2, 2/4, 5/10/1",
                              "aria-describedby": "t-levels-custom-hint" });
  const length = h("input", { id: "t-level-length", type: "number", min: 1, max: 10000, value: 10 });
  const unit = h("select", { id: "t-level-unit", "aria-label": t("levels.every") },
    h("option", { value: "hands" }, t("levels.unit_hands")),
    h("option", { value: "minutes" }, t("levels.unit_minutes")));
  const antes = h("input", { id: "t-antes-from", type: "number", min: 1, max: 40 });
  const customRow = h("p", { id: "t-levels-custom-row" },
    h("label", { for: "t-levels-custom" }, t("levels.custom")), custom,
    h("small", { id: "t-levels-custom-hint" }, t("levels.custom_hint")));
  const details = h("div", { id: "t-levels-details" }, customRow,
    h("div", { class: "row" }, row("t-level-length", t("levels.every"), length), h("p", {}, unit)),
    row("t-antes-from", t("levels.antes_from"), antes));
  const show = () => {
    details.hidden = !structure.value;
    customRow.hidden = structure.value !== "custom";
  };
  structure.addEventListener("change", show);
  const element = h("fieldset", { id: "levels-box" }, h("legend", {}, t("levels.title")),
    row("t-levels", t("levels.structure"), structure), details);
  show();
  return {
    element,
    read(body) {
      if (!structure.value) return;
      body.levels = structure.value === "custom" ? custom.value.trim() : structure.value;
      body.level_unit = unit.value;
      body.level_length = Number(length.value) || 10;
      if (antes.value) body.antes_from = Number(antes.value);
    },
  };
}
