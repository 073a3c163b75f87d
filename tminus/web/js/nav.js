// The links at the top of a page that has no script of its own (a game's rules).
import { renderNav } from "./account.js";

renderNav();
