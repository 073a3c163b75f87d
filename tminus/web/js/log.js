// The game's log as people read it: one line per move, the lines the server narrated. A run
// of chance lines (3-2-1's dozens of deals, Count Down's balls) folds into one line that
// opens on a click, as a good table shows "Cards are dealt (48)" and not 48 lines.
import { el } from "./util.js";

export const FOLD_AT = 3; // a run of this many chance lines, or more, is folded

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
// redraws; ``upto``: in a replay, how many entries have happened; ``textOf``: the line.
export function renderLog(box, entries, { opened, upto, replaying, textOf }) {
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
