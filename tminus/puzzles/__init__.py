"""Puzzles: positions cut from games played by our bots where one move is clearly best by
exact value, each puzzle shipped with every legal move's exact value and proved by a test.

Per game (the module of each says how its values are found and why its margin):

- ``four_way``: 4-Way CountDown, two players, adult and junior rules. "Which move keeps
  the most chance to win?" Values: the exact chance to win (the solved duel). Margin 0.02.
- ``sputnik``: Sputnik, two players, the 37-cell board. "Win in N." Values: the exact
  result in turns (+n wins with the n-th turn, -n loses on the opponent's n-th), by a
  complete search of small endgames. Margin one turn: the answer is the one fastest win.
- ``count_down``: Count Down's COUNTDOWN. "Count now or wait?" Values: the exact chance
  that the attempt succeeds. Margin 0.02. Only 34 such decisions exist (they depend on the
  roll's number and face alone), so the set holds those 34, not 200.
- 3-2-1 Countdown has none. Each player's hand is hidden, so no move has an exact value for
  the position the mover sees: a value would be an average over the hands the others might
  hold, weighted by how likely each is given how they played, and that weighting is a model
  of the opponents, not a fact of the game. (Values exact for the whole deal, hands shown,
  would be puzzles of another game: one where nothing is hidden.)

The Python API (what the server uses): ``load_set(game) -> list[Puzzle]`` (the shipped
set), ``state_of(puzzle)`` (the position, replayed), ``verdict(puzzle, action)`` (a try
judged, with every move's value in words, JSON-safe), ``Puzzle.to_dict()`` /
``Puzzle.from_dict()`` (JSON), ``prove(puzzle)`` (values worked out again; ``ProofError``),
``generate(game, count, seed, progress)`` (a new set), ``save_set`` / ``read_set`` (files).

The shipped sets (``data/``), made on the development machine (2 cores shared with other
jobs; times elapsed):

    tminus puzzle count_down --generate 34 --seed 0 --out tminus/puzzles/data/count_down.json
    tminus puzzle four_way --generate 300 --seed 0 --out tminus/puzzles/data/four_way.json
    tminus puzzle sputnik --generate 300 --seed 0 --out tminus/puzzles/data/sputnik.json

took 1.6 s (33 games), 15 s (55 games; the duel read from the cache: solving it the first
time adds 6 to 15 s a variant) and 144 s (123 games). ``tminus puzzle --check`` proves all
634 in about 10 s.
"""

from tminus.puzzles.check import ProofError, describe, prove, verdict
from tminus.puzzles.generate import generate, maker_of
from tminus.puzzles.model import Puzzle, load_set, read_set, save_set, shipped_games, state_of

__all__ = [
    "ProofError",
    "Puzzle",
    "describe",
    "generate",
    "load_set",
    "maker_of",
    "prove",
    "read_set",
    "save_set",
    "shipped_games",
    "state_of",
    "verdict",
]
