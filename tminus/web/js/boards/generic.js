// The generic board: any observation drawn as readable panels, for games without an SVG
// board yet. Lists of seats become rows per seat; nested values become small tables.
import { el } from "../util.js";

function label(key) {
  return String(key).replace(/_/g, " ");
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

function scalar(value) {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function value(v, seats) {
  if (isScalar(v)) return el("span", { class: "value" }, scalar(v));
  if (Array.isArray(v)) {
    if (v.every(isScalar)) {
      return el(
        "span",
        { class: "chips" },
        ...(v.length
          ? v.map((x) => el("span", { class: "chip" }, scalar(x)))
          : [el("span", { class: "muted" }, "none")]),
      );
    }
    // One entry per seat reads best as one row per seat.
    const perSeat = seats && v.length === seats.length;
    return el(
      "table",
      { class: "obs-table" },
      el(
        "tbody",
        {},
        ...v.map((item, i) =>
          el(
            "tr",
            {},
            el("th", {}, perSeat ? seats[i].name : String(i)),
            el("td", {}, value(item, null)),
          ),
        ),
      ),
    );
  }
  return el(
    "dl",
    { class: "obs" },
    ...Object.entries(v).flatMap(([k, x]) => [
      el("dt", {}, label(k)),
      el("dd", {}, value(x, seats)),
    ]),
  );
}

export default {
  name: "generic",
  render(obs, ctx) {
    return el(
      "div",
      { class: "generic-board" },
      el(
        "p",
        { class: "muted" },
        ctx.seat === null ? "What everyone can see:" : "What you can see:",
      ),
      value(obs, ctx.seats),
    );
  },
};
