// A board element that acts like a button: clickable, focusable, Enter or Space to press,
// labelled for screen readers; data-move carries the move string when it plays one.
export function pressable(node, label, handler, move) {
  node.classList.add("playable");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  if (move) node.dataset.move = move;
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); handler(); } });
  return node;
}
