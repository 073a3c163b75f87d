// The game's log as people read it: one line per move, the lines the server narrated. A run
// of chance lines (3-2-1's dozens of deals, Count Down's balls) folds into one line that
// opens on a click, as a good table shows "Cards are dealt (48)" and not 48 lines.
import { el } from "./util.js";

export const FOLD_AT = 3; // a run of this many chance lines, or more, is folded
const THOUGHTS_KEY = "tminus:thoughts";

// "Why a bot moved": a searching bot's chance to win as it reckoned its move, shown to the
// players who turn it on (remembered). The server sends it only where nothing is hidden.
export function thoughtsOn() {
  return localStorage.getItem(THOUGHTS_KEY) === "on";
}

export function setThoughts(on) {
  localStorage.setItem(THOUGHTS_KEY, on ? "on" : "off");
}

export function thought(estimate) {
  return ` — thinks its chance to win is ${Math.round(estimate * 100)}%`;
}

// The log entries grouped: single lines, and runs of consecutive chance lines.
export function groups(entries) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length >= FOLD_AT) out.push({ run });
    else out.push(...run.map((entry) => ({ entry })));
    run = [];
  };
  entries.forEach((entry, i) => {
    if (entry.actor === -1) run.push({ ...entry, position: i });
    else {
      flush();
      out.push({ entry: { ...entry, position: i } });
    }
  });
  flush();
  return out;
}

// What a folded run says: its first line and how many lines it holds.
export function foldTitle(run, textOf) {
  const first = textOf(run[0]);
  return `${first.charAt(0).toUpperCase()}${first.slice(1)} … (${run.length} lines)`;
}

// ``opened``: the runs (by their first entry's index) the reader has opened, kept across
// redraws; ``upto``: in a replay, how many entries have happened; ``textOf``: the line;
// ``thoughts``: say what the bots thought.
export function renderLog(box, entries, { opened, upto, replaying, textOf, thoughts }) {
  const classes = (entry) =>
    [
      entry.actor === -1 ? "chance" : "",
      entry.position >= upto ? "future" : "",
      replaying && entry.position === upto - 1 ? "current" : "",
    ]
      .join(" ")
      .trim();
  const line = (entry) =>
    el(
      "li",
      { class: classes(entry), value: entry.index + 1, "data-index": entry.index },
      textOf(entry),
      thoughts && entry.estimate != null
        ? el("span", { class: "thought" }, thought(entry.estimate))
        : "",
    );
  box.replaceChildren(
    ...groups(entries).map((group) => {
      if (group.entry) return line(group.entry);
      const { run } = group;
      const start = run[0].index;
      const current = replaying && run.some((entry) => entry.position === upto - 1);
      const details = el(
        "details",
        { class: "fold", open: opened.has(start) || current },
        el("summary", {}, foldTitle(run, textOf)),
        el("ol", { class: "fold-lines" }, ...run.map(line)),
      );
      details.addEventListener("toggle", () =>
        details.open ? opened.add(start) : opened.delete(start),
      );
      const future = run[0].position >= upto;
      return el(
        "li",
        {
          class: `chance folded ${future ? "future" : ""}`.trim(),
          value: start + 1,
          "data-index": start,
        },
        details,
      );
    }),
  );
}
