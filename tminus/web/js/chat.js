// Table talk beside the log: short lines from the players (spectators read them), quick
// reactions for phones, and a switch that mutes it for this viewer (remembered). Every line
// is text (textContent), never HTML.
import { el, seatName } from "./util.js";

export const REACTIONS = ["Good game", "Well played", "Oops"];
const MUTE_KEY = "tminus:mute-chat";

export function chatMuted() {
  return localStorage.getItem(MUTE_KEY) === "on";
}

// The lines known, by their number in the game's talk (a line heard twice is kept once).
export function mergeLines(lines, more) {
  const byIndex = new Map(lines.map((line) => [line.index, line]));
  for (const line of more) byIndex.set(line.index, line);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

// ``send(text)``: sends a line (false if not connected); ``seat``: null for a spectator.
export function renderChat(box, { lines, seats, seat, send, onMute }) {
  const muted = chatMuted();
  const list = el("ol", {
    id: "chat",
    class: "chat",
    "aria-live": "polite",
    "aria-label": "Table talk",
    tabindex: "0",
    hidden: muted,
  });
  list.append(
    ...lines.map((line) =>
      el(
        "li",
        {
          class: line.seat === null ? "chat-line table-line" : "chat-line",
          "data-index": line.index,
        },
        line.seat === null
          ? null
          : el("strong", { "data-seat": line.seat }, `${seatName(seats, line.seat)}: `),
        el("span", { class: "chat-text" }, line.text),
      ),
    ),
  );
  const parts = [list];
  if (muted) parts.push(el("p", { class: "muted", id: "chat-muted" }, "Chat is muted."));
  if (seat !== null && !muted) {
    const input = el("input", {
      id: "chat-input",
      maxlength: 200,
      autocomplete: "off",
      "aria-label": "A message to the table",
      placeholder: "Say something…",
    });
    const say = (text) => {
      if (text.trim() && send(text.trim())) input.value = "";
    };
    parts.push(
      el(
        "form",
        {
          class: "chat-form",
          onsubmit: (e) => {
            e.preventDefault();
            say(input.value);
          },
        },
        input,
        el("button", { type: "submit", id: "chat-send" }, "Send"),
      ),
    );
    parts.push(
      el(
        "div",
        { class: "reactions", role: "group", "aria-label": "Quick reactions" },
        ...REACTIONS.map((words) =>
          el(
            "button",
            { type: "button", class: "reaction quiet", onclick: () => send(words) },
            words,
          ),
        ),
      ),
    );
  }
  parts.push(
    el(
      "label",
      { class: "check-field mute" },
      el("input", {
        type: "checkbox",
        id: "mute-chat",
        checked: muted,
        onchange: (e) => {
          localStorage.setItem(MUTE_KEY, e.target.checked ? "on" : "off");
          onMute();
        },
      }),
      "Mute chat",
    ),
  );
  const typing =
    document.activeElement && document.activeElement.id === "chat-input"
      ? document.activeElement.value
      : null;
  box.replaceChildren(...parts);
  if (typing !== null && box.querySelector("#chat-input")) {
    const input = box.querySelector("#chat-input");
    input.value = typing;
    input.focus();
  }
  list.scrollTop = list.scrollHeight;
}
