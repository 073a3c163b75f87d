// Undo in friendly games: "Take back my move" for the player whose last move may be taken
// back (the server says who: the state's may_take_back), and the question to the others
// (the state's take_back: who asks, the move as this seat saw it, who has yet to answer).
// A hot-seat device asks and answers for each of the seats it holds; spectators only read.
import { el, seatName } from "./util.js";

// ``held``: the seats this page plays (none for a spectator); ``send(message)``: false when
// offline; ``hideMove``: the question without the move (the hot-seat's pass screen, where
// the next person may look).
export function takeBackParts(view, { held, send, offline, hideMove = false }) {
  const request = view.take_back;
  const several = held.length > 1;
  const name = (seat) => seatName(view.seats, seat);
  const forSeat = (seat) => (seat === view.seat ? {} : { seat }); // (hot-seat: another one)
  if (!request) {
    const asker = view.may_take_back;
    if (asker === null || asker === undefined || !held.includes(asker)) return [];
    const ask = () => send({ type: "take_back", move_number: view.move_number, ...forSeat(asker) });
    return [
      el(
        "button",
        { type: "button", id: "take-back", class: "quiet", disabled: offline, onclick: ask },
        several ? `Take back ${name(asker)}'s move` : "Take back my move",
      ),
    ];
  }
  const asker = name(request.seat);
  const waiting = request.waiting.map(name).join(" and ");
  const move = hideMove ? "their last move" : `their move “${request.move}”`;
  const answering = request.waiting.find((seat) => held.includes(seat));
  if (answering === undefined) {
    const mine = held.includes(request.seat);
    return [
      el(
        "p",
        { id: "take-back-asked" },
        mine
          ? `You asked to take back ${hideMove ? "your last move" : `“${request.move}”`}: waiting for ${waiting}.`
          : `${asker} asks to take back ${move}: waiting for ${waiting}.`,
      ),
    ];
  }
  const answer = (accept) =>
    send({
      type: "take_back_answer",
      move_number: view.move_number,
      accept,
      ...forSeat(answering),
    });
  const who = several ? ` (${name(answering)})` : "";
  return [
    el(
      "p",
      { id: "take-back-question" },
      `${asker} asks to take back ${move}.${several ? ` ${name(answering)}, do you agree?` : ""}`,
    ),
    el(
      "button",
      {
        type: "button",
        id: "accept-take-back",
        class: "primary",
        disabled: offline,
        onclick: () => answer(true),
      },
      `Accept${who}`,
    ),
    el(
      "button",
      { type: "button", id: "refuse-take-back", disabled: offline, onclick: () => answer(false) },
      `Refuse${who}`,
    ),
  ];
}

// The line a take-back's log entry undid is struck through: the set of their indexes.
export function takenBackLines(log) {
  return new Set(
    log.filter((entry) => entry.takes_back !== undefined).map((entry) => entry.takes_back),
  );
}
