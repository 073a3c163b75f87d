// Boards by game name. A game without its own board gets the generic one, which shows the
// observation readably; the moves are always listed as buttons beside any board.
import countDown from "./count_down.js";
import fourWay from "./four_way.js";
import generic from "./generic.js";
import sputnik from "./sputnik.js";
import threeTwoOne from "./three_two_one.js";

const BOARDS = { four_way: fourWay, three_two_one: threeTwoOne, sputnik, count_down: countDown };

export function boardFor(game) {
  return BOARDS[game] || generic;
}
