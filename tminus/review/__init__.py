"""Game review: where a game was won and lost, move by move.

For each decision of each person: the value of the position before it (its best move's
value), the value after the move played and after the best move, and the loss, all as the
mover's chance to win. Values are exact where a solver covers the position (4-Way with two
players: the solved duel; Sputnik with two players: the endgame table, or the solved
radius-2 board), otherwise estimated by playing the position out many times (a standard
error comes with each estimate).

- ``review_game``: after the end; may use everything (every hand, the whole deck), and
  its report says so.
- ``review_seat`` / ``review_position``: during play, for one seat; they read only that
  seat's information set (each playout starts from ``State.resample_hidden(seat, ...)``,
  the deal redrawn as that seat may imagine it), like IS-MCTS.
"""

from tminus.review.grading import GRADES, grade
from tminus.review.judges import Estimate, ExactFourWayDuel, ExactSputnik, judge_for
from tminus.review.load import GameRecord, read_record
from tminus.review.playouts import Playouts
from tminus.review.review import MoveReview, Review, review_game, review_position, review_seat

__all__ = [
    "GRADES",
    "Estimate",
    "ExactFourWayDuel",
    "ExactSputnik",
    "GameRecord",
    "MoveReview",
    "Playouts",
    "Review",
    "grade",
    "judge_for",
    "read_record",
    "review_game",
    "review_position",
    "review_seat",
]
