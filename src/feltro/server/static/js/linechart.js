// A line chart as an SVG, for the chips after each hand (`results.js`) and a season's points
// after each series (`season.js`): one line per player, each with a colour *and* a dash pattern
// and a marker shape, so that lines differ without colour too; its name at its end.

const SVG = "http://www.w3.org/2000/svg";
// Colours are readable on the dark and the light (high-contrast) background.
const STYLES = [
  { colour: "#ffd166", dash: "", marker: "circle" },
  { colour: "#4cc9f0", dash: "8 4", marker: "square" },
  { colour: "#f72585", dash: "2 4", marker: "diamond" },
  { colour: "#80ed99", dash: "12 4 2 4", marker: "triangle" },
  { colour: "#ff9f1c", dash: "4 2", marker: "circle" },
  { colour: "#c77dff", dash: "1 3", marker: "square" },
  { colour: "#f1faee", dash: "10 6", marker: "diamond" },
  { colour: "#90be6d", dash: "6 2 1 2", marker: "triangle" },
  { colour: "#ef476f", dash: "3 3", marker: "circle" },
  { colour: "#48cae4", dash: "14 3", marker: "square" },
];

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function marker(shape, x, y, size, colour) {
  const r = size;
  if (shape === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  if (shape === "diamond") return s("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.3},${y} ${x},${y + r * 1.3} ${x - r * 1.3},${y}`, fill: colour });
  if (shape === "triangle") return s("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.2},${y + r} ${x - r * 1.2},${y + r}`, fill: colour });
  return s("circle", { cx: x, cy: y, r, fill: colour });
}

/** As wide as the page allows, up to 640: drawn one unit to a pixel on a phone, so that its
 * words keep their size (12 px) and the whole chart fits without scrolling sideways. */
function fittingWidth() {
  const page = document.documentElement.clientWidth || 640;
  return Math.round(Math.min(640, Math.max(300, page - 48)));
}

function niceStep(span, count = 4) {
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

/** The x-axis labels, at most *most* of them: every step when they fit, else round steps; the
 * last one always (a night of 7 hands ends at "7", not at "6"). */
export function xTicks(lastX, most = 13) {
  const step = lastX < most ? 1 : niceStep(lastX, Math.max(1, most - 1));
  const ticks = [];
  for (let n = 0; n <= lastX; n += step) ticks.push(n);
  if (ticks[ticks.length - 1] !== lastX) {
    if (ticks.length > 2 && lastX - ticks[ticks.length - 1] < step / 2) ticks.pop(); // too close for both
    ticks.push(lastX);
  }
  return ticks;
}

/**
 * The chart of *lines* (`[{label, points: [[x, y], ...], out}]`: a line that is `out` ends in
 * a ✕, the others in their marker), with `id` (its title's and description's ids are
 * `<id>-title` and `<id>-desc`), `title`, `desc` and the `xLabel` under the axis.
 */
export function lineChart(lines, { id, title, desc, xLabel, width = fittingWidth() }) {
  const height = 320;
  const pad = { left: 48, right: 110, top: 16, bottom: 36 };
  const lastX = Math.max(1, ...lines.flatMap((line) => line.points.map(([n]) => n)));
  const top = Math.max(1, ...lines.flatMap((line) => line.points.map(([, v]) => v)));
  const x = (n) => pad.left + (n / lastX) * (width - pad.left - pad.right);
  const y = (v) => pad.top + (1 - v / top) * (height - pad.top - pad.bottom);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
                         "aria-labelledby": `${id}-title ${id}-desc` },
    s("title", { id: `${id}-title` }, title),
    s("desc", { id: `${id}-desc` }, desc));
  // Axes with a few round ticks.
  const axis = s("g", { class: "axis" });
  const step = niceStep(top);
  for (let v = 0; v <= top; v += step) {
    axis.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
                s("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, v));
  }
  for (const n of xTicks(lastX, Math.floor((width - pad.left - pad.right) / 34))) {
    axis.append(s("text", { x: x(n), y: height - pad.bottom + 16, "text-anchor": "middle" }, n));
  }
  axis.append(s("text", { x: (pad.left + width - pad.right) / 2, y: height - 4, "text-anchor": "middle" }, xLabel));
  svg.append(axis);
  const labels = [];
  lines.forEach((line, i) => {
    const style = STYLES[i % STYLES.length];
    const group = s("g", { class: "series" });
    group.append(s("polyline", { points: line.points.map(([n, v]) => `${x(n)},${y(v)}`).join(" "), fill: "none",
                                 stroke: style.colour, "stroke-width": 2.5, "stroke-dasharray": style.dash }));
    const [lastN, lastV] = line.points[line.points.length - 1];
    if (line.out) {
      const cx = x(lastN);
      const cy = y(lastV);
      group.append(s("path", { d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx + 6},${cy - 6}L${cx - 6},${cy + 6}`,
                               stroke: style.colour, "stroke-width": 3, class: "out-mark" }));
    } else {
      group.append(marker(style.marker, x(lastN), y(lastV), 4, style.colour));
    }
    labels.push({ y: y(lastV), text: line.label, colour: style.colour });
    svg.append(group);
  });
  // Names at the end of the lines, spread so that they never overlap.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i += 1) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 14);
  for (const label of labels) {
    svg.append(s("text", { x: width - pad.right + 8, y: label.y + 4, fill: label.colour, class: "label" }, label.text));
  }
  return svg;
}
