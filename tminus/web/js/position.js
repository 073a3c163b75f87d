// A position of no game in play (a puzzle, a lesson's step) drawn by its game's own board,
// as the table draws it for the seat to move: ``state`` is the table's state message.
import { boardFor } from "./boards/index.js";
import { fitWords } from "./util.js";

const NARROW = 640; // below this board width, boards draw their phone layout

// Draw ``state`` in ``box``: ``legal`` the moves offered (none while a try is answered),
// ``onMove`` what a move chosen on the board does, ``layout`` the printed board of a game
// that has one (it comes with the position: there is no game id to fetch it by).
export function drawPosition(box, state, { legal, onMove, layout }) {
  const board = boardFor(state.game);
  box.replaceChildren(
    board.render(state.observation, {
      seat: state.seat,
      seats: state.seats,
      legal,
      toMove: state.to_move,
      onMove,
      replay: false,
      ended: false,
      before: null,
      earlier: [],
      narrow: box.clientWidth > 0 && box.clientWidth < NARROW,
      layout,
    }),
  );
  box.dataset.board = board.name;
}

// Once a board is drawn (Count Down's draws later), its words are fitted to their boxes and
// ``then`` runs (a lesson marks where to act again).
export function whenDrawn(box, then = () => {}) {
  let fitting = 0;
  new MutationObserver(() => {
    cancelAnimationFrame(fitting);
    fitting = requestAnimationFrame(() => {
      fitWords(box);
      then();
    });
  }).observe(box, { childList: true, subtree: true });
}
