// Hints, in a game whose creator allowed them: "Show me the best move" for the seat to
// move; the server answers this page alone (the table is told that a hint was asked for),
// and the move it names is marked on the board and among the moves below it.
import { el } from "./util.js";

// ``hint``: the last hint this page was told (null: none); ``asked``: the move number a hint
// was asked for and not answered yet.
export function hintParts(view, { hint, asked, myTurn, send, offline }) {
  if (!view.hints || !myTurn) return [];
  if (current(view, hint)) return [el("p", { id: "hint-said", role: "status" }, hintText(hint))];
  const thinking = asked === view.move_number;
  const ask = () => send({ type: "hint", move_number: view.move_number });
  return [
    el(
      "button",
      { type: "button", id: "hint", class: "quiet", disabled: offline || thinking, onclick: ask },
      thinking ? "Looking for the best move…" : "Show me the best move",
    ),
  ];
}

// What the hint says: the best move, or, when the best does not beat the next by two
// standard errors, that the best moves are about equal (the server's ``equal``), with the
// chance to win and its 95% interval.
// A note from the server (the solved endgame table not built yet) follows it.
export function hintText(hint) {
  const chance = Math.round(100 * hint.chance);
  const width = hint.width ? ` ± ${Math.max(1, Math.round(100 * hint.width))}` : "";
  const labels = hint.labels || [hint.label];
  const note = hint.note ? ` ${hint.note}.` : "";
  if (labels.length > 1)
    return (
      `Hint: these moves are about equal: ${labels.join("; ")} ` +
      `(your chance to win after them: about ${chance}%${width})${note}`
    );
  return `Hint: ${hint.label} (your chance to win after it: about ${chance}%${width})${note}`;
}

// The hint for the position on the page, if that is the one it was told for.
export function current(view, hint) {
  return !!hint && hint.move_number === view.move_number && hint.seat === view.seat;
}

// Mark the hinted move wherever it can be played: the board and the list of moves.
export function markHint(view, hint) {
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (!current(view, hint)) return;
  for (const action of hint.equal || [hint.action])
    for (const node of document.querySelectorAll(
      `#board [data-action="${action}"], #moves .move[data-action="${action}"]`,
    ))
      node.classList.add("hinted");
}
