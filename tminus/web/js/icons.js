// Small icons drawn in SVG, so that no font has to have the glyph (⏮ and ⏭ show as empty
// boxes where none does). They take the text colour and hide from screen readers: the
// button they sit in carries the words.
import { svg } from "./util.js";

const PATHS = {
  first: "M5 4h2.5v16H5z M20 4v16L9 12z",
  back: "M18 4v16L6 12z",
  next: "M6 4v16l12-8z",
  last: "M16.5 4H19v16h-2.5z M4 4v16l11-8z",
  play: "M7 4v16l13-8z",
};

export function icon(name) {
  return svg(
    "svg",
    { viewBox: "0 0 24 24", class: `icon icon-${name}`, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: PATHS[name], fill: "currentColor" }),
  );
}
