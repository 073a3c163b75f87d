// Boards by game name. Each game's manifest names its board script (the catalog's `board`:
// an ES module whose default export draws the game), so no list of games is kept here. A
// game without a board of its own gets the generic one, which shows the observation
// readably; the moves are always listed as buttons beside any board.
import { api } from "../util.js";
import generic from "./generic.js";

const BOARDS = {};

// The catalog as read here (null if it did not load): the game page reads its bots' levels
// and which games hide cards from it, so it knows them before its socket opens.
export let catalog = null;

// Every game's board is loaded before the page's own script runs (it imports this module).
try {
  catalog = await api("/api/catalog");
  await Promise.all(
    catalog
      .filter((g) => g.board)
      .map(async (g) => {
        try {
          BOARDS[g.name] = (await import(g.board)).default;
        } catch (error) {
          console.error(
            `the board of ${g.name} did not load (${g.board}): the generic board shows it`,
            error,
          );
        }
      }),
  );
} catch (error) {
  console.error("the catalog did not load: every game shows the generic board", error);
}

export function boardFor(game) {
  return BOARDS[game] || generic;
}
