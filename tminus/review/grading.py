"""How big a loss is: blunder, mistake, inaccuracy.

A loss is in chance-to-win points (0 to 1) that the move played gave away against the best
move. The thresholds follow lichess's (10, 20 and 30 points of its winning-chances scale,
which runs from -1 to 1: 5, 10 and 15 points of a chance to win), doubled, because a roll of
the dice or a draw of the cards swings these games far more than a move swings chess:

    blunder      the move gave away at least 0.30 of a chance to win
    mistake      at least 0.15
    inaccuracy   at least 0.05

An estimated loss is graded only when it is also at least two standard errors: a
difference the playouts cannot tell from noise is not called a mistake.
"""

from __future__ import annotations

GRADES = (("blunder", 0.30), ("mistake", 0.15), ("inaccuracy", 0.05))
SIGNIFICANT = 2.0  # standard errors an estimated loss must reach to be graded


def grade(loss: float, error: float = 0.0) -> str | None:
    """The grade of a loss (None: a good move), ``error`` its standard error (0: exact)."""
    if error and loss < SIGNIFICANT * error:
        return None
    for name, threshold in GRADES:
        if loss >= threshold - 1e-12:
            return name
    return None
